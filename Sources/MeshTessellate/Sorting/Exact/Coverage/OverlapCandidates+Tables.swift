import SurfaceKit

// The tables the coverage pass reads, each built by one pass.
extension OverlapCandidates {
    /// R in a uniform grid over its own bounds, cells about its mean segment length, with R's
    /// segments binned in every cell of their boxes; nil when R's bounds are not finite or the
    /// entries would pass their limit.
    static func residualGrid(
        _ residual: [(a: Int32, b: Int32, weight: Int32)], screen: UnsafeBufferPointer<Point3D>, triangleCount n: Int
    ) -> (grid: ScreenGrid, bins: ScreenGrid.Bins, lo: SIMD2<Double>, hi: SIMD2<Double>)? {
        var lo = SIMD2<Double>(.infinity, .infinity), hi = SIMD2<Double>(-.infinity, -.infinity)
        var sumLength = 0.0
        for s in residual {
            let p = screen[Int(s.a)], q = screen[Int(s.b)]
            lo = SIMD2(min(lo.x, p.x, q.x), min(lo.y, p.y, q.y))
            hi = SIMD2(max(hi.x, p.x, q.x), max(hi.y, p.y, q.y))
            sumLength += max(abs(q.x - p.x), abs(q.y - p.y))
        }
        guard lo.x.isFinite, lo.y.isFinite, hi.x.isFinite, hi.y.isFinite else { return nil }
        // Fine cells (up to 16 √|R| a side, but no more cells than about twice the triangles): a
        // triangle in a cell that R meets costs a test against its segments.
        let density = min(16, (Double(2 * n + minimumCells) / Double(residual.count)).squareRoot())
        let grid = ScreenGrid(lo: lo, hi: hi, meanExtent: sumLength / Double(residual.count), count: residual.count, density: density)
        // R's segments in every cell of their boxes, with each entry's column, so a row's entries
        // right of a point are one range (a few screen-long segments would fill every cell: past
        // a few entries a triangle this gives up).
        let segmentCells = residual.map { s -> SIMD4<Int32> in
            let p = screen[Int(s.a)], q = screen[Int(s.b)]
            return SIMD4(
                Int32(grid.column(min(p.x, q.x))), Int32(grid.row(min(p.y, q.y))), Int32(grid.column(max(p.x, q.x))),
                Int32(grid.row(max(p.y, q.y))))
        }
        guard let bins = grid.bin(cells: segmentCells, entryLimit: 8 * n + 1_024, withColumns: true) else { return nil }
        return (grid, bins, lo, hi)
    }

    /// Adds R's crossings of every row's centre line to the cell where each crossing lies, on all
    /// cores: each part takes a band of rows and every segment's crossings in it (the bands'
    /// cells are apart, and integer sums do not depend on their order).
    static func addCrossings(
        of residual: [(a: Int32, b: Int32, weight: Int32)], screen: UnsafeBufferPointer<Point3D>, grid: ScreenGrid,
        into winding: UnsafeMutableBufferPointer<Int32>
    ) {
        // The winding number at the centre of every cell that no segment meets: R crosses each
        // row's centre line at points whose cells hold the crossing segment, so the crossings right
        // of such a cell's column are exactly those right of its centre. (Half-open in y, so a line
        // through a vertex of R counts it once; R is a cycle, the boundary of the triangles.)
        let nx = grid.columns, ny = grid.rows
        let bands = Swift.max(1, Swift.min(ProcessInfoCores.count, ny, residual.count / minimumCrossingBand))
        guard let base = winding.baseAddress else { return }
        let out = SharedMutableBuffer(base: base)
        residual.withUnsafeBufferPointer { residual in
            parallelChunks(bands, minimumChunk: 1) { chunk in
                for band in chunk {
                    let rows = ny * band / bands..<ny * (band + 1) / bands
                    for s in residual {
                        let p = screen[Int(s.a)], q = screen[Int(s.b)]
                        guard p.y != q.y else { continue }
                        let up = p.y < q.y
                        let first = Swift.max(grid.row(Swift.min(p.y, q.y)), rows.lowerBound)
                        let last = Swift.min(grid.row(Swift.max(p.y, q.y)), rows.upperBound - 1)
                        guard first <= last else { continue }
                        for y in first...last {
                            let centre = grid.origin.y + (Double(y) + 0.5) * grid.cellHeight
                            guard up ? (p.y <= centre && centre < q.y) : (q.y <= centre && centre < p.y) else { continue }
                            // The fraction along the segment first (in [0, 1], finite even when the
                            // rise is subnormal, where the slope would overflow and 0 × ∞ give NaN);
                            // a crossing that still comes out NaN (coordinates near the largest
                            // double) falls back to p, and the clamp keeps it inside the segment's
                            // own cells.
                            let along = p.x + (centre - p.y) / (q.y - p.y) * (q.x - p.x)
                            let x = along.isNaN ? p.x : Swift.min(Swift.max(along, Swift.min(p.x, q.x)), Swift.max(p.x, q.x))
                            out.base[y * nx + grid.column(x)] += up ? s.weight : -s.weight
                        }
                    }
                }
            }
        }
    }

    /// Turns each row's crossings into the winding number of every cell (the crossings right of
    /// it) and sets the bits of the two tables, rows on all cores (a row's cells, and its bytes of
    /// the bit tables, are its own).
    static func markCells(
        grid: ScreenGrid, start: UnsafeBufferPointer<Int32>, winding: UnsafeMutableBufferPointer<Int32>,
        attention: UnsafeMutableBufferPointer<UInt8>, segmentBits: UnsafeMutableBufferPointer<UInt8>, rowBytes: Int
    ) {
        // With the winding numbers, a bit for each cell that needs a closer look: one that a segment's box meets,
        // or a clear one covered other than once. A triangle whose box has none of these bits is
        // covered once everywhere and overlaps nothing: one read per row of a table small enough
        // for the L2 cache (80 KB on W3, against 2.5 MB for the cells' offsets and as much for
        // the winding numbers), and most triangles need nothing else. A second table has the bits
        // of the cells with segments alone: a box with none of those is clear, all its cells
        // covered as often (R meets none of them, and they are connected), which one read a row
        // of it tells instead of two reads a row of the offsets.
        let nx = grid.columns, ny = grid.rows
        guard let wBase = winding.baseAddress, let aBase = attention.baseAddress, let sBase = segmentBits.baseAddress else { return }
        let windingOut = SharedMutableBuffer(base: wBase)
        let (attentionOut, segmentOut) = (SharedMutableBuffer(base: aBase), SharedMutableBuffer(base: sBase))
        parallelChunks(ny, minimumChunk: Swift.max(1, markedCellsChunk / Swift.max(nx, 1))) { rows in
            for y in rows {
                var right: Int32 = 0
                for x in stride(from: nx - 1, through: 0, by: -1) {
                    let here = windingOut.base[y * nx + x]
                    windingOut.base[y * nx + x] = right
                    let bit: UInt8 = 1 << UInt8(x & 7)
                    if start[y * nx + x] != start[y * nx + x + 1] {
                        attentionOut.base[y * rowBytes + x >> 3] |= bit
                        segmentOut.base[y * rowBytes + x >> 3] |= bit
                    } else if right != 1 {
                        attentionOut.base[y * rowBytes + x >> 3] |= bit
                    }
                    right &+= here
                }
            }
        }
    }

    /// Each vertex's cell (column, row), on all cores.
    static func fillCells(
        of screen: UnsafeBufferPointer<Point3D>, grid: ScreenGrid, into vertexCells: UnsafeMutableBufferPointer<SIMD2<Int16>>
    ) {
        if let base = vertexCells.baseAddress {
            let out = SharedMutableBuffer(base: base)
            parallelChunks(screen.count, minimumChunk: SortParallelism.minimumChunk) { range in
                for v in range {
                    let p = screen[v]
                    out.base[v] = SIMD2(Int16(truncatingIfNeeded: grid.column(p.x)), Int16(truncatingIfNeeded: grid.row(p.y)))
                }
            }
        }
    }
}
