/// How far a corner region's far side can move its outer ring when the layout puts more samples
/// there than the region asked for, measured segment by segment.
///
/// A region asking n evenly spaced segments of a far side is proven with those n; the layout may
/// put any multiple of n there (what the pieces beyond need), evenly spaced, so the finer samples
/// include the coarse ones. Over coarse segment j, from t_j = j/n to t_{j+1}, the ring's triangles
/// then differ from those it was proven with by a share (at most all) of P_fine − P_n, the
/// polylines through the side's curve C at the fine and the coarse samples, both parametrized
/// linearly in t. That difference is linear between fine samples, where it equals C − L_j (L_j
/// the chord from C(t_j) to C(t_{j+1}) at the same fraction of the segment), so it never exceeds
/// max over the segment of |C(t) − L_j(t)|. That maximum is measured at ``samplesPerSegment`` + 1
/// evenly spaced parameters of each segment, with a proven margin: C − L_j bends as C does (L_j is
/// linear), so between two samples h apart it exceeds their linear interpolation by at most
/// (h²/8)·max|C″|, and C″ of a uniform cubic B-spline span is the linear blend of its control
/// points' second differences. The larger of the segments' bounds is the allowance.
extension CornerContinuation {
    /// Samples measured along each coarse segment: with the margin shrinking with the square of
    /// the spacing, 32 leave it at 1/1024 of what the second-difference allowance
    /// (``farSideAllowance(rate:from:scale:)``) charges a segment (1/8192 of the segment's
    /// max|C″|/n²), at 33 curve evaluations each.
    static let samplesPerSegment = 32

    /// The allowance for a far side asked for n segments: the largest distance, over its n
    /// segments, between the side's curve and each segment's chord at the same parameter, measured
    /// with the margin above. `curve` holds the four control points of the side's boundary curve
    /// (polynomial, in points), t running from the first to the last.
    static func segmentChordAllowance(rate n: Int, curve points: [Point3D]) -> Double {
        guard n >= 1, points.count == 4 else { return .infinity }
        func norm(_ p: Point3D) -> Double { (p * p).sum().squareRoot() }
        func curve(_ t: Double) -> Point3D {
            let b = basis(t)
            return b[0] * points[0] + b[1] * points[1] + b[2] * points[2] + b[3] * points[3]
        }
        let second = max(norm(points[0] - 2 * points[1] + points[2]), norm(points[1] - 2 * points[2] + points[3]))
        let m = samplesPerSegment
        let h = 1 / Double(n * m)
        var worst = 0.0
        for j in 0..<n {
            let a = Double(j) / Double(n), b = Double(j + 1) / Double(n)
            let start = curve(a), end = curve(b)
            for i in 1..<m {
                let f = Double(i) / Double(m)
                worst = max(worst, norm(curve(a + f * (b - a)) - (start + f * (end - start))))
            }
        }
        return worst + h * h / 8 * second
    }
}
