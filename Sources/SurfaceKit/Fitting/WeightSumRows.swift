/// The weight sums (S W)ᵣ of grid rows taken in order: the row-direction curve mask of weight rows
/// r − 1, r, r + 1, rolled down the rows, then the column-direction mask of those three (the same
/// expressions as ``TensorGridSolver/apply(_:)``); on the first and last rows, the row's own mask.
struct WeightSumRows {
    /// Rows of row-direction masks kept: above, here and below.
    static let maskRows = 3
    let weights: UnsafePointer<Double>
    let rows: Int
    let columns: Int
    private var above: UnsafeMutablePointer<Double>
    private var here: UnsafeMutablePointer<Double>
    private var below: UnsafeMutablePointer<Double>

    /// `masks`: ``maskRows`` rows of `columns` values of working memory.
    init(weights: UnsafePointer<Double>, rows: Int, columns: Int, masks: UnsafeMutablePointer<Double>) {
        self.weights = weights
        self.rows = rows
        self.columns = columns
        (above, here, below) = (masks, masks + columns, masks + 2 * columns)
    }

    @inline(__always) private func mask(_ r: Int, into t: UnsafeMutablePointer<Double>) {
        let nc = columns, x = weights + r * nc
        t[0] = x[0]
        t[nc - 1] = x[nc - 1]
        for c in 1..<(nc - 1) { t[c] = (x[c - 1] + 4 * x[c] + x[c + 1]) / 6 }
    }

    /// Row r's weight sums: written to `interior` on an inner row, else the row's own mask.
    /// `startsHere`: r is the first row asked for; otherwise it follows the previous one.
    @inline(__always)
    mutating func row(_ r: Int, startsHere: Bool, interior: UnsafeMutablePointer<Double>) -> UnsafePointer<Double> {
        if startsHere {
            if r > 0 { mask(r - 1, into: above) }
            mask(r, into: here)
        } else {
            (above, here, below) = (here, below, above)
        }
        if r + 1 < rows { mask(r + 1, into: below) }
        guard r > 0, r + 1 < rows else { return UnsafePointer(here) }
        let a = above, h = here, b = below, nc = columns
        for c in 0..<nc { interior[c] = (a[c] + 4 * h[c] + b[c]) / 6 }
        return UnsafePointer(interior)
    }
}
