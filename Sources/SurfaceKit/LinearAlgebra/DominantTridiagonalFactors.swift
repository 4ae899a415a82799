/// The LU factors, without pivoting, of a tridiagonal matrix whose rows are strictly diagonally
/// dominant, in the form the grid sweeps use, and how fast its solutions forget far-away values.
///
/// With A = L U (L unit lower bidiagonal, U upper bidiagonal), A x = b is the forward recurrence
/// yᵢ = bᵢ − lᵢ₋₁ yᵢ₋₁ and the backward one xᵢ = yᵢ / uᵢᵢ − cᵢ xᵢ₊₁ with cᵢ = uᵢ,ᵢ₊₁ / uᵢᵢ.
/// Strict diagonal dominance keeps every pivot away from zero and makes partial pivoting choose the
/// diagonal anyway, so these are LAPACK's `dgttrf` factors up to rounding.
///
/// Both recurrences shrink a disturbance by |lᵢ| or |cᵢ| a step, at most ``decay``: a sweep
/// started ``truncationRows`` rows early from zero instead of from the true value differs from the
/// exact sweep by at most decay^truncationRows ≤ 2⁻⁶⁴ times the largest value of the
/// recurrence, far below the rounding of the solve itself (about 2⁻⁵² of it). That is what lets
/// the grid solve work on bands of rows independently and finish rows before the sweep reaches the
/// end of the grid.
struct DominantTridiagonalFactors: Sendable {
    let order: Int
    /// lᵢ: row i + 1 loses lᵢ times row i in the forward sweep (`order` values; the last is 0).
    let multipliers: [Double]
    /// 1 / uᵢᵢ.
    let inversePivots: [Double]
    /// cᵢ = uᵢ,ᵢ₊₁ / uᵢᵢ (the last is 0).
    let backward: [Double]
    /// The largest |lᵢ| and |cᵢ|: how much of a disturbance one step of either sweep keeps.
    let decay: Double
    /// Steps after which a disturbance is below 2⁻⁶⁴ of what it was: ⌈−64 ln 2 / ln decay⌉.
    let truncationRows: Int

    /// Sweeps that forget a disturbance more slowly than this are not truncated (the curve
    /// operators of the fit forget at 2 − √3 ≈ 0.268, 34 rows for 2⁻⁶⁴).
    static let slowestTruncatedDecay = 0.5

    /// `nil` unless every row is strictly diagonally dominant and every pivot is finite.
    init?(_ matrix: TridiagonalMatrix) {
        let n = matrix.order
        guard n >= 1 else { return nil }
        for i in 0..<n {
            let off = (i > 0 ? abs(matrix.sub[i - 1]) : 0) + (i + 1 < n ? abs(matrix.sup[i]) : 0)
            guard abs(matrix.diagonal[i]) > off else { return nil }
        }
        var l = [Double](repeating: 0, count: n), inverse = [Double](repeating: 0, count: n)
        var c = [Double](repeating: 0, count: n)
        var pivot = matrix.diagonal[0]
        var decay = 0.0
        for i in 0..<n {
            guard pivot.isFinite, pivot != 0 else { return nil }
            inverse[i] = 1 / pivot
            guard i + 1 < n else { break }
            l[i] = matrix.sub[i] / pivot
            c[i] = matrix.sup[i] / pivot
            decay = Swift.max(decay, abs(l[i]), abs(c[i]))
            pivot = matrix.diagonal[i + 1] - l[i] * matrix.sup[i]
        }
        order = n
        multipliers = l
        inversePivots = inverse
        backward = c
        self.decay = decay
        // decay^k ≤ 2⁻⁶⁴ ⇔ k ≥ 64 ln 2 / −ln decay; a matrix that forgets too slowly is never cut.
        if decay <= 0 {
            truncationRows = 1
        } else if decay > DominantTridiagonalFactors.slowestTruncatedDecay {
            truncationRows = Int.max / 4
        } else {
            truncationRows = Int((64 * 0.693_147_180_559_945_3 / -log(decay)).rounded(.up))
        }
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
