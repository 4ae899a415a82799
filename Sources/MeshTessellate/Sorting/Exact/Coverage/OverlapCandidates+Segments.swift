import SurfaceKit

extension OverlapCandidates {
    /// What segment `s` adds to the winding number at `centre` counted along the horizontal ray from
    /// it toward +x (`toward` 1) or −x (−1): its weight, signed by the way it crosses the ray, when
    /// it does (half-open in y, so a ray through a vertex of R counts it once), else 0. The two rays
    /// give the same winding number, R being a cycle.
    @inline(__always)
    static func crossing(_ s: Segment, _ centre: Point3D, toward direction: Int32) -> Int32 {
        let p = s.p, q = s.q
        let side = ((q.x - p.x) * (centre.y - p.y) - (q.y - p.y) * (centre.x - p.x)) * Double(direction)
        if p.y <= centre.y && centre.y < q.y && side > 0 { return s.weight * direction }
        if q.y <= centre.y && centre.y < p.y && side < 0 { return -s.weight * direction }
        return 0
    }

    /// A segment of R from vertex a to vertex b (screen positions p and q) with its net count, and
    /// the first and last grid columns its box meets.
    struct Segment {
        var p: SIMD2<Double>
        var q: SIMD2<Double>
        var a: Int32
        var b: Int32
        var weight: Int32
        var firstColumn: Int32
        var lastColumn: Int32
    }

    /// A triangle's corners (u0, u1, u2 on screen) and its three edges u0 → u1, u1 → u2 and u2 → u0
    /// as lanes (the fourth lane is zero), for the orientations of a point against all three edge
    /// lines at once: the same operations as `orient` for each, so the same values.
    struct EdgeLines {
        var u0: SIMD2<Double>
        var u1: SIMD2<Double>
        var u2: SIMD2<Double>
        /// Each edge's start, x and y.
        var startX: SIMD4<Double>
        var startY: SIMD4<Double>
        /// Each edge's end minus its start, x and y.
        var deltaX: SIMD4<Double>
        var deltaY: SIMD4<Double>

        @inline(__always)
        init(_ t0: Point3D, _ t1: Point3D, _ t2: Point3D) {
            u0 = SIMD2(t0.x, t0.y)
            u1 = SIMD2(t1.x, t1.y)
            u2 = SIMD2(t2.x, t2.y)
            startX = SIMD4(t0.x, t1.x, t2.x, 0)
            startY = SIMD4(t0.y, t1.y, t2.y, 0)
            deltaX = SIMD4(t1.x, t2.x, t0.x, 0) - startX
            deltaY = SIMD4(t1.y, t2.y, t0.y, 0) - startY
        }

        /// orient(start, end, x) for the three edges (and 0 in the fourth lane, or NaN for a point
        /// not finite, which compares false).
        @inline(__always)
        func orientations(_ x: SIMD2<Double>) -> SIMD4<Double> {
            deltaX * (x.y - startY) - deltaY * (x.x - startX)
        }
    }

    /// Whether segment `s` meets the closed triangle `c` (counterclockwise corners, at `lines`),
    /// up to `touch` in the orientations (so it may say yes when the segment only passes near). The
    /// triangle's own edges never count; a segment from one of its corners counts only if it leaves
    /// the corner into or along the triangle.
    @inline(__always)
    static func touches(_ s: Segment, _ c: SIMD3<Int32>, _ lines: EdgeLines, _ touch: Double) -> Bool {
        let (a, b) = (s.a, s.b)
        let sharedA = c.x == a || c.y == a || c.z == a, sharedB = c.x == b || c.y == b || c.z == b
        if sharedA && sharedB { return false }
        let p = s.p, q = s.q
        let u0 = lines.u0, u1 = lines.u1, u2 = lines.u2
        if sharedA || sharedB {
            let (v, pv, pw) = sharedA ? (a, p, q) : (b, q, p)
            let (next, previous) = c.x == v ? (u1, u2) : (c.y == v ? (u2, u0) : (u0, u1))
            // Inside the angle at v (closed, with the tolerance): left of v → next, right of v → previous.
            return orient(pv, next, pw) >= -touch && orient(pv, previous, pw) <= touch
        }
        // Separated by one of the triangle's edge lines (the triangle is on their left; all three
        // lines at once, in lanes)…
        let below = SIMD4(repeating: -touch)
        if any(lines.orientations(p) .< below .& lines.orientations(q) .< below) { return false }
        // … or by the segment's own line.
        let s0 = orient(p, q, u0), s1 = orient(p, q, u1), s2 = orient(p, q, u2)
        if s0 > touch && s1 > touch && s2 > touch { return false }
        if s0 < -touch && s1 < -touch && s2 < -touch { return false }
        return true
    }

    @inline(__always)
    static func orient(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>) -> Double {
        (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
    }
}
