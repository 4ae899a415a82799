import CLAPACKE

/// A square tridiagonal matrix. ``TridiagonalLU`` factors it for repeated sweeps; ``solve(_:count:rowMajor:leadingDimension:)``
/// is LAPACK's one-call `dgtsv` (Gaussian elimination with partial pivoting), the reference the
/// sweeps are tested against.
struct TridiagonalMatrix: Hashable, Sendable {
    /// Below the diagonal: `sub[i]` is entry (i + 1, i); `order − 1` values.
    var sub: [Double]
    /// The diagonal; `order` values.
    var diagonal: [Double]
    /// Above the diagonal: `sup[i]` is entry (i, i + 1); `order − 1` values.
    var sup: [Double]

    var order: Int { diagonal.count }

    /// Solves A X = B in place for `count` right-hand sides: B is `order × count`, column-major
    /// (each right-hand side contiguous) or row-major (each row of the system contiguous), with
    /// LAPACK's leading dimension. Returns the 1-based index of an exactly zero pivot, 0 if LAPACK
    /// rejected an argument, or `nil` on success.
    ///
    /// `dgtsv` overwrites the three diagonals with its factors, so each call works on copies.
    func solve(_ b: UnsafeMutablePointer<Double>, count: Int, rowMajor: Bool, leadingDimension: Int) -> Int? {
        guard order > 0, count > 0 else { return nil }
        var dl = sub, d = diagonal, du = sup
        let info = dl.withUnsafeMutableBufferPointer { dlp in
            d.withUnsafeMutableBufferPointer { dp in
                du.withUnsafeMutableBufferPointer { dup in
                    LAPACKE_dgtsv(
                        rowMajor ? LAPACK_ROW_MAJOR : LAPACK_COL_MAJOR, Int32(order), Int32(count),
                        dlp.baseAddress, dp.baseAddress, dup.baseAddress, b, Int32(leadingDimension))
                }
            }
        }
        return info > 0 ? Int(info) : (info < 0 ? 0 : nil)
    }

    /// The 1-norm: the largest absolute column sum.
    var oneNorm: Double {
        var norm = 0.0
        for j in 0..<order {
            var sum = abs(diagonal[j])
            if j > 0 { sum += abs(sup[j - 1]) }
            if j + 1 < order { sum += abs(sub[j]) }
            norm = Swift.max(norm, sum)
        }
        return norm
    }
}
