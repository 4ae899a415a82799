import SurfaceKit

/// Which triangles can overlap another on screen, found without testing pairs.
///
/// The number of triangles covering a screen point x is the winding number around x of the sum of
/// all triangles' boundaries, each run counterclockwise on screen. Where two triangles share an
/// edge (by vertex indices) and lie on opposite sides of it, the edge is run once each way and
/// cancels; what is left, the residual chain R, is the mesh's border, its folds (edges whose two
/// triangles lie on the same side) and whatever a soup leaves unshared. So the cover count is
/// constant on any region that R does not meet, and a triangle that R does not touch is covered
/// everywhere as often as its centroid: when that is once, it overlaps nothing. Only the triangles
/// R touches and those covered twice or more can be in an overlapping pair.
///
/// R goes into a uniform grid. A cell that no segment of R meets has one cover count, the winding
/// number at its centre, which one sweep along each row's centre line gives for all cells at once;
/// a triangle inside such cells needs nothing else (most do). A triangle in a cell with segments is
/// tested against them, and when none touches it, its count is the winding number at its centroid,
/// counted along its row.
///
/// For a tessellated surface R is small (border and fold lines), so this costs a pass over the
/// edges and one over the triangles; when R is large (a soup) it gives up and keeps everything.
enum OverlapCandidates {
    /// Cells the grid of R may have beyond two a triangle, so that a small mesh still gets a grid
    /// fine enough to leave most of its triangles in cells R does not meet.
    static let minimumCells = 4_096
    /// Triangles a coverage budget belongs to: fixed blocks rather than the cores' chunks, so the
    /// candidates (and the order made from them) are the same on any number of cores. A block's
    /// budget is spent in triangle order, so the block is also the pass's unit of work; its size
    /// fixes which triangles are kept where a budget runs out, and so is part of the output.
    static let budgetBlock = 65_536
    /// Rows and entries a block may look at, per triangle and in all: once spent, the rest of the
    /// block is kept, so a few huge triangles or crowded rows cannot make the pass quadratic.
    static let budgetPerTriangle = 64
    static let budgetAllowance = 65_536
    /// Segments of R a band of rows takes at least when the crossings are added on several cores:
    /// each band reads every segment, so fewer are cheaper on one.
    static let minimumCrossingBand = 1_024
    /// Cells a core takes at least when the winding numbers and bits are made row by row (39
    /// chunks on W3's grid of R, so that 16 cores all take some).
    static let markedCellsChunk = 16_384

    /// The triangles that may overlap another, ascending; nil when the test would cost more than it
    /// can save. `signs` are the screen-area signs, 0 for triangles that cover no area (never
    /// candidates); every index in `triangles` must be below `screen.count`. `scale` sets the touch
    /// tolerance (default: the larger side of R's bounds, which are the bounds of all triangles
    /// with area, since every covered point is enclosed by R). `topology`, when given, must be the
    /// pairing of exactly these triangles and vertices; R then comes from it instead of a bucket
    /// sort of the half-edges (the same R).
    static func candidateList(
        screen: UnsafeBufferPointer<Point3D>, triangles: UnsafeBufferPointer<SIMD3<Int32>>, signs: UnsafeBufferPointer<Int8>,
        scale: Double?, topology: SortTopology? = nil
    ) -> [Int32]? {
        find(screen: screen, triangles: triangles, signs: signs, scale: scale, topology: topology)?.triangles
    }

    /// The candidates of `candidateList`, with the vertices of R.
    struct Candidates {
        /// The triangles that may overlap another, ascending.
        var triangles: [Int32]
        /// The ends of R's segments (each as often as it ends one): every other vertex has each
        /// of its edges run once each way, so its triangles wind round it a whole number of times.
        var residualVertices: [Int32]
    }

    /// `candidateList(screen:triangles:signs:scale:topology:)` with the vertices of R.
    static func find(
        screen: UnsafeBufferPointer<Point3D>, triangles: UnsafeBufferPointer<SIMD3<Int32>>, signs: UnsafeBufferPointer<Int8>,
        scale: Double?, topology: SortTopology? = nil
    ) -> Candidates? {
        guard fits(triangleCount: triangles.count, vertexCount: screen.count),
            let residual = topology?.residual(signs: signs)
                ?? residualChain(vertexCount: screen.count, triangles: triangles, signs: signs)
        else { return nil }
        return find(screen: screen, triangles: triangles, signs: signs, scale: scale, residual: residual)
    }

    /// Whether `find` can count `n` triangles over `vertexCount` vertices: edge and cell counts are
    /// kept in Int32, half-edge codes in UInt32.
    static func fits(triangleCount n: Int, vertexCount: Int) -> Bool {
        8 * n + 1_024 < Int(Int32.max) && vertexCount < Int(Int32.max) / 2
    }

    /// `find(screen:triangles:signs:scale:topology:)` with R made already (by `residualChain` or
    /// `signsAndResidualChain`, for triangles and vertices that `fits`).
    static func find(
        screen: UnsafeBufferPointer<Point3D>, triangles: UnsafeBufferPointer<SIMD3<Int32>>, signs: UnsafeBufferPointer<Int8>,
        scale: Double?, residual: [(a: Int32, b: Int32, weight: Int32)]
    ) -> Candidates? {
        let n = triangles.count
        let vertexCount = screen.count
        guard residual.count <= n / 4 + 64 else { return nil }
        var active: [Int32] = []
        guard !residual.isEmpty else {
            // Every edge cancels: only possible without area; keep whatever has some.
            for t in 0..<n where signs[t] != 0 { active.append(Int32(t)) }
            return Candidates(triangles: active, residualVertices: [])
        }

        guard let (grid, bins, lo, hi) = residualGrid(residual, screen: screen, triangleCount: n) else { return nil }
        let nx = grid.columns, ny = grid.rows
        let tables = CoverageTables(columns: nx, rows: ny, vertexCount: vertexCount, triangleCount: n)
        defer { withExtendedLifetime(tables.scratch) {} }
        let rowBytes = tables.rowBytes
        let winding = tables.winding
        addCrossings(of: residual, screen: screen, grid: grid, into: winding)
        bins.start.withUnsafeBufferPointer { start in
            markCells(
                grid: grid, start: start, winding: winding, attention: tables.attention, segmentBits: tables.segmentBits,
                rowBytes: rowBytes)
        }
        let (attentionBits, segmentCellBits) = (tables.attentionBits, tables.segmentCellBits)
        markEnds(of: residual, in: tables.residualBits)
        let residualVertices = UnsafeBufferPointer(tables.residualBits)
        let segments = residualSegments(residual, screen: screen, grid: grid)
        // Orientations within this of zero count as touching: the test only has to be conservative.
        // Constants for the loop on all cores (a captured `var` would be checked at every read).
        let (low, high) = (lo, hi)
        let size = scale ?? max(high.x - low.x, high.y - low.y)
        let touch = 1e-12 * size * size
        // Each vertex's cell (column, row): most triangles need only their corners' cells.
        let vertexCells = tables.vertexCells
        fillCells(of: screen, grid: grid, into: vertexCells)
        let cells = UnsafeBufferPointer(vertexCells)
        let flags = tables.flags
        let counts = bins.start.withUnsafeBufferPointer { start in
            bins.members.withUnsafeBufferPointer { members in
                bins.columns.withUnsafeBufferPointer { memberColumns in
                    segments.withUnsafeBufferPointer { segments in
                        let scan = CoverScan(
                            screen: screen, triangles: triangles, signs: signs, grid: grid, rowBytes: rowBytes,
                            winding: UnsafeBufferPointer(winding), attentionBits: attentionBits, segmentCellBits: segmentCellBits,
                            residualVertices: residualVertices, cells: cells, start: start, members: members,
                            memberColumns: memberColumns, segments: segments, low: low, high: high, touch: touch)
                        return scan.flag(into: flags)
                    }
                }
            }
        }
        return Candidates(triangles: flagged(UnsafeBufferPointer(flags), counts: counts), residualVertices: residualEnds(residual))
    }

    /// The indices whose flag is set, ascending, on all cores: `counts` has each block of
    /// `budgetBlock` flags' count of set ones (as `CoverScan.flag(into:)` returns them), their
    /// running sums place each block's indices, and every block writes its own range (the same
    /// list as one pass in order).
    static func flagged(_ flags: UnsafeBufferPointer<UInt8>, counts: [Int]) -> [Int32] {
        let n = flags.count
        let blocks = (n + budgetBlock - 1) / budgetBlock
        @inline(__always) func block(_ b: Int) -> Range<Int> { b * budgetBlock..<Swift.min(n, (b + 1) * budgetBlock) }
        assert(counts.count == blocks, "a count for every block")
        var starts = [Int](repeating: 0, count: blocks + 1)
        for b in 0..<blocks { starts[b + 1] = starts[b] + counts[b] }
        let total = starts[blocks]
        return [Int32](unsafeUninitializedCapacity: total) { buffer, initialized in
            if let base = buffer.baseAddress {
                let out = SharedMutableBuffer(base: base)
                parallelChunks(blocks, minimumChunk: 1) { chunk in
                    for b in chunk {
                        var k = starts[b]
                        for t in block(b) where flags[t] != 0 {
                            out.base[k] = Int32(truncatingIfNeeded: t)
                            k += 1
                        }
                    }
                }
            }
            initialized = total
        }
    }
}

extension OverlapCandidates {
    /// The tables of the coverage pass: the cells' winding numbers, each vertex's cell, each
    /// triangle's answer and bits per cell and per vertex, in one fresh mapping (zero pages, huge
    /// ones; see `SortScratch`): as separate arrays they were 6 MB of 4 KiB pages on W3, each faulted
    /// in on its own. The tables that are added to or OR-ed into come first and are the only ones
    /// cleared when the mapping is one an earlier sort handed back; each vertex's cell and each
    /// triangle's answer are written in full before they are read, so they need no clearing (on
    /// W3 that is 3.9 of the 6.7 MB). The buffers live as long as `scratch`.
    struct CoverageTables {
        let scratch: SortScratch
        /// Bytes per grid row in the bit tables: a bit per cell, rows rounded up to whole bytes.
        let rowBytes: Int
        let winding: UnsafeMutableBufferPointer<Int32>
        /// Each vertex's cell (column, row).
        let vertexCells: UnsafeMutableBufferPointer<SIMD2<Int16>>
        /// Each triangle's answer.
        let flags: UnsafeMutableBufferPointer<UInt8>
        /// A bit per cell that needs attention, with 8 bytes of slack for unaligned reads.
        let attention: UnsafeMutableBufferPointer<UInt8>
        /// The same for the cells that a segment's box meets alone.
        let segmentBits: UnsafeMutableBufferPointer<UInt8>
        /// A bit per vertex: the ends of R's segments.
        let residualBits: UnsafeMutableBufferPointer<UInt8>
        /// `attention` and `segmentBits` as raw memory, for the scan's unaligned word reads.
        let attentionBits: UnsafeRawPointer
        let segmentCellBits: UnsafeRawPointer

        init(columns nx: Int, rows ny: Int, vertexCount: Int, triangleCount n: Int) {
            var layout = SortScratch.Layout()
            // Read as zero before they are written: the crossings are added into the winding
            // numbers, and the bits are OR-ed in.
            let windingAt = layout.reserve(Int32.self, count: nx * ny)
            rowBytes = (nx + 7) / 8
            let attentionAt = layout.reserve(UInt8.self, count: rowBytes * ny + 8)
            let segmentBitsAt = layout.reserve(UInt8.self, count: rowBytes * ny + 8)
            let residualVerticesAt = layout.reserve(UInt8.self, count: (vertexCount + 7) / 8)
            let zeroedBytes = layout.bytes
            // Written in full (`fillCells`, `CoverScan.flag`) before they are read.
            let cellsAt = layout.reserve(SIMD2<Int16>.self, count: vertexCount)
            let flagsAt = layout.reserve(UInt8.self, count: n)
            scratch = SortScratch(bytes: layout.bytes, zeroedBytes: zeroedBytes)
            winding = scratch.buffer(of: Int32.self, count: nx * ny, at: windingAt)
            vertexCells = scratch.buffer(of: SIMD2<Int16>.self, count: vertexCount, at: cellsAt)
            flags = scratch.buffer(of: UInt8.self, count: n, at: flagsAt)
            attention = scratch.buffer(of: UInt8.self, count: rowBytes * ny + 8, at: attentionAt)
            segmentBits = scratch.buffer(of: UInt8.self, count: rowBytes * ny + 8, at: segmentBitsAt)
            residualBits = scratch.buffer(of: UInt8.self, count: (vertexCount + 7) / 8, at: residualVerticesAt)
            attentionBits = UnsafeRawPointer(scratch.base + attentionAt)
            segmentCellBits = UnsafeRawPointer(scratch.base + segmentBitsAt)
        }
    }

    /// Sets the bit of both ends of every segment of R in `bits` (a bit per vertex).
    static func markEnds(of residual: [(a: Int32, b: Int32, weight: Int32)], in bits: UnsafeMutableBufferPointer<UInt8>) {
        for s in residual {
            bits[Int(s.a) >> 3] |= 1 << UInt8(s.a & 7)
            bits[Int(s.b) >> 3] |= 1 << UInt8(s.b & 7)
        }
    }

    /// R's segments with their end points and first and last column, for the coverage tests (in
    /// cache).
    static func residualSegments(
        _ residual: [(a: Int32, b: Int32, weight: Int32)], screen: UnsafeBufferPointer<Point3D>, grid: ScreenGrid
    ) -> [Segment] {
        residual.map { s in
            let p = screen[Int(s.a)], q = screen[Int(s.b)]
            return Segment(
                p: SIMD2(p.x, p.y), q: SIMD2(q.x, q.y), a: s.a, b: s.b, weight: s.weight,
                firstColumn: Int32(grid.column(min(p.x, q.x))), lastColumn: Int32(grid.column(max(p.x, q.x))))
        }
    }

    /// The ends of R's segments, each as often as it ends one.
    static func residualEnds(_ residual: [(a: Int32, b: Int32, weight: Int32)]) -> [Int32] {
        var ends: [Int32] = []
        ends.reserveCapacity(2 * residual.count)
        for s in residual {
            ends.append(s.a)
            ends.append(s.b)
        }
        return ends
    }
}
