/// The nearest triangle a ray hits, in 32 bytes: the ray parameter, the triangle and its
/// barycentric (u, v), what Embree's `rtcIntersect` leaves in a ray hit. Batches that need only
/// the first hit (``HitTester/firstHits(_:)``) return these; ``HitTester/rayHit(_:of:)`` makes the
/// full ``RayHit`` record from one on demand.
///
/// The hit is the nearest in the ray's closed interval `tmin…tmax`; when several triangles are hit
/// at exactly the same t (a ray through a shared edge or vertex), the one with the lowest index
/// wins. It is always the hit on the tessellated triangles, also in exact mode.
public struct TriangleHit: Hashable, Sendable {
    /// The ray parameter of the hit: `ray.origin + t · ray.direction` is on the triangle. +∞ for a
    /// miss.
    public var t: Double
    /// The barycentric weights of the triangle's vertices b and c at the hit (a's is 1 − u − v).
    public var u: Double
    public var v: Double
    /// The hit triangle (index into the mesh's triangles), or −1 for a miss.
    public var triangle: Int32

    public init(t: Double, u: Double, v: Double, triangle: Int32) {
        self.t = t
        self.u = u
        self.v = v
        self.triangle = triangle
    }

    /// No triangle hit.
    public static let miss = TriangleHit(t: .infinity, u: 0, v: 0, triangle: -1)

    /// Whether a triangle was hit.
    @inlinable public var isHit: Bool { triangle >= 0 }

    /// The weights of the triangle's vertices a, b, c: (1 − u − v, u, v).
    @inlinable public var barycentric: SIMD3<Double> { SIMD3(1 - u - v, u, v) }
}
