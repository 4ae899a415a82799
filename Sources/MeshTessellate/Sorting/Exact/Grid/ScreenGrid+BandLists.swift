import CSwiftRuntimeShims
import SurfaceKit

extension ScreenGrid {
    /// The band of rows that holds row `y`, of `bands` bands (band b holds rows
    /// `rows × b / bands` up to the next band's first).
    @inline(__always)
    func band(ofRow y: Int, bands: Int) -> Int {
        var b = y * bands / rows
        while b + 1 < bands && rows * (b + 1) / bands <= y { b += 1 }
        while b > 0 && rows * b / bands > y { b -= 1 }
        return b
    }

    /// The items that reach each band of rows, listed by their places (in `order`, or the items
    /// themselves), so that a band's passes read its own items alone instead of every item: band
    /// b's places are `places[start[b]..<start[b + 1]]`, ascending. Made in parts of the places
    /// on all cores: each part copies its places' ranges into place order (`ranges`: the one
    /// scattered read of each range when there is an order, asked for 16 places ahead), checks
    /// them, adds their entries and counts its places for every band; the counts' running sums
    /// (bands × parts) give each part its stretch of every band's list, and each part writes its
    /// stretches in place order.
    struct BandLists {
        /// The entries of all items.
        let total: Int
        /// Each place's range, in place order (empty without an order: the items' own ranges).
        let ranges: [SIMD4<Int32>]
        let places: [Int32]
        /// `bands + 1` positions in `places`.
        let start: [Int]

        /// Nil when a non-empty range lies outside the grid or the entries pass `limit`.
        init?(cells: UnsafeBufferPointer<SIMD4<Int32>>, order: UnsafeBufferPointer<Int32>?, grid: ScreenGrid, bands: Int, limit: Int) {
            let n = cells.count, parts = bands
            @inline(__always) func partPlaces(_ p: Int) -> Range<Int> { PartRanges.range(p, of: parts, count: n) }
            var ranges = [SIMD4<Int32>](unsafeUninitializedCapacity: order == nil ? 0 : n) { _, initialized in
                initialized = order == nil ? 0 : n
            }
            // Each part's entries (nil past the limit or outside the grid) and places per band.
            let counted = ranges.withUnsafeMutableBufferPointer { ranges -> [(entries: Int, reach: [Int])?] in
                let copies = ranges.baseAddress.map { SharedMutableBuffer(base: $0) }
                return parallelParts(parts) { p -> (entries: Int, reach: [Int])? in
                    var entries = 0
                    var reach = [Int](repeating: 0, count: bands)
                    let own = partPlaces(p)
                    for place in own {
                        var r = cells[place]
                        if let order, let copies, let base = cells.baseAddress {
                            if place + 16 < own.upperBound { shims_prefetch(base + Int(order[place + 16])) }
                            r = cells[Int(order[place])]
                            copies.base[place] = r
                        }
                        guard r.x <= r.z && r.y <= r.w else { continue }
                        guard grid.inside(r) else { return nil }
                        entries += (Int(r.z) - Int(r.x) + 1) * (Int(r.w) - Int(r.y) + 1)
                        if entries > limit { return nil }
                        for b in grid.band(ofRow: Int(r.y), bands: bands)...grid.band(ofRow: Int(r.w), bands: bands) { reach[b] += 1 }
                    }
                    return (entries, reach)
                }
            }
            var total = 0
            for part in counted {
                guard let part else { return nil }
                total += part.entries
                if total > limit { return nil }
            }
            // Part p's stretch of band b's list from cursor[p × bands + b].
            var cursor = [Int](repeating: 0, count: parts * bands)
            let start = PartRanges.bucketMajorFirsts(
                parts: parts, buckets: bands, count: { p, b in counted[p]?.reach[b] ?? 0 },
                setFirst: { p, b, place in cursor[p * bands + b] = place })
            let listed = start[bands]
            let copied = UncheckedSendable(ranges)
            places = [Int32](unsafeUninitializedCapacity: listed) { buffer, initialized in
                if let base = buffer.baseAddress {
                    let out = SharedMutableBuffer(base: base)
                    cursor.withUnsafeMutableBufferPointer { cursor in
                        guard let cursorBase = cursor.baseAddress else { return }
                        let cursors = SharedMutableBuffer(base: cursorBase)
                        parallelChunks(parts, minimumChunk: 1) { chunk in
                            for p in chunk {
                                let own = cursors.base + p * bands
                                for place in partPlaces(p) {
                                    let r = order == nil ? cells[place] : copied.value[place]
                                    guard r.x <= r.z && r.y <= r.w else { continue }
                                    for b in grid.band(ofRow: Int(r.y), bands: bands)...grid.band(ofRow: Int(r.w), bands: bands) {
                                        out.base[own[b]] = Int32(truncatingIfNeeded: place)
                                        own[b] += 1
                                    }
                                }
                            }
                        }
                    }
                }
                initialized = listed
            }
            (self.total, self.ranges, self.start) = (total, ranges, start)
        }
    }

    /// Items a band of rows takes at least when items are binned on several cores: below this a
    /// band's list costs more than the band saves. W3's 175,000 candidates allow 21 bands, more
    /// than the band count's cap of one a core, so 16 cores each bin one.
    static let minimumBandItems = 8_192

    /// Cells a core clears or sums at least: a few tens of microseconds of work.
    static let cellsSummedTogether = 65_536

    /// Replaces each of `values` by the sum of it and all before it (wrapping adds), in blocks of
    /// `cellsSummedTogether` on all cores: each block's total, their running sum on one thread
    /// (a few numbers), then each block's running sums from its start. The same sums as one
    /// pass, with the serial part a few numbers (the cells' counts of R's grid on W3 are 640,000).
    static func addRunningSums(_ values: UnsafeMutableBufferPointer<Int32>) {
        let n = values.count, block = cellsSummedTogether
        guard let base = values.baseAddress else { return }
        let out = SharedMutableBuffer(base: base)
        let blocks = (n + block - 1) / block
        @inline(__always) func cells(_ b: Int) -> Range<Int> { b * block..<Swift.min(n, (b + 1) * block) }
        let totals = parallelParts(blocks) { b -> Int32 in
            var sum: Int32 = 0
            for c in cells(b) { sum &+= out.base[c] }
            return sum
        }
        var starts = [Int32](repeating: 0, count: blocks)
        for b in 1..<Swift.max(1, blocks) { starts[b] = starts[b - 1] &+ totals[b - 1] }
        parallelChunks(blocks, minimumChunk: 1) { chunk in
            for b in chunk {
                var sum = starts[b]
                for c in cells(b) {
                    sum &+= out.base[c]
                    out.base[c] = sum
                }
            }
        }
    }
}
