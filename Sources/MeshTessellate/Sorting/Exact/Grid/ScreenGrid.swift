/// The uniform grid over screen boxes that the overlap searches bin triangles (or edges) into:
/// cells about the mean item size, at most 4096 a side and a small multiple of the square root of
/// the item count, so that a cell holds a few items and the grid itself stays small.
struct ScreenGrid {
    /// The lower corner of the area covered.
    let origin: SIMD2<Double>
    /// Cells along x and y (each at least 1).
    let columns: Int
    let rows: Int
    let cellWidth: Double
    let cellHeight: Double
    /// Cells per unit along x and y: positions are mapped to cells by multiplying with these
    /// instead of dividing by the cell sizes (a division costs several multiplications, and the
    /// sorts map every vertex or box). The searches need a monotone map, all their cells from
    /// this one; the coverage pass also needs a row's centre line (origin + (row + ½) × height)
    /// to map to that row, which holds, as with the division, while a cell is many ulps of the
    /// coordinates high (the products are off by an ulp or so, against half a cell).
    let columnsPerUnit: Double
    let rowsPerUnit: Double

    /// A grid over the box `lo`…`hi` for `count` items whose mean extent is `meanExtent`, with at
    /// most `density` × √count cells a side.
    init(lo: SIMD2<Double>, hi: SIMD2<Double>, meanExtent: Double, count: Int, density: Double = 2) {
        let extent = hi - lo
        let meanSize = max(meanExtent, 1e-300)
        let limit = max(1.0, min(4096.0, Double(count).squareRoot() * density))
        origin = lo
        let columns = Int(min(limit, max(1, (extent.x / meanSize).rounded(.up))))
        let rows = Int(min(limit, max(1, (extent.y / meanSize).rounded(.up))))
        let width = extent.x > 0 ? extent.x / Double(columns) : 1
        let height = extent.y > 0 ? extent.y / Double(rows) : 1
        // A cell too small for its reciprocal (an extent of subnormal size): one cell a unit wide
        // instead, which holds the whole extent (and its centre line maps to it).
        (self.columns, cellWidth) = (1 / width).isFinite ? (columns, width) : (1, 1)
        (self.rows, cellHeight) = (1 / height).isFinite ? (rows, height) : (1, 1)
        columnsPerUnit = 1 / cellWidth
        rowsPerUnit = 1 / cellHeight
    }

    /// The column of x, clamped to the grid.
    @inline(__always)
    func column(_ x: Double) -> Int { ScreenGrid.cell((x - origin.x) * columnsPerUnit, count: columns) }

    /// The row of y, clamped to the grid.
    @inline(__always)
    func row(_ y: Double) -> Int { ScreenGrid.cell((y - origin.y) * rowsPerUnit, count: rows) }

    /// `position` (in cells) clamped to 0..<count without converting anything out of Int's range:
    /// bounds beyond Float's range become infinite, and an extent too wide for a Double makes the
    /// quotient infinite or NaN, which `Int(_:)` would trap on. NaN goes to cell 0.
    @inline(__always)
    static func cell(_ position: Double, count: Int) -> Int {
        position >= 0 ? (position < Double(count) ? Int(position) : count - 1) : 0
    }
}

extension MutableCollection where Self: RandomAccessCollection {
    /// Sorts in place by insertion, stably: for the short runs and buckets of the sorts, where it
    /// beats the standard sort's set-up.
    @inline(__always)
    mutating func insertionSort(by areInIncreasingOrder: (Element, Element) -> Bool) {
        guard count > 1 else { return }
        var i = index(after: startIndex)
        while i != endIndex {
            let moving = self[i]
            var j = i
            while j != startIndex {
                let previous = index(before: j)
                guard areInIncreasingOrder(moving, self[previous]) else { break }
                self[j] = self[previous]
                j = previous
            }
            self[j] = moving
            formIndex(after: &i)
        }
    }
}
