import Foundation
import SurfaceKit
import Testing

@testable import MeshTessellate

// The sorts' stages that run on all cores: the candidates' ranking by least depth (a stable radix
// sort cut into parts), the binning of boxes into grid cells and the crossings of the residual
// chain (both by bands of rows), the residual chain's two-level counting sort (parts of the
// triangles, blocks of the vertices) and the depth order's chains, whose tables each part
// clears in reused scratch memory. Each must give what one pass gives: the stable order computed
// here by a comparison sort, bins listed cell by cell from their definition, crossings counted
// segment by segment, R's net counts added run by run, and the stable order of centroid depths,
// on one thread and on two (and, where the count of parts can be chosen, on as many parts as 16
// or 64 cores would make).

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
        #expect(count >= 2 * ScreenGrid.minimumBandItems, "enough items for two bands")
        // On one thread and two, and in as many bands as 3, 16 and 64 cores would make.
        for (threads, bands) in [(1, nil), (2, nil), (2, 3), (2, 16), (2, 64)] as [(Int, Int?)] {
            let bins = try #require(
                ParallelLimit.withThreads(threads) {
                    cells.withUnsafeBufferPointer { c in
                        order.withUnsafeBufferPointer { o in
                            grid.bin(cells: c, entryLimit: 1 << 30, withColumns: true, order: o, bands: bands)
                        }
                    }
                })
            #expect(bins.members.count == total && bins.start.count == lists.count + 1)
            var same = true
            for (cell, list) in lists.enumerated() {
                let range = Int(bins.start[cell])..<Int(bins.start[cell + 1])
                if Array(bins.members[range]) != list || Array(bins.columns[range]) != listColumns[cell] { same = false }
            }
            #expect(same, "\(threads) threads, \(bands ?? 0) bands")
            // Without an order: ascending items in every cell.
            let plain = try #require(
                ParallelLimit.withThreads(threads) {
                    cells.withUnsafeBufferPointer { grid.bin(cells: $0, entryLimit: 1 << 30, bands: bands) }
                })
            var ascending = true
            for cell in 0..<lists.count {
                let members = plain.members[Int(plain.start[cell])..<Int(plain.start[cell + 1])]
                if Array(members) != lists[cell].sorted() { ascending = false }
            }
            #expect(ascending && plain.columns.isEmpty, "\(threads) threads, \(bands ?? 0) bands")
            // The entry limit is on the total over the bands: one entry fewer gives none.
            let limited = ParallelLimit.withThreads(threads) {
                cells.withUnsafeBufferPointer { grid.bin(cells: $0, entryLimit: total - 1, bands: bands) }
            }
            #expect(limited == nil, "\(threads) threads, \(bands ?? 0) bands")
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

    /// The net count of every edge over the counterclockwise runs of the triangles (reversed
    /// where the sign is negative, none where it is 0), +1 a run from the smaller end: R, added
    /// run by run.
    static func netCounts(_ triangles: [SIMD3<Int32>], _ signs: [Int8]) -> [SIMD2<Int32>: Int32] {
        var net: [SIMD2<Int32>: Int32] = [:]
        for (t, v) in triangles.enumerated() where signs[t] != 0 {
            let runs = signs[t] > 0 ? [(v.x, v.y), (v.y, v.z), (v.z, v.x)] : [(v.y, v.x), (v.z, v.y), (v.x, v.z)]
            for (a, b) in runs where a != b { net[SIMD2(min(a, b), max(a, b)), default: 0] += a < b ? 1 : -1 }
        }
        return net.filter { $0.value != 0 }
    }

    @Test func theResidualChainIsTheSameInAnyNumberOfPartsAndBlocks() throws {
        // A grid of quads listed row by row (either diagonal), with folds (sign flips) and edge-on
        // triangles, over vertices numbered at random, so every block of vertices holds buckets
        // of every part; and 300,000 vertices no triangle uses after them (blocks with no run).
        var random = TessSupport.Random(seed: 0x29_05)
        let (columns, rows) = (160, 120)
        let used = (columns + 1) * (rows + 1)
        var number = (0..<Int32(used)).map { $0 }
        for i in stride(from: used - 1, to: 0, by: -1) { number.swapAt(i, Int(random.next() % UInt64(i + 1))) }
        var triangles: [SIMD3<Int32>] = []
        for j in 0..<rows {
            for i in 0..<columns {
                let p = number[j * (columns + 1) + i], q = number[j * (columns + 1) + i + 1]
                let s = number[(j + 1) * (columns + 1) + i], r = number[(j + 1) * (columns + 1) + i + 1]
                triangles += random.next() % 2 == 0 ? [SIMD3(p, q, r), SIMD3(p, r, s)] : [SIMD3(p, q, s), SIMD3(q, r, s)]
            }
        }
        var signs: [Int8] = []
        var current: Int8 = 1
        for _ in triangles.indices {
            if random.next() % 50 == 0 { current = -current }
            signs.append(random.next() % 100 == 0 ? 0 : current)
        }
        let vertexCount = used + 300_000
        #expect(vertexCount >> OverlapCandidates.residualBlockShift(vertexCount: vertexCount) >= 16, "many blocks")
        let expected = Self.netCounts(triangles, signs)
        #expect(expected.count > 5_000)
        var onePart: [SIMD3<Int32>] = []
        for parts in [1, 2, 3, 16, 64] {
            let chain = try #require(
                triangles.withUnsafeBufferPointer { t in
                    signs.withUnsafeBufferPointer { g in
                        OverlapCandidates.residualChain(vertexCount: vertexCount, triangles: t, signs: GivenSigns(signs: g), parts: parts)
                    }
                })
            var found: [SIMD2<Int32>: Int32] = [:]
            for e in chain { found[SIMD2(e.a, e.b)] = e.weight }
            #expect(found == expected && found.count == chain.count, "\(parts) parts")
            // The same edges in the same order as in one part.
            let listed = chain.map { SIMD3($0.a, $0.b, $0.weight) }
            if parts == 1 { onePart = listed } else { #expect(listed == onePart, "\(parts) parts") }
        }
    }

    @Test func theDepthOrderIsTheStableOrderAfterSortsThatLeftOtherChains() throws {
        // Sorts one after another in one process take the scratch the one before handed back, its
        // chains' tables as that sort left them: each part must clear its own. A first soup of
        // many depths, then a second of a few repeated ones (long chains in few buckets), each
        // against the comparison sort, on one thread and on two.
        var random = TessSupport.Random(seed: 0x29_06)
        // Enough triangles for several parts on two threads (each part takes at least minimumPart).
        let n = 200_000
        let spread = DepthOrderTests.soup((0..<n).map { _ in (random.uniform(0...1), random.uniform(0...1), random.uniform(0...1)) })
        let few = DepthOrderTests.soup(
            (0..<n).map { i in (Double(i % 37) / 37, Double(i % 37) / 37, random.uniform(0...0.001)) })
        for threads in [2, 1, 2] {
            for mesh in [spread, few, spread] {
                let (order, parts) = try ParallelLimit.withThreads(threads) {
                    (try PainterSorter.depthOrder(mesh: mesh, geometry: DepthOrderTests.flat), CentroidDepthSort.partCount(n))
                }
                if threads > 1 && ProcessInfoCores.hardware > 1 { #expect(parts > 1, "\(threads) threads: \(parts) parts") }
                #expect(order == DepthOrderTests.reference(mesh, geometry: DepthOrderTests.flat), "\(threads) threads")
            }
        }
    }
}
