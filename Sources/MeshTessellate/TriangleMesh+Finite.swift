import SurfaceKit

public extension TriangleMesh {
    /// The last check before a mesh is written: throws `.invalidValue` when a position, normal
    /// or texture coordinate is not finite, or (with `asFloat32`, for the formats that store
    /// 32-bit floats: glb and PLY) would not be finite once rounded to a `Float`.
    ///
    /// Inputs inside ``NumericRange`` never fail it; it is there so that no writer ever emits a
    /// NaN or an infinity whatever the input, and the message says so.
    func checkFinite(asFloat32: Bool = false) throws {
        let limit = asFloat32 ? Double(Float.greatestFiniteMagnitude) : Double.greatestFiniteMagnitude
        func fits(_ v: Double) -> Bool { abs(v) <= limit }
        for (i, p) in positions.enumerated() where !(fits(p.x) && fits(p.y) && fits(p.z)) {
            throw Self.nonFinite("the position of vertex \(i)", [p.x, p.y, p.z], asFloat32: asFloat32)
        }
        for (i, n) in normals.enumerated() where !(fits(n.x) && fits(n.y) && fits(n.z)) {
            throw Self.nonFinite("the normal of vertex \(i)", [n.x, n.y, n.z], asFloat32: asFloat32)
        }
        for (i, t) in from.enumerated() where !(fits(t.x) && fits(t.y)) {
            throw Self.nonFinite("the layer point of vertex \(i)", [t.x, t.y], asFloat32: asFloat32)
        }
    }

    private static func nonFinite(_ what: String, _ values: [Double], asFloat32: Bool) -> MeshError {
        let shown = values.map { "\($0)" }.joined(separator: ", ")
        return MeshError(
            .invalidValue, path: "",
            "\(what) is (\(shown)), not a finite number\(asFloat32 ? " as a 32-bit float" : ""); nothing was written "
                + "(inputs inside the documented numeric range never do this)")
    }
}
