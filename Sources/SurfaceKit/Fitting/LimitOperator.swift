/// The limit-position operator S of a control mesh, as a sparse matrix in compressed rows: row i
/// holds the weights that take the control values to the limit point at control vertex i.
///
/// It is built from the same limit masks the surface is evaluated with (``LimitStencilTable`` on
/// the control level), so a fit and a tessellation agree by construction on what "the limit point
/// at a vertex" is. A vertex without a mask (a corner of one face is a mask of its own, but a
/// non-manifold or isolated vertex has none) is pinned: its row is the identity.
struct LimitOperator: Sendable {
    let order: Int
    /// Row i's entries are `offsets[i]..<offsets[i + 1]`, each column at most once.
    var offsets: [Int]
    var columns: [Int32]
    var values: [Double]

    init(level: TopologyLevel) {
        let table = LimitStencilTable(level: level)
        let n = level.vertexCount
        order = n
        offsets = [0]
        offsets.reserveCapacity(n + 1)
        columns = []
        values = []
        columns.reserveCapacity(9 * n)
        values.reserveCapacity(9 * n)
        for v in 0..<n {
            let start = columns.count
            // A ring can name a vertex twice on small closed meshes; merge repeats within the row
            // so the matrix has one entry per column (rows are short, a linear search is enough).
            func add(_ column: Int32, _ weight: Double) {
                if let slot = columns[start...].firstIndex(of: column) {
                    values[slot] += weight
                } else {
                    columns.append(column)
                    values.append(weight)
                }
            }
            let id = Int(table.maskIDs[v])
            if id < 0 {
                add(Int32(v), 1)
            } else {
                let mask = table.masks[id].position
                add(Int32(v), mask[0])
                let lo = Int(table.offsets[v]), hi = Int(table.offsets[v + 1])
                for k in lo..<hi {
                    add(table.ring[k], mask[k - lo + 1])
                }
            }
            offsets.append(columns.count)
        }
    }

    /// S · x.
    func apply(_ x: [Double]) -> [Double] {
        var y = [Double](repeating: 0, count: order)
        for i in 0..<order {
            var sum = 0.0
            for k in offsets[i]..<offsets[i + 1] { sum += values[k] * x[Int(columns[k])] }
            y[i] = sum
        }
        return y
    }
}
