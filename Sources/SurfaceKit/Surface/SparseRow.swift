/// A short sparse vector of weights over vertex indices, built by accumulation.
///
/// Rows are small (a vertex ring), so a linear search to merge repeated indices beats hashing.
struct SparseRow {
    var indices: [Int32] = []
    var weights: [Double] = []

    init() {
        indices.reserveCapacity(32)
        weights.reserveCapacity(32)
    }

    mutating func removeAll() {
        indices.removeAll(keepingCapacity: true)
        weights.removeAll(keepingCapacity: true)
    }

    mutating func add(_ index: Int32, _ weight: Double) {
        if let slot = indices.firstIndex(of: index) {
            weights[slot] += weight
        } else {
            indices.append(index)
            weights.append(weight)
        }
    }

    /// Σ weight · data[index].
    @inline(__always)
    func apply(to data: UnsafeBufferPointer<Homogeneous>) -> Homogeneous {
        var sum = Homogeneous()
        for k in 0..<indices.count {
            sum += weights[k] * data[Int(indices[k])]
        }
        return sum
    }
}
