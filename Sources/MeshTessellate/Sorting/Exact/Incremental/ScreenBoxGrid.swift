/// A uniform grid over the screen whose cells list the triangles whose boxes meet them, kept from
/// one edit to the next: a moved triangle is taken out of the cells of its old box and put into
/// those of its new one, so finding the triangles near a box costs a few cells, not a pass over
/// every triangle.
///
/// A box's cells are its corners' cells, clamped to the grid: a box outside the grid's bounds (a
/// triangle moved past them since the grid was made) lands in the border cells, and two boxes that
/// meet always share a cell, since clamping keeps the order of the coordinates.
struct ScreenBoxGrid: Sendable {
    /// At most this many cells a triangle: a grid much finer than the triangles would list each
    /// one in many cells, a coarser one puts many into each cell. One cell a triangle keeps both
    /// small.
    static let cellsPerTriangle = 1.0

    let originX: Double
    let originY: Double
    /// Cells per unit of screen length.
    let scale: Double
    let columns: Int
    let rows: Int
    private(set) var cells: [[Int32]]

    /// A grid over `boxes` (minX, minY, maxX, maxY) of the triangles `active` says take part,
    /// with cells about as large as their mean larger side, and each such triangle listed in its
    /// cells.
    init(boxes: [SIMD4<Float>], active: [Bool]) {
        var lo = SIMD2<Double>(.infinity, .infinity), hi = SIMD2<Double>(-.infinity, -.infinity)
        var sumExtent = 0.0, count = 0
        for (t, box) in boxes.enumerated() where active[t] {
            let b = SIMD4<Double>(Double(box.x), Double(box.y), Double(box.z), Double(box.w))
            lo = SIMD2(min(lo.x, b.x), min(lo.y, b.y))
            hi = SIMD2(max(hi.x, b.z), max(hi.y, b.w))
            sumExtent += max(b.z - b.x, b.w - b.y)
            count += 1
        }
        let width = hi.x - lo.x, height = hi.y - lo.y
        // No more cells than triangles (a few large triangles among many small ones): the side
        // is at least that of `most` square cells over the bounds, or over their longer side.
        let most = max(1, Double(count) * Self.cellsPerTriangle)
        let side = max(count > 0 ? sumExtent / Double(count) : 0, (width * height / most).squareRoot(), max(width, height) / most)
        if count > 0, side > 0, side.isFinite, width.isFinite, height.isFinite {
            originX = lo.x
            originY = lo.y
            scale = 1 / side
            columns = max(1, min(Int(width / side) + 1, Int(most)))
            rows = max(1, min(Int(height / side) + 1, Int(most) / columns))
        } else {
            (originX, originY, scale, columns, rows) = (0, 0, 0, 1, 1)
        }
        cells = [[Int32]](repeating: [], count: columns * rows)
        for (t, box) in boxes.enumerated() where active[t] { insert(Int32(t), box: box) }
    }

    /// The cells of `box`: first and last column and row, clamped to the grid.
    @inline(__always)
    func cellRange(_ box: SIMD4<Float>) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
        @inline(__always) func cell(_ v: Float, _ origin: Double, _ count: Int) -> Int {
            // Clamped before the conversion, which traps on values out of Int's range.
            let c = ((Double(v) - origin) * scale).rounded(.down)
            return c >= Double(count - 1) ? count - 1 : (c > 0 ? Int(c) : 0)
        }
        return (cell(box.x, originX, columns), cell(box.y, originY, rows), cell(box.z, originX, columns), cell(box.w, originY, rows))
    }

    mutating func insert(_ t: Int32, box: SIMD4<Float>) {
        let r = cellRange(box)
        for y in r.y0...r.y1 {
            for x in r.x0...r.x1 { cells[y * columns + x].append(t) }
        }
    }

    /// Takes `t` out of the cells of `box`, the box it was inserted with.
    mutating func remove(_ t: Int32, box: SIMD4<Float>) {
        let r = cellRange(box)
        for y in r.y0...r.y1 {
            for x in r.x0...r.x1 {
                let cell = y * columns + x
                if let k = cells[cell].firstIndex(of: t) { cells[cell].swapAt(k, cells[cell].count - 1) }
                if cells[cell].last == t { cells[cell].removeLast() }
            }
        }
    }
}
