import SurfaceKit

// The draw order made from the swept pairs, and its check against the pairs the sweep left out.
extension DepthRankedOrder {
    /// The candidates (slots) in draw order: `ranked` when every tested pair (`back` before `front`,
    /// as slots) goes up the ranks; otherwise a topological order of those pairs, the lowest rank
    /// first among the free ones; nil when that has a cycle or breaks an untested pair.
    /// `depth` gives a rank's depth range.
    static func drawnOrder(ranked: [Int32], back: [Int32], front: [Int32], depth: (Int32) -> SIMD2<Float>) -> [Int32]? {
        let m = ranked.count
        var (back, front) = (back, front)
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
                if keeps { keeps = keepsUntested(rank, highest: &highest, depth: depth) }
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
        return drawn
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

}
