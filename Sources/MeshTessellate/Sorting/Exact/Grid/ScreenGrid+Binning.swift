import CSwiftRuntimeShims
import SurfaceKit

extension ScreenGrid {
    /// Compressed rows of a grid: cell c (row-major, `row * columns + column`) holds the items
    /// `members[start[c]..<start[c + 1]]`, in ascending item order.
    struct Bins {
        /// `columns × rows + 1` offsets into `members`; the last is the number of entries.
        var start: [Int32]
        /// The item of each entry, cell by cell.
        var members: [Int32]
        /// The column of each entry's cell, when asked for (empty otherwise): a row's entries right
        /// of a column are then one range, and a reader can tell which cell an entry is in.
        var columns: [Int32] = []
    }

    /// Bins `cells.count` items: item i goes into every cell of its inclusive range `cells[i]`
    /// (first column, first row, last column, last row); a range whose last column or row is below
    /// its first puts the item in no cell (items left out keep their numbers). Each cell lists its
    /// items in ascending order, so the result does not depend on how the work is done.
    ///
    /// Nil, before anything is allocated, when there would be more than `entryLimit` entries (or
    /// more than `Int32.max − 1`, which the offsets must hold): a few screen-sized items among many
    /// small ones would put themselves in every cell, and the callers then fall back instead.
    ///
    /// Every non-empty range must lie inside the grid (the ranges of `column(_:)` and `row(_:)`
    /// do); that is checked once per item (nil otherwise), so the loops over entries need no checks.
    /// `withColumns` also records each entry's column (`Bins.columns`).
    func bin(cells: [SIMD4<Int32>], entryLimit: Int, withColumns: Bool = false) -> Bins? {
        cells.withUnsafeBufferPointer { bin(cells: $0, entryLimit: entryLimit, withColumns: withColumns) }
    }

    /// `bin(cells:entryLimit:withColumns:)` for ranges held in scratch memory. With `order` (a
    /// permutation of the items), each cell lists its items in the order they have there instead
    /// of ascending (an item's entries still hold its own number).
    func bin(
        cells: UnsafeBufferPointer<SIMD4<Int32>>, entryLimit: Int, withColumns: Bool = false, order: UnsafeBufferPointer<Int32>? = nil
    ) -> Bins? {
        // Items are numbered in Int32.
        guard cells.count <= Int(Int32.max) else { return nil }
        let cellCount = columns * rows
        let limit = min(entryLimit, Int(Int32.max) - 1)
        // Entries first, by arithmetic alone. Each item adds at most columns × rows (at most
        // 4096² in all), and the sum is checked after each, so nothing overflows.
        var total = 0
        for r in cells where r.x <= r.z && r.y <= r.w {
            // The callers' ranges come from `column(_:)` and `row(_:)`, which clamp; a range
            // outside the grid anyway gets nil (the callers' fallback) rather than a trap.
            guard r.x >= 0 && r.y >= 0 && Int(r.z) < columns && Int(r.w) < rows else { return nil }
            total += (Int(r.z) - Int(r.x) + 1) * (Int(r.w) - Int(r.y) + 1)
            if total > limit { return nil }
        }
        // Counts per cell, then running sums: `start[c]` becomes the end of cell c's entries.
        // Every count and sum is at most `total`, which fits an Int32, hence the wrapping
        // arithmetic (no overflow checks in the loops over entries). Both loops over the items
        // run in bands of rows on all cores: each band reads every item and writes only the
        // cells of its own rows, in the same order as one pass would, so the bins are the same.
        let bands = Swift.max(1, Swift.min(ProcessInfoCores.count, rows, total / ScreenGrid.minimumBandEntries))
        @inline(__always) func band(_ b: Int) -> ClosedRange<Int32> {
            Int32(truncatingIfNeeded: rows * b / bands)...Int32(truncatingIfNeeded: rows * (b + 1) / bands - 1)
        }
        var start = [Int32](repeating: 0, count: cellCount + 1)
        var columns = [Int32](unsafeUninitializedCapacity: withColumns ? total : 0) { _, initialized in
            initialized = withColumns ? total : 0
        }
        let members = start.withUnsafeMutableBufferPointer { start in
            guard let startBase = start.baseAddress else { return [Int32]() }
            let starts = SharedMutableBuffer(base: startBase)
            parallelChunks(bands, minimumChunk: 1) { chunk in
                for b in chunk {
                    for r in cells where r.x <= r.z && r.y <= r.w {
                        guard let clipped = Self.clip(r, to: band(b)) else { continue }
                        forEachCell(clipped) { cell, _ in starts.base[cell] &+= 1 }
                    }
                }
            }
            for c in 1..<cellCount { start[c] &+= start[c - 1] }
            start[cellCount] = Int32(truncatingIfNeeded: total)
            // The fill runs over the items backwards and steps each cell's end down before
            // writing, so every cell receives its items in ascending order and `start[c]` ends
            // at the cell's first entry: no second array of cursors. Every entry is written
            // exactly once (the counts above), so the members need no initial value; huge
            // pages, as the fill writes all over them.
            return [Int32](unsafeUninitializedCapacity: total) { members, initialized in
                adviseHugePages(UnsafeMutableRawBufferPointer(members))
                guard let membersBase = members.baseAddress else {
                    initialized = 0
                    return
                }
                let memberOut = SharedMutableBuffer(base: membersBase)
                columns.withUnsafeMutableBufferPointer { columns in
                    // Only when asked for: an empty array may still have an address.
                    let columnOut = withColumns ? columns.baseAddress.map { SharedMutableBuffer(base: $0) } : nil
                    parallelChunks(bands, minimumChunk: 1) { chunk in
                        for b in chunk {
                            var place = cells.count
                            while place > 0 {
                                place -= 1
                                // The item listed at this place; its range is a scattered read when
                                // listed in another order, asked for 16 places ahead.
                                var item = place
                                if let order, let base = cells.baseAddress {
                                    item = Int(order[place])
                                    if place >= 16 { shims_prefetch(base + Int(order[place - 16])) }
                                }
                                let r = cells[item]
                                guard r.x <= r.z && r.y <= r.w, let clipped = Self.clip(r, to: band(b)) else { continue }
                                let value = Int32(truncatingIfNeeded: item)
                                if let columnOut {
                                    forEachCell(clipped) { cell, column in
                                        starts.base[cell] &-= 1
                                        memberOut.base[Int(starts.base[cell])] = value
                                        columnOut.base[Int(starts.base[cell])] = Int32(truncatingIfNeeded: column)
                                    }
                                } else {
                                    forEachCell(clipped) { cell, _ in
                                        starts.base[cell] &-= 1
                                        memberOut.base[Int(starts.base[cell])] = value
                                    }
                                }
                            }
                        }
                    }
                }
                initialized = total
            }
        }
        return Bins(start: start, members: members, columns: columns)
    }

    /// Entries a band of rows takes at least when items are binned on several cores: each band
    /// reads every item, so fewer are cheaper on one.
    static let minimumBandEntries = 65_536

    /// The non-empty range `r` cut to the rows `rows`; nil when it has none of them.
    @inline(__always)
    static func clip(_ r: SIMD4<Int32>, to rows: ClosedRange<Int32>) -> SIMD4<Int32>? {
        let first = Swift.max(r.y, rows.lowerBound), last = Swift.min(r.w, rows.upperBound)
        return first <= last ? SIMD4(r.x, first, r.z, last) : nil
    }

    /// Calls `body` with the row-major index and the column of every cell of the non-empty range
    /// `r`, row by row.
    @inline(__always)
    private func forEachCell(_ r: SIMD4<Int32>, _ body: (Int, Int) -> Void) {
        let first = Int(r.x), last = Int(r.z)
        var rowStart = Int(r.y) &* columns
        for _ in Int(r.y)...Int(r.w) {
            for x in first...last { body(rowStart &+ x, x) }
            rowStart &+= columns
        }
    }
}
