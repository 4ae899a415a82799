import SurfaceKit

public extension ScreenHit {
    /// The answer for one screen point as a JSON object (without a newline), as `meshgeo hit` prints
    /// it and the live view's `/api/hit` returns it:
    /// `{"x":…,"y":…,"hit":true,"face":k,"from":[u,v],"to":[x,y,z],"depth":z}`, or
    /// `{"x":…,"y":…,"hit":false}` for no hit.
    ///
    /// Numbers are in the shortest form that reads back to the same Double, −0 as 0. A non-finite
    /// number (which the command line refuses before writing) is written as `null`, so the text
    /// stays JSON.
    static func jsonObject(at point: SIMD2<Double>, _ hit: ScreenHit?) -> String {
        func n(_ value: Double) -> String { value.isFinite ? (value == 0 ? 0.0 : value).description : "null" }
        guard let hit else { return "{\"x\":\(n(point.x)),\"y\":\(n(point.y)),\"hit\":false}" }
        return "{\"x\":\(n(point.x)),\"y\":\(n(point.y)),\"hit\":true,\"face\":\(hit.face),"
            + "\"from\":[\(n(hit.from.x)),\(n(hit.from.y))],\"to\":[\(n(hit.to.x)),\(n(hit.to.y)),\(n(hit.to.z))],"
            + "\"depth\":\(n(hit.depth))}"
    }
}
