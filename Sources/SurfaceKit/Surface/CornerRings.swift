/// Nested rings around an irregular vertex: one triangulation of a corner region that spans
/// several isolation levels, with a proven bound.
///
/// The region is the corner square of some level at the vertex. Inside it, the corner squares of
/// deeper levels (the ring levels, not necessarily consecutive) are nested around the vertex;
/// between two of them lies an L-shaped ring, drawn as four triangles around the outer square's
/// far corner, and the innermost square is a fan of two triangles from the vertex's limit point.
/// In the frame with the vertex at the origin and the region's far sides at x = 1 and y = 1, a
/// ring between squares of sides s > t joins O₁ = (s, 0), O₂ = (s, s), O₃ = (0, s) to
/// I₁ = (t, 0), I₂ = (t, t), I₃ = (0, t) by (O₂, O₁, I₁), (O₂, I₁, I₂), (O₂, I₂, I₃) and
/// (O₂, I₃, O₃): the ring is star-shaped from O₂, so these tile it. The outermost ring's far
/// sides may carry more samples (the neighbouring cells choose them); its two triangles on the far
/// sides are then fans from I₁ and I₃, which differ from the single triangles by at most the far
/// side's distance from its chord (as for a corner fan, ``CornerContinuation``).
///
/// So a region of m rings takes 4m + 2 triangles (plus one per extra far-side sample), where the
/// pieces of the same levels, each its own cell, take two or more each and three per level.
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

    /// The triangles of a ring from O₁, O₂, O₃ to I₁, I₂, I₃ (their frame positions and points),
    /// O₂ the outer square's far corner: (O₂, O₁, I₁), (O₂, I₁, I₂), (O₂, I₂, I₃), (O₂, I₃, O₃).
    /// With `farA` and `farB` (the samples of the far sides O₁ → O₂ and O₂ → O₃, ends included),
    /// the first and last are fans from I₁ and I₃ over them.
    static func ring(
        outer: [(SIMD2<Double>, Point3D)], inner: [(SIMD2<Double>, Point3D)], farA: [(SIMD2<Double>, Point3D)]? = nil,
        farB: [(SIMD2<Double>, Point3D)]? = nil
    ) -> [Triangle] {
        func t(_ a: (SIMD2<Double>, Point3D), _ b: (SIMD2<Double>, Point3D), _ c: (SIMD2<Double>, Point3D)) -> Triangle {
            Triangle(uv: (a.0, b.0, c.0), points: (a.1, b.1, c.1))
        }
        var list: [Triangle] = []
        let a = farA ?? [outer[0], outer[1]], b = farB ?? [outer[1], outer[2]]
        for i in 0..<(a.count - 1) { list.append(t(inner[0], a[i], a[i + 1])) }
        list.append(t(outer[1], inner[0], inner[1]))
        list.append(t(outer[1], inner[1], inner[2]))
        for i in 0..<(b.count - 1) { list.append(t(inner[2], b[i], b[i + 1])) }
        return list
    }
}

extension CornerContinuation {
    /// A proven bound on the distance from the surface of one ring (or, with `inner` nil, of the
    /// innermost fan) of a corner region at corner `k`: the regions of this continuation that lie
    /// between the squares of sides `outer.size` and `inner.size` (in the region's own (s, t)),
    /// against the ring's triangles. `outer.points` and `inner.points` are the surface points of
    /// the squares' corners k + 1, k + 2, k + 3. With `farRate` n > 0 the outer square is the
    /// region itself, whose far sides carry at least n evenly spaced segments each (the
    /// neighbouring cells may ask for more): the ring is bounded with n, and what other samples
    /// can change is added (``farSideAllowance(rate:from:scale:)``). For the fan, the last corner
    /// square (the hull) is included.
    public func ringBound(
        corner k: Int, outer: (size: Double, points: [Point3D]), inner: (size: Double, points: [Point3D])?, limit: Point3D,
        farRate: Int, scale: SIMD3<Double>, target: Double, giveUp: Double = .infinity
    ) -> Double {
        func local(_ p: SIMD2<Double>) -> SIMD2<Double> {
            SIMD2(k == 1 || k == 2 ? 1 - p.x : p.x, k >= 2 ? 1 - p.y : p.y)
        }
        let unit = [1, 2, 3].map { local(UnitSquare.corner((k + $0) % 4)) }
        let o = (0..<3).map { (outer.size * unit[$0], outer.points[$0]) }
        var farA: [(SIMD2<Double>, Point3D)]?, farB: [(SIMD2<Double>, Point3D)]?
        if farRate > 1 {
            // The far sides' samples at j/n, from the patches beyond them (which run them the
            // other way: fraction f from corner k + 1 is 1 − f along the neighbour's side).
            var sides: [[(SIMD2<Double>, Point3D)]] = []
            for (j, far) in farSides.enumerated() {
                guard let far else { return .infinity }
                var samples = [o[j]]
                for step in 1..<farRate {
                    let f = Double(step) / Double(farRate)
                    let uv = UnitSquare.side(far.side, 1 - f)
                    let p = far.patch.evaluate(u: uv.x, v: uv.y).to * scale
                    samples.append((o[j].0 + f * (o[j + 1].0 - o[j].0), p))
                }
                samples.append(o[j + 1])
                sides.append(samples)
            }
            farA = sides[0]
            farB = sides[1]
        }
        let triangles: [CornerRingBound.Triangle]
        let lowest: Double
        if let inner {
            let i = (0..<3).map { (inner.size * unit[$0], inner.points[$0]) }
            triangles = CornerRingBound.ring(outer: o, inner: i, farA: farA, farB: farB)
            lowest = inner.size
        } else {
            let l = (SIMD2<Double>.zero, limit)
            triangles = [
                CornerRingBound.Triangle(uv: (l.0, o[0].0, o[1].0), points: (l.1, o[0].1, o[1].1)),
                CornerRingBound.Triangle(uv: (l.0, o[1].0, o[2].0), points: (l.1, o[1].1, o[2].1)),
            ]
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
        guard farRate > 0 else { return worst }
        var sides = 0.0
        for (j, far) in farSides.enumerated() {
            guard let far else { return .infinity }
            // One segment: any samples of the far side move the fan by at most the side's
            // distance from its chord.
            sides = max(
                sides,
                farRate == 1
                    ? CornerContinuation.chordBound(far.patch, side: far.side, from: outer.points[j + 1], to: outer.points[j], scale: scale)
                    : CornerContinuation.farSideAllowance(rate: farRate, from: far, scale: scale))
        }
        return worst + sides
    }
}

/// The rings chosen for a vertex's corner regions: the region's level, the levels of the nested
/// squares inside it, and each face's proven bound.
struct RingSchedule {
    var top: Int
    /// The segments the region asks for on each far side.
    var farRate: Int
    var rings: [Int]
    var bounds: [Double]
}

extension FaceSurfaces {
    /// The most segments a corner region asks for on each far side: past a few, the outer ring's
    /// fans from its inner corners are as narrow as the neighbours' own grids.
    static let largestFarRate = 4

    /// About how many triangles a face's corner takes with one cell per isolation piece down to
    /// `levels` and a fan there: the three pieces of a level take two triangles or more each and
    /// a few more where a piece meets the next level's smaller ones (eight a level on the test
    /// meshes), the fan two. Level 1's pieces are the same either way and not counted.
    static func pieceCost(levels: Int) -> Int { 8 * (levels - 1) + 2 }

    /// The same with the pieces down to `top` and a corner region of rings below: its outer ring
    /// 2n + 2 triangles, each other ring 4, the fan 2, and the n segments it asks of each far
    /// side cost the two pieces beyond them about 2(n − 1) triangles each.
    static func ringCost(_ schedule: RingSchedule) -> Int {
        8 * (schedule.top - 1) + 2 * schedule.farRate + 2 + 4 * (schedule.rings.count - 1) + 2 + 4 * (schedule.farRate - 1)
    }

    /// The least a corner region can cost below its pieces: one ring, one far segment, a fan.
    static let leastRingCost = 6

    /// Rings for the corner regions of level `top` around one vertex, or nil when none are
    /// proven within `tolerance`. From the region inward, each ring reaches as deep as its bound
    /// allows (at most to `fanDepth`, the level whose plain fans are proven); the rings stop at
    /// the first square whose fan is proven. `points[i][ℓ − 1]` are the surface points of face i's
    /// corner square of level ℓ (its corners k + 1, k + 2, k + 3), `continuations[i]` the surface
    /// below face i's region.
    static func ringSchedule(
        top: Int, fanDepth: Int, corners: [Int], points: [[[Point3D]?]], continuations: [CornerContinuation], limit: Point3D,
        scale: SIMD3<Double>, tolerance: Double
    ) -> RingSchedule? {
        func size(_ level: Int) -> Double { Double(sign: .plus, exponent: -(level - top), significand: 1) }
        /// Each face's bound for the ring from `outer` to `inner` (the fan at `outer` when nil),
        /// or nil when one misses the tolerance.
        func bounds(outer: Int, inner: Int?, farRate: Int = 0) -> [Double]? {
            var found: [Double] = []
            for i in corners.indices {
                guard let o = points[i][outer - 1] else { return nil }
                var innerSquare: (size: Double, points: [Point3D])?
                if let inner {
                    guard let p = points[i][inner - 1] else { return nil }
                    innerSquare = (size(inner), p)
                }
                let bound = continuations[i].ringBound(
                    corner: corners[i], outer: (size(outer), o), inner: innerSquare, limit: limit, farRate: outer == top ? farRate : 0,
                    scale: scale, target: tolerance / 2, giveUp: tolerance)
                guard bound <= tolerance else { return nil }
                found.append(bound)
            }
            return found
        }
        // The outer ring: the fewest far-side segments that prove it with its first inner square.
        guard top < fanDepth,
            let (farRate, first) = (1...FaceSurfaces.largestFarRate).lazy.compactMap({ n in
                bounds(outer: top, inner: top + 1, farRate: n).map { (n, $0) }
            }).first
        else { return nil }
        var rings: [Int] = []
        var worst = [Double](repeating: 0, count: corners.count)
        var outer = top
        while true {
            if outer > top, let fan = bounds(outer: outer, inner: nil) {
                worst = zip(worst, fan).map { max($0, $1) }
                return RingSchedule(top: top, farRate: farRate, rings: rings, bounds: worst)
            }
            let rate = outer == top ? farRate : 0
            guard outer < fanDepth, var ring = outer == top ? first : bounds(outer: outer, inner: outer + 1) else { return nil }
            var inner = outer + 1
            while inner < fanDepth, let wider = bounds(outer: outer, inner: inner + 1, farRate: rate) {
                inner += 1
                ring = wider
            }
            worst = zip(worst, ring).map { max($0, $1) }
            rings.append(inner)
            outer = inner
        }
    }
}

extension CornerContinuation {
    /// What a far side sampled at m ≥ n evenly spaced segments can add to a ring bounded with n:
    /// along a ray from the fan's apex the two fans differ by (a share of) P_m − P_n, the
    /// polylines through the side's curve C, and |P_m − P_n| ≤ |P_m − C| + |C − P_n|. Linear
    /// interpolation over a segment of length h errs by at most (h²/8)·max|C″|, and C″ of a
    /// uniform cubic B-spline span is the linear blend of its control points' second
    /// differences; so the sum is at most max|C″|/(4n²). Infinite for a rational side.
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
        return second / (4 * nn * nn)
    }
}
