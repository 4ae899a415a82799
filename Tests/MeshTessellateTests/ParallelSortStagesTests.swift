import Foundation
import SurfaceKit
import Testing

@testable import MeshTessellate

// The exact order's stages that run on all cores: the candidates' ranking by least depth (a
// stable radix sort cut into parts), the binning of boxes into grid cells and the crossings of
// the residual chain (both by bands of rows). Each must give what one pass gives: the stable
// order computed here by a comparison sort, bins listed cell by cell from their definition, and
// crossings counted segment by segment, on one thread and on two.

@Suite struct ParallelSortStagesTests {
    /// The stable ascending order of `keys`, by a comparison sort on (key, index).
    static func stableReference(_ keys: [UInt32]) -> [Int32] {
        keys.indices.sorted { keys[$0] < keys[$1] || (keys[$0] == keys[$1] && $0 < $1) }.map { Int32($0) }
    }

    @Test func theRankingInPartsIsTheStableOrder() {
        var random = TessSupport.Random(seed: 0x29_03)
        let n = 200_000
        // Many equal keys (few values in the high digits), keys with the high digits all zero (a
        // pass skipped), keys spread over all 32 bits, and one value alone.
        let sets: [[UInt32]] = [
            (0..<n).map { _ in UInt32(random.next() % 5_000) << 20 | UInt32(random.next() % 3) },
            (0..<n).map { _ in UInt32(random.next() % 2_048) },
            (0..<n).map { _ in UInt32(truncatingIfNeeded: random.next()) },
            [UInt32](repeating: 7, count: n),
        ]
        for keys in sets {
            let expected = Self.stableReference(keys)
            for threads in [1, 2] {
                let order = ParallelLimit.withThreads(threads) { RadixSort.parallelStableOrder(bits: keys) }
                #expect(order == expected, "\(threads) threads")
            }
        }
        // Below a part's size on two cores: the one-core sort.
        let few: [UInt32] = (0..<1_000).map { _ in UInt32(random.next() % 17) }
        #expect(RadixSort.parallelStableOrder(bits: few) == Self.stableReference(few))
    }

    @Test func binsInBandsListEveryCellsItemsInOrder() throws {
        var random = TessSupport.Random(seed: 0x29_04)
        let count = 60_000
        let grid = ScreenGrid(lo: SIMD2(0, 0), hi: SIMD2(1, 1), meanExtent: 0.02, count: count)
        #expect(grid.rows > 2 && grid.columns > 2)
        // Ranges of one to four cells a side, some left out (last below first).
        let cells: [SIMD4<Int32>] = (0..<count).map { i in
            let x = Int32(random.next() % UInt64(grid.columns)), y = Int32(random.next() % UInt64(grid.rows))
            let w = Int32(random.next() % 4), h = Int32(random.next() % 4)
            if i % 97 == 0 { return SIMD4(x, y, x - 1, y) }
            return SIMD4(x, y, min(x + w, Int32(grid.columns - 1)), min(y + h, Int32(grid.rows - 1)))
        }
        var order = (0..<Int32(count)).map { $0 }
        for i in stride(from: count - 1, to: 0, by: -1) { order.swapAt(i, Int(random.next() % UInt64(i + 1))) }
        // The reference: each cell's items in the order's order, cells row by row.
        var lists = [[Int32]](repeating: [], count: grid.columns * grid.rows)
        var listColumns = [[Int32]](repeating: [], count: grid.columns * grid.rows)
        for item in order {
            let r = cells[Int(item)]
            guard r.x <= r.z else { continue }
            for y in r.y...r.w {
                for x in r.x...r.z {
                    lists[Int(y) * grid.columns + Int(x)].append(item)
                    listColumns[Int(y) * grid.columns + Int(x)].append(x)
                }
            }
        }
        let total = lists.reduce(0) { $0 + $1.count }
        #expect(total > 2 * ScreenGrid.minimumBandEntries, "enough entries for two bands")
        for threads in [1, 2] {
            let bins = try #require(
                ParallelLimit.withThreads(threads) {
                    cells.withUnsafeBufferPointer { c in
                        order.withUnsafeBufferPointer { o in grid.bin(cells: c, entryLimit: 1 << 30, withColumns: true, order: o) }
                    }
                })
            #expect(bins.members.count == total && bins.start.count == lists.count + 1)
            var same = true
            for (cell, list) in lists.enumerated() {
                let range = Int(bins.start[cell])..<Int(bins.start[cell + 1])
                if Array(bins.members[range]) != list || Array(bins.columns[range]) != listColumns[cell] { same = false }
            }
            #expect(same, "\(threads) threads")
            // Without an order: ascending items in every cell.
            let plain = try #require(ParallelLimit.withThreads(threads) { grid.bin(cells: cells, entryLimit: 1 << 30) })
            var ascending = true
            for cell in 0..<lists.count {
                let members = plain.members[Int(plain.start[cell])..<Int(plain.start[cell + 1])]
                if Array(members) != lists[cell].sorted() { ascending = false }
            }
            #expect(ascending && plain.columns.isEmpty, "\(threads) threads")
        }
    }

    @Test func crossingsInBandsAreEveryRowCentreTheChainCrosses() {
        // A closed polygon of many vertices (a wavy ring), run once: each row centre it crosses
        // adds +1 where it goes up and −1 where it goes down, so a row's sum is 0.
        let sides = 6_000
        var screen: [Point3D] = []
        for k in 0..<sides {
            let angle = 2 * Double.pi * Double(k) / Double(sides)
            let radius = 0.4 + 0.05 * sin(37 * angle)
            screen.append(Point3D(0.5 + radius * cos(angle), 0.5 + radius * sin(angle), 0))
        }
        let residual = (0..<sides).map { k in (a: Int32(k), b: Int32((k + 1) % sides), weight: Int32(1)) }
        #expect(residual.count >= 2 * OverlapCandidates.minimumCrossingBand)
        let grid = ScreenGrid(lo: SIMD2(0, 0), hi: SIMD2(1, 1), meanExtent: 0.01, count: 40_000)
        // The reference, segment by segment and row by row.
        var expected = [Int32](repeating: 0, count: grid.columns * grid.rows)
        for s in residual {
            let p = screen[Int(s.a)], q = screen[Int(s.b)]
            for y in 0..<grid.rows {
                let centre = grid.origin.y + (Double(y) + 0.5) * grid.cellHeight
                // The crossing, on the segment (rounding can put the interpolated x an ulp past
                // an end).
                let along = p.x + (centre - p.y) / (q.y - p.y) * (q.x - p.x)
                let column = grid.column(min(max(along, min(p.x, q.x)), max(p.x, q.x)))
                if p.y <= centre && centre < q.y {
                    expected[y * grid.columns + column] += 1
                } else if q.y <= centre && centre < p.y {
                    expected[y * grid.columns + column] -= 1
                }
            }
        }
        for y in 0..<grid.rows { #expect(expected[y * grid.columns..<(y + 1) * grid.columns].reduce(0, +) == 0) }
        #expect(expected.contains { $0 != 0 })
        for threads in [1, 2] {
            var winding = [Int32](repeating: 0, count: grid.columns * grid.rows)
            screen.withUnsafeBufferPointer { s in
                winding.withUnsafeMutableBufferPointer { w in
                    ParallelLimit.withThreads(threads) { OverlapCandidates.addCrossings(of: residual, screen: s, grid: grid, into: w) }
                }
            }
            #expect(winding == expected, "\(threads) threads")
        }
    }
}
