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
        let n = triangles.count
        let vertexCount = screen.count
        // Edge and cell counts are kept in Int32, half-edge codes in UInt32.
        guard 8 * n + 1_024 < Int(Int32.max), vertexCount < Int(Int32.max) / 2 else { return nil }
        guard let residual = topology?.residual(signs: signs) ?? residualChain(vertexCount: vertexCount, triangles: triangles, signs: signs)
        else { return nil }
        guard residual.count <= n / 4 + 64 else { return nil }
        var active: [Int32] = []
        guard !residual.isEmpty else {
            // Every edge cancels: only possible without area; keep whatever has some.
            for t in 0..<n where signs[t] != 0 { active.append(Int32(t)) }
            return Candidates(triangles: active, residualVertices: [])
        }

        // R in a uniform grid over its own bounds, cells about its mean segment length.
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
        let density = min(16, (Double(2 * n + 4_096) / Double(residual.count)).squareRoot())
        let grid = ScreenGrid(lo: lo, hi: hi, meanExtent: sumLength / Double(residual.count), count: residual.count, density: density)
        let nx = grid.columns, ny = grid.rows
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
        // The cells' winding numbers, each vertex's cell, each triangle's answer and a bit per cell
        // (below), in one fresh mapping (zero pages, huge ones; see `SortScratch`): as separate arrays they were 6 MB of
        // 4 KiB pages on W3, each faulted in on its own.
        var layout = SortScratch.Layout()
        let windingAt = layout.reserve(Int32.self, count: nx * ny)
        let cellsAt = layout.reserve(SIMD2<Int16>.self, count: vertexCount)
        let flagsAt = layout.reserve(UInt8.self, count: n)
        // A bit per cell, rows rounded up to whole bytes, 8 bytes of slack for unaligned reads.
        let rowBytes = (nx + 7) / 8
        let attentionAt = layout.reserve(UInt8.self, count: rowBytes * ny + 8)
        // The same for the cells that a segment's box meets alone.
        let segmentBitsAt = layout.reserve(UInt8.self, count: rowBytes * ny + 8)
        // A bit per vertex: the ends of R's segments.
        let residualVerticesAt = layout.reserve(UInt8.self, count: (vertexCount + 7) / 8)
        let scratch = SortScratch(bytes: layout.bytes, zeroed: true)
        defer { withExtendedLifetime(scratch) {} }

        // The winding number at the centre of every cell that no segment meets: R crosses each
        // row's centre line at points whose cells hold the crossing segment, so the crossings right
        // of such a cell's column are exactly those right of its centre. (Half-open in y, so a line
        // through a vertex of R counts it once; R is a cycle, the boundary of the triangles.)
        let winding = scratch.buffer(of: Int32.self, count: nx * ny, at: windingAt)
        for s in residual {
            let p = screen[Int(s.a)], q = screen[Int(s.b)]
            guard p.y != q.y else { continue }
            let up = p.y < q.y
            for y in grid.row(min(p.y, q.y))...grid.row(max(p.y, q.y)) {
                let centre = grid.origin.y + (Double(y) + 0.5) * grid.cellHeight
                guard up ? (p.y <= centre && centre < q.y) : (q.y <= centre && centre < p.y) else { continue }
                // The fraction along the segment first (in [0, 1], finite even when the rise is
                // subnormal, where the slope would overflow and 0 × ∞ give NaN); a crossing that
                // still comes out NaN (coordinates near the largest double) falls back to p, and
                // the clamp keeps it inside the segment's own cells.
                let along = p.x + (centre - p.y) / (q.y - p.y) * (q.x - p.x)
                let x = along.isNaN ? p.x : Swift.min(Swift.max(along, Swift.min(p.x, q.x)), Swift.max(p.x, q.x))
                winding[y * nx + grid.column(x)] += up ? s.weight : -s.weight
            }
        }
        // With them, a bit for each cell that needs a closer look: one that a segment's box meets,
        // or a clear one covered other than once. A triangle whose box has none of these bits is
        // covered once everywhere and overlaps nothing: one read per row of a table small enough
        // for the L2 cache (80 KB on W3, against 2.5 MB for the cells' offsets and as much for
        // the winding numbers), and most triangles need nothing else. A second table has the bits
        // of the cells with segments alone: a box with none of those is clear, all its cells
        // covered as often (R meets none of them, and they are connected), which one read a row
        // of it tells instead of two reads a row of the offsets.
        let attention = scratch.buffer(of: UInt8.self, count: rowBytes * ny + 8, at: attentionAt)
        let segmentBits = scratch.buffer(of: UInt8.self, count: rowBytes * ny + 8, at: segmentBitsAt)
        bins.start.withUnsafeBufferPointer { start in
            for y in 0..<ny {
                var right: Int32 = 0
                for x in stride(from: nx - 1, through: 0, by: -1) {
                    let here = winding[y * nx + x]
                    winding[y * nx + x] = right
                    let bit: UInt8 = 1 << UInt8(x & 7)
                    if start[y * nx + x] != start[y * nx + x + 1] {
                        attention[y * rowBytes + x >> 3] |= bit
                        segmentBits[y * rowBytes + x >> 3] |= bit
                    } else if right != 1 {
                        attention[y * rowBytes + x >> 3] |= bit
                    }
                    right &+= here
                }
            }
        }
        let attentionBits = UnsafeRawPointer(scratch.base + attentionAt)
        let segmentCellBits = UnsafeRawPointer(scratch.base + segmentBitsAt)
        let residualBits = scratch.buffer(of: UInt8.self, count: (vertexCount + 7) / 8, at: residualVerticesAt)
        for s in residual {
            residualBits[Int(s.a) >> 3] |= 1 << UInt8(s.a & 7)
            residualBits[Int(s.b) >> 3] |= 1 << UInt8(s.b & 7)
        }
        let residualVertices = UnsafeBufferPointer(residualBits)

        // R's segments with their end points and first column, for the tests below (in cache).
        let segments = residual.map { s in
            let p = screen[Int(s.a)], q = screen[Int(s.b)]
            return Segment(
                p: SIMD2(p.x, p.y), q: SIMD2(q.x, q.y), a: s.a, b: s.b, weight: s.weight,
                firstColumn: Int32(grid.column(min(p.x, q.x))), lastColumn: Int32(grid.column(max(p.x, q.x))))
        }
        // Orientations within this of zero count as touching: the test only has to be conservative.
        // Constants for the loop on all cores (a captured `var` would be checked at every read).
        let (low, high) = (lo, hi)
        let size = scale ?? max(high.x - low.x, high.y - low.y)
        let touch = 1e-12 * size * size
        // Each vertex's cell (column, row): most triangles need only their corners' cells.
        let vertexCells = scratch.buffer(of: SIMD2<Int16>.self, count: vertexCount, at: cellsAt)
        if let base = vertexCells.baseAddress {
            let out = SharedMutableBuffer(base: base)
            parallelChunks(vertexCount, minimumChunk: 65_536) { range in
                for v in range {
                    let p = screen[v]
                    out.base[v] = SIMD2(Int16(truncatingIfNeeded: grid.column(p.x)), Int16(truncatingIfNeeded: grid.row(p.y)))
                }
            }
        }
        let cells = UnsafeBufferPointer(vertexCells)
        let flags = scratch.buffer(of: UInt8.self, count: n, at: flagsAt)
        bins.start.withUnsafeBufferPointer { start in
            bins.members.withUnsafeBufferPointer { members in
                bins.columns.withUnsafeBufferPointer { memberColumns in
                    segments.withUnsafeBufferPointer { segments in
                        /// The cells of the box of the triangle with corners c, lowest and highest
                        /// (column, row), from its corners' cells: the cell functions are monotone,
                        /// so these are the cells of the box's sides.
                        @inline(__always)
                        func cellBox(_ c: SIMD3<Int32>) -> (lower: SIMD2<Int16>, upper: SIMD2<Int16>) {
                            let k0 = cells[Int(c.x)], k1 = cells[Int(c.y)], k2 = cells[Int(c.z)]
                            return (pointwiseMin(pointwiseMin(k0, k1), k2), pointwiseMax(pointwiseMax(k0, k1), k2))
                        }
                        /// How often the triangle with counterclockwise corners c and cells `box` is
                        /// covered, when R does not touch it (it may overlap another unless that is
                        /// once); nil when R touches it or the budget is spent (it is kept). `budget`
                        /// counts the rows and entries looked at; once spent, every triangle is kept
                        /// (keeping one is always safe), so a few huge triangles or crowded rows
                        /// cannot make this pass quadratic. `previous`: the corners (in any order)
                        /// and count of the triangle listed just before, when its count is known.
                        func coverCount(
                            _ c: SIMD3<Int32>, _ box: (lower: SIMD2<Int16>, upper: SIMD2<Int16>), _ budget: inout Int,
                            previous: (corners: SIMD3<Int32>, count: Int32)?
                        ) -> Int32? {
                            guard budget > 0 else { return nil }
                            budget -= Int(box.upper.y) - Int(box.lower.y) + 1
                            if quiet(box.lower, box.upper) { return 1 }
                            // Cells R does not meet (inside R's bounds, which hold every covered point).
                            if clear(box.lower, box.upper) { return winding[Int(box.lower.y) * nx + Int(box.lower.x)] }
                            if touched(c, nil, box.lower, box.upper, &budget).first { return nil }
                            return untouchedCount(c, screen[Int(c.x)], screen[Int(c.y)], screen[Int(c.z)], &budget, previous: previous)
                        }
                        /// Whether the triangle with counterclockwise corners c, and the one with
                        /// corners e when given (their cells from `lower` to `upper` together), are
                        /// each touched by R or outside R's bounds (only by rounding: R encloses
                        /// everything covered): one look at the segments listed in those cells for
                        /// both (a tessellation's quad), each segment tested against the triangles
                        /// whose boxes it meets (exact comparisons: most segments listed in the
                        /// cells stop there, for four comparisons instead of the test). A segment
                        /// that meets a triangle meets one of its cells, so this tests the same
                        /// segments as a look for each would. `budget` is charged the entries.
                        func touched(
                            _ c: SIMD3<Int32>, _ e: SIMD3<Int32>?, _ lower: SIMD2<Int16>, _ upper: SIMD2<Int16>, _ budget: inout Int
                        ) -> (first: Bool, second: Bool) {
                            let x0 = Int(lower.x), x1 = Int(upper.x)
                            let other = e ?? c
                            let a = screen[Int(c.x)], b = screen[Int(c.y)], d = screen[Int(c.z)]
                            let a2 = screen[Int(other.x)], b2 = screen[Int(other.y)], d2 = screen[Int(other.z)]
                            let first = SIMD4(min(a.x, b.x, d.x), min(a.y, b.y, d.y), max(a.x, b.x, d.x), max(a.y, b.y, d.y))
                            let second = SIMD4(
                                min(a2.x, b2.x, d2.x), min(a2.y, b2.y, d2.y), max(a2.x, b2.x, d2.x), max(a2.y, b2.y, d2.y))
                            // Without a second triangle, the look ends as soon as the first is touched.
                            var touchedFirst = !inside(first), touchedSecond = e == nil || !inside(second)
                            let firstLines = EdgeLines(a, b, d), secondLines = EdgeLines(a2, b2, d2)
                            for y in Int(lower.y)...Int(upper.y) {
                                budget -= Int(start[y * nx + x1 + 1] - start[y * nx + x0])
                                for m in Int(start[y * nx + x0])..<Int(start[y * nx + x1 + 1]) {
                                    if touchedFirst && touchedSecond { return (true, true) }
                                    let s = segments[Int(members[m])]
                                    if !touchedFirst, meets(s, first), touches(s, c, firstLines, touch) { touchedFirst = true }
                                    if !touchedSecond, meets(s, second), touches(s, other, secondLines, touch) { touchedSecond = true }
                                }
                            }
                            return (touchedFirst, touchedSecond)
                        }
                        /// Whether `bounds` (least x and y, greatest x and y) lies in R's bounds.
                        @inline(__always)
                        func inside(_ bounds: SIMD4<Double>) -> Bool {
                            bounds.x >= low.x && bounds.z <= high.x && bounds.y >= low.y && bounds.w <= high.y
                        }
                        /// Whether the box of segment s meets `bounds` (exact comparisons).
                        @inline(__always)
                        func meets(_ s: Segment, _ bounds: SIMD4<Double>) -> Bool {
                            !(min(s.p.x, s.q.x) > bounds.z || max(s.p.x, s.q.x) < bounds.x || min(s.p.y, s.q.y) > bounds.w
                                || max(s.p.y, s.q.y) < bounds.y)
                        }
                        /// How often the triangle with counterclockwise corners c (at a, b, d),
                        /// which R does not touch, is covered; nil once the budget is spent.
                        func untouchedCount(
                            _ c: SIMD3<Int32>, _ a: Point3D, _ b: Point3D, _ d: Point3D, _ budget: inout Int,
                            previous: (corners: SIMD3<Int32>, count: Int32)?
                        ) -> Int32? {
                            // Untouched, and so is the triangle before it, across an edge they share
                            // that is not in R (one end is no vertex of R): the same count. Near a
                            // point inside that edge there is no R (a segment there would touch both
                            // triangles), so the count is one number on both sides of it. On a
                            // tessellation most triangles that get this far follow their quad's
                            // other triangle or the neighbouring quad.
                            if let previous, sharesEdgeOffR(c, previous.corners) { return previous.count }
                            // Untouched: covered as often as at its centroid, whose winding number is
                            // read along its row. The budget is charged the shorter side of the row,
                            // as the full walk below reads. Usually it is enough to walk right over
                            // the cells with entries that follow the centroid's (each segment counted
                            // once, in its first cell from the centroid's) to the first cell without
                            // any: R meets no point of that clear cell, so its centre's winding number
                            // holds at the centroid's height too, and a segment listed before it cannot
                            // reach past it (the clear cell would then list it). Past the grid's last
                            // column the number is 0 (R encloses everything covered).
                            let centre = (a + b + d) / 3
                            let row = grid.row(centre.y), column = grid.column(centre.x)
                            let rowStart = Int(start[row * nx]), rowEnd = Int(start[row * nx + nx])
                            let here = Int(start[row * nx + column]), next = Int(start[row * nx + column + 1])
                            let allowance = min(rowEnd - here, next - rowStart)
                            budget -= allowance
                            var m = here
                            var reached = Int32(column)
                            var count: Int32 = 0
                            var settled = true
                            while m < rowEnd {
                                let entryColumn = memberColumns[m]
                                if entryColumn > reached + 1 { break }
                                // Longer than the shorter side: walk that side instead.
                                if m - here == allowance {
                                    settled = false
                                    break
                                }
                                reached = entryColumn
                                let s = segments[Int(members[m])]
                                m += 1
                                guard entryColumn == max(Int32(column), s.firstColumn) else { continue }
                                count += crossing(s, centre, toward: 1)
                            }
                            if settled {
                                if Int(reached) + 1 < nx { count += winding[row * nx + Int(reached) + 1] }
                                return count
                            }
                            // The whole shorter side: every crossing right of the centroid, or every
                            // one left of it (R is a cycle, so the two counts agree), each segment
                            // counted once (in its first cell from the centroid's).
                            count = 0
                            if rowEnd - here <= next - rowStart {
                                for m in here..<rowEnd {
                                    let s = segments[Int(members[m])]
                                    guard memberColumns[m] == max(Int32(column), s.firstColumn) else { continue }
                                    count += crossing(s, centre, toward: 1)
                                }
                            } else {
                                for m in rowStart..<next {
                                    let s = segments[Int(members[m])]
                                    guard memberColumns[m] == min(Int32(column), s.lastColumn) else { continue }
                                    count += crossing(s, centre, toward: -1)
                                }
                            }
                            return count
                        }
                        /// Whether no cell from `lower` to `upper` (column, row) has a bit in `bits`
                        /// (one of the two tables above). One word a row, for boxes up to 56
                        /// columns wide; nil for wider ones.
                        @inline(__always)
                        func unmarked(_ bits: UnsafeRawPointer, _ lower: SIMD2<Int16>, _ upper: SIMD2<Int16>) -> Bool? {
                            let x0 = Int(lower.x), width = Int(upper.x) &- x0
                            guard width < 56 else { return nil }
                            let mask = (UInt64(1) &<< UInt64(width &+ 1)) &- 1
                            // Cells are in 0..<4096 a side, so the offsets cannot overflow.
                            var offset = Int(lower.y) &* rowBytes &+ x0 >> 3
                            @inline(__always) func word(_ offset: Int) -> UInt64 {
                                UInt64(littleEndian: bits.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                            }
                            let rows = Int(upper.y) &- Int(lower.y)
                            var marked: UInt64
                            if rows <= 1 {
                                // One or two rows (most boxes), without a loop whose count changes
                                // from box to box (a branch mispredicted about every other time).
                                marked = word(offset) | word(offset &+ rows &* rowBytes)
                            } else {
                                marked = 0
                                for _ in 0...rows {
                                    marked |= word(offset)
                                    offset &+= rowBytes
                                }
                            }
                            return (marked >> UInt64(x0 & 7)) & mask == 0
                        }
                        /// Whether no cell from `lower` to `upper` needs a closer look: then whatever
                        /// lies in them is covered once everywhere (false for boxes over 56 columns).
                        @inline(__always)
                        func quiet(_ lower: SIMD2<Int16>, _ upper: SIMD2<Int16>) -> Bool {
                            unmarked(attentionBits, lower, upper) ?? false
                        }
                        /// Whether no segment's box meets a cell from `lower` to `upper`: then they
                        /// are all covered as often, as the first one's centre is.
                        @inline(__always)
                        func clear(_ lower: SIMD2<Int16>, _ upper: SIMD2<Int16>) -> Bool {
                            if let clear = unmarked(segmentCellBits, lower, upper) { return clear }
                            for y in Int(lower.y)...Int(upper.y)
                            where start[y * nx + Int(lower.x)] != start[y * nx + Int(upper.x) + 1] {
                                return false
                            }
                            return true
                        }
                        /// Whether triangles c and e share an edge (or all three corners) with an end
                        /// that is no vertex of R, so that the edge is not in R.
                        @inline(__always)
                        func sharesEdgeOffR(_ c: SIMD3<Int32>, _ e: SIMD3<Int32>) -> Bool {
                            let shared = c .== e.x .| c .== e.y .| c .== e.z
                            var offR = false
                            var count = 0
                            for k in 0..<3 where shared[k] {
                                count += 1
                                let v = Int(c[k])
                                if residualVertices[v >> 3] & (1 << UInt8(v & 7)) == 0 { offR = true }
                            }
                            return count == 3 || (count == 2 && offR)
                        }
                        // On all cores, each chunk writing its own triangles' flags.
                        guard let base = flags.baseAddress else { return }
                        let out = SharedMutableBuffer(base: base)
                        // The budget belongs to fixed blocks of triangles, not to the
                        // threads' chunks, so the candidates (and the order made from
                        // them) are the same on any number of cores.
                        let block = 65_536
                        parallelChunks((n + block - 1) / block, minimumChunk: 1) { blocks in
                            for first in stride(
                                from: blocks.lowerBound * block, to: Swift.min(n, blocks.upperBound * block), by: block)
                            {
                                let range = first..<Swift.min(n, first + block)
                                var budget = 64 * range.count + 65_536
                                var previous: (corners: SIMD3<Int32>, count: Int32)?
                                /// Triangle t's corners, counterclockwise.
                                @inline(__always)
                                func oriented(_ t: Int) -> SIMD3<Int32> {
                                    let v = triangles[t]
                                    return signs[t] > 0 ? v : SIMD3(v.x, v.z, v.y)
                                }
                                /// Whether a triangle with area and cells `box` needs R's segments.
                                @inline(__always)
                                func nearR(_ box: (lower: SIMD2<Int16>, upper: SIMD2<Int16>)) -> Bool {
                                    !quiet(box.lower, box.upper) && !clear(box.lower, box.upper)
                                }
                                /// Triangle t's flag when R's segments are tested: kept when touched,
                                /// else by its count.
                                func settle(_ t: Int, touched: Bool) {
                                    let c = oriented(t)
                                    let count =
                                        touched || budget <= 0
                                        ? nil
                                        : untouchedCount(
                                            c, screen[Int(c.x)], screen[Int(c.y)], screen[Int(c.z)], &budget, previous: previous)
                                    out.base[t] = count == 1 ? 0 : 1
                                    previous = count.map { (triangles[t], $0) }
                                }
                                func decide(_ t: Int, _ box: (lower: SIMD2<Int16>, upper: SIMD2<Int16>)) {
                                    let v = triangles[t]
                                    guard signs[t] != 0 else {
                                        out.base[t] = 0
                                        previous = nil
                                        return
                                    }
                                    let count = coverCount(oriented(t), box, &budget, previous: previous)
                                    out.base[t] = count == 1 ? 0 : 1
                                    previous = count.map { (v, $0) }
                                }
                                // Two triangles at a time (a tessellation's quads): when no cell of
                                // the box around both needs a closer look, neither overlaps
                                // anything, for one look at those cells instead of two.
                                var t = range.lowerBound
                                while t + 1 < range.upperBound {
                                    let first = cellBox(triangles[t]), second = cellBox(triangles[t + 1])
                                    let lower = pointwiseMin(first.lower, second.lower), upper = pointwiseMax(first.upper, second.upper)
                                    let both = budget > 0 && signs[t] != 0 && signs[t + 1] != 0
                                    if both, quiet(lower, upper) {
                                        budget -= Int(upper.y) - Int(lower.y) + 1
                                        out.base[t] = 0
                                        out.base[t + 1] = 0
                                        previous = (triangles[t + 1], 1)
                                    } else if both, clear(lower, upper) {
                                        // No segment near either: both covered as often as the box's
                                        // first cell (which is not once, or it would be quiet), as
                                        // `coverCount` finds for each.
                                        budget -= 2 * (Int(upper.y) - Int(lower.y) + 1)
                                        let count = winding[Int(lower.y) * nx + Int(lower.x)]
                                        let flag: UInt8 = count == 1 ? 0 : 1
                                        out.base[t] = flag
                                        out.base[t + 1] = flag
                                        previous = (triangles[t + 1], count)
                                    } else if both, nearR(first), nearR(second) {
                                        // Both near R: the segments listed in their cells looked
                                        // at once for the two, charged as `coverCount` would.
                                        budget -= Int(first.upper.y) - Int(first.lower.y) + Int(second.upper.y) - Int(second.lower.y) + 2
                                        let (touchedFirst, touchedSecond) = touched(oriented(t), oriented(t + 1), lower, upper, &budget)
                                        settle(t, touched: touchedFirst)
                                        settle(t + 1, touched: touchedSecond)
                                    } else {
                                        decide(t, first)
                                        decide(t + 1, second)
                                    }
                                    t += 2
                                }
                                if t < range.upperBound { decide(t, cellBox(triangles[t])) }
                            }
                        }
                    }
                }
            }
        }
        for t in 0..<n where flags[t] != 0 { active.append(Int32(t)) }
        var ends: [Int32] = []
        ends.reserveCapacity(2 * residual.count)
        for s in residual {
            ends.append(s.a)
            ends.append(s.b)
        }
        return Candidates(triangles: active, residualVertices: ends)
    }

    /// R: every edge whose runs do not cancel, once, from its smaller vertex a to b with its net
    /// count (runs a → b minus runs b → a), triangles run counterclockwise on screen. The runs
    /// that neighbours in the listing cancel are taken out first (`keptRuns`); the others are
    /// bucketed by one of their ends (a counting sort, see `bucket`), each bucket sorted by the
    /// other end. nil when there are too many edges for the codes. R holds no edge from a vertex to
    /// itself.
    ///
    /// On all cores, as a parallel counting sort: each part of the triangles finds and counts its
    /// runs per bucket on its own, the offsets then give each part its own stretch of every
    /// bucket, each part fills its stretches, and the buckets are settled by ranges of vertices.
    /// A bucket's codes add up to the same net counts however the triangles are cut (which runs
    /// cancel early, and the order in the bucket, may differ; the bucket is sorted), so R is the
    /// same on any number of cores.
    static func residualChain(
        vertexCount: Int, triangles: UnsafeBufferPointer<SIMD3<Int32>>, signs: UnsafeBufferPointer<Int8>
    ) -> [(a: Int32, b: Int32, weight: Int32)]? {
        let n = triangles.count
        guard 3 * n < Int(Int32.max), vertexCount < Int(Int32.max) / 2 else { return nil }
        let cores = ProcessInfoCores.count
        // Each part has offsets for every vertex: not for a mesh with far more vertices than
        // triangles use (unused ones cost memory on every part).
        let parts = cores > 1 && n >= 65_536 && vertexCount <= 4 * n ? cores : 1
        // Part p's pairs of triangles (2k and 2k + 1), and where its kept runs go (room for all its runs).
        let pairCount = (n + 1) / 2
        @inline(__always) func pairs(_ p: Int) -> Range<Int> { pairCount * p / parts..<pairCount * (p + 1) / parts }
        @inline(__always) func room(_ p: Int) -> Int { 6 * pairs(p).count }
        let stride = neighbourStride(triangles: triangles, signs: signs)
        // Each part's offsets (bucket v's count, then the end of its stretch of bucket v), the
        // codes, and each part's kept runs in one fresh mapping (zero pages, huge ones; see
        // `SortScratch`), the codes' and runs' room sized for every run (pages past the runs kept
        // are never touched).
        var layout = SortScratch.Layout()
        let offsetsAt = (0..<parts).map { _ in layout.reserve(Int32.self, count: vertexCount + 1) }
        let codesAt = layout.reserve(UInt32.self, count: 3 * n)
        let keptAt = (0..<parts).map { layout.reserve(UInt64.self, count: room($0)) }
        let scratch = SortScratch(bytes: layout.bytes, zeroed: true)
        defer { withExtendedLifetime(scratch) {} }
        let offsets = offsetsAt.map { scratch.buffer(of: Int32.self, count: vertexCount + 1, at: $0) }
        let codes = scratch.buffer(of: UInt32.self, count: 3 * n, at: codesAt)
        let keptRoom = (0..<parts).map { scratch.buffer(of: UInt64.self, count: room($0), at: keptAt[$0]) }
        // The runs kept, counted. Wrapping adds: a count is at most 3n, below Int32.max (checked above).
        let keptCounts = parallelParts(parts) { p in
            let count = keptRuns(triangles: triangles, signs: signs, pairs: pairs(p), stride: stride, into: keptRoom[p])
            let counts = offsets[p]
            for code in keptRoom[p][0..<count] {
                counts[bucket(Int32(truncatingIfNeeded: code >> 32), Int32(truncatingIfNeeded: code))] &+= 1
            }
            return count
        }
        // Bucket v is codes[offsets[0][v]..<offsets[0][v + 1]] once filled, part p's stretch of it
        // ending at offsets[p][v] (filled downward from there).
        var sum: Int32 = 0
        if parts == 1 {
            let counts = offsets[0]
            for v in 0..<vertexCount {
                sum &+= counts[v]
                counts[v] = sum
            }
        } else {
            for v in 0..<vertexCount {
                for p in 0..<parts {
                    sum &+= offsets[p][v]
                    offsets[p][v] = sum
                }
            }
        }
        offsets[0][vertexCount] = sum
        // Fills. Indices are in 0..<vertexCount and slots below 3n (both below Int32.max), so the
        // arithmetic is written without overflow checks. A code is 2 × the other end, + 1 when
        // the run goes from the smaller end to the larger.
        parallelChunks(parts, minimumChunk: 1) { chunk in
            for p in chunk {
                let ends = offsets[p]
                for code in keptRoom[p][0..<keptCounts[p]] {
                    let a = Int32(truncatingIfNeeded: code >> 32), b = Int32(truncatingIfNeeded: code)
                    let home = bucket(a, b), other = UInt32(truncatingIfNeeded: a ^ b ^ Int32(truncatingIfNeeded: home))
                    let next = ends[home] &- 1
                    ends[home] = next
                    codes[Int(next)] = other &<< 1 | (a < b ? 1 : 0)
                }
            }
        }
        // Settles the buckets by ranges of vertices, joined in order.
        let starts = UnsafeBufferPointer(offsets[0])
        let found = parallelParts(parts) { p in
            settle(vertexCount * p / parts..<vertexCount * (p + 1) / parts, starts: starts, codes: codes)
        }
        return parts == 1 ? found[0] : Array(found.joined())
    }

    /// R's edges from the buckets of `vertices` (bucket v is `codes[starts[v]..<starts[v + 1]]`),
    /// each bucket sorted, in bucket order.
    private static func settle(
        _ vertices: Range<Int>, starts: UnsafeBufferPointer<Int32>, codes: UnsafeMutableBufferPointer<UInt32>
    ) -> [(a: Int32, b: Int32, weight: Int32)] {
        var residual: [(a: Int32, b: Int32, weight: Int32)] = []
        for v in vertices {
            let lower = Int(starts[v]), upper = Int(starts[v + 1])
            guard upper > lower else { continue }
            // A sorting network for the few edges at a mesh vertex, insertion up to 32, a full
            // sort where a soup piles many edges on one vertex (insertion would be quadratic there).
            if upper - lower <= 4 {
                sortFour(codes, from: lower, count: upper - lower)
            } else if upper - lower <= 8 {
                sortEight(codes, from: lower, count: upper - lower)
            } else if upper - lower > 32 {
                codes[lower..<upper].sort()
            } else {
                var i = lower + 1
                while i < upper {
                    let moving = codes[i]
                    var j = i
                    while j > lower, codes[j - 1] > moving {
                        codes[j] = codes[j - 1]
                        j -= 1
                    }
                    codes[j] = moving
                    i += 1
                }
            }
            var i = lower
            while i < upper {
                let code = codes[i]
                let other = code >> 1
                // Most edges are run once each way: two codes that differ in the last bit only.
                if code & 1 == 0, i + 1 < upper, codes[i + 1] == code | 1, i + 2 == upper || codes[i + 2] >> 1 != other {
                    i += 2
                    continue
                }
                var net: Int32 = 0
                while i < upper, codes[i] >> 1 == other {
                    net += codes[i] & 1 == 1 ? 1 : -1
                    i += 1
                }
                // A run from a vertex to itself bounds nothing (its triangle has no area: sign 0 from
                // `ScreenOrientation.signs`; `SortTopology` leaves such sides out too).
                if net != 0, Int(other) != v { residual.append((min(Int32(v), Int32(other)), max(Int32(v), Int32(other)), net)) }
            }
        }
        return residual
    }

    /// The bucket of the edge between vertices a and b: the smaller end when the two indices have
    /// the same parity, the larger otherwise. Either end would do (both runs of an edge must meet
    /// in one bucket); splitting by parity gives each vertex about half its edges, so a bucket
    /// holds about six codes wherever the mesh numbers its vertices (with the smaller end always,
    /// a vertex numbered before all its neighbours gets every edge, twelve codes or more).
    @inline(__always)
    static func bucket(_ a: Int32, _ b: Int32) -> Int {
        Int((a ^ b) & 1 == 0 ? min(a, b) : max(a, b))
    }

    /// The compare-exchange of the sorting networks below: the smaller into `a`, the larger into
    /// `b`, with min and max (no branch on the data).
    @inline(__always)
    private static func exchange(_ a: inout UInt32, _ b: inout UInt32) {
        let low = min(a, b)
        b = max(a, b)
        a = low
    }

    /// Sorts `codes[lower..<lower + count]` (count at most 4) by a sorting network of 5
    /// compare-exchanges, padded with UInt32.max: the common bucket once the quads' diagonals are
    /// left out (about four codes).
    @inline(__always)
    private static func sortFour(_ codes: UnsafeMutableBufferPointer<UInt32>, from lower: Int, count: Int) {
        var c0 = count > 0 ? codes[lower] : .max, c1 = count > 1 ? codes[lower + 1] : .max
        var c2 = count > 2 ? codes[lower + 2] : .max, c3 = count > 3 ? codes[lower + 3] : .max
        exchange(&c0, &c1)
        exchange(&c2, &c3)
        exchange(&c0, &c2)
        exchange(&c1, &c3)
        exchange(&c1, &c2)
        if count > 0 { codes[lower] = c0 }
        if count > 1 { codes[lower + 1] = c1 }
        if count > 2 { codes[lower + 2] = c2 }
        if count > 3 { codes[lower + 3] = c3 }
    }

    /// Sorts `codes[lower..<lower + count]` (count at most 8) by a sorting network of 19
    /// compare-exchanges (min and max, no branches on the data), padded with UInt32.max: a mesh
    /// vertex's bucket holds about six codes, and insertion sort mispredicts on most of them.
    @inline(__always)
    private static func sortEight(_ codes: UnsafeMutableBufferPointer<UInt32>, from lower: Int, count: Int) {
        var c0 = count > 0 ? codes[lower] : .max, c1 = count > 1 ? codes[lower + 1] : .max
        var c2 = count > 2 ? codes[lower + 2] : .max, c3 = count > 3 ? codes[lower + 3] : .max
        var c4 = count > 4 ? codes[lower + 4] : .max, c5 = count > 5 ? codes[lower + 5] : .max
        var c6 = count > 6 ? codes[lower + 6] : .max, c7 = count > 7 ? codes[lower + 7] : .max
        exchange(&c0, &c2)
        exchange(&c1, &c3)
        exchange(&c4, &c6)
        exchange(&c5, &c7)
        exchange(&c0, &c4)
        exchange(&c1, &c5)
        exchange(&c2, &c6)
        exchange(&c3, &c7)
        exchange(&c0, &c1)
        exchange(&c2, &c3)
        exchange(&c4, &c5)
        exchange(&c6, &c7)
        exchange(&c2, &c4)
        exchange(&c3, &c5)
        exchange(&c1, &c4)
        exchange(&c3, &c6)
        exchange(&c1, &c2)
        exchange(&c3, &c4)
        exchange(&c5, &c6)
        if count > 0 { codes[lower] = c0 }
        if count > 1 { codes[lower + 1] = c1 }
        if count > 2 { codes[lower + 2] = c2 }
        if count > 3 { codes[lower + 3] = c3 }
        if count > 4 { codes[lower + 4] = c4 }
        if count > 5 { codes[lower + 5] = c5 }
        if count > 6 { codes[lower + 6] = c6 }
        if count > 7 { codes[lower + 7] = c7 }
    }

    /// What segment `s` adds to the winding number at `centre` counted along the horizontal ray from
    /// it toward +x (`toward` 1) or −x (−1): its weight, signed by the way it crosses the ray, when
    /// it does (half-open in y, so a ray through a vertex of R counts it once), else 0. The two rays
    /// give the same winding number, R being a cycle.
    @inline(__always)
    private static func crossing(_ s: Segment, _ centre: Point3D, toward direction: Int32) -> Int32 {
        let p = s.p, q = s.q
        let side = ((q.x - p.x) * (centre.y - p.y) - (q.y - p.y) * (centre.x - p.x)) * Double(direction)
        if p.y <= centre.y && centre.y < q.y && side > 0 { return s.weight * direction }
        if q.y <= centre.y && centre.y < p.y && side < 0 { return -s.weight * direction }
        return 0
    }

    /// A segment of R from vertex a to vertex b (screen positions p and q) with its net count, and
    /// the first and last grid columns its box meets.
    struct Segment {
        var p: SIMD2<Double>
        var q: SIMD2<Double>
        var a: Int32
        var b: Int32
        var weight: Int32
        var firstColumn: Int32
        var lastColumn: Int32
    }

    /// A triangle's corners (u0, u1, u2 on screen) and its three edges u0 → u1, u1 → u2 and u2 → u0
    /// as lanes (the fourth lane is zero), for the orientations of a point against all three edge
    /// lines at once: the same operations as `orient` for each, so the same values.
    struct EdgeLines {
        var u0: SIMD2<Double>
        var u1: SIMD2<Double>
        var u2: SIMD2<Double>
        /// Each edge's start, x and y.
        var startX: SIMD4<Double>
        var startY: SIMD4<Double>
        /// Each edge's end minus its start, x and y.
        var deltaX: SIMD4<Double>
        var deltaY: SIMD4<Double>

        @inline(__always)
        init(_ t0: Point3D, _ t1: Point3D, _ t2: Point3D) {
            u0 = SIMD2(t0.x, t0.y)
            u1 = SIMD2(t1.x, t1.y)
            u2 = SIMD2(t2.x, t2.y)
            startX = SIMD4(t0.x, t1.x, t2.x, 0)
            startY = SIMD4(t0.y, t1.y, t2.y, 0)
            deltaX = SIMD4(t1.x, t2.x, t0.x, 0) - startX
            deltaY = SIMD4(t1.y, t2.y, t0.y, 0) - startY
        }

        /// orient(start, end, x) for the three edges (and 0 in the fourth lane, or NaN for a point
        /// not finite, which compares false).
        @inline(__always)
        func orientations(_ x: SIMD2<Double>) -> SIMD4<Double> {
            deltaX * (x.y - startY) - deltaY * (x.x - startX)
        }
    }

    /// Whether segment `s` meets the closed triangle `c` (counterclockwise corners, at `lines`),
    /// up to `touch` in the orientations (so it may say yes when the segment only passes near). The
    /// triangle's own edges never count; a segment from one of its corners counts only if it leaves
    /// the corner into or along the triangle.
    @inline(__always)
    private static func touches(_ s: Segment, _ c: SIMD3<Int32>, _ lines: EdgeLines, _ touch: Double) -> Bool {
        let (a, b) = (s.a, s.b)
        let sharedA = c.x == a || c.y == a || c.z == a, sharedB = c.x == b || c.y == b || c.z == b
        if sharedA && sharedB { return false }
        let p = s.p, q = s.q
        let u0 = lines.u0, u1 = lines.u1, u2 = lines.u2
        if sharedA || sharedB {
            let (v, pv, pw) = sharedA ? (a, p, q) : (b, q, p)
            let (next, previous) = c.x == v ? (u1, u2) : (c.y == v ? (u2, u0) : (u0, u1))
            // Inside the angle at v (closed, with the tolerance): left of v → next, right of v → previous.
            return orient(pv, next, pw) >= -touch && orient(pv, previous, pw) <= touch
        }
        // Separated by one of the triangle's edge lines (the triangle is on their left; all three
        // lines at once, in lanes)…
        let below = SIMD4(repeating: -touch)
        if any(lines.orientations(p) .< below .& lines.orientations(q) .< below) { return false }
        // … or by the segment's own line.
        let s0 = orient(p, q, u0), s1 = orient(p, q, u1), s2 = orient(p, q, u2)
        if s0 > touch && s1 > touch && s2 > touch { return false }
        if s0 < -touch && s1 < -touch && s2 < -touch { return false }
        return true
    }

    @inline(__always)
    private static func orient(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>) -> Double {
        (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
    }
}
