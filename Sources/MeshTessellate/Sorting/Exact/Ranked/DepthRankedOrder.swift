import CSwiftRuntimeShims
import SurfaceKit

/// The exact sort's fast path: the candidates ranked by the least screen depth of their corners,
/// checked pair by pair only where the depth ranges overlap.
///
/// Two triangles whose depth ranges are apart (every depth of p below every depth of q) can only be
/// in the order "p before q" where they overlap on screen, and ranking by least depth (zmin, ties in
/// index order) already puts p first: zmin(p) ≤ zmax(p) < zmin(q). So the rank order is a valid
/// painter's order as soon as every pair whose depth ranges overlap and whose screen images overlap
/// is ordered back to front by it too, which the exact pair test (`PairOcclusion.relation`) checks.
/// When one such pair is the other way round (or crosses in 3D), the rank order is wrong and the
/// caller takes the general path: every overlapping pair ordered and cycles split.
///
/// On a tessellated surface folded over itself the layers that overlap are far apart in depth, so
/// of the tilted ripple's 924,226 overlapping pairs at steps 3 only about 8,700 need the test (mostly
/// neighbours along the fold lines), and none is the wrong way round.
///
/// Only the triangles `OverlapCandidates` keeps can overlap anything; the others keep their places in
/// the input order, and the candidates fill their own places in rank order.
enum DepthRankedOrder {
    /// Slots ahead whose entry is prefetched while the cells' copies are gathered: about one
    /// memory latency of copying.
    static let copyPrefetchDistance = 16
    /// Places a core takes at least when the output order is written: 39 chunks on W3's
    /// 1,280,000 triangles, so that 16 cores take two or three each.
    static let placingChunk = 32_768

    struct Outcome {
        var order: [Int32]
        /// Overlapping pairs among those tested (whose depth ranges overlap).
        var overlappingPairs = 0
        /// Clusters of two or more candidates connected by those pairs, and the largest.
        var clusters = 0
        var largestCluster = 0
        /// Triangles that may overlap another (the rest overlap nothing).
        var candidates = 0
    }

    /// The rank order of `triangles`, or nil when it is not a valid painter's order (a tested pair
    /// the wrong way round or crossing), when more than `limit` tested pairs overlap, or when the
    /// screening or the grid would cost more than they save.
    /// `topology`, when given, must pair exactly these triangles (see `SortTopology.matches`).
    /// Without `countingClusters`, `clusters` and `largestCluster` stay 0 (they are statistics
    /// alone, which `PainterSorter.exactOrder(mesh:geometry:topology:)` does not return).
    static func order(
        screen: [Point3D], triangles: [SIMD3<Int32>], limit: Int, topology: SortTopology? = nil, countingClusters: Bool = true
    ) -> Outcome? {
        let n = triangles.count
        // Slots are Int32: beyond that the general path decides (which has its own bounds).
        guard n < Int(Int32.max) else { return nil }
        guard n > 1 else { return Outcome(order: (0..<Int32(n)).map { $0 }) }
        return screen.withUnsafeBufferPointer { s in
            triangles.withUnsafeBufferPointer { tris in
                order(screen: s, triangles: tris, limit: limit, topology: topology, countingClusters: countingClusters)
            }
        }
    }

    /// `order(screen:triangles:limit:topology:countingClusters:)` over buffers, for triangles whose
    /// corners nobody has checked: the screen signs' pass checks them as it reads them (see
    /// `ScreenOrientation.checkedSigns`), and a triangle naming a vertex `screen` does not have
    /// gives nil with `indexOutOfRange` set. The triangles must number 2 to `Int32.max − 1`.
    static func order(
        checking tris: UnsafeBufferPointer<SIMD3<Int32>>, screen s: UnsafeBufferPointer<Point3D>, limit: Int,
        topology: SortTopology?, countingClusters: Bool, indexOutOfRange: inout Bool
    ) -> Outcome? {
        guard tris.count > 1, tris.count < Int(Int32.max) else { return nil }
        return order(
            screen: s, triangles: tris, limit: limit, topology: topology, countingClusters: countingClusters, checkingIndices: true,
            indexOutOfRange: &indexOutOfRange)
    }

    private static func order(
        screen s: UnsafeBufferPointer<Point3D>, triangles tris: UnsafeBufferPointer<SIMD3<Int32>>, limit: Int,
        topology: SortTopology?, countingClusters: Bool
    ) -> Outcome? {
        var indexOutOfRange = false
        return order(
            screen: s, triangles: tris, limit: limit, topology: topology, countingClusters: countingClusters, checkingIndices: false,
            indexOutOfRange: &indexOutOfRange)
    }

    private static func order(
        screen s: UnsafeBufferPointer<Point3D>, triangles tris: UnsafeBufferPointer<SIMD3<Int32>>, limit: Int,
        topology: SortTopology?, countingClusters: Bool, checkingIndices: Bool, indexOutOfRange: inout Bool
    ) -> Outcome? {
        let n = tris.count
        // Whether the candidates' angles at each vertex cover the direction +x once (bit 0) or
        // more often (bit 1, set for the vertices of R and the corners of triangles whose sign
        // may be wrong too; see `simpleCorners`).
        let turnScratch = SortScratch(bytes: s.count, zeroed: true)
        defer { withExtendedLifetime(turnScratch) {} }
        let turns = turnScratch.buffer(of: UInt8.self, count: s.count)
        // The sign of each triangle's screen area; 0 for those that cover none (edge-on, or not
        // finite), which take part in no pair.
        // Nothing more to do past the coverage pass's bounds (as `OverlapCandidates.find` says);
        // nothing of `screen` is read then, so unchecked corners are no matter.
        guard OverlapCandidates.fits(triangleCount: n, vertexCount: s.count) else { return nil }
        let sign: [Int8]
        let candidates: OverlapCandidates.Candidates?
        // The touch tolerance's scale (nil): the extent of R, which is the extent of everything covered.
        if topology == nil {
            // The signs made by R's pass over the triangles, which needs each one's once.
            guard
                let made = OverlapCandidates.signsAndResidualChain(
                    screen: s, triangles: tris, uncertain: turns, outOfRange: &indexOutOfRange)
            else { return nil }
            sign = made.signs
            candidates = sign.withUnsafeBufferPointer { sign in
                OverlapCandidates.find(screen: s, triangles: tris, signs: sign, scale: nil, residual: made.residual)
            }
        } else {
            let signs =
                checkingIndices
                ? ScreenOrientation.checkedSigns(screen: s, triangles: tris, uncertain: turns)
                : ScreenOrientation.signs(screen: s, triangles: tris, uncertain: turns)
            guard let signs else {
                indexOutOfRange = true
                return nil
            }
            sign = signs
            candidates = sign.withUnsafeBufferPointer { sign in
                OverlapCandidates.find(screen: s, triangles: tris, signs: sign, scale: nil, topology: topology)
            }
        }
        guard let candidates else { return nil }
        let list = candidates.triangles
        var outcome = Outcome(order: [], candidates: list.count)
        if list.count < 2 {
            outcome.order = (0..<Int32(n)).map { $0 }
            return outcome
        }

        // Per candidate (by slot, the candidates in index order): screen box and depth range, in
        // Float rounded outward (a filter may pass more pairs, never fewer), and the rank key.
        let m = list.count
        // Box (minX, minY, maxX, maxY), depth range (minZ, maxZ), slot and corners; the first cell
        // and the simple corners come below. Every slot is written in the loop below (no zero fill
        // first), in scratch memory (huge pages, and usually a mapping an earlier sort handed back:
        // on a virtual machine a fresh 4 KiB page costs about 2 µs).
        let slotScratch = SortScratch(bytes: m * MemoryLayout<Entry>.stride)
        defer { withExtendedLifetime(slotScratch) {} }
        let slots = slotScratch.buffer(of: Entry.self, count: m)
        var keys = [UInt32](unsafeUninitializedCapacity: m) { _, initialized in initialized = m }
        for v in candidates.residualVertices { turns[Int(v)] = 3 }

        // In a fixed number of parts (on all cores; the vertices' marks then atomically), each
        // with its own bounds and sum, added in part order: the grid below is the same on any
        // number of cores.
        let parts = m >= SortParallelism.minimumPart ? SortParallelism.parts : 1
        // Atomically whenever several parts may run at once. On one thread `parallelParts` runs
        // them one after another on the calling thread, so plain marks give the same bits (each
        // mark is an OR, and the parts' marks are the same in any order) without a locked
        // read-modify-write (a compare-exchange loop) for every corner marked.
        let atomically = parts > 1 && ProcessInfoCores.count > 1
        let partBounds = fillSlots(
            slots, keys: &keys, list: list, sign: sign, screen: s, triangles: tris, turns: turns, parts: parts,
            atomically: atomically)
        let bounds = joined(partBounds)
        // Ranks: ascending key, ties in slot (so index) order, on all cores.
        let ranked = RadixSort.parallelStableOrder(bits: keys)
        keys = []

        // Cells about three times the mean box: a box then meets one or two cells instead of about
        // four, so the cells' copies (which the sweep reads) take half the memory, while the pairs
        // looked at grow by a tenth at most, since the depth ranges bound them (W3: 272,000 copies
        // instead of 522,000, 2.0 M pairs looked at instead of 1.85 M, 2% fewer instructions).
        let grid = ScreenGrid(lo: bounds.lo, hi: bounds.hi, meanExtent: 3 * bounds.extent / Double(m), count: m)
        // Each box's cells, in one fresh mapping of huge pages (as an array, hundreds of faults of
        // 4 KiB pages).
        let cellScratch = SortScratch(bytes: m * MemoryLayout<SIMD4<Int32>>.stride)
        defer { withExtendedLifetime(cellScratch) {} }
        let cellsOut = cellScratch.buffer(of: SIMD4<Int32>.self, count: m)
        assignCells(slots, grid: grid, turns: UnsafeBufferPointer(turns), into: cellsOut)
        return sweptOrder(
            slots: UnsafeBufferPointer(slots), ranked: ranked, cells: UnsafeBufferPointer(cellsOut), grid: grid, list: list, count: n,
            screen: s,
            limit: limit, countingClusters: countingClusters, outcome: outcome)
    }

    /// The second half of `order`: the candidates binned into `grid` by their `cells`, the pairs
    /// swept, and the draw order made from the pairs, written into `outcome`; nil when the rank
    /// order cannot be kept, a limit is passed or the binning would cost too much.
    private static func sweptOrder(
        slots: UnsafeBufferPointer<Entry>, ranked: [Int32], cells: UnsafeBufferPointer<SIMD4<Int32>>, grid: ScreenGrid, list: [Int32],
        count n: Int,
        screen s: UnsafeBufferPointer<Point3D>, limit: Int, countingClusters: Bool, outcome: Outcome
    ) -> Outcome? {
        var outcome = outcome
        let m = slots.count
        // Nil past a few entries a candidate (and the pair limit), by arithmetic before anything
        // is allocated: a few screen-sized triangles among many small ones would put themselves in
        // every cell, and the general path then decides.
        let binned = ranked.withUnsafeBufferPointer { ranked in
            grid.bin(cells: cells, entryLimit: 8 * m + min(limit, Int(Int32.max)), order: ranked)
        }
        guard let bins = binned else { return nil }
        let total = bins.members.count
        // Every entry is written, in a mapping of its own (huge pages, as the sweep then reads them
        // all; as an array some 400-900 faults of 4 KiB pages a sort on W3).
        let entryScratch = SortScratch(bytes: total * MemoryLayout<Entry>.stride)
        defer { withExtendedLifetime(entryScratch) {} }
        let entryBuffer = entryScratch.buffer(of: Entry.self, count: total)
        gatherEntries(from: slots, members: bins.members, into: entryBuffer)
        let entries = UnsafeBufferPointer(entryBuffer)

        // Each pair whose boxes and depth ranges overlap, once, tested (on all cores, by bands of
        // rows): the order of those that overlap, back before front.
        let lookLimit = 64 * entries.count + min(limit, Int(Int32.max))
        let swept = bins.start.withUnsafeBufferPointer { start in
            sweep(
                columns: grid.columns, rows: grid.rows, start: start, entries: entries, screen: s, limit: limit,
                lookLimit: lookLimit)
        }
        guard let swept else { return nil }
        outcome.overlappingPairs = swept.overlaps.count
        if countingClusters { (outcome.clusters, outcome.largestCluster) = clusterSizes(swept.overlaps) }

        guard
            let drawn = drawnOrder(
                ranked: ranked, back: swept.back, front: swept.front, depth: { slots[Int(ranked[Int($0)])].depth })
        else { return nil }
        outcome.order = placed(drawn, list: list, count: n)
        return outcome
    }

    /// The bounds of all parts' boxes and the sum of their extents, added in part order (so the
    /// same on any number of cores).
    static func joined(_ partBounds: [PartBounds]) -> PartBounds {
        var boxLo = SIMD2<Double>(.infinity, .infinity), boxHi = SIMD2<Double>(-.infinity, -.infinity)
        var sumExtent = 0.0
        for bounds in partBounds {
            boxLo = pointwiseMin(boxLo, bounds.lo)
            boxHi = pointwiseMax(boxHi, bounds.hi)
            sumExtent += bounds.extent
        }
        return (boxLo, boxHi, sumExtent)
    }

    /// Each box's cells (first column and row, last column and row) into `cellsOut`, by slot, and
    /// its first cell and simple corners (all turns are counted by now) in its entry, in one pass
    /// in slot order, on all cores. The binning then lists each cell's candidates by rank (reading
    /// the cells in rank order, asked for ahead), and the cells' copies (which the sweep reads in
    /// sequence) are taken from the slots: a gather of the candidates into rank order first cost
    /// as much as the copies themselves (2.7 ms on W3).
    static func assignCells(
        _ slots: UnsafeMutableBufferPointer<Entry>, grid: ScreenGrid, turns counted: UnsafeBufferPointer<UInt8>,
        into cellsOut: UnsafeMutableBufferPointer<SIMD4<Int32>>
    ) {
        let m = slots.count
        @inline(__always) func cellX(_ x: Float) -> Int { grid.column(Double(x)) }
        @inline(__always) func cellY(_ y: Float) -> Int { grid.row(Double(y)) }
        guard let base = slots.baseAddress else { return }
        let slotBase = SharedMutableBuffer(base: base)
        // On all cores, each chunk its own slots.
        parallelChunks(m, minimumChunk: SortParallelism.minimumChunk) { range in
            for slot in range {
                let box = slotBase.base[slot].box, corners = slotBase.base[slot].corners
                let r = SIMD4(Int32(cellX(box.x)), Int32(cellY(box.y)), Int32(cellX(box.z)), Int32(cellY(box.w)))
                slotBase.base[slot].first = SIMD2(Int16(truncatingIfNeeded: r.x), Int16(truncatingIfNeeded: r.y))
                let traits = slotBase.base[slot].traits.subtracting(.simpleCorners)
                slotBase.base[slot].traits = traits.union(simpleCorners(corners, turns: counted))
                cellsOut[slot] = r
            }
        }
    }

    /// The cells' copies of the entries: `entries[e]` is the slot `members[e]`, read scattered over
    /// the slots, each asked for `copyPrefetchDistance` entries ahead, on all cores.
    static func gatherEntries(
        from slots: UnsafeBufferPointer<Entry>, members: [Int32], into entryBuffer: UnsafeMutableBufferPointer<Entry>
    ) {
        let total = members.count
        members.withUnsafeBufferPointer { members in
            guard let base = slots.baseAddress else { return }
            // On all cores, each chunk its own entries.
            parallelChunks(total, minimumChunk: SortParallelism.minimumChunk) { range in
                for e in range {
                    if e + copyPrefetchDistance < range.upperBound { shims_prefetch(base + Int(members[e + copyPrefetchDistance])) }
                    entryBuffer[e] = slots[Int(members[e])]
                }
            }
        }
    }

    /// The bounds of a part of the candidates' boxes, and the sum of their extents.
    typealias PartBounds = (lo: SIMD2<Double>, hi: SIMD2<Double>, extent: Double)

    /// The first pass over the candidates (`list`, by slot), in `parts` parts each with its own
    /// bounds and sum: every slot's entry (box and depth range in Float rounded outward, corners
    /// and traits) and rank key, and the turns at each candidate's corners (`countTurns`).
    static func fillSlots(
        _ slotsOut: UnsafeMutableBufferPointer<Entry>, keys: inout [UInt32], list: [Int32], sign: [Int8],
        screen s: UnsafeBufferPointer<Point3D>,
        triangles tris: UnsafeBufferPointer<SIMD3<Int32>>, turns: UnsafeMutableBufferPointer<UInt8>, parts: Int, atomically: Bool
    ) -> [PartBounds] {
        let m = list.count
        return keys.withUnsafeMutableBufferPointer { keysOut in
            list.withUnsafeBufferPointer { list in
                sign.withUnsafeBufferPointer { sign in
                    // m ≥ 2 here, so both have storage.
                    guard let slotStart = slotsOut.baseAddress, let keyStart = keysOut.baseAddress else { return [] }
                    let (slotBase, keyBase) = (SharedMutableBuffer(base: slotStart), SharedMutableBuffer(base: keyStart))
                    return parallelParts(parts) { part -> PartBounds in
                        var lo = SIMD2<Double>(.infinity, .infinity), hi = SIMD2<Double>(-.infinity, -.infinity)
                        var extent = 0.0
                        for slot in PartRanges.range(part, of: parts, count: m) {
                            let t = Int(list[slot])
                            let tri = tris[t]
                            let a = s[Int(tri.x)], b = s[Int(tri.y)], c = s[Int(tri.z)]
                            let mnx = min(a.x, b.x, c.x), mny = min(a.y, b.y, c.y)
                            let mxx = max(a.x, b.x, c.x), mxy = max(a.y, b.y, c.y)
                            // The box and the depth range rounded outward, each lane as `Float.roundedDown`
                            // and `roundedUp` round it (`outwardBox`: the same bits, in vector operations;
                            // the depth range in lanes 0 and 2, the others padding).
                            let depth = Float.outwardBox(
                                lower: SIMD2(min(a.z, b.z, c.z), 0), upper: SIMD2(max(a.z, b.z, c.z), 0))
                            let zmin = depth.x
                            countTurns(tri, sign: sign[t], a, b, c, into: turns, atomically: atomically)
                            slotBase.base[slot] = Entry(
                                box: Float.outwardBox(lower: SIMD2(mnx, mny), upper: SIMD2(mxx, mxy)),
                                depth: SIMD2(zmin, depth.z), first: .zero,
                                slot: Int32(truncatingIfNeeded: slot), triangle: tri, depths: SIMD3(a.z, b.z, c.z), sign: sign[t],
                                certain: ScreenOrientation.area(a, b, c).certain)
                            keyBase.base[slot] = RadixSort.orderedBits(zmin)
                            lo = SIMD2(min(lo.x, mnx), min(lo.y, mny))
                            hi = SIMD2(max(hi.x, mxx), max(hi.y, mxy))
                            extent += max(mxx - mnx, mxy - mny)
                        }
                        return (lo, hi, extent)
                    }
                }
            }
        }
    }

    /// The input order of `n` triangles, with the candidates' places (ascending in `list`) taken by
    /// the candidates in draw order (`drawn`, as places in `list`).
    static func placed(_ drawn: [Int32], list: [Int32], count n: Int) -> [Int32] {
        let m = list.count
        // The input order, with the candidates' places (ascending in `list`) taken by the
        // candidates in rank order: one pass, each place written once.
        return [Int32](unsafeUninitializedCapacity: n) { buffer, count in
            adviseHugePages(UnsafeMutableRawBufferPointer(buffer))
            guard let base = buffer.baseAddress else { return }
            let out = SharedMutableBuffer(base: base)
            // On all cores, each chunk its own places, starting at its first candidate.
            parallelChunks(n, minimumChunk: placingChunk) { range in
                var place = firstPlace(atLeast: range.lowerBound, in: list)
                for t in range {
                    if place < m, Int(list[place]) == t {
                        out.base[t] = list[Int(drawn[place])]
                        place += 1
                    } else {
                        out.base[t] = Int32(truncatingIfNeeded: t)
                    }
                }
            }
            count = n
        }
    }

    /// The clusters of two or more slots joined by `pairs`, and the size of the largest: over the
    /// slots in some pair alone, renumbered (a few thousand of W3's 175,000 candidates, whose
    /// union-find over every slot took about a millisecond of fresh arrays).
    static func clusterSizes(_ pairs: [SIMD2<Int32>]) -> (count: Int, largest: Int) {
        let slots = Renumbering(pairs.map(\.x) + pairs.map(\.y))
        var clusters = UnionFind(count: slots.count)
        for pair in pairs { clusters.union(slots.number(of: pair.x), slots.number(of: pair.y)) }
        return clusters.groups()
    }

    /// The first place in `list` (ascending) whose triangle is at least `t`.
    static func firstPlace(atLeast t: Int, in list: [Int32]) -> Int {
        var (lower, upper) = (0, list.count)
        while lower < upper {
            let middle = (lower + upper) / 2
            if Int(list[middle]) < t { lower = middle + 1 } else { upper = middle }
        }
        return lower
    }
}
