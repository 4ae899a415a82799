/// The uniform grid over screen boxes that the overlap searches bin triangles into: cells about
/// the mean triangle size, at most 4096 a side and about twice the square root of the triangle
/// count, so that a cell holds a few triangles and the grid itself stays small.
struct ScreenGrid {
    /// The lower corner of the area covered.
    let origin: SIMD2<Double>
    /// Cells along x and y (each at least 1).
    let columns: Int
    let rows: Int
    let cellWidth: Double
    let cellHeight: Double

    /// A grid over the box `lo`…`hi` for `count` triangles whose mean extent is `meanExtent`.
    init(lo: SIMD2<Double>, hi: SIMD2<Double>, meanExtent: Double, count: Int) {
        let extent = hi - lo
        let meanSize = max(meanExtent, 1e-300)
        let limit = max(1.0, min(4096.0, Double(count).squareRoot() * 2))
        origin = lo
        columns = Int(min(limit, max(1, (extent.x / meanSize).rounded(.up))))
        rows = Int(min(limit, max(1, (extent.y / meanSize).rounded(.up))))
        cellWidth = extent.x > 0 ? extent.x / Double(columns) : 1
        cellHeight = extent.y > 0 ? extent.y / Double(rows) : 1
    }

    /// The column of x, clamped to the grid.
    @inline(__always)
    func column(_ x: Double) -> Int { min(columns - 1, max(0, Int((x - origin.x) / cellWidth))) }

    /// The row of y, clamped to the grid.
    @inline(__always)
    func row(_ y: Double) -> Int { min(rows - 1, max(0, Int((y - origin.y) / cellHeight))) }
}
