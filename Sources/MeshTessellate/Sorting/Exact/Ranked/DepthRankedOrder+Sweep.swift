import CSwiftRuntimeShims
import SurfaceKit
import Synchronization

extension DepthRankedOrder {
    /// Entries below which the sweep runs as one band on one core: fewer pay less than a thread.
    static let parallelSweepMinimum = 4_096
    /// Pairs the copies do not settle, tested in one batch: enough to read corners ahead, few
    /// enough to stay in the L1 cache.
    static let pairBatch = 4_096
    /// Pairs ahead whose six corners are prefetched: about one memory latency of the test's work.
    static let prefetchDistance = 8
    /// Pairs looked at between a band's updates of the shared total: rare enough to cost nothing,
    /// often enough that the bands stop soon after the limit.
    static let lookedReportInterval = 65_536

    /// What the sweep found in a band of grid rows: the tested pairs' order (back before front, as
    /// slots), every overlapping pair (level ones too, for the clusters), and the pairs looked at.
    /// `valid` is false when the band met a pair the rank order cannot keep (or the limits).
    struct BandOutcome {
        var back: [Int32] = []
        var front: [Int32] = []
        var overlaps: [SIMD2<Int32>] = []
        var looked = 0
        var valid = true
    }

    /// The grid's cells read row by row, each pair whose boxes and depth ranges overlap taken once
    /// (in the cell holding the corner where the boxes start to meet), the lower rank first, and
    /// tested: it must not be in front anywhere.
    ///
    /// The rows are cut into bands of about equal entries, swept on all cores, and the bands'
    /// findings joined in row order: the same pairs, in the same order, as one sweep of all rows,
    /// so the order made from them does not depend on the cores. The limits apply to the totals,
    /// which the bands add to as they go (after each batch of pairs, and every 65,536 pairs looked
    /// at): a band stops once a total passes its limit or another band has failed, so the pairs
    /// kept never grow much past the limit however many bands run. Any stop means the totals of
    /// a whole sweep would pass too, so the answer (nil) is the same on any number of cores. Nil
    /// when the rank order cannot be kept or the limits are passed.
    static func sweep(
        columns nx: Int, rows ny: Int, start: UnsafeBufferPointer<Int32>, entries: UnsafeBufferPointer<Entry>,
        screen s: UnsafeBufferPointer<Point3D>, limit: Int, lookLimit: Int
    ) -> BandOutcome? {
        // Several bands a core, so a band that holds a fold's crowded rows does not leave the
        // other core idle; one band on one core (the findings are the same either way, which
        // `theOrderIsTheSameOnOneThreadAndOnAllCores` checks on a fold with enough entries).
        let cores = ProcessInfoCores.count
        let bandCount = cores > 1 && entries.count >= parallelSweepMinimum ? min(4 * cores, ny) : 1
        // Band b starts at the first row whose entries begin past b / bandCount of them all.
        var firstRows = [Int](repeating: ny, count: bandCount + 1)
        firstRows[0] = 0
        var band = 1
        for y in 0..<ny where band < bandCount {
            while band < bandCount, Int(start[y * nx]) >= entries.count * band / bandCount {
                firstRows[band] = y
                band += 1
            }
        }
        let failed = Atomic<Bool>(false)
        let totals = SweepTotals()
        let outcomes = parallelParts(bandCount) { b in
            let outcome = sweep(
                rows: firstRows[b]..<firstRows[b + 1], columns: nx, start: start, entries: entries,
                screen: s, limit: limit, lookLimit: lookLimit, failed: failed, totals: totals)
            if !outcome.valid { failed.store(true, ordering: .relaxed) }
            return outcome
        }
        guard !failed.load(ordering: .relaxed) else { return nil }
        var joined = BandOutcome()
        for outcome in outcomes {
            joined.back += outcome.back
            joined.front += outcome.front
            joined.overlaps += outcome.overlaps
            joined.looked += outcome.looked
        }
        guard joined.overlaps.count <= limit, joined.looked <= lookLimit else { return nil }
        return joined
    }

    /// The overlapping pairs found and the pairs looked at by all bands so far.
    final class SweepTotals: Sendable {
        let overlaps = Atomic<Int>(0)
        let looked = Atomic<Int>(0)
    }

    /// One band's sweep (see `sweep(columns:rows:start:entries:screen:limit:lookLimit:)`).
    /// Stops (not valid) at a pair the rank order cannot keep, past the limits (its own counts or
    /// the totals), or once `failed` is set by another band.
    private static func sweep(
        rows: Range<Int>, columns nx: Int, start: UnsafeBufferPointer<Int32>, entries: UnsafeBufferPointer<Entry>,
        screen s: UnsafeBufferPointer<Point3D>, limit: Int, lookLimit: Int,
        failed: borrowing Atomic<Bool>, totals: SweepTotals
    ) -> BandOutcome {
        guard let screenBase = s.baseAddress else { return BandOutcome() }
        // The pairs that the copies do not settle are tested in batches (entry numbers), in the
        // sweep's order: their corners are scattered reads, which a batch can ask for a few pairs
        // ahead.
        var batch = [SIMD2<Int32>](repeating: .zero, count: pairBatch)
        return batch.withUnsafeMutableBufferPointer { batch in
            var band = BandSweep(
                columns: nx, start: start, entries: entries, screen: s, screenBase: screenBase, limit: limit,
                lookLimit: lookLimit, totals: totals, batch: batch)
            for cy in rows {
                // Another band has failed: the caller takes the general path whatever this finds.
                if failed.load(ordering: .relaxed) { break }
                for cx in 0..<nx where !band.sweepCell(cx, cy) {
                    band.outcome.valid = false
                    return band.outcome
                }
            }
            band.outcome.valid = band.drain()
            return band.outcome
        }
    }

    /// The state of one band's sweep: what it found so far, and the batch of pairs waiting for the
    /// exact test.
    struct BandSweep {
        let columns: Int
        let start: UnsafeBufferPointer<Int32>
        let entries: UnsafeBufferPointer<Entry>
        let screen: UnsafeBufferPointer<Point3D>
        let screenBase: UnsafePointer<Point3D>
        let limit: Int
        let lookLimit: Int
        let totals: SweepTotals
        /// Pairs (entry numbers) the copies do not settle, `batchCount` of them waiting.
        let batch: UnsafeMutableBufferPointer<SIMD2<Int32>>
        var batchCount = 0
        var outcome = BandOutcome()
        /// The pairs looked at already added to the total.
        var lookedAdded = 0

        init(
            columns: Int, start: UnsafeBufferPointer<Int32>, entries: UnsafeBufferPointer<Entry>, screen: UnsafeBufferPointer<Point3D>,
            screenBase: UnsafePointer<Point3D>, limit: Int, lookLimit: Int, totals: SweepTotals,
            batch: UnsafeMutableBufferPointer<SIMD2<Int32>>
        ) {
            (self.columns, self.start, self.entries, self.screen, self.screenBase) = (columns, start, entries, screen, screenBase)
            (self.limit, self.lookLimit, self.totals, self.batch) = (limit, lookLimit, totals, batch)
        }

        /// Looks at the pairs that start in cell (`cx`, `cy`), queueing those the copies do not
        /// settle (testing the queue when it is full); false when the band must stop.
        @inline(__always)
        mutating func sweepCell(_ cx: Int, _ cy: Int) -> Bool {
            let cell = cy * columns + cx
            let end = Int(start[cell + 1])
            for p in Int(start[cell])..<end {
                let ei = entries[p]
                let bi = ei.box, top = ei.depth.y
                var q = p + 1
                guard withinLookLimits() else { return false }
                // By rank, so by least depth: past zmax(p) every later one is behind nothing of p.
                while q < end, entries[q].depth.x <= top {
                    defer { q += 1 }
                    outcome.looked &+= 1
                    let ej = entries[q]
                    let bj = ej.box
                    guard bi.z > bj.x, bj.z > bi.x, bi.w > bj.y, bj.w > bi.y else { continue }
                    guard Int(max(ei.first.x, ej.first.x)) == cx, Int(max(ei.first.y, ej.first.y)) == cy else { continue }
                    // Settled from the copies alone (most pairs on W3): neighbours touching
                    // in depth at a corner, the lower one's top the other's bottom (as the
                    // depth filter below finds); neighbours at a corner around which the
                    // triangles wind once (apart, see `simpleCorners`); and neighbours on
                    // the two sides of their edge (`PairOcclusion.relation` says apart too).
                    if ei.topIsBottom(of: ej) || ei.sharesSimpleCorner(with: ej) { continue }
                    if ei.acrossAnEdge(from: ej) { continue }
                    batch[batchCount] = SIMD2(Int32(truncatingIfNeeded: p), Int32(truncatingIfNeeded: q))
                    batchCount += 1
                    if batchCount == batch.count, !drain() { return false }
                }
            }
            return true
        }

        /// Whether the pairs looked at stay within their limit, the band's own and the total (added
        /// to every `lookedReportInterval` pairs): many nearly level, folded triangles in one cell
        /// would make the sweep quadratic, so past a few dozen per entry the general path (with its
        /// own bounds) decides instead.
        @inline(__always)
        mutating func withinLookLimits() -> Bool {
            if outcome.looked > lookLimit { return false }
            if outcome.looked - lookedAdded >= lookedReportInterval {
                let total = totals.looked.wrappingAdd(outcome.looked - lookedAdded, ordering: .relaxed).newValue
                lookedAdded = outcome.looked
                if total > lookLimit { return false }
            }
            return true
        }

        /// Tests the batch's pairs in order; false when the general path must decide.
        mutating func drain() -> Bool {
            defer { batchCount = 0 }
            let s = screen
            let overlapsBefore = outcome.overlaps.count
            for k in 0..<batchCount {
                if k + prefetchDistance < batchCount { prefetchCorners(of: batch[k + prefetchDistance]) }
                let ei = entries[Int(batch[k].x)], ej = entries[Int(batch[k].y)]
                let ti = ei.triangle, tj = ej.triangle
                // p ranks below q. When no corner of p is above any corner of q (exact corner
                // depths; depth is linear over each triangle), p is behind q or level wherever
                // they overlap, so the rank order is right for them (neighbours at a corner on
                // a slope, whose shared corner is p's highest and q's lowest, were settled
                // from the copies already).
                if min(s[Int(tj.x)].z, s[Int(tj.y)].z, s[Int(tj.z)].z) >= max(s[Int(ti.x)].z, s[Int(ti.y)].z, s[Int(ti.z)].z) {
                    continue
                }
                let si = ei.slot, sj = ej.slot
                let signs: (Double, Double) = (ei.negative ? -1 : 1, ej.negative ? -1 : 1)
                let relation = PairOcclusion.relation(ti, tj, s, signs: signs)
                if relation == .apart { continue }
                if relation == .crossing { return false }
                if let (back, front) = relation.backAndFront(si, sj) {
                    outcome.back.append(back)
                    outcome.front.append(front)
                }
                outcome.overlaps.append(SIMD2(si, sj))
                if outcome.overlaps.count > limit { return false }
            }
            let added = outcome.overlaps.count - overlapsBefore
            return added == 0 || totals.overlaps.wrappingAdd(added, ordering: .relaxed).newValue <= limit
        }

        /// Asks for the six corners of a pair that is tested a few pairs later.
        @inline(__always)
        func prefetchCorners(of pair: SIMD2<Int32>) {
            let ahead = entries[Int(pair.x)].corners, other = entries[Int(pair.y)].corners
            shims_prefetch(screenBase + Int(ahead.x))
            shims_prefetch(screenBase + Int(ahead.y))
            shims_prefetch(screenBase + Int(ahead.z))
            shims_prefetch(screenBase + Int(other.x))
            shims_prefetch(screenBase + Int(other.y))
            shims_prefetch(screenBase + Int(other.z))
        }
    }
}
