/// The fitting system of a general quad mesh solved by banded LU (LAPACK `dgbtrf`, `dgbcon`,
/// `dgbtrs`) after a bandwidth-reducing renumbering of the unknowns.
struct BandedSolver: Sendable {
    /// What the solve found out about the system.
    struct Outcome: Sendable {
        var reciprocalCondition: Double
        var lowerBandwidth: Int
        var upperBandwidth: Int
        var usedCuthillMcKee: Bool
    }

    let limit: LimitOperator
    let maximumBandBytes: Int
    let minimumReciprocalCondition: Double

    /// Solves S Q = B in place on the five planes.
    ///
    /// The unknowns are renumbered by reverse Cuthill–McKee, or kept in their own order when that
    /// gives the narrower band (a row-major grid's own order has bandwidth C + 2, and breadth-first
    /// levels on a grid are wider than its rows). Throws `.limitExceeded`, stating the size, before
    /// allocating band storage above ``maximumBandBytes``, and `.invalidValue` saying the system is
    /// singular when LU meets a zero pivot or the condition estimate is below the threshold.
    func solve(_ planes: inout FitPlanes) throws -> Outcome {
        let n = limit.order
        let adjacency = CuthillMcKee.symmetricAdjacency(order: n, offsets: limit.offsets, columns: limit.columns)
        let rcm = CuthillMcKee.reverseOrder(order: n, offsets: adjacency.offsets, neighbours: adjacency.neighbours)
        var position = [Int](repeating: 0, count: n)
        for (k, v) in rcm.enumerated() { position[Int(v)] = k }
        let reordered = bandwidths { position[$0] }
        let natural = bandwidths { $0 }
        let useRCM = 2 * reordered.lower + reordered.upper < 2 * natural.lower + natural.upper
        let (kl, ku) = useRCM ? reordered : natural
        if !useRCM {
            for i in 0..<n { position[i] = i }
        }

        // LAPACK indexes the band with 32-bit integers, so the element count must also fit in one.
        let elementLimit = Int(Int32.max) * MemoryLayout<Double>.stride
        let limitBytes = Swift.min(maximumBandBytes, elementLimit)
        let bytes = BandedLU.storageBytes(order: n, lower: kl, upper: ku)
        guard let bytes, bytes <= limitBytes else {
            let size = bytes.map { SurfaceFit.byteCount($0) } ?? "more than \(SurfaceFit.byteCount(Int.max))"
            throw MeshError(
                .limitExceeded, path: "",
                "the fitting system needs \(size) of band storage (\(n) unknowns, bandwidths \(kl) below and \(ku) above the diagonal), over the limit of \(SurfaceFit.byteCount(limitBytes))"
            )
        }

        var lu = BandedLU(order: n, lower: kl, upper: ku)
        for i in 0..<n {
            for k in limit.offsets[i]..<limit.offsets[i + 1] {
                lu.add(limit.values[k], row: position[i], column: position[Int(limit.columns[k])])
            }
        }
        if let pivot = lu.factor() {
            throw SurfaceFit.singularSystem(
                reciprocalCondition: 0, threshold: minimumReciprocalCondition, zeroPivot: pivot)
        }
        let rcond = lu.reciprocalCondition()
        guard rcond >= minimumReciprocalCondition else {
            throw SurfaceFit.singularSystem(reciprocalCondition: rcond, threshold: minimumReciprocalCondition)
        }

        let m = FitPlanes.componentCount
        var b = [Double](repeating: 0, count: n * m)
        for p in 0..<m {
            for i in 0..<n { b[p * n + position[i]] = planes.values[p * n + i] }
        }
        guard lu.solve(&b, count: m) else {
            throw MeshError(.invalidValue, path: "", "LAPACK rejected the fitting system's banded solve")
        }
        for p in 0..<m {
            for i in 0..<n { planes.values[p * n + i] = b[p * n + position[i]] }
        }
        return Outcome(reciprocalCondition: rcond, lowerBandwidth: kl, upperBandwidth: ku, usedCuthillMcKee: useRCM)
    }

    /// The largest distance below (row − column) and above (column − row) the diagonal of any
    /// entry of S once unknown i is numbered `number(i)`.
    private func bandwidths(_ number: (Int) -> Int) -> (lower: Int, upper: Int) {
        var lower = 0, upper = 0
        for i in 0..<limit.order {
            let r = number(i)
            for k in limit.offsets[i]..<limit.offsets[i + 1] {
                let c = number(Int(limit.columns[k]))
                lower = Swift.max(lower, r - c)
                upper = Swift.max(upper, c - r)
            }
        }
        return (lower, upper)
    }
}
