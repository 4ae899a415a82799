import SurfaceKit

extension OverlapCandidates {
    /// The coverage pass over the triangles, with the tables `find` builds: R's grid (each cell's
    /// segments and their columns), the winding number of every cell R does not meet, a bit per
    /// cell that needs a closer look and one per cell with segments, a bit per vertex of R, and
    /// each vertex's cell. Each triangle is flagged when it may overlap another.
    struct CoverScan {
        let screen: UnsafeBufferPointer<Point3D>
        let triangles: UnsafeBufferPointer<SIMD3<Int32>>
        let signs: UnsafeBufferPointer<Int8>
        let grid: ScreenGrid
        /// Bytes a row of a bit table takes.
        let rowBytes: Int
        /// The winding number of every cell that no segment meets, row by row.
        let winding: UnsafeBufferPointer<Int32>
        /// The cells that need a closer look (a segment's box meets them, or they are covered other
        /// than once), and the cells a segment's box meets: a bit a cell.
        let attentionBits: UnsafeRawPointer
        let segmentCellBits: UnsafeRawPointer
        /// A bit a vertex: the ends of R's segments.
        let residualVertices: UnsafeBufferPointer<UInt8>
        /// Each vertex's cell (column, row).
        let cells: UnsafeBufferPointer<SIMD2<Int16>>
        /// R's segments by cell: `members[start[c]..<start[c + 1]]` are the segments listed in cell
        /// c, with the column of each entry in `memberColumns`.
        let start: UnsafeBufferPointer<Int32>
        let members: UnsafeBufferPointer<Int32>
        let memberColumns: UnsafeBufferPointer<Int32>
        let segments: UnsafeBufferPointer<Segment>
        /// R's bounds, which hold every covered point.
        let low: SIMD2<Double>
        let high: SIMD2<Double>
        /// Orientations within this of zero count as touching: the test only has to be conservative.
        let touch: Double

        var nx: Int { grid.columns }

        /// Flags every triangle (1: it may overlap another), on all cores, each chunk writing its own
        /// triangles' flags, and returns how many each block of `budgetBlock` triangles flagged
        /// (counted as they are written, so the list of candidates needs no counting pass). The
        /// budget belongs to fixed blocks of triangles, not to the threads' chunks, so the
        /// candidates (and the order made from them) are the same on any number of cores.
        func flag(into flags: UnsafeMutableBufferPointer<UInt8>) -> [Int] {
            let n = triangles.count, block = OverlapCandidates.budgetBlock
            let blockCount = (n + block - 1) / block
            var counts = [Int](repeating: 0, count: blockCount)
            guard let base = flags.baseAddress else { return counts }
            let out = SharedMutableBuffer(base: base)
            counts.withUnsafeMutableBufferPointer { counts in
                guard let countBase = counts.baseAddress else { return }
                let countOut = SharedMutableBuffer(base: countBase)
                parallelChunks(blockCount, minimumChunk: 1) { blocks in
                    for b in blocks {
                        let range = b * block..<Swift.min(n, (b + 1) * block)
                        var scan = BlockScan(
                            scan: self, out: out,
                            budget: OverlapCandidates.budgetPerTriangle * range.count + OverlapCandidates.budgetAllowance)
                        scan.flag(range)
                        countOut.base[b] = scan.flagged
                    }
                }
            }
            return counts
        }

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
            // In locals: read through `self`, the fields are loaded again for every entry.
            let (start, members, segments) = (self.start, self.members, self.segments)
            for y in Int(lower.y)...Int(upper.y) {
                // Cells are in 0..<4096 a side, so the cell numbers cannot overflow.
                let row = y &* nx
                let listed = Int(start[row &+ x0])..<Int(start[row &+ x1 &+ 1])
                budget -= listed.count
                for m in listed {
                    if touchedFirst && touchedSecond { return (true, true) }
                    let s = segments[Int(members[m])]
                    if !touchedFirst, meets(s, first), OverlapCandidates.touches(s, c, firstLines, touch) { touchedFirst = true }
                    if !touchedSecond, meets(s, second), OverlapCandidates.touches(s, other, secondLines, touch) { touchedSecond = true }
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
                count += OverlapCandidates.crossing(s, centre, toward: 1)
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
                    count += OverlapCandidates.crossing(s, centre, toward: 1)
                }
            } else {
                for m in rowStart..<next {
                    let s = segments[Int(members[m])]
                    guard memberColumns[m] == min(Int32(column), s.lastColumn) else { continue }
                    count += OverlapCandidates.crossing(s, centre, toward: -1)
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
    }

    /// One block's pass of `CoverScan.flag(into:)`: its budget, and the corners and count of the
    /// triangle settled just before (when known), which a neighbour across an edge off R shares.
    ///
    /// `flag(_:)` reads the coverage pass's tables from a local copy of `scan`, made once a block,
    /// and hands it to `settle` and `decide`: a method of the stored `scan` called from a mutating
    /// method here is given a fresh copy of all of it (some 300 bytes) every time.
    struct BlockScan {
        let scan: CoverScan
        let out: SharedMutableBuffer<UInt8>
        var budget: Int
        var previous: (corners: SIMD3<Int32>, count: Int32)?
        /// The triangles flagged so far.
        var flagged = 0

        init(scan: CoverScan, out: SharedMutableBuffer<UInt8>, budget: Int) {
            self.scan = scan
            self.out = out
            self.budget = budget
        }

        /// Flags the triangles of `range` two at a time (a tessellation's quads): when no cell of
        /// the box around both needs a closer look, neither overlaps anything, for one look at
        /// those cells instead of two.
        mutating func flag(_ range: Range<Int>) {
            let scan = self.scan
            let triangles = scan.triangles, signs = scan.signs
            var t = range.lowerBound
            while t + 1 < range.upperBound {
                let first = scan.cellBox(triangles[t]), second = scan.cellBox(triangles[t + 1])
                let lower = pointwiseMin(first.lower, second.lower), upper = pointwiseMax(first.upper, second.upper)
                let both = budget > 0 && signs[t] != 0 && signs[t + 1] != 0
                if both, scan.quiet(lower, upper) {
                    budget -= Int(upper.y) - Int(lower.y) + 1
                    out.base[t] = 0
                    out.base[t + 1] = 0
                    previous = (triangles[t + 1], 1)
                } else if both, scan.clear(lower, upper) {
                    // No segment near either: both covered as often as the box's first cell (which
                    // is not once, or it would be quiet), as `coverCount` finds for each.
                    budget -= 2 * (Int(upper.y) - Int(lower.y) + 1)
                    let count = scan.winding[Int(lower.y) * scan.nx + Int(lower.x)]
                    let flag: UInt8 = count == 1 ? 0 : 1
                    out.base[t] = flag
                    out.base[t + 1] = flag
                    flagged &+= 2 &* Int(flag)
                    previous = (triangles[t + 1], count)
                } else if both, nearR(first), nearR(second) {
                    // Both near R: the segments listed in their cells looked at once for the two,
                    // charged as `coverCount` would.
                    budget -= Int(first.upper.y) - Int(first.lower.y) + Int(second.upper.y) - Int(second.lower.y) + 2
                    let (touchedFirst, touchedSecond) = scan.touched(oriented(t), oriented(t + 1), lower, upper, &budget)
                    settle(t, touched: touchedFirst, in: scan)
                    settle(t + 1, touched: touchedSecond, in: scan)
                } else {
                    decide(t, first, in: scan)
                    decide(t + 1, second, in: scan)
                }
                t += 2
            }
            if t < range.upperBound { decide(t, scan.cellBox(triangles[t]), in: scan) }
        }

        /// Triangle t's corners, counterclockwise.
        @inline(__always)
        func oriented(_ t: Int) -> SIMD3<Int32> {
            let v = scan.triangles[t]
            return scan.signs[t] > 0 ? v : SIMD3(v.x, v.z, v.y)
        }

        /// Whether a triangle with area and cells `box` needs R's segments.
        @inline(__always)
        func nearR(_ box: (lower: SIMD2<Int16>, upper: SIMD2<Int16>)) -> Bool {
            !scan.quiet(box.lower, box.upper) && !scan.clear(box.lower, box.upper)
        }

        /// Triangle t's flag when R's segments are tested: kept when touched, else by its count.
        /// `scan` is this block's `scan`.
        mutating func settle(_ t: Int, touched: Bool, in scan: CoverScan) {
            let c = oriented(t)
            let screen = scan.screen
            let count =
                touched || budget <= 0
                ? nil
                : scan.untouchedCount(c, screen[Int(c.x)], screen[Int(c.y)], screen[Int(c.z)], &budget, previous: previous)
            out.base[t] = count == 1 ? 0 : 1
            flagged &+= count == 1 ? 0 : 1
            previous = count.map { (scan.triangles[t], $0) }
        }

        /// Triangle t's flag from its cells, and R's segments when it needs them. `scan` is this
        /// block's `scan`.
        mutating func decide(_ t: Int, _ box: (lower: SIMD2<Int16>, upper: SIMD2<Int16>), in scan: CoverScan) {
            let v = scan.triangles[t]
            guard scan.signs[t] != 0 else {
                out.base[t] = 0
                previous = nil
                return
            }
            let count = scan.coverCount(oriented(t), box, &budget, previous: previous)
            out.base[t] = count == 1 ? 0 : 1
            flagged &+= count == 1 ? 0 : 1
            previous = count.map { (v, $0) }
        }
    }
}
