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
public struct CornerContinuation: Equatable, Sendable {
    /// A B-spline piece of the corner square: the square at `origin` of side `size` in the corner
    /// square's own (s, t).
    public struct Region: Equatable, Sendable {
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

    /// Equal pieces, tail and far sides (a tuple's fields compared one by one).
    public static func == (a: CornerContinuation, b: CornerContinuation) -> Bool {
        a.regions == b.regions && a.tail == b.tail && a.tailSize == b.tailSize && a.farSides.count == b.farSides.count
            && zip(a.farSides, b.farSides).allSatisfy { x, y in x?.patch == y?.patch && x?.side == y?.side }
    }

    /// Pieces whose bound misses the target are split this many times at most.
    static let splitDepth = 2

    /// The bound for a fan from L (points) over the corner square whose vertex is at `corner`, to
    /// the square's other three corners' surface points `corners` (points, in the order k + 1,
    /// k + 2, k + 3). On a polynomial piece it is the smaller of the control points' bound and a
    /// sampled one with a proven margin (``sampledBound(_:giveUp:triangles:linear:)``).
    /// `giveUp`: once the bound is known to exceed it, the rest is not computed and some value
    /// over it is returned (for callers that only compare the bound with it).
    public func bound(
        corner k: Int, limit: Point3D, corners: [Point3D], scale: SIMD3<Double>, target: Double, giveUp: Double = .infinity
    ) -> Double {
        // The frame with the vertex at the origin and the far sides at x = 1 and y = 1.
        func local(_ p: SIMD2<Double>) -> SIMD2<Double> {
            SIMD2(k == 1 || k == 2 ? 1 - p.x : p.x, k >= 2 ? 1 - p.y : p.y)
        }
        let farUV = [1, 2, 3].map { local(UnitSquare.corner((k + $0) % 4)) }
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
            guard direct > target else { return direct }
            // The control points' bound carries the net's own bend; the sampled one is tighter.
            let sampled = CornerContinuation.sampledBound(
                points, giveUp: giveUp,
                triangles: { cellCorners in
                    let angles = cellCorners.compactMap { q -> Double? in
                        let p = local(origin + size * q)
                        return p.x + p.y > 0 ? angle(p) : nil
                    }
                    let lo = angles.min() ?? 0, hi = angles.max() ?? 1
                    return (0..<(fan.count - 1)).filter { i in angle(fan[i + 1].uv) >= lo - 1e-12 && angle(fan[i].uv) <= hi + 1e-12 }
                },
                linear: { i, q in piece(i, at: local(origin + size * q)) })
            if sampled <= target || depth == 0 { return min(direct, sampled) }
            let bestSoFar = min(direct, sampled)
            var split = 0.0
            for quadrant in 0..<4 {
                let child = CornerContinuation.subdivide(points, quadrant: quadrant)
                let offset = UnitSquare.corner(quadrant) * (size / 2)
                split = max(split, polynomialBound(child, origin: origin + offset, size: size / 2, depth: depth - 1, target: target))
                if split >= bestSoFar { return bestSoFar }
            }
            return min(bestSoFar, split)
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
                if worst > giveUp { return worst }
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
        guard polynomial, worst > 0 else { return worst }
        let points = curve.map { SIMD3($0[2], $0[3], $0[4]) / $0[5] * scale }
        return min(worst, CornerContinuation.sampledChordBound(points, from: start, to: end))
    }

    /// Cells of the sampling grid over a polynomial piece: `samplingCells` × `samplingCells`. The
    /// margin between the samples and the true largest distance falls with the square of the cell
    /// (1/512 of the piece's second differences at 8), at 81 evaluations a piece.
    static let samplingCells = 8

    /// The values of the uniform cubic B-spline basis at s ∈ [0, 1].
    static func basis(_ s: Double) -> SIMD4<Double> {
        let r = 1 - s, s2 = s * s, s3 = s2 * s
        let b1: Double = 3 * s3 - 6 * s2 + 4
        let b2: Double = -3 * s3 + 3 * s2 + 3 * s + 1
        return SIMD4(r * r * r, b1, b2, s3) / 6
    }

    /// A measured bound with a proven margin for a polynomial piece (16 control points, row by
    /// row, s along a row) against the fan: the distance between the surface S and each fan
    /// triangle's linear map T that meets a grid cell, at the cell's corners, plus the most that
    /// distance can rise inside the cell. S − T interpolated bilinearly from the corners stays
    /// within their largest value, and S − T differs from that interpolation by at most
    /// (h²/8)(max|S_ss| + max|S_tt|) on a cell of side h (T is linear, so its second derivatives
    /// vanish). The second derivative of a uniform cubic B-spline along s is the linear B-spline of
    /// the control points' second differences along s, so those bound it. `triangles` names the
    /// fan triangles that meet a cell (given its corners in the piece's (s, t)); `linear(i, q)` is
    /// triangle i's map at q. Stops early once over `giveUp`.
    static func sampledBound(
        _ points: [Point3D], giveUp: Double, triangles: ([SIMD2<Double>]) -> [Int], linear: (Int, SIMD2<Double>) -> Point3D
    ) -> Double {
        func norm(_ p: Point3D) -> Double { (p * p).sum().squareRoot() }
        var secondS = 0.0, secondT = 0.0
        for row in 0..<4 {
            for column in 0..<2 {
                secondS = max(secondS, norm(points[4 * row + column] - 2 * points[4 * row + column + 1] + points[4 * row + column + 2]))
                secondT = max(secondT, norm(points[4 * column + row] - 2 * points[4 * (column + 1) + row] + points[4 * (column + 2) + row]))
            }
        }
        let m = samplingCells
        let h = 1 / Double(m)
        let margin = h * h / 8 * (secondS + secondT)
        guard margin.isFinite else { return .infinity }
        let weights = (0...m).map { basis(Double($0) * h) }
        var grid = [Point3D](repeating: .zero, count: (m + 1) * (m + 1))
        for j in 0...m {
            for i in 0...m {
                var p = Point3D.zero
                for row in 0..<4 {
                    var line = Point3D.zero
                    for column in 0..<4 { line += weights[i][column] * points[4 * row + column] }
                    p += weights[j][row] * line
                }
                grid[j * (m + 1) + i] = p
            }
        }
        var worst = 0.0
        for j in 0..<m {
            for i in 0..<m {
                let corners = [SIMD2(i, j), SIMD2(i + 1, j), SIMD2(i + 1, j + 1), SIMD2(i, j + 1)]
                let uv = corners.map { SIMD2(Double($0.x), Double($0.y)) * h }
                for t in triangles(uv) {
                    for (k, c) in corners.enumerated() {
                        worst = max(worst, norm(grid[c.y * (m + 1) + c.x] - linear(t, uv[k])) + margin)
                    }
                }
                if worst > giveUp { return worst }
            }
        }
        return worst
    }

    /// The same for a polynomial boundary curve (4 control points) against its chord from
    /// `start` (t = 0) to `end` (t = 1): samples plus (h²/8)·max|C''|.
    static func sampledChordBound(_ points: [Point3D], from start: Point3D, to end: Point3D) -> Double {
        func norm(_ p: Point3D) -> Double { (p * p).sum().squareRoot() }
        let second = max(norm(points[0] - 2 * points[1] + points[2]), norm(points[1] - 2 * points[2] + points[3]))
        let m = 4 * samplingCells
        let h = 1 / Double(m)
        var worst = 0.0
        for i in 0...m {
            let t = Double(i) * h
            let b = basis(t)
            var p: Point3D = b[0] * points[0]
            for j in 1..<4 { p += b[j] * points[j] }
            worst = max(worst, norm(p - (start + t * (end - start))))
        }
        return worst + h * h / 8 * second
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
}
