import SurfaceKit
import Synchronization
import Testing

@testable import MeshTessellate

// The coherent order of a batch of rays is made in parts, one a thread, and its radix passes run
// on all of them; the sorted block is then walked in runs the threads take in turn. Nothing of
// that may change an answer or the order itself: the sort against the standard library's sort,
// the order in many parts against the order in one, and the answers in many parts against the
// brute force over every triangle (`HitBatchTests.bruteFirstHit`). A test machine has few cores,
// so the parts are asked for directly rather than through the threads.

@Suite struct HitRayOrderTests {
    static let partCounts = [1, 2, 3, 7, 16, 64]

    /// Codes of 30 bits with the shapes that decide which radix passes run: all digits random,
    /// the top digit shared (its pass skipped), only the middle digit varying, every code equal
    /// (every pass skipped), and few distinct codes (long runs of equal codes whose order only the
    /// indices below them decide).
    static func codes(count: Int, shape: Int, seed: UInt64) -> [UInt64] {
        var rng = HitSupport.Random(seed: seed)
        return (0..<count).map { _ in
            let r = rng.next() & ((1 << TriangleBVH.codeBits) - 1)
            switch shape {
            case 0: return r
            case 1: return (5 << 20) | (r & 0xF_FFFF)
            case 2: return (3 << 20) | (r & 0xFFC00) | 9
            case 3: return 0x2AB_CDEF
            default: return (r % 5) << 20 | r % 3
            }
        }
    }

    /// `radixSort` in any number of parts gives the keys in ascending order, the order of the
    /// standard library's sort: by code, equal codes by index (the keys are unique).
    @Test(arguments: 0..<5)
    func radixSortInPartsIsTheAscendingOrder(shape: Int) {
        let count = 20_011
        let codes = Self.codes(count: count, shape: shape, seed: UInt64(100 + shape))
        if shape == 4 {
            // At most 5 × 3 distinct codes, so equal codes come in runs of about 1,300 keys.
            #expect(Set(codes).count <= 15)
        }
        let input = codes.enumerated().map { i, code in code << 32 | UInt64(i) }
        let expected = input.sorted()
        for parts in Self.partCounts {
            let sorted = Self.radixSorted(input, parts: parts)
            #expect(sorted == expected, "shape \(shape), \(parts) parts")
        }
    }

    /// `input` sorted by `TriangleBVH.radixSort` in `parts` parts, each part's counters made first
    /// (what `coherentOrder` does in its key pass), in scratch memory left full of other numbers.
    static func radixSorted(_ input: [UInt64], parts: Int) -> [UInt64] {
        let count = input.count
        var keys = input, spare = [UInt64](repeating: 0xDEAD_BEEF, count: count)
        var counts = [Int32](repeating: 77, count: parts * TriangleBVH.orderCounts)
        return keys.withUnsafeMutableBufferPointer { keys in
            spare.withUnsafeMutableBufferPointer { spare in
                counts.withUnsafeMutableBufferPointer { counts in
                    guard let k = keys.baseAddress, let s = spare.baseAddress, let c = counts.baseAddress else { return [] }
                    for part in 0..<parts {
                        TriangleBVH.countDigits(
                            k, PartRanges.range(part, of: parts, count: count), into: c + part * TriangleBVH.orderCounts,
                            passes: 0..<TriangleBVH.digitPasses)
                    }
                    let result = TriangleBVH.radixSort(k, spare: s, count: count, counts: c, parts: parts)
                    return Array(UnsafeBufferPointer(start: result, count: count))
                }
            }
        }
    }

    /// The coherent order of a block in many parts is the one of a single part, bit for bit: the
    /// keys ascend, name every ray once, and the copy of each ray is the ray; the work riding on
    /// the key pass sees every ray's index exactly once.
    @Test func coherentOrderIsTheSameInAnyParts() throws {
        let tester = try HitTester(document: HitTestingBruteForceTests.document(steps: 2, depth: 0.4))
        let bounds = try #require(tester.mesh.bounds)
        let rays =
            HitTestingBruteForceTests.rays(around: bounds, count: 30_000, seed: 31)
            + HitBatchTests.rays(count: 9_000, through: tester.mesh.positions, around: bounds, seed: 32)
        let count = rays.count
        var orders: [[UInt64]] = []
        try RayBlockScratch.with(rays: count, parts: 16) { scratch in
            for parts in [1, 2, 5, 16] {
                let seen = Mutex([Int](repeating: 0, count: count))
                let order = try rays.withUnsafeBufferPointer { input in
                    let sorted = try #require(
                        tester.bvh.coherentOrder(input, parts: parts, scratch: scratch) { range in
                            seen.withLock { seen in for i in range { seen[i] += 1 } }
                        })
                    return Array(UnsafeBufferPointer(start: sorted, count: count))
                }
                #expect(seen.withLock { $0.allSatisfy { $0 == 1 } }, "\(parts) parts")
                #expect(zip(order, order.dropFirst()).allSatisfy { $0 < $1 }, "\(parts) parts: keys out of order")
                #expect(Set(order.map { $0 & 0xFFFF_FFFF }) == Set((0..<count).map { UInt64($0) }))
                let copied = (0..<count).allSatisfy { i in
                    let ray = scratch.records[i].ray, expected = rays[i]
                    return ray.origin == expected.origin && ray.direction == expected.direction && ray.tmin == expected.tmin
                        && ray.tmax == expected.tmax
                }
                #expect(copied, "\(parts) parts: a ray's copy differs")
                orders.append(order)
            }
        }
        #expect(orders.allSatisfy { $0 == orders[0] })
        // Rays missing the root box sort last, under the all-ones code.
        #expect(orders[0].contains { $0 >> 32 == (1 << TriangleBVH.codeBits) - 1 })
    }

    /// A block sorted in 1, 3 or 16 parts and walked in runs on all cores answers every ray as the
    /// brute force does, unusual rays among them, compact hits and full records alike.
    @Test func blockInManyPartsMatchesBruteForce() throws {
        let mesh = HitBatchTests.soup(count: 90, seed: 33)
        let tester = try HitTester(mesh: mesh, geometry: HitBatchTests.geometry)
        var rays = HitBatchTests.rays(count: 40_003, through: mesh.positions, seed: 34)
        for (k, ray) in HitBatchTests.unusualRays(through: mesh.positions[5]).enumerated() { rays[(k * 389) % rays.count] = ray }
        let expected = rays.map { HitBatchTests.bruteFirstHit(mesh, $0) }
        let single = rays.map { tester.intersect($0) }
        for parts in [1, 3, 16] {
            let compact: [TriangleHit?] = Self.answered(rays, tester: tester, parts: parts)
            let full: [RayHit?] = Self.answered(rays, tester: tester, parts: parts)
            var wrong = 0
            for k in rays.indices where compact[k] != expected[k] || full[k] != single[k] { wrong += 1 }
            #expect(wrong == 0, "\(parts) parts")
        }
        #expect(expected.contains { $0 != nil } && expected.contains { $0 == nil })
    }

    /// A batch of more than `HitTester.rayBlock` rays, answered as two blocks one after the other
    /// (each sorted in two parts on two threads, its answers written from the second block's
    /// offset on): every answer is the single query's.
    @Test func batchOfTwoBlocksMatchesSingleQueries() throws {
        let mesh = HitBatchTests.soup(count: 24, seed: 35)
        let tester = try HitTester(mesh: mesh, geometry: HitBatchTests.geometry)
        let rays = HitBatchTests.rays(count: HitTester.rayBlock + 4_099, through: mesh.positions, seed: 36)
        #expect(HitTester.blockCount(rays.count) == 2)
        let batch = ParallelLimit.withThreads(2) { tester.firstHits(rays) }
        #expect(batch.count == rays.count)
        var wrong = 0
        for k in rays.indices where batch[k] != tester.firstHit(rays[k]) { wrong += 1 }
        #expect(wrong == 0)
        #expect(batch.contains { $0 != nil } && batch.contains { $0 == nil })
    }

    /// `rays` answered as one block by `HitTester.answerBlock`, its coherent order made in `parts`
    /// parts.
    static func answered<Answer: BatchAnswer>(_ rays: [Ray], tester: HitTester, parts: Int) -> [Answer] {
        RayBlockScratch.with(rays: rays.count, parts: parts) { scratch in
            rays.withUnsafeBufferPointer { input in
                [Answer](unsafeUninitializedCapacity: rays.count) { buffer, initialized in
                    guard let base = buffer.baseAddress else { return }
                    tester.answerBlock(input, into: base, parts: parts, scratch: scratch)
                    initialized = rays.count
                }
            }
        }
    }
}
