/// A control net of homogeneous points `(W·x, W·y, W·z, W)` in points space, row by row (rows along
/// v, columns along u), with the clamped knots it goes with: the form in which surfaces are built,
/// before ``NURBSSurface`` splits each value into a point and a weight.
struct HomogeneousNet {
    var countU: Int
    var countV: Int
    var knotsU: [Double]
    var knotsV: [Double]
    var values: [SIMD4<Double>]

    /// Knots of one cubic Bézier span over `lo...hi`: each end four times.
    static func bezierKnots(_ lo: Double, _ hi: Double) -> [Double] {
        [lo, lo, lo, lo, hi, hi, hi, hi]
    }

    /// The `to` lanes and the weight of a homogeneous control value, scaled to points space.
    static func points(_ h: Homogeneous, scale: SIMD3<Double>) -> SIMD4<Double> {
        SIMD4(h[2] * scale.x, h[3] * scale.y, h[4] * scale.z, h[5])
    }

    /// The surface, or `nil` when a weight is not positive or a point not finite (which only
    /// extreme inputs reach: homogeneous values out of the range of doubles).
    func surface(face: Int?, exact: Bool, deviation: Double) -> NURBSSurface? {
        var points = [Point3D](), weights = [Double]()
        points.reserveCapacity(values.count)
        weights.reserveCapacity(values.count)
        for h in values {
            guard h.w > 0, h.w.isFinite else { return nil }
            let p = SIMD3(h.x, h.y, h.z) / h.w
            guard p.x.isFinite, p.y.isFinite, p.z.isFinite else { return nil }
            points.append(p)
            weights.append(h.w)
        }
        return NURBSSurface(
            unchecked: countU, countV: countV, knotsU: knotsU, knotsV: knotsV, controlPoints: points,
            weights: weights, face: face, isExact: exact, deviation: deviation)
    }
}

extension HomogeneousNet {
    /// The Bézier form, on `u0…u0+size` × `v0…v0+size`, of the uniform bicubic B-spline patch over
    /// the middle span of a 4 × 4 control grid (row by row).
    ///
    /// Per direction the Bézier points of the span between P1 and P2 are
    /// `(P0 + 4P1 + P2)/6, (2P1 + P2)/3, (P1 + 2P2)/3, (P1 + 4P2 + P3)/6` (the blossoms
    /// f(1,1,1), f(1,1,2), f(1,2,2), f(2,2,2) of the uniform spline), applied to rows, then columns.
    static func bezier(uniform control: [SIMD4<Double>], u0: Double, v0: Double, size: Double) -> HomogeneousNet {
        func convert(_ p: [SIMD4<Double>]) -> [SIMD4<Double>] {
            [(p[0] + 4 * p[1] + p[2]) / 6, (2 * p[1] + p[2]) / 3, (p[1] + 2 * p[2]) / 3, (p[1] + 4 * p[2] + p[3]) / 6]
        }
        var rows = [SIMD4<Double>]()
        for r in 0..<4 { rows += convert(Array(control[(4 * r)..<(4 * r + 4)])) }
        var result = [SIMD4<Double>](repeating: .zero, count: 16)
        for c in 0..<4 {
            let column = convert((0..<4).map { rows[4 * $0 + c] })
            for r in 0..<4 { result[4 * r + c] = column[r] }
        }
        return HomogeneousNet(
            countU: 4, countV: 4, knotsU: bezierKnots(u0, u0 + size), knotsV: bezierKnots(v0, v0 + size), values: result)
    }
}
