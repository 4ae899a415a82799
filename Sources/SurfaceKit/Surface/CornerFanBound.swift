/// A proven bound on how far a fan of triangles over a corner square at an irregular vertex lies
/// from the limit surface (the distance between a triangle point and the surface point with the
/// same parameters).
///
/// The fan joins the vertex's limit point L to points of the surface on the square's two far
/// sides. The surface over the square is, level by level, three B-spline patches and a corner
/// square half as wide; the last corner square lies in the convex hull of its faces' control points.
///
/// - On a patch region, each fan triangle is a linear map T of the parameters. A uniform cubic
///   B-spline reproduces a linear map from its values at the Greville points (control point i at
///   parameter i − 1), so S − T is the B-spline with control points Qᵢⱼ − T(gᵢⱼ) and, its basis
///   being non-negative and summing to one, |S − T| ≤ maxᵢⱼ |Qᵢⱼ − T(gᵢⱼ)| on the whole region.
///   Taking the worst over the triangles that meet the region bounds it there. (Rational patches,
///   whose weights differ, use the hull of the control points against the fan's values instead.)
/// - On the last corner square, the fan is the whole fan scaled toward L (a fan is linear along
///   each ray from L), so it lies in the hull of L and the fan's points scaled; the surface lies in
///   its control points' hull; the largest distance between the two sets bounds the gap.
/// - The fan's far points may be any surface points of the far sides (the cells next to it choose
///   them). Against the fan of the square's corners only, such a fan moves by at most the far side's
///   own distance from its chord, which its boundary curve's control points bound the same way.
public struct CornerContinuation: Sendable {
    /// A B-spline piece of the corner square: the square at `origin` of side `size` in the corner
    /// square's own (s, t).
    public struct Region: Sendable {
        public var origin: SIMD2<Double>
        public var size: Double
        public var patch: RationalPatch
    }

    public var regions: [Region]
    /// Points-space control points whose hull holds the surface over the last corner square.
    public var tail: [Point3D]
    /// The last corner square's side in the corner square's (s, t).
    public var tailSize: Double
    /// The two patches sharing the far sides, with their sides there (the far side from corner
    /// k + 1 to k + 2, then from k + 2 to k + 3, k the vertex's corner).
    public var farSides: [(patch: RationalPatch, side: Int)?]

    /// The bound for a fan from L (points) over the corner square whose vertex is at `corner`, to
    /// the square's other three corners' surface points `corners` (points, in the order k + 1,
    /// k + 2, k + 3).
    /// Pieces whose bound misses the target are split this many times at most.
    static let splitDepth = 2

    public func bound(corner k: Int, limit: Point3D, corners: [Point3D], scale: SIMD3<Double>, target: Double) -> Double {
        // The frame with the vertex at the origin and the far sides at x = 1 and y = 1.
        func local(_ p: SIMD2<Double>) -> SIMD2<Double> {
            SIMD2(k == 1 || k == 2 ? 1 - p.x : p.x, k >= 2 ? 1 - p.y : p.y)
        }
        let farUV = [1, 2, 3].map { local(CornerContinuation.corner((k + $0) % 4)) }
        var fan = zip(farUV, corners).map { (uv: $0, point: $1) }
        // In that frame everything is in the first quadrant, where y / (x + y) grows with the angle.
        func angle(_ p: SIMD2<Double>) -> Double { p.y / (p.x + p.y) }
        fan.sort { angle($0.uv) < angle($1.uv) }
        func piece(_ i: Int, at p: SIMD2<Double>) -> Point3D {
            let a = fan[i].uv, b = fan[i + 1].uv
            let det = a.x * b.y - a.y * b.x
            let alpha = (p.x * b.y - p.y * b.x) / det, beta = (a.x * p.y - a.y * p.x) / det
            return limit + alpha * (fan[i].point - limit) + beta * (fan[i + 1].point - limit)
        }
        func distance(_ a: Point3D, _ b: Point3D) -> Double { ((a - b) * (a - b)).sum().squareRoot() }
        var worst = 0.0
        /// The bound on a polynomial piece: the worst fan triangle it meets, against its control
        /// points at their Greville parameters; a piece that misses `target` is split in four
        /// (B-spline subdivision), down to `depth` more levels, and the smaller answer kept.
        func polynomialBound(_ points: [Point3D], origin: SIMD2<Double>, size: Double, depth: Int, target: Double) -> Double {
            let corners = [SIMD2(0.0, 0), SIMD2(1, 0), SIMD2(1, 1), SIMD2(0, 1)].map { local(origin + size * $0) }
            let angles = corners.map(angle)
            let lo = angles.min() ?? 0, hi = angles.max() ?? 0
            var direct = 0.0
            for i in 0..<(fan.count - 1) {
                let a0 = angle(fan[i].uv), a1 = angle(fan[i + 1].uv)
                guard a1 >= lo - 1e-12, a0 <= hi + 1e-12 else { continue }
                for row in 0..<4 {
                    for column in 0..<4 {
                        let g = local(origin + size * SIMD2(Double(column - 1), Double(row - 1)))
                        direct = max(direct, distance(points[4 * row + column], piece(i, at: g)))
                    }
                }
            }
            guard direct > target, depth > 0 else { return direct }
            var split = 0.0
            for quadrant in 0..<4 {
                let child = CornerContinuation.subdivide(points, quadrant: quadrant)
                let offset = CornerContinuation.corner(quadrant) * (size / 2)
                split = max(split, polynomialBound(child, origin: origin + offset, size: size / 2, depth: depth - 1, target: target))
                if split >= direct { return direct }
            }
            return min(direct, split)
        }
        for region in regions {
            let control = region.patch.control
            let weight = control[0][5]
            let polynomial = control.allSatisfy { abs($0[5] - weight) <= 1e-12 * abs(weight) }
            let points = control.map { SIMD3($0[2], $0[3], $0[4]) / $0[5] * scale }
            if polynomial {
                worst = max(
                    worst,
                    polynomialBound(
                        points, origin: region.origin, size: region.size, depth: CornerContinuation.splitDepth,
                        target: target))
                continue
            }
            // Rational: the control points' hull against the fan's values at the region's corners
            // and wherever a fan edge crosses its sides (a fan is linear between those).
            let corners = [SIMD2(0.0, 0), SIMD2(1, 0), SIMD2(1, 1), SIMD2(0, 1)].map { local(region.origin + region.size * $0) }
            let angles = corners.map(angle)
            let lo = angles.min() ?? 0, hi = angles.max() ?? 0
            var values: [Point3D] = []
            for i in 0..<(fan.count - 1) {
                let a0 = angle(fan[i].uv), a1 = angle(fan[i + 1].uv)
                guard a1 >= lo - 1e-12, a0 <= hi + 1e-12 else { continue }
                for c in corners { values.append(piece(i, at: c)) }
            }
            for p in points {
                for t in values { worst = max(worst, distance(p, t)) }
            }
        }
        // The last corner square: its control points against L and the fan scaled toward L.
        let scaled = [limit] + fan.map { limit + tailSize * ($0.point - limit) }
        for p in tail {
            for q in scaled { worst = max(worst, distance(p, q)) }
        }
        // Any other surface points on the far sides: the far sides' distance from their chords.
        var sides = 0.0
        for (j, far) in farSides.enumerated() {
            guard let far else { return .infinity }
            // The patch next to the far side runs it the other way.
            let start = corners[j], end = corners[j + 1]
            sides = max(sides, CornerContinuation.chordBound(far.patch, side: far.side, from: end, to: start, scale: scale))
        }
        return worst + sides
    }

    /// How far side `side` of a patch (from its corner `side` to `side + 1`) strays from the chord
    /// between its end points `start` and `end`: its boundary curve's control points against the
    /// chord at their Greville parameters (the hull of the control points for a rational patch).
    static func chordBound(_ patch: RationalPatch, side: Int, from start: Point3D, to end: Point3D, scale: SIMD3<Double>) -> Double {
        let b0 = SIMD4<Double>(1, 4, 1, 0) / 6, b1 = SIMD4<Double>(0, 1, 4, 1) / 6
        let c = patch.control
        var curve: [SIMD8<Double>] = []
        for i in 0..<4 {
            var sum = SIMD8<Double>()
            for j in 0..<4 {
                switch side {
                case 0: sum += b0[j] * c[4 * j + i]
                case 1: sum += b1[j] * c[4 * i + j]
                case 2: sum += b1[j] * c[4 * j + (3 - i)]
                default: sum += b0[j] * c[4 * (3 - i) + j]
                }
            }
            curve.append(sum)
        }
        let weight = curve[0][5]
        let polynomial = curve.allSatisfy { abs($0[5] - weight) <= 1e-12 * abs(weight) }
        var worst = 0.0
        for (i, q) in curve.enumerated() {
            let p = SIMD3(q[2], q[3], q[4]) / q[5] * scale
            if polynomial {
                let t = Double(i - 1)
                let d = p - (start + t * (end - start))
                worst = max(worst, (d * d).sum().squareRoot())
            } else {
                let d0 = p - start, d1 = p - end
                worst = max(worst, (d0 * d0).sum().squareRoot(), (d1 * d1).sum().squareRoot())
            }
        }
        return worst
    }

    /// The 4 × 4 control points of one quadrant (0 at (0, 0), 1 at (1, 0), 2 at (1, 1), 3 at
    /// (0, 1)) of a uniform cubic B-spline patch: each row and column refined by the midpoint rules.
    static func subdivide(_ c: [Point3D], quadrant: Int) -> [Point3D] {
        func half(_ a: Point3D, _ b: Point3D, _ c: Point3D, _ d: Point3D, second: Bool) -> [Point3D] {
            let e0 = (a + b) / 2, v1 = (a + 6 * b + c) / 8, e1 = (b + c) / 2, v2 = (b + 6 * c + d) / 8, e2 = (c + d) / 2
            return second ? [v1, e1, v2, e2] : [e0, v1, e1, v2]
        }
        let right = quadrant == 1 || quadrant == 2, lower = quadrant >= 2
        var rows: [Point3D] = []
        for r in 0..<4 { rows += half(c[4 * r], c[4 * r + 1], c[4 * r + 2], c[4 * r + 3], second: right) }
        var out = [Point3D](repeating: .zero, count: 16)
        for column in 0..<4 {
            let h = half(rows[column], rows[4 + column], rows[8 + column], rows[12 + column], second: lower)
            for r in 0..<4 { out[4 * r + column] = h[r] }
        }
        return out
    }

    static func corner(_ k: Int) -> SIMD2<Double> {
        SIMD2(k == 1 || k == 2 ? 1 : 0, k >= 2 ? 1 : 0)
    }
}
