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

    private static func order(
        screen s: UnsafeBufferPointer<Point3D>, triangles tris: UnsafeBufferPointer<SIMD3<Int32>>, limit: Int,
        topology: SortTopology?, countingClusters: Bool
    ) -> Outcome? {
        let n = tris.count
        // Whether the candidates' angles at each vertex cover the direction +x once (bit 0) or
        // more often (bit 1, set for the vertices of R and the corners of triangles whose sign
        // may be wrong too; see `simpleCornerMask`).
        let turnScratch = SortScratch(bytes: s.count, zeroed: true)
        defer { withExtendedLifetime(turnScratch) {} }
        let turns = turnScratch.buffer(of: UInt8.self, count: s.count)
        // The sign of each triangle's screen area; 0 for those that cover none (edge-on, or not
        // finite), which take part in no pair.
        let sign = ScreenOrientation.signs(screen: s, triangles: tris, uncertain: turns)
        // The touch tolerance's scale: the extent of R, which is the extent of everything covered.
        let candidates = sign.withUnsafeBufferPointer { sign in
            OverlapCandidates.find(screen: s, triangles: tris, signs: sign, scale: nil, topology: topology)
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
        // and the simple corners come below. Every slot is written in the loop below (no zero fill first). The arrays of m and n
        // here are advised as huge pages: on a virtual machine a fresh 4 KiB page costs about 2 µs.
        var slots = [Entry](unsafeUninitializedCapacity: m) { buffer, initialized in
            adviseHugePages(UnsafeMutableRawBufferPointer(buffer))
            initialized = m
        }
        var keys = [UInt32](unsafeUninitializedCapacity: m) { _, initialized in initialized = m }
        for v in candidates.residualVertices { turns[Int(v)] = 3 }

        // In a fixed number of parts (on all cores; the vertices' marks then atomically), each
        // with its own bounds and sum, added in part order: the grid below is the same on any
        // number of cores.
        let parts = m >= 32_768 ? 8 : 1
        // Atomically whenever there are parts: `parallelParts` reads the cores again, and a limit
        // changed in between (`BenchmarkRunner.withThreads`) must not run them unguarded.
        let atomically = parts > 1
        typealias PartBounds = (lo: SIMD2<Double>, hi: SIMD2<Double>, extent: Double)
        let partBounds: [PartBounds] = slots.withUnsafeMutableBufferPointer { slotsOut in
            keys.withUnsafeMutableBufferPointer { keysOut in
                list.withUnsafeBufferPointer { list in
                    sign.withUnsafeBufferPointer { sign in
                        // m ≥ 2 here, so both have storage.
                        guard let slotStart = slotsOut.baseAddress, let keyStart = keysOut.baseAddress else { return [] }
                        let (slotBase, keyBase) = (SharedMutableBuffer(base: slotStart), SharedMutableBuffer(base: keyStart))
                        return parallelParts(parts) { part -> PartBounds in
                            var lo = SIMD2<Double>(.infinity, .infinity), hi = SIMD2<Double>(-.infinity, -.infinity)
                            var extent = 0.0
                            for slot in m * part / parts..<m * (part + 1) / parts {
                                let t = Int(list[slot])
                                let tri = tris[t]
                                let a = s[Int(tri.x)], b = s[Int(tri.y)], c = s[Int(tri.z)]
                                let mnx = min(a.x, b.x, c.x), mny = min(a.y, b.y, c.y)
                                let mxx = max(a.x, b.x, c.x), mxy = max(a.y, b.y, c.y)
                                let zmin = Float.roundedDown(min(a.z, b.z, c.z))
                                countTurns(tri, sign: sign[t], a, b, c, into: turns, atomically: atomically)
                                slotBase.base[slot] = Entry(
                                    box: SIMD4(Float.roundedDown(mnx), Float.roundedDown(mny), Float.roundedUp(mxx), Float.roundedUp(mxy)),
                                    depth: SIMD2(zmin, Float.roundedUp(max(a.z, b.z, c.z))), first: .zero,
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
        var boxLo = SIMD2<Double>(.infinity, .infinity), boxHi = SIMD2<Double>(-.infinity, -.infinity)
        var sumExtent = 0.0
        for bounds in partBounds {
            boxLo = pointwiseMin(boxLo, bounds.lo)
            boxHi = pointwiseMax(boxHi, bounds.hi)
            sumExtent += bounds.extent
        }
        // Ranks: ascending key, ties in slot (so index) order.
        let ranked = RadixSort.stableOrder(bits: keys)
        keys = []

        // Cells about three times the mean box: a box then meets one or two cells instead of about
        // four, so the cells' copies (which the sweep reads) take half the memory, while the pairs
        // looked at grow by a tenth at most, since the depth ranges bound them (W3: 272,000 copies
        // instead of 522,000, 2.0 M pairs looked at instead of 1.85 M, 2% fewer instructions).
        let grid = ScreenGrid(lo: boxLo, hi: boxHi, meanExtent: 3 * sumExtent / Double(m), count: m)
        let nx = grid.columns, ny = grid.rows
        @inline(__always) func cellX(_ x: Float) -> Int { grid.column(Double(x)) }
        @inline(__always) func cellY(_ y: Float) -> Int { grid.row(Double(y)) }
        // Each box's cells (first column and row, last column and row), by slot, and its first
        // cell and simple corners (all turns are counted by now) in its entry, in one pass in slot
        // order. The binning then lists each cell's candidates by rank (reading the cells in rank
        // order, asked for ahead), and the cells' copies (which the sweep reads in sequence) are
        // taken from the slots: a gather of the candidates into rank order first cost as much as
        // the copies themselves (2.7 ms on W3).
        // In one fresh mapping of huge pages (as an array, hundreds of faults of 4 KiB pages).
        let cellScratch = SortScratch(bytes: m * MemoryLayout<SIMD4<Int32>>.stride)
        defer { withExtendedLifetime(cellScratch) {} }
        let cellsOut = cellScratch.buffer(of: SIMD4<Int32>.self, count: m)
        let counted = UnsafeBufferPointer(turns)
        slots.withUnsafeMutableBufferPointer { slots in
            guard let base = slots.baseAddress else { return }
            let slotBase = SharedMutableBuffer(base: base)
            // On all cores, each chunk its own slots.
            parallelChunks(m, minimumChunk: 32_768) { range in
                for slot in range {
                    let box = slotBase.base[slot].box, corners = slotBase.base[slot].corners
                    let r = SIMD4(Int32(cellX(box.x)), Int32(cellY(box.y)), Int32(cellX(box.z)), Int32(cellY(box.w)))
                    slotBase.base[slot].first = SIMD2(Int16(truncatingIfNeeded: r.x), Int16(truncatingIfNeeded: r.y))
                    slotBase.base[slot].corners.w = corners.w & ~7 | simpleCornerMask(corners, turns: counted)
                    cellsOut[slot] = r
                }
            }
        }
        // Nil past a few entries a candidate (and the pair limit), by arithmetic before anything
        // is allocated: a few screen-sized triangles among many small ones would put themselves in
        // every cell, and the general path then decides.
        let binned = ranked.withUnsafeBufferPointer { ranked in
            grid.bin(cells: UnsafeBufferPointer(cellsOut), entryLimit: 8 * m + min(limit, Int(Int32.max)), order: ranked)
        }
        guard let bins = binned else { return nil }
        let start = bins.start
        let total = bins.members.count
        // Every entry is written, in a mapping of its own (huge pages, as the sweep then reads them
        // all; as an array some 400-900 faults of 4 KiB pages a sort on W3), by reads scattered
        // over the slots, each asked for 16 entries ahead.
        let entryScratch = SortScratch(bytes: total * MemoryLayout<Entry>.stride)
        defer { withExtendedLifetime(entryScratch) {} }
        let entryBuffer = entryScratch.buffer(of: Entry.self, count: total)
        slots.withUnsafeBufferPointer { slots in
            bins.members.withUnsafeBufferPointer { members in
                guard let base = slots.baseAddress else { return }
                // On all cores, each chunk its own entries.
                parallelChunks(total, minimumChunk: 65_536) { range in
                    for e in range {
                        if e + 16 < range.upperBound { shims_prefetch(base + Int(members[e + 16])) }
                        entryBuffer[e] = slots[Int(members[e])]
                    }
                }
            }
        }
        let entries = UnsafeBufferPointer(entryBuffer)

        // Each pair whose boxes and depth ranges overlap, once, tested (on all cores, by bands of
        // rows): the order of those that overlap, back before front.
        let lookLimit = 64 * entries.count + min(limit, Int(Int32.max))
        let swept = start.withUnsafeBufferPointer { start in
            sweep(columns: nx, rows: ny, start: start, entries: entries, screen: s, limit: limit, lookLimit: lookLimit)
        }
        guard let swept else { return nil }
        var (back, front) = (swept.back, swept.front)
        outcome.overlappingPairs = swept.overlaps.count
        if countingClusters { (outcome.clusters, outcome.largestCluster) = clusterSizes(swept.overlaps) }

        // The tested pairs' edges between ranks. When every one goes up the ranks, the rank order
        // is the order; otherwise a topological order of them, the lowest rank first among the free
        // ones, provided no cycle and no untested pair is broken (see `keepsUntestedPairs`).
        // The ranks of the few slots in those edges, found in one pass over the ranks (a bit per
        // slot marks them) instead of every slot's rank.
        let edgeSlots = Renumbering(back + front)
        var edgeRanks = [Int32](repeating: 0, count: edgeSlots.count)
        if !edgeSlots.values.isEmpty {
            var marked = [UInt64](repeating: 0, count: (m + 63) / 64)
            for slot in edgeSlots.values { marked[Int(slot) >> 6] |= 1 << UInt64(slot & 63) }
            for (rank, slot) in ranked.enumerated() where marked[Int(slot) >> 6] & (1 << UInt64(slot & 63)) != 0 {
                edgeRanks[Int(edgeSlots.number(of: slot))] = Int32(rank)
            }
        }
        var upward = true
        for k in back.indices {
            back[k] = edgeRanks[Int(edgeSlots.number(of: back[k]))]
            front[k] = edgeRanks[Int(edgeSlots.number(of: front[k]))]
            if back[k] > front[k] { upward = false }
        }
        var drawn = ranked
        if !upward {
            drawn = []
            drawn.reserveCapacity(m)
            // The graph over the ranks with edges only, renumbered in order (a few thousand of
            // m nodes): the others are in no cycle, and in the order (lowest free rank first) each
            // comes as soon as it is below the lowest free rank with edges, which is the next one
            // in their own order; so the order is the two merged.
            let renumbering = Renumbering(back + front)
            let touched = renumbering.values
            let graph = OcclusionGraph(
                count: touched.count, back: back.map(renumbering.number(of:)), front: front.map(renumbering.number(of:)))
            let (component, cycles) = graph.cyclicComponents()
            guard cycles.isEmpty else { return nil }
            // The ranks are checked as they are placed (see `keepsUntestedPairs`), and their slots
            // drawn.
            var highest: Int32 = -1, keeps = true
            @inline(__always) func place(_ rank: Int32) {
                if keeps { keeps = keepsUntested(rank, highest: &highest) { slots[Int(ranked[Int($0)])].depth } }
                drawn.append(ranked[Int(rank)])
            }
            // `free`: the lowest rank without edges not yet placed (`t` skips those with edges).
            var free: Int32 = 0, t = 0
            @inline(__always) func skipRanksWithEdges() {
                while t < touched.count, touched[t] <= free {
                    if touched[t] == free { free += 1 }
                    t += 1
                }
            }
            for compactRank in graph.order(component: component, members: cycles, drawn: []) {
                let rank = touched[Int(compactRank)]
                skipRanksWithEdges()
                while free < rank {
                    place(free)
                    free += 1
                    skipRanksWithEdges()
                }
                place(rank)
            }
            skipRanksWithEdges()
            while free < Int32(m) {
                place(free)
                free += 1
                skipRanksWithEdges()
            }
            guard keeps else { return nil }
        }

        // The input order, with the candidates' places (ascending in `list`) taken by the
        // candidates in rank order: one pass, each place written once.
        outcome.order = [Int32](unsafeUninitializedCapacity: n) { buffer, count in
            adviseHugePages(UnsafeMutableRawBufferPointer(buffer))
            guard let base = buffer.baseAddress else { return }
            let out = SharedMutableBuffer(base: base)
            // On all cores, each chunk its own places, starting at its first candidate.
            parallelChunks(n, minimumChunk: 262_144) { range in
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
        return outcome
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

    /// Whether `order` (ranks) keeps every pair the sweep did not test: such a pair's later rank lies
    /// wholly in front (its least depth above the other's greatest), or at least touches it (the
    /// exact least corner depth of the later not below the exact greatest of the earlier), so it is
    /// kept unless the later one is drawn first. A rank drawn after a higher one is checked against
    /// the greatest least depth drawn so far (ranks go by least depth): if that is not below its own
    /// greatest depth by more than one step of the Float rounding (a touching pair's rounded least
    /// depth of the later is at least the earlier's rounded-up greatest, one step down), an untested
    /// pair may be broken and the caller takes the general path.
    static func keepsUntestedPairs(_ order: [Int32], ranked: [Int32], depths: [SIMD2<Float>]) -> Bool {
        var highest: Int32 = -1
        for rank in order where !keepsUntested(rank, highest: &highest, depth: { depths[Int(ranked[Int($0)])] }) {
            return false
        }
        return true
    }

    /// `keepsUntestedPairs` one rank at a time: whether `rank`, drawn after ranks up to `highest`
    /// (updated), keeps the untested pairs; `depth` gives a rank's depth range.
    @inline(__always)
    static func keepsUntested(_ rank: Int32, highest: inout Int32, depth: (Int32) -> SIMD2<Float>) -> Bool {
        if rank > highest {
            highest = rank
            return true
        }
        return depth(highest).x < depth(rank).y.nextDown
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

    /// Marks in `turns` each corner of the triangle `tri` (corners at a, b, c, with screen-area
    /// sign `sign`, not 0) whose angle holds the direction +x: bit 0 the first time a vertex is
    /// marked, bit 1 every time after. With the corners counterclockwise, the angle at v from the
    /// next corner u to the previous one w (less than π) holds it when u.y ≤ v.y < w.y, exactly
    /// (half-open, so a side along +x counts once). `atomically` when other cores mark too.
    @inline(__always)
    static func countTurns(
        _ tri: SIMD3<Int32>, sign: Int8, _ a: Point3D, _ b: Point3D, _ c: Point3D, into turns: UnsafeMutableBufferPointer<UInt8>,
        atomically: Bool = false
    ) {
        @inline(__always) func turn(_ v: Int32, if covers: Bool) {
            guard covers else { return }
            if atomically, let base = turns.baseAddress {
                if shims_fetch_or_u8(base + Int(v), 1) & 1 != 0 { _ = shims_fetch_or_u8(base + Int(v), 2) }
            } else {
                let marks = turns[Int(v)]
                turns[Int(v)] = marks | 1 | (marks & 1) << 1
            }
        }
        if sign > 0 {
            turn(tri.x, if: b.y <= a.y && a.y < c.y)
            turn(tri.y, if: c.y <= b.y && b.y < a.y)
            turn(tri.z, if: a.y <= c.y && c.y < b.y)
        } else {
            turn(tri.x, if: c.y <= a.y && a.y < b.y)
            turn(tri.z, if: b.y <= c.y && c.y < a.y)
            turn(tri.y, if: a.y <= b.y && b.y < c.y)
        }
    }

    /// The corners of `corners` (bit k for corner k) around which the triangles wind once, for
    /// `Entry.corners`, from `turns`:
    /// whether the candidates' angles at each vertex cover the direction +x once (bit 0) or more
    /// often (bit 1, also set for the vertices of R and the corners of every triangle whose sign
    /// the rounding may have got wrong, `ScreenOrientation.signs(…, uncertain:)`).
    ///
    /// The argument needs each triangle at v to be run the way it truly turns: a sliver whose
    /// rounded area has the wrong sign would let v's runs cancel while two of its neighbours
    /// overlap along it (a review found such a fan), hence the marks of uncertain signs; every other
    /// sign is exact. Around a vertex v that is no end of R, every edge at v is run once each way, so the sides
    /// opposite v of the triangles with area at v make a closed chain, and those triangles cover
    /// every point near v the same number k ≥ 1 of times: the chain's winding number there. That is
    /// how often their angles at v hold the direction +x (each angle below π, half-open by the y
    /// comparisons, so a side along +x counts once). When all of them are candidates, that count is
    /// what `turns[v]` marks. When one of them is not, it is covered once and R does not touch it
    /// (`OverlapCandidates`), so near v nothing is covered more than once and k = 1 too. So when
    /// `turns[v]` has no bit 1, k = 1: the angles at v do not overlap, and each triangle lies in its angle,
    /// so two triangles with the corner v are apart on screen. The sweep then skips such pairs
    /// without the exact test, which says apart for them too (W3: 487,000 tests → about 65,000).
    @inline(__always)
    static func simpleCornerMask(_ corners: SIMD4<Int32>, turns: UnsafeBufferPointer<UInt8>) -> Int32 {
        (turns[Int(corners.x)] & 2 == 0 ? 1 : 0) | (turns[Int(corners.y)] & 2 == 0 ? 2 : 0) | (turns[Int(corners.z)] & 2 == 0 ? 4 : 0)
    }

    /// A cell's copy of a candidate's box, depth range, first cell (column, row; a grid has at most
    /// 4,096 a side), slot, and its corners with what the sweep's filters need of them, so that
    /// most pairs are settled from the two copies alone (no scattered read of the pair data).
    struct Entry {
        var box = SIMD4<Float>.zero
        var depth = SIMD2<Float>.zero
        var first = SIMD2<Int16>.zero
        var slot: Int32 = 0
        /// The corners, and in w: bits 0–2 the corners around which the triangles wind once (see
        /// `simpleCornerMask`), bits 3–4 the corner of least depth, bits 5–6 the corner of greatest
        /// depth (the first of equal ones), bit 7 a negative screen-area sign, bit 8 a sign the
        /// rounding may have got wrong (`ScreenOrientation.area`).
        var corners = SIMD4<Int32>.zero

        init(
            box: SIMD4<Float>, depth: SIMD2<Float>, first: SIMD2<Int16>, slot: Int32, triangle: SIMD3<Int32>,
            depths: SIMD3<Double>, sign: Int8, certain: Bool
        ) {
            self.box = box
            self.depth = depth
            self.first = first
            self.slot = slot
            let least: Int32 = depths.y < depths.x ? (depths.z < depths.y ? 2 : 1) : (depths.z < depths.x ? 2 : 0)
            let greatest: Int32 = depths.y > depths.x ? (depths.z > depths.y ? 2 : 1) : (depths.z > depths.x ? 2 : 0)
            corners = SIMD4(triangle, least << 3 | greatest << 5 | (sign < 0 ? 1 << 7 : 0) | (certain ? 0 : 1 << 8))
        }

        /// The corners alone.
        var triangle: SIMD3<Int32> { SIMD3(corners.x, corners.y, corners.z) }

        /// Whether the screen-area sign is negative.
        var negative: Bool { corners.w & (1 << 7) != 0 }

        /// Whether this and `other` are neighbours on the two sides of an edge: their signs, both
        /// exact, the same, and the edge run opposite ways (then `PairOcclusion.relation` finds them
        /// apart too).
        @inline(__always)
        func acrossAnEdge(from other: Entry) -> Bool {
            (corners.w | other.corners.w) & (1 << 8) == 0 && negative == other.negative
                && PairOcclusion.runOppositeAlongAnEdge(triangle, other.triangle)
        }

        /// Whether this one's corner of greatest depth is `later`'s corner of least depth: then no
        /// corner of this one is above any of `later` (its greatest depth is the other's least,
        /// exactly), as the sweep's depth filter finds without reading the exact depths.
        @inline(__always)
        func topIsBottom(of later: Entry) -> Bool {
            corners[Int(corners.w >> 5 & 3)] == later.corners[Int(later.corners.w >> 3 & 3)]
        }

        /// Whether this and `other` share a corner around which the triangles wind once: then
        /// they are apart on screen.
        @inline(__always)
        func sharesSimpleCorner(with other: Entry) -> Bool {
            let w = corners.w
            let simple = SIMD3(w & 1, w & 2, w & 4) .!= 0
            let shared = triangle .== other.corners.x .| triangle .== other.corners.y .| triangle .== other.corners.z
            return any(shared .& simple)
        }
    }

}
