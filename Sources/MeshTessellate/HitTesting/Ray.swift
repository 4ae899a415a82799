import SurfaceKit

/// A ray `origin + t · direction` with the interval of t it is valid on, as an Embree ray: hits
/// with t outside `tmin…tmax` do not count. The direction need not be normalized; t is measured in
/// units of it.
public struct Ray: Hashable, Sendable {
    public var origin: Point3D
    public var direction: Point3D
    public var tmin: Double
    public var tmax: Double

    public init(origin: Point3D, direction: Point3D, tmin: Double = 0, tmax: Double = .infinity) {
        self.origin = origin
        self.direction = direction
        self.tmin = tmin
        self.tmax = tmax
    }

    /// The point at parameter t.
    @inlinable
    public func at(_ t: Double) -> Point3D { origin + t * direction }
}
