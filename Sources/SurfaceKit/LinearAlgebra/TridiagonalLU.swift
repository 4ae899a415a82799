import CLAPACKE

/// LAPACK's LU factorization of a tridiagonal matrix (`dgttrf`, partial pivoting), applied to many
/// right-hand sides at once by sweeps that run over whole vectors of them.
///
/// `dgttrs` and `dgtsv` walk one right-hand side at a time (a serial recurrence whose every step
/// waits on a division) or stride across them; when the right-hand sides are the rows or columns
/// of a large grid, sweeping the factors over contiguous vectors of right-hand sides instead keeps
/// the arithmetic vectorized and the memory traffic to one streaming pass. The arithmetic is that
/// of LAPACK's `dgtts2`, step for step (multiplying by 1/d where it divides), so the results are those of `dgttrs` to
/// the last bit or so.
struct TridiagonalLU: Sendable {
    let order: Int
    /// The multipliers of L.
    var dl: [Double]
    /// U's diagonal, first and second superdiagonals.
    var d: [Double]
    var du: [Double]
    var du2: [Double]
    /// 1 / d, so the sweeps multiply instead of divide (a division is several times slower and
    /// would bound the sweeps; the results differ from dgtts2's only in the last bit).
    var inverseD: [Double]
    /// Whether row i was swapped with row i + 1 (LAPACK's `ipiv[i] ≠ i`).
    var swapped: [Bool]
    /// LAPACK's reciprocal condition estimate in the 1-norm (`dgtcon`).
    var reciprocalCondition: Double

    /// Factors `matrix`, or gives the 1-based index of the zero pivot LAPACK found (0 when LAPACK
    /// rejected the call).
    static func factor(_ matrix: TridiagonalMatrix) -> (lu: TridiagonalLU?, zeroPivot: Int?) {
        let n = matrix.order
        guard n > 0 else { return (nil, 0) }
        let anorm = matrix.oneNorm
        var dl = matrix.sub, d = matrix.diagonal, du = matrix.sup
        var du2 = [Double](repeating: 0, count: Swift.max(1, n - 2))
        var ipiv = [Int32](repeating: 0, count: n)
        var rcond = 0.0
        let info = dl.withUnsafeMutableBufferPointer { dlp in
            d.withUnsafeMutableBufferPointer { dp in
                du.withUnsafeMutableBufferPointer { dup in
                    du2.withUnsafeMutableBufferPointer { du2p in
                        ipiv.withUnsafeMutableBufferPointer { ip -> Int32 in
                            let f = LAPACKE_dgttrf(
                                Int32(n), dlp.baseAddress, dp.baseAddress, dup.baseAddress, du2p.baseAddress, ip.baseAddress)
                            guard f == 0 else { return f }
                            let c = LAPACKE_dgtcon(
                                CChar(UInt8(ascii: "1")), Int32(n), dlp.baseAddress, dp.baseAddress, dup.baseAddress,
                                du2p.baseAddress, ip.baseAddress, anorm, &rcond)
                            return c == 0 ? 0 : -1
                        }
                    }
                }
            }
        }
        guard info == 0 else { return (nil, info > 0 ? Int(info) : 0) }
        let swapped = (0..<n).map { Int(ipiv[$0]) != $0 + 1 }
        return (
            TridiagonalLU(
                order: n, dl: dl, d: d, du: du, du2: du2, inverseD: d.map { 1 / $0 }, swapped: swapped, reciprocalCondition: rcond), nil
        )
    }

    /// Solves A X = B where row i of the system is the `width` contiguous values at
    /// `base + i·stride`: each step of the sweep updates one whole row of right-hand sides.
    func solveRows(_ base: UnsafeMutablePointer<Double>, width: Int, stride rowStride: Int) {
        let n = order
        // L: forward, with LAPACK's row interchanges.
        for i in 0..<(n - 1) {
            let x = base + i * rowStride, y = base + (i + 1) * rowStride
            let l = dl[i]
            if swapped[i] {
                for k in 0..<width {
                    let t = x[k]
                    x[k] = y[k]
                    y[k] = t - l * y[k]
                }
            } else {
                for k in 0..<width { y[k] -= l * x[k] }
            }
        }
        // U: backward, two superdiagonals.
        let last = base + (n - 1) * rowStride
        let dn = inverseD[n - 1]
        for k in 0..<width { last[k] *= dn }
        if n > 1 {
            let x = base + (n - 2) * rowStride
            let (u, dd) = (du[n - 2], inverseD[n - 2])
            for k in 0..<width { x[k] = (x[k] - u * last[k]) * dd }
        }
        if n > 2 {
            for i in stride(from: n - 3, through: 0, by: -1) {
                let x = base + i * rowStride, y = x + rowStride, z = y + rowStride
                let (u1, u2, dd) = (du[i], du2[i], inverseD[i])
                for k in 0..<width { x[k] = (x[k] - u1 * y[k] - u2 * z[k]) * dd }
            }
        }
    }

    /// Solves A X = B for eight right-hand sides held lane by lane: `rows[i]` is row i of the
    /// system for all eight.
    func solveLanes(_ rows: UnsafeMutablePointer<SIMD8<Double>>) {
        let n = order
        for i in 0..<(n - 1) {
            if swapped[i] {
                let t = rows[i]
                rows[i] = rows[i + 1]
                rows[i + 1] = t - dl[i] * rows[i]
            } else {
                rows[i + 1] -= dl[i] * rows[i]
            }
        }
        rows[n - 1] *= inverseD[n - 1]
        if n > 1 { rows[n - 2] = (rows[n - 2] - du[n - 2] * rows[n - 1]) * inverseD[n - 2] }
        if n > 2 {
            for i in stride(from: n - 3, through: 0, by: -1) {
                rows[i] = (rows[i] - du[i] * rows[i + 1] - du2[i] * rows[i + 2]) * inverseD[i]
            }
        }
    }
}
