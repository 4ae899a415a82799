import SurfaceKit
import Testing

@testable import MeshTessellate

// The part ranges and the bucket-major running sum that the parallel passes share (the depth
// order's radix and key passes, R's counting sort, the band lists, the rays' order). The ranges
// are checked against their formula and against what a cut into parts must be (contiguous,
// covering, sizes within one); the running sum against places counted one by one from their
// definition: every item of an earlier bucket, or of an earlier part in the same bucket, comes
// first.

@Suite struct PartRangesSortTests {
    @Test func partsAreTheFormulaAndCoverTheItemsInOrder() {
        for count in [0, 1, 2, 3, 7, 64, 1_000, 65_537, 1_280_000] {
            for parts in [1, 2, 3, 5, 16, 32, 64, 100] {
                var end = 0
                var sizes: [Int] = []
                for p in 0..<parts {
                    let range = PartRanges.range(p, of: parts, count: count)
                    #expect(range.lowerBound == count * p / parts && range.upperBound == count * (p + 1) / parts)
                    #expect(range.lowerBound == end, "part \(p) of \(parts) starts where part \(p - 1) ends")
                    end = range.upperBound
                    sizes.append(range.count)
                }
                #expect(end == count, "\(parts) parts of \(count) end at the count")
                // Sizes within one of count / parts.
                let floor = count / parts
                #expect(sizes.allSatisfy { $0 == floor || $0 == floor + 1 }, "\(parts) parts of \(count): \(sizes.prefix(8))")
            }
        }
    }

    /// Each part's first place in each bucket, by counting the items before it one by one.
    static func places(counts: [[Int]], origin: Int) -> (first: [[Int]], starts: [Int]) {
        let parts = counts.count, buckets = counts.first?.count ?? 0
        var first = [[Int]](repeating: [Int](repeating: 0, count: buckets), count: parts)
        var starts: [Int] = []
        for b in 0..<buckets {
            var before = origin
            for earlier in 0..<b {
                for p in 0..<parts { before += counts[p][earlier] }
            }
            starts.append(before)
            for p in 0..<parts {
                var place = before
                for earlier in 0..<p { place += counts[earlier][b] }
                first[p][b] = place
            }
        }
        starts.append(origin + counts.reduce(0) { $0 + $1.reduce(0, +) })
        return (first, starts)
    }

    @Test func runningSumsHandEachPartItsPlacesBucketByBucket() {
        var random = TessSupport.Random(seed: 0x29_11)
        for (parts, buckets) in [(1, 1), (1, 9), (4, 1), (3, 17), (16, 300), (64, 40), (2, 2_048)] {
            for origin in [0, 5] {
                // Empty buckets and parts among them.
                let counts = (0..<parts).map { _ in
                    (0..<buckets).map { _ in random.next() % 4 == 0 ? 0 : Int(random.next() % 50) }
                }
                let expected = Self.places(counts: counts, origin: origin)
                for chunk in [Int.max, 1, 7] {
                    // Flat, written through a pointer: on two threads each place is written by
                    // one chunk alone.
                    var first = [Int](repeating: -1, count: parts * buckets)
                    let starts = first.withUnsafeMutableBufferPointer { first -> [Int] in
                        guard let base = first.baseAddress else { return [] }
                        let out = SharedMutableBuffer(base: base)
                        return ParallelLimit.withThreads(chunk == Int.max ? 1 : 2) {
                            PartRanges.bucketMajorFirsts(
                                parts: parts, buckets: buckets, from: origin, minimumChunk: chunk, count: { p, b in counts[p][b] },
                                setFirst: { p, b, place in out.base[p * buckets + b] = place })
                        }
                    }
                    #expect(starts == expected.starts, "\(parts) parts, \(buckets) buckets, chunks of \(chunk)")
                    #expect(first == expected.first.flatMap { $0 }, "\(parts) parts, \(buckets) buckets, chunks of \(chunk)")
                }
            }
        }
    }

    @Test func aCountOverwrittenByItsPlaceIsReadFirst() {
        // R's counting sort keeps counts and places in one table: each count read before its place
        // is written over it.
        let parts = 5, buckets = 33
        var random = TessSupport.Random(seed: 0x29_12)
        let counts = (0..<parts).map { _ in (0..<buckets).map { _ in Int(random.next() % 9) } }
        var table = counts.flatMap { $0 }
        let starts = PartRanges.bucketMajorFirsts(
            parts: parts, buckets: buckets, count: { p, b in table[p * buckets + b] },
            setFirst: { p, b, place in table[p * buckets + b] = place })
        let expected = Self.places(counts: counts, origin: 0)
        #expect(starts == expected.starts)
        #expect(table == expected.first.flatMap { $0 })
    }
}
