/// A rational bicubic Bézier patch through samples of the limit surface over a small sub-face at
/// an extraordinary vertex, where no finite NURBS is exact.
///
/// The fit works on homogeneous values, in which the limit surface is a linear function of the
/// control values:
/// - each boundary curve is the cubic through the limit curve's values at t = 0, ¼, ¾, 1. It
///   depends on that edge alone, so the sub-face across the edge (fitted at the same level) gets
///   the same curve, and an edge shared with an exact patch, whose limit curve is a cubic in
///   homogeneous form, is reproduced exactly;
/// - the four inner control values make the patch pass through the limit surface at
///   (¼ or ¾, ¼ or ¾).
/// The deviation is then measured at every sample of the grid, in points space.
enum BezierApproximation {
    /// Samples per side of the checked grid: 2^4, with the fitting points (¼, ¾) on it.
    static let sampleSteps = 4

    /// The Bézier control values through the grid's samples (see the type's comment). `grid` holds
    /// (2^sampleSteps + 1)² values, sample (i, j) at j·side + i.
    static func fit(_ grid: [SIMD4<Double>]) -> [SIMD4<Double>] {
        let n = 1 << sampleSteps, side = n + 1
        let quarter = n / 4, threeQuarters = 3 * n / 4
        func sample(_ i: Int, _ j: Int) -> SIMD4<Double> { grid[j * side + i] }
        /// Bézier points b1, b2 of the cubic with ends b0, b3 through c(¼) and c(¾):
        /// 27b1 + 9b2 = 64c(¼) − 27b0 − b3 and 9b1 + 27b2 = 64c(¾) − b0 − 27b3.
        func inner(_ b0: SIMD4<Double>, _ c1: SIMD4<Double>, _ c3: SIMD4<Double>, _ b3: SIMD4<Double>) -> (SIMD4<Double>, SIMD4<Double>) {
            let r1 = 64 * c1 - 27 * b0 - b3, r2 = 64 * c3 - b0 - 27 * b3
            return ((27 * r1 - 9 * r2) / 648, (27 * r2 - 9 * r1) / 648)
        }
        var b = [SIMD4<Double>](repeating: .zero, count: 16)
        let ticks = [0, quarter, threeQuarters, n]
        b[0] = sample(0, 0)
        b[3] = sample(n, 0)
        b[12] = sample(0, n)
        b[15] = sample(n, n)
        // Top (j = 0), bottom (j = n), left (i = 0), right (i = n).
        (b[1], b[2]) = inner(b[0], sample(quarter, 0), sample(threeQuarters, 0), b[3])
        (b[13], b[14]) = inner(b[12], sample(quarter, n), sample(threeQuarters, n), b[15])
        (b[4], b[8]) = inner(b[0], sample(0, quarter), sample(0, threeQuarters), b[12])
        (b[7], b[11]) = inner(b[3], sample(n, quarter), sample(n, threeQuarters), b[15])
        // Inner points: the residual at the four inner fitting points, solved through the 2 × 2
        // matrix M = [B₁(t), B₂(t)] at t = ¼, ¾ in each direction; M⁻¹ = (64/648)[[27, −9], [−9, 27]].
        let bern = [0.25, 0.75].map(bernstein)
        var residual = [SIMD4<Double>](repeating: .zero, count: 4)
        for (a, tj) in [1, 2].enumerated() {
            for (c, ti) in [1, 2].enumerated() {
                var r = sample(ticks[ti], ticks[tj])
                for row in 0..<4 {
                    for column in 0..<4 where !(1...2).contains(row) || !(1...2).contains(column) {
                        r -= bern[a][row] * bern[c][column] * b[4 * row + column]
                    }
                }
                residual[2 * a + c] = r
            }
        }
        let inverse: [[Double]] = [[27 * 64 / 648.0, -9 * 64 / 648.0], [-9 * 64 / 648.0, 27 * 64 / 648.0]]
        for row in 0..<2 {
            for column in 0..<2 {
                var x = SIMD4<Double>()
                for a in 0..<2 {
                    for c in 0..<2 { x += inverse[row][a] * inverse[column][c] * residual[2 * a + c] }
                }
                b[4 * (row + 1) + column + 1] = x
            }
        }
        return b
    }

    /// The cubic Bernstein polynomials at t.
    static func bernstein(_ t: Double) -> [Double] {
        let s = 1 - t
        return [s * s * s, 3 * s * s * t, 3 * s * t * t, t * t * t]
    }

    /// The largest distance between the patch and the samples, dividing homogeneous values by
    /// their weight; infinite when a control weight is not positive.
    static func deviation(bezier b: [SIMD4<Double>], grid: [SIMD4<Double>]) -> Double {
        guard b.allSatisfy({ $0.w > 0 && $0.w.isFinite }) else { return .infinity }
        let n = 1 << sampleSteps, side = n + 1
        let basis = (0...n).map { bernstein(Double($0) / Double(n)) }
        var worst = 0.0
        for j in 0...n {
            for i in 0...n {
                var h = SIMD4<Double>()
                for row in 0..<4 {
                    for column in 0..<4 { h += basis[j][row] * basis[i][column] * b[4 * row + column] }
                }
                let s = grid[j * side + i]
                let d = SIMD3(h.x, h.y, h.z) / h.w - SIMD3(s.x, s.y, s.z) / s.w
                let distance = (d * d).sum().squareRoot()
                guard distance.isFinite else { return .infinity }
                worst = max(worst, distance)
            }
        }
        return worst
    }
}
