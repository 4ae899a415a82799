/// Nested rings around an irregular vertex: one triangulation of a corner region that spans
/// several isolation levels, with a proven bound.
///
/// The region is the corner square of some level at the vertex. Inside it, the corner squares of
/// deeper levels (the ring levels, not necessarily consecutive) are nested around the vertex. In
/// the frame with the vertex at the origin and the region's far sides at x = 1 and y = 1, a square
/// of side s is drawn by its L-shaped far boundary from (s, 0) round (s, s) to (0, s), with n
/// evenly spaced segments on each of its two far sides (its rate): the chain of 2n + 1 samples
/// (``RingTriangulation``). Between two squares of sides s > t lies a ring; the diagonal from
/// (t, t) to (s, s) cuts it into two convex trapezoids, and each is zipped between its outer and
/// inner chains, which always tiles a convex quadrilateral between two of its opposite sides. The
/// innermost square is a fan from the vertex's limit point over its chain.
///
/// The region's own far sides carry whatever the neighbouring cells ask for; the layout keeps it a
/// multiple of the region's rate n, and each of the n segments then is a fan from the same inner
/// sample over its finer samples, which differs from the single triangle by at most the side's
/// distance from that segment's chord (``CornerContinuation/farSideAllowance(rate:from:scale:)``).
///
/// So a region of rings with rates n₀ (its far sides), n₁, …, n_K takes 2(n₀ + n₁) + … +
/// 2(n_{K−1} + n_K) + 2n_K triangles (plus one per extra far-side sample), where the pieces of the
/// same levels, each its own cell, take two or more each and three per level.
public struct CornerRingBound {
    /// A triangle in the frame of the region (vertex at the origin), with its corners' points.
    struct Triangle {
        var uv: (SIMD2<Double>, SIMD2<Double>, SIMD2<Double>)
        var points: (Point3D, Point3D, Point3D)

        /// The triangle's linear map at q (barycentric coordinates, extended past the triangle).
        func value(at q: SIMD2<Double>) -> Point3D {
            let e1 = uv.1 - uv.0, e2 = uv.2 - uv.0, d = q - uv.0
            let det = e1.x * e2.y - e1.y * e2.x
            let b = (d.x * e2.y - d.y * e2.x) / det, c = (e1.x * d.y - e1.y * d.x) / det
            return points.0 + b * (points.1 - points.0) + c * (points.2 - points.0)
        }

        /// Whether the triangle and the box lo…hi share interior points (touching does not count:
        /// where they only touch, the triangles that do overlap the box take the same values).
        func overlaps(_ lo: SIMD2<Double>, _ hi: SIMD2<Double>) -> Bool {
            let p = [uv.0, uv.1, uv.2]
            let eps = 1e-9 * max(hi.x - lo.x, hi.y - lo.y)
            if p.allSatisfy({ $0.x <= lo.x + eps }) || p.allSatisfy({ $0.x >= hi.x - eps }) { return false }
            if p.allSatisfy({ $0.y <= lo.y + eps }) || p.allSatisfy({ $0.y >= hi.y - eps }) { return false }
            let box = [lo, SIMD2(hi.x, lo.y), hi, SIMD2(lo.x, hi.y)]
            for i in 0..<3 {
                let a = p[i], b = p[(i + 1) % 3], c = p[(i + 2) % 3]
                var n = SIMD2(b.y - a.y, a.x - b.x)
                let length = (n * n).sum().squareRoot()
                guard length > 0 else { continue }
                n /= length
                if ((c - a) * n).sum() < 0 { n = -n }
                // The box lies wholly on the far side of edge a–b from c (or on it): separated.
                if box.allSatisfy({ (($0 - a) * n).sum() <= eps }) { return false }
            }
            return true
        }
    }

    /// The triangles of the ring between an outer chain and an inner one (frame positions and
    /// points, 2n + 1 and 2m + 1 samples), as ``RingTriangulation/ring(outer:inner:)`` cuts it.
    static func ring(outer: [(SIMD2<Double>, Point3D)], inner: [(SIMD2<Double>, Point3D)]) -> [Triangle] {
        func t(_ a: (SIMD2<Double>, Point3D), _ b: (SIMD2<Double>, Point3D), _ c: (SIMD2<Double>, Point3D)) -> Triangle {
            Triangle(uv: (a.0, b.0, c.0), points: (a.1, b.1, c.1))
        }
        return RingTriangulation.ring(outer: (outer.count - 1) / 2, inner: (inner.count - 1) / 2).map { step in
            step.outerStep
                ? t(outer[step.outer], outer[step.outer + 1], inner[step.inner])
                : t(outer[step.outer], inner[step.inner], inner[step.inner + 1])
        }
    }
}

/// How a ring of a corner region is cut into triangles: one definition for its bound and for the
/// layout that draws it, which must agree triangle for triangle.
package enum RingTriangulation {
    /// One triangle: two consecutive samples of the outer chain and one of the inner
    /// (`outerStep`), or one of the outer and two consecutive of the inner; `outer` and `inner`
    /// are the first of them.
    package struct Step: Sendable, Equatable {
        package var outerStep: Bool
        package var outer: Int
        package var inner: Int
    }

    /// Sample p of a square's chain with n segments on each far side, as a share of the square's
    /// side in the frame with the vertex at the origin: up the first far side from (1, 0) to
    /// (1, 1) for p ≤ n, then along the second to (0, 1).
    package static func position(_ p: Int, rate n: Int) -> SIMD2<Double> {
        p <= n ? SIMD2(1, Double(p) / Double(n)) : SIMD2(Double(2 * n - p) / Double(n), 1)
    }

    /// The ring between a square of rate n and one of rate m inside it: each trapezoid (outer
    /// samples 0…n with inner 0…m, then outer n…2n with inner m…2m) zipped, always advancing
    /// along the chain whose next segment's midpoint comes first (the outer one on a tie).
    package static func ring(outer n: Int, inner m: Int) -> [Step] {
        var steps: [Step] = []
        steps.reserveCapacity(2 * (n + m))
        for half in 0..<2 {
            var i = 0, j = 0
            while i < n || j < m {
                let outer = j == m || (i < n && (2 * i + 1) * m <= (2 * j + 1) * n)
                steps.append(Step(outerStep: outer, outer: half * n + i, inner: half * m + j))
                if outer { i += 1 } else { j += 1 }
            }
        }
        return steps
    }

    /// Triangles of a region with far-side rate n₀ and ring rates n₁…n_K: the rings, then the fan
    /// of 2n_K from the vertex (each extra far-side sample adds one).
    package static func triangleCount(farRate: Int, rates: [Int]) -> Int {
        var total = 0, outer = farRate
        for n in rates {
            total += 2 * (outer + n)
            outer = n
        }
        return total + 2 * outer
    }
}

extension CornerContinuation {
    /// A proven bound on the distance from the surface of one ring (or, with `inner` nil, of the
    /// innermost fan) of a corner region at corner `k`: the regions of this continuation that lie
    /// between the squares of sides `outer.size` and `inner.size` (in the region's own (s, t)),
    /// against the ring's triangles. `outer.points` and `inner.points` are the surface points of
    /// the squares' chains (2n + 1 samples, ``RingTriangulation/position(_:rate:)``). With
    /// `farSides` the outer square is the region itself, whose far sides carry a multiple of its
    /// rate (the neighbouring cells may ask for more): what the finer samples can change is added
    /// (``farSideAllowance(rate:from:scale:)``). For the fan, the last corner square (the hull) is
    /// included.
    public func ringBound(
        corner k: Int, outer: (size: Double, points: [Point3D]), inner: (size: Double, points: [Point3D])?, limit: Point3D,
        farSides isRegion: Bool, scale: SIMD3<Double>, target: Double, giveUp: Double = .infinity
    ) -> Double {
        func local(_ p: SIMD2<Double>) -> SIMD2<Double> {
            SIMD2(k == 1 || k == 2 ? 1 - p.x : p.x, k >= 2 ? 1 - p.y : p.y)
        }
        // The chains run from corner k + 1 round k + 2 to k + 3, which this frame may mirror.
        let origin = UnitSquare.corner(k)
        let across = UnitSquare.corner((k + 1) % 4) - origin, up = UnitSquare.corner((k + 3) % 4) - origin
        func chain(_ square: (size: Double, points: [Point3D])) -> [(SIMD2<Double>, Point3D)] {
            let n = (square.points.count - 1) / 2
            return square.points.enumerated().map { p, point in
                let q = square.size * RingTriangulation.position(p, rate: n)
                return (local(origin + q.x * across + q.y * up), point)
            }
        }
        let o = chain(outer)
        let farRate = (outer.points.count - 1) / 2
        guard farRate >= 1, outer.points.count == 2 * farRate + 1 else { return .infinity }
        let triangles: [CornerRingBound.Triangle]
        let lowest: Double
        if let inner {
            guard inner.points.count % 2 == 1, inner.points.count >= 3 else { return .infinity }
            triangles = CornerRingBound.ring(outer: o, inner: chain(inner))
            lowest = inner.size
        } else {
            triangles = (0..<(o.count - 1)).map { j in
                CornerRingBound.Triangle(uv: (.zero, o[j].0, o[j + 1].0), points: (limit, o[j].1, o[j + 1].1))
            }
            lowest = 0
        }
        func distance(_ a: Point3D, _ b: Point3D) -> Double { ((a - b) * (a - b)).sum().squareRoot() }
        func box(_ origin: SIMD2<Double>, _ size: Double) -> (SIMD2<Double>, SIMD2<Double>) {
            let a = local(origin), b = local(origin + SIMD2(size, size))
            return (pointwiseMin(a, b), pointwiseMax(a, b))
        }
        var worst = 0.0
        func polynomialBound(_ points: [Point3D], origin: SIMD2<Double>, size: Double, depth: Int) -> Double {
            let (lo, hi) = box(origin, size)
            let meeting = triangles.indices.filter { triangles[$0].overlaps(lo, hi) }
            var direct = 0.0
            for t in meeting {
                for row in 0..<4 {
                    for column in 0..<4 {
                        let g = local(origin + size * SIMD2(Double(column - 1), Double(row - 1)))
                        direct = max(direct, distance(points[4 * row + column], triangles[t].value(at: g)))
                    }
                }
            }
            guard direct > target else { return direct }
            let sampled = CornerContinuation.sampledBound(
                points, giveUp: giveUp,
                triangles: { cellCorners in
                    let q = cellCorners.map { local(origin + size * $0) }
                    let lo = q.reduce(q[0]) { pointwiseMin($0, $1) }, hi = q.reduce(q[0]) { pointwiseMax($0, $1) }
                    return meeting.filter { triangles[$0].overlaps(lo, hi) }
                },
                linear: { t, q in triangles[t].value(at: local(origin + size * q)) })
            if sampled <= target || depth == 0 { return min(direct, sampled) }
            let bestSoFar = min(direct, sampled)
            var split = 0.0
            for quadrant in 0..<4 {
                let child = CornerContinuation.subdivide(points, quadrant: quadrant)
                let offset = UnitSquare.corner(quadrant) * (size / 2)
                split = max(split, polynomialBound(child, origin: origin + offset, size: size / 2, depth: depth - 1))
                if split >= bestSoFar { return bestSoFar }
            }
            return min(bestSoFar, split)
        }
        for region in regions {
            // Only the regions of this ring: inside the outer square, outside the inner one.
            let (lo, hi) = box(region.origin, region.size)
            let reach = max(hi.x, hi.y)
            guard reach <= outer.size * (1 + 1e-12), reach > lowest * (1 + 1e-12) else { continue }
            let control = region.patch.control
            let weight = control[0][5]
            let polynomial = control.allSatisfy { abs($0[5] - weight) <= 1e-12 * abs(weight) }
            let points = control.map { SIMD3($0[2], $0[3], $0[4]) / $0[5] * scale }
            if polynomial {
                worst = max(worst, polynomialBound(points, origin: region.origin, size: region.size, depth: CornerContinuation.splitDepth))
                if worst > giveUp { return worst }
                continue
            }
            // Rational: the control points' hull against each meeting triangle's values at the
            // region's corners (an affine map takes the box into their hull).
            let corners = [lo, SIMD2(hi.x, lo.y), hi, SIMD2(lo.x, hi.y)]
            for t in triangles where t.overlaps(lo, hi) {
                let values = corners.map { t.value(at: $0) }
                for p in points {
                    for v in values { worst = max(worst, distance(p, v)) }
                }
            }
            if worst > giveUp { return worst }
        }
        if inner == nil {
            // The last corner square: the fan there is the fan scaled toward L.
            let f = tailSize / outer.size
            let scaled = [limit] + o.map { limit + f * ($0.1 - limit) }
            for p in tail {
                for q in scaled { worst = max(worst, distance(p, q)) }
            }
        }
        guard isRegion else { return worst }
        var sides = 0.0
        for (j, far) in farSides.enumerated() {
            guard let far else { return .infinity }
            // Finer samples on a far side move the fan over each of its n segments by at most
            // the side's distance from that segment's chord; with one segment, the chord's own
            // bound is the tighter.
            let allowance = CornerContinuation.farSideAllowance(rate: farRate, from: far, scale: scale)
            sides = max(
                sides,
                farRate == 1
                    ? min(
                        allowance,
                        CornerContinuation.chordBound(
                            far.patch, side: far.side, from: outer.points[j + 1], to: outer.points[j], scale: scale))
                    : allowance)
        }
        return worst + sides
    }
}

/// The rings chosen for a vertex's corner regions: the region's level and far-side rate, the
/// levels and rates of the nested squares inside it, each face's proven bound, and the
/// triangles it takes.
struct RingSchedule {
    var top: Int
    /// The segments the region asks for on each far side.
    var farRate: Int
    var rings: [Int]
    /// The segments on each far side of each ring square (``RingTriangulation``).
    var rates: [Int]
    var bounds: [Double]
    /// The region's triangles (``RingTriangulation/triangleCount(farRate:rates:)``) and what its
    /// far-side rate costs the pieces beyond.
    var cost: Int
}

extension FaceSurfaces {
    /// The most segments a corner region asks for on each far side: past a few, the outer ring's
    /// triangles are as narrow as the neighbours' own grids.
    static let largestFarRate = 4

    /// About how many triangles a face's corner takes with one cell per isolation piece down to
    /// `levels` and a fan there: the three pieces of a level take two triangles or more each and
    /// a few more where a piece meets the next level's smaller ones (eight a level on the test
    /// meshes), the fan two. Level 1's pieces are the same either way and not counted.
    static func pieceCost(levels: Int) -> Int { 8 * (levels - 1) + 2 }

    /// The same with the pieces down to `top` and the corner region of `schedule` below.
    static func ringCost(_ schedule: RingSchedule) -> Int { 8 * (schedule.top - 1) + schedule.cost }

    /// The least a corner region can cost below its pieces: one ring, one far segment, a fan.
    static let leastRingCost = 6

    /// What n segments asked of each far side cost, where the pieces beyond need `needs`
    /// segments along them (per face around the vertex, its two far sides, as their rates were
    /// estimated; none known: one each). The layout gives a far side s, the
    /// least multiple of n that is at least the need m: the pieces beyond draw about two
    /// triangles more for each of the s − m segments they did not need, and the region one more
    /// for each sample beyond both its own n and the m the pieces put there anyway. Averaged
    /// over the faces, rounded. Where the pieces need one segment this is 2(n − 1) a side; where
    /// they need 3, asking 2 costs 3 a side (a side of 4), asking 3 nothing.
    static func farCost(_ n: Int, needs: [SIMD2<Int>]) -> Int {
        guard !needs.isEmpty else { return 4 * (n - 1) }
        var total = 0
        for need in needs {
            for m in [need.x, need.y] {
                let s = max(n, (m + n - 1) / n * n)
                total += 2 * (s - m) + (s - max(n, m))
            }
        }
        return (total + needs.count / 2) / needs.count
    }

    /// Rings for the corner regions of level `top` around one vertex, the fewest triangles
    /// (below `budget`) among those proven within `tolerance`, or nil. The squares are states
    /// (level, rate): the region (level `top`, any far-side rate up to ``largestFarRate``), then
    /// deeper squares with rates no larger than the one outside them, ending in a fan; a ring
    /// between two squares is an edge when every face's ring is proven. Levels only grow, so the
    /// states are settled level by level, each with its cheapest proven path from the region.
    /// A ring that misses the tolerance is not widened further at those rates.
    /// `chain(i, ℓ, n)` gives the surface points of face i's corner square of level ℓ with rate
    /// n (``RingTriangulation/position(_:rate:)``), `continuations[i]` the surface below face i's
    /// region; `fanDepth` is the deepest level considered (plain fans are proven there);
    /// `farNeeds` what the pieces beyond each face's far sides need (``farCost(_:needs:)``).
    static func ringSchedule(
        top: Int, fanDepth: Int, corners: [Int], chain: (Int, Int, Int) -> [Point3D]?, continuations: [CornerContinuation],
        limit: Point3D, scale: SIMD3<Double>, tolerance: Double, budget: Int, farNeeds: [SIMD2<Int>] = []
    ) -> RingSchedule? {
        func size(_ level: Int) -> Double { Double(sign: .plus, exponent: -(level - top), significand: 1) }
        struct Square: Hashable {
            var level: Int
            var rate: Int
        }
        /// Each face's bound for the ring from `outer` to `inner` (the fan at `outer` when nil),
        /// or nil when one misses the tolerance.
        func bounds(outer: Square, inner: Square?) -> [Double]? {
            var found: [Double] = []
            for i in corners.indices {
                guard let o = chain(i, outer.level, outer.rate) else { return nil }
                var innerSquare: (size: Double, points: [Point3D])?
                if let inner {
                    guard let p = chain(i, inner.level, inner.rate) else { return nil }
                    innerSquare = (size(inner.level), p)
                }
                let bound = continuations[i].ringBound(
                    corner: corners[i], outer: (size(outer.level), o), inner: innerSquare, limit: limit, farSides: outer.level == top,
                    scale: scale, target: tolerance / 2, giveUp: tolerance)
                guard bound <= tolerance else { return nil }
                found.append(bound)
            }
            return found
        }
        guard top < fanDepth else { return nil }
        var reached: [Square: (cost: Int, from: Square?, bounds: [Double])] = [:]
        let none = [Double](repeating: 0, count: corners.count)
        for n in 1...largestFarRate { reached[Square(level: top, rate: n)] = (farCost(n, needs: farNeeds), nil, none) }
        var best: (cost: Int, square: Square, fan: [Double])?
        for level in top...fanDepth {
            for rate in 1...largestFarRate {
                let here = Square(level: level, rate: rate)
                guard let path = reached[here] else { continue }
                let ceiling = best?.cost ?? budget
                if level > top, path.cost + 2 * rate < ceiling, let fan = bounds(outer: here, inner: nil) {
                    best = (path.cost + 2 * rate, here, fan)
                }
                guard level < fanDepth else { continue }
                for next in 1...rate {
                    for deeper in (level + 1)...fanDepth {
                        let cost = path.cost + 2 * (rate + next)
                        // Every path ends in a fan of two or more.
                        guard cost + 2 < best?.cost ?? budget else { break }
                        let inner = Square(level: deeper, rate: next)
                        if let known = reached[inner], known.cost <= cost { continue }
                        guard let ring = bounds(outer: here, inner: inner) else { break }
                        reached[inner] = (cost, here, ring)
                    }
                }
            }
        }
        guard let best else { return nil }
        var rings: [Int] = [], rates: [Int] = [], worst = best.fan
        var square = best.square
        while let path = reached[square], let from = path.from {
            rings.insert(square.level, at: 0)
            rates.insert(square.rate, at: 0)
            worst = zip(worst, path.bounds).map { max($0, $1) }
            square = from
        }
        return RingSchedule(top: top, farRate: square.rate, rings: rings, rates: rates, bounds: worst, cost: best.cost)
    }
}

extension CornerContinuation {
    /// What a far side sampled at a multiple of n evenly spaced segments can add to a ring
    /// bounded with n: the finer samples include the coarse ones, so over each coarse segment the
    /// ring's fan from its inner sample differs from the single triangle, along a ray from that
    /// sample, by (a share of) P_fine − P_n, the polylines through the side's curve C; that is
    /// linear between the fine samples, where it equals C − P_n. Linear interpolation over a
    /// segment of length h errs by at most (h²/8)·max|C″|, and C″ of a uniform cubic B-spline span
    /// is the linear blend of its control points' second differences; so the allowance is
    /// max|C″|/(8n²), or the segments' distances from their chords measured with a proven margin
    /// where that is smaller (``segmentChordAllowance(rate:curve:)``). Infinite for a rational side.
    static func farSideAllowance(rate n: Int, from far: (patch: RationalPatch, side: Int), scale: SIMD3<Double>) -> Double {
        let b0 = SIMD4<Double>(1, 4, 1, 0) / 6, b1 = SIMD4<Double>(0, 1, 4, 1) / 6
        let c = far.patch.control
        var curve: [SIMD8<Double>] = []
        for i in 0..<4 {
            var sum = SIMD8<Double>()
            for j in 0..<4 {
                switch far.side {
                case 0: sum += b0[j] * c[4 * j + i]
                case 1: sum += b1[j] * c[4 * i + j]
                case 2: sum += b1[j] * c[4 * j + (3 - i)]
                default: sum += b0[j] * c[4 * (3 - i) + j]
                }
            }
            curve.append(sum)
        }
        let weight = curve[0][5]
        guard curve.allSatisfy({ abs($0[5] - weight) <= 1e-12 * abs(weight) }) else { return .infinity }
        let p = curve.map { SIMD3($0[2], $0[3], $0[4]) / $0[5] * scale }
        func norm(_ v: Point3D) -> Double { (v * v).sum().squareRoot() }
        let second = max(norm(p[0] - 2 * p[1] + p[2]), norm(p[1] - 2 * p[2] + p[3]))
        let nn = Double(n)
        return min(second / (8 * nn * nn), segmentChordAllowance(rate: n, curve: p))
    }
}
