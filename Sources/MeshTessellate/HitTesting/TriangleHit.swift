/// The nearest triangle a ray hits, in 32 bytes: the ray parameter, the triangle and its
/// barycentric (u, v), what Embree's `rtcIntersect` leaves in a ray hit. ``HitTester/firstHit(_:)``
/// and ``HitTester/firstHits(_:)`` return these, `nil` for a miss (an optional one still takes 32
/// bytes); ``HitTester/rayHit(_:of:)`` makes the full ``RayHit`` record from one on demand.
///
/// The hit is the nearest in the ray's closed interval `tmin…tmax`; when several triangles are hit
/// at exactly the same t (a ray through a shared edge or vertex), the one with the lowest index
/// wins. It is always the hit on the tessellated triangles, also in exact mode.
public struct TriangleHit: Hashable, Sendable {
    /// The ray parameter of the hit: `ray.origin + t · ray.direction` is on the triangle.
    public var t: Double
    /// The barycentric weights of the triangle's vertices b and c at the hit (a's is 1 − u − v).
    public var u: Double
    public var v: Double
    /// The hit triangle (index into the mesh's triangles).
    public var triangle: Int32

    public init(t: Double, u: Double, v: Double, triangle: Int32) {
        self.t = t
        self.u = u
        self.v = v
        self.triangle = triangle
    }

    /// No triangle hit: triangle −1 at t = +∞.
    @available(*, deprecated, message: "firstHit(_:) and firstHits(_:) return nil for a miss")
    public static var miss: TriangleHit { noHit }

    /// Whether a triangle was hit (false only for the deprecated ``miss``).
    @available(*, deprecated, message: "firstHit(_:) and firstHits(_:) return nil for a miss")
    public var isHit: Bool { found }

    /// The weights of the triangle's vertices a, b, c: (1 − u − v, u, v).
    @inlinable public var barycentric: SIMD3<Double> { SIMD3(1 - u - v, u, v) }
}

extension TriangleHit {
    /// What the BVH's walks start from and answer for a miss; the public API turns it into `nil`.
    static let noHit = TriangleHit(t: .infinity, u: 0, v: 0, triangle: -1)

    /// Whether this names a triangle (not ``noHit``).
    var found: Bool { triangle >= 0 }

    /// This hit, or `nil` for ``noHit``.
    var orNil: TriangleHit? { found ? self : nil }
}
