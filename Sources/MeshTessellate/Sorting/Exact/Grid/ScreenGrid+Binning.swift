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
    /// of ascending (an item's entries still hold its own number). `bands` sets the bands of rows
    /// binned on their own (by default one a core, where there are enough items); the bins are
    /// the same for any number.
    func bin(
        cells: UnsafeBufferPointer<SIMD4<Int32>>, entryLimit: Int, withColumns: Bool = false, order: UnsafeBufferPointer<Int32>? = nil,
        bands requestedBands: Int? = nil
    ) -> Bins? {
        // Items are numbered in Int32.
        guard cells.count <= Int(Int32.max) else { return nil }
        let cellCount = columns * rows
        let limit = min(entryLimit, Int(Int32.max) - 1)
        // Bands of rows, each binned on its own core from a list of the items that reach it, in
        // the order of their places (see `BandLists`); one band reads the places themselves.
        let bands = Swift.max(
            1, Swift.min(requestedBands ?? Swift.min(ProcessInfoCores.count, cells.count / ScreenGrid.minimumBandItems), rows))
        let lists: BandLists?
        var entries = 0
        if bands == 1 {
            // Entries first, by arithmetic alone. Each item adds at most columns × rows (at most
            // 4096² in all), and the sum is checked after each, so nothing overflows.
            for r in cells where r.x <= r.z && r.y <= r.w {
                // The callers' ranges come from `column(_:)` and `row(_:)`, which clamp; a range
                // outside the grid anyway gets nil (the callers' fallback) rather than a trap.
                guard inside(r) else { return nil }
                entries += (Int(r.z) - Int(r.x) + 1) * (Int(r.w) - Int(r.y) + 1)
                if entries > limit { return nil }
            }
            lists = nil
        } else {
            guard let made = BandLists(cells: cells, order: order, grid: self, bands: bands, limit: limit) else { return nil }
            (lists, entries) = (made, made.total)
        }
        let total = entries
        // Band b's places (`listStart`): all of them with one band, else its list.
        let banded = lists != nil
        let listStart = lists?.start ?? [0, cells.count], listed = lists?.places ?? [], copies = lists?.ranges ?? []
        @inline(__always) func placeRange(_ b: Int) -> Range<Int> { listStart[b]..<listStart[b + 1] }
        @inline(__always) func place(_ k: Int) -> Int { banded ? Int(listed[k]) : k }
        // The item at a place, and its range (copied into place order by the lists).
        @inline(__always) func item(atPlace p: Int) -> Int { order.map { Int($0[p]) } ?? p }
        @inline(__always) func range(atPlace p: Int) -> SIMD4<Int32> {
            banded && !copies.isEmpty ? copies[p] : cells[item(atPlace: p)]
        }
        @inline(__always) func band(_ b: Int) -> ClosedRange<Int32> {
            Int32(truncatingIfNeeded: rows * b / bands)...Int32(truncatingIfNeeded: rows * (b + 1) / bands - 1)
        }
        // Counts per cell, then running sums: `start[c]` becomes the end of cell c's entries.
        // Every count and sum is at most `total`, which fits an Int32, hence the wrapping
        // arithmetic (no overflow checks in the loops over entries). Both passes run by bands
        // on all cores: each band reads its own items and writes only the cells of its own
        // rows, in the same order as one pass would, so the bins are the same.
        // Cleared on all cores (R's grid on W3 has 640,000 cells).
        var start = [Int32](unsafeUninitializedCapacity: cellCount + 1) { buffer, initialized in
            if let base = buffer.baseAddress {
                let out = SharedMutableBuffer(base: base)
                parallelChunks(cellCount + 1, minimumChunk: Self.cellsSummedTogether) { cells in
                    (out.base + cells.lowerBound).initialize(repeating: 0, count: cells.count)
                }
            }
            initialized = cellCount + 1
        }
        var columns = [Int32](unsafeUninitializedCapacity: withColumns ? total : 0) { _, initialized in
            initialized = withColumns ? total : 0
        }
        let members = start.withUnsafeMutableBufferPointer { start in
            guard let startBase = start.baseAddress else { return [Int32]() }
            let starts = SharedMutableBuffer(base: startBase)
            parallelChunks(bands, minimumChunk: 1) { chunk in
                for b in chunk {
                    // With one band, the items in their own order (the counts do not depend on it).
                    for k in placeRange(b) {
                        let r = banded ? range(atPlace: place(k)) : cells[k]
                        guard r.x <= r.z && r.y <= r.w, let clipped = Self.clip(r, to: band(b)) else { continue }
                        forEachCell(clipped) { cell, _ in starts.base[cell] &+= 1 }
                    }
                }
            }
            Self.addRunningSums(UnsafeMutableBufferPointer(rebasing: start[0..<cellCount]))
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
                            let own = placeRange(b)
                            var k = own.upperBound
                            while k > own.lowerBound {
                                k -= 1
                                // With one band and an order, the range is a scattered read,
                                // asked for 16 places ahead (the bands' lists hold copies).
                                if !banded, let order, k >= own.lowerBound + 16, let base = cells.baseAddress {
                                    shims_prefetch(base + Int(order[k - 16]))
                                }
                                let p = place(k)
                                let r = range(atPlace: p)
                                guard r.x <= r.z && r.y <= r.w, let clipped = Self.clip(r, to: band(b)) else { continue }
                                let value = Int32(truncatingIfNeeded: item(atPlace: p))
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

    /// Whether the non-empty range `r` lies inside the grid.
    @inline(__always)
    func inside(_ r: SIMD4<Int32>) -> Bool {
        r.x >= 0 && r.y >= 0 && Int(r.z) < columns && Int(r.w) < rows
    }

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
