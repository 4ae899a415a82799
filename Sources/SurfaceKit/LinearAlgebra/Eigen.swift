import CLAPACKE

/// Dense eigenproblems through LAPACK (`dgeev`), for the small matrices of subdivision analysis.
enum Eigen {
    /// The real eigenvalues of the n × n row-major matrix `a` with their left eigenvectors
    /// (`lᵀ A = λ lᵀ`), largest eigenvalue first. Complex pairs are left out. Returns `nil` when
    /// LAPACK does not converge or the input is malformed.
    static func realLeftEigenpairs(of a: [Double], n: Int) -> [(value: Double, vector: [Double])]? {
        guard n > 0, a.count == n * n, a.allSatisfy(\.isFinite) else { return nil }
        var matrix = a
        var wr = [Double](repeating: 0, count: n), wi = wr
        var vl = [Double](repeating: 0, count: n * n)
        var vr = [Double](repeating: 0, count: 1)
        let info = matrix.withUnsafeMutableBufferPointer { m in
            wr.withUnsafeMutableBufferPointer { wrp in
                wi.withUnsafeMutableBufferPointer { wip in
                    vl.withUnsafeMutableBufferPointer { vlp in
                        vr.withUnsafeMutableBufferPointer { vrp in
                            LAPACKE_dgeev(
                                LAPACK_ROW_MAJOR, CChar(UInt8(ascii: "V")), CChar(UInt8(ascii: "N")),
                                Int32(n), m.baseAddress, Int32(n), wrp.baseAddress, wip.baseAddress,
                                vlp.baseAddress, Int32(n), vrp.baseAddress, 1)
                        }
                    }
                }
            }
        }
        guard info == 0 else { return nil }
        var pairs: [(value: Double, vector: [Double])] = []
        for j in 0..<n where abs(wi[j]) <= 1e-12 * max(1, abs(wr[j])) {
            // Row-major storage keeps eigenvectors in columns.
            pairs.append((wr[j], (0..<n).map { vl[$0 * n + j] }))
        }
        return pairs.sorted { $0.value > $1.value }
    }
}
