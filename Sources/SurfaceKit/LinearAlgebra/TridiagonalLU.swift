import CLAPACKE

/// LAPACK's LU factorization of a tridiagonal matrix (`dgttrf`, partial pivoting) and its
/// reciprocal condition estimate (`dgtcon`): what the grid fit reports about its system. The grid
/// sweeps themselves use ``DominantTridiagonalFactors``, the same factors without pivoting.
struct TridiagonalLU: Sendable {
    let order: Int
    /// The multipliers of L.
    var dl: [Double]
    /// U's diagonal, first and second superdiagonals.
    var d: [Double]
    var du: [Double]
    var du2: [Double]
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
                order: n, dl: dl, d: d, du: du, du2: du2, swapped: swapped, reciprocalCondition: rcond), nil
        )
    }
}
