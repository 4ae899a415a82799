import CLAPACKE

/// A square band matrix in LAPACK's band storage, factored by LU with partial pivoting (`dgbtrf`),
/// with a condition estimate (`dgbcon`) and solves for many right-hand sides (`dgbtrs`).
///
/// Column-major band storage: entry (i, j) of the matrix, 0-based, lives at
/// `storage[(kl + ku + i − j) + j · ldab]` with `ldab = 2·kl + ku + 1`; the top `kl` rows are the
/// room partial pivoting needs for fill-in, which is why they are allocated but left zero.
struct BandedLU: Sendable {
    let order: Int
    let lower: Int
    let upper: Int
    var storage: [Double]
    var pivots: [Int32] = []
    /// The 1-norm of the matrix before factoring, which `dgbcon` needs.
    var oneNorm: Double = 0
    var isFactored = false

    /// Rows of band storage: `2·kl + ku + 1`.
    static func leadingDimension(lower: Int, upper: Int) -> Int { 2 * lower + upper + 1 }

    /// Bytes of band storage for an `order × order` matrix with these bandwidths, or `nil` when the
    /// count overflows.
    static func storageBytes(order: Int, lower: Int, upper: Int) -> Int? {
        let (elements, o1) = leadingDimension(lower: lower, upper: upper).multipliedReportingOverflow(by: order)
        let (bytes, o2) = elements.multipliedReportingOverflow(by: MemoryLayout<Double>.stride)
        return o1 || o2 ? nil : bytes
    }

    /// A zero matrix; the caller has already checked that the storage size is acceptable.
    init(order: Int, lower: Int, upper: Int) {
        self.order = order
        self.lower = lower
        self.upper = upper
        storage = [Double](repeating: 0, count: BandedLU.leadingDimension(lower: lower, upper: upper) * order)
    }

    var leadingDimension: Int { BandedLU.leadingDimension(lower: lower, upper: upper) }

    /// Adds `value` to entry (i, j), which must lie inside the band.
    @inline(__always)
    mutating func add(_ value: Double, row i: Int, column j: Int) {
        assert(i - j <= lower && j - i <= upper, "entry outside the band")
        storage[(lower + upper + i - j) + j * leadingDimension] += value
    }

    /// Factors in place. Returns `nil` on success, or the 1-based index of the first exactly zero
    /// pivot (the matrix is singular).
    mutating func factor() -> Int? {
        // The 1-norm is the largest absolute column sum; the band holds column j's entries in
        // one contiguous run of storage, so this is one pass.
        let ld = leadingDimension
        var norm = 0.0
        for j in 0..<order {
            var sum = 0.0
            for r in (lower)..<(ld) { sum += abs(storage[r + j * ld]) }
            norm = Swift.max(norm, sum)
        }
        oneNorm = norm
        pivots = [Int32](repeating: 0, count: order)
        let (n, kl, ku) = (Int32(order), Int32(lower), Int32(upper))
        let info = storage.withUnsafeMutableBufferPointer { ab in
            pivots.withUnsafeMutableBufferPointer { ipiv in
                LAPACKE_dgbtrf(LAPACK_COL_MAJOR, n, n, kl, ku, ab.baseAddress, Int32(ld), ipiv.baseAddress)
            }
        }
        isFactored = true
        return info > 0 ? Int(info) : nil
    }

    /// LAPACK's estimate of 1 / (‖A‖₁ ‖A⁻¹‖₁) for the factored matrix: near 1 is well conditioned,
    /// near the machine epsilon (or 0) is singular to working precision.
    func reciprocalCondition() -> Double {
        guard isFactored, order > 0 else { return 0 }
        guard oneNorm > 0 else { return 0 }
        var rcond = 0.0
        let info = storage.withUnsafeBufferPointer { ab in
            pivots.withUnsafeBufferPointer { ipiv in
                LAPACKE_dgbcon(
                    LAPACK_COL_MAJOR, CChar(UInt8(ascii: "1")), Int32(order), Int32(lower), Int32(upper),
                    ab.baseAddress, Int32(leadingDimension), ipiv.baseAddress, oneNorm, &rcond)
            }
        }
        return info == 0 ? rcond : 0
    }

    /// Solves A X = B in place for B column-major, `order × count` (`ldb = order`). Returns false if
    /// LAPACK rejects the call (it only can for malformed arguments).
    func solve(_ b: inout [Double], count: Int) -> Bool {
        guard isFactored, b.count == order * count else { return false }
        let info = storage.withUnsafeBufferPointer { ab in
            pivots.withUnsafeBufferPointer { ipiv in
                b.withUnsafeMutableBufferPointer { rhs in
                    LAPACKE_dgbtrs(
                        LAPACK_COL_MAJOR, CChar(UInt8(ascii: "N")), Int32(order), Int32(lower), Int32(upper),
                        Int32(count), ab.baseAddress, Int32(leadingDimension), ipiv.baseAddress,
                        rhs.baseAddress, Int32(Swift.max(1, order)))
                }
            }
        }
        return info == 0
    }
}
