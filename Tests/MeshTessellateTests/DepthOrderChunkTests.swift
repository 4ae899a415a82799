import SurfaceKit
import Testing

@testable import MeshTessellate

// The depth order where its buckets' chunks are as large as they get (`BucketChunks.largestShift`):
// meshes of more than 2 · 2,048 · 2^largestShift triangles on one part, whose chunk size is the cap
// rather than the size the triangle count asks for. The order must still be exactly the stable
// ascending order of centroid depths (`DepthOrderTests.reference`, a comparison sort in the test).

@Suite struct DepthOrderChunkTests {
    /// Triangles whose count asks for chunks larger than the cap on one part.
    static let capped = 2 * (1 << CentroidDepthSort.maximumTopBits) << (BucketChunks.largestShift + 1)

    @Test func chunksAtTheCapEndExactlyAtBucketEnds() throws {
        let topBits = CentroidDepthSort.topBits(count: Self.capped)
        #expect(BucketChunks(count: Self.capped, parts: 1, topBits: topBits).chunkShift == BucketChunks.largestShift)
        // 2,048 evenly spaced depths, each on `capped / 2048` triangles (a whole number of chunks)
        // in shuffled places: every chain ends exactly at a chunk's end.
        var random = TessSupport.Random(seed: 31)
        var values = (0..<Self.capped).map { Double($0 % 2048) / 2048 }
        for i in stride(from: values.count - 1, to: 0, by: -1) { values.swapAt(i, Int(random.next() % UInt64(i + 1))) }
        try expectOrder(DepthOrderTests.soup(values.map { ($0, $0, $0) }), "whole chunks at the cap")
    }

    @Test func chunksAtTheCapWithTwinsAndPartlyFilledChains() throws {
        // More triangles than `capped`, so chains end inside a chunk; twins that differ in the last
        // bits and exact ties, so runs of equal codes are settled by key and by triangle order.
        var random = TessSupport.Random(seed: 32)
        let depths = (0..<(Self.capped + 12_345)).map { i -> (Double, Double, Double) in
            let z = i % 3 == 0 ? Double(i % 1_000) / 1_000 : random.uniform(0...1)
            return (z, i % 5 == 0 ? z.nextUp : z, z)
        }
        try expectOrder(DepthOrderTests.soup(depths), "partly filled chains at the cap")
    }

    @Test func everyBucketCountKeepsTheOrder() throws {
        // The key pass takes fewer buckets for fewer triangles (about `bucketTarget` a bucket):
        // counts on each side of the steps between 64 and 512 buckets, with twins that differ in
        // the last bits and exact ties, so every bucket count settles runs of equal codes.
        let steps = (CentroidDepthSort.minimumTopBits..<(CentroidDepthSort.minimumTopBits + 3)).map {
            CentroidDepthSort.bucketTarget << ($0 + 1)
        }
        var random = TessSupport.Random(seed: 33)
        for count in steps.flatMap({ [$0 - 1, $0] }) {
            let bits = CentroidDepthSort.topBits(count: count)
            // The rule: at least `bucketTarget` triangles a bucket, and no more buckets would do.
            #expect(count >> bits >= CentroidDepthSort.bucketTarget || bits == CentroidDepthSort.minimumTopBits)
            #expect(count >> (bits + 1) < CentroidDepthSort.bucketTarget || bits == CentroidDepthSort.maximumTopBits)
            let depths = (0..<count).map { i -> (Double, Double, Double) in
                let z = i % 4 == 0 ? Double(i % 997) / 997 : random.uniform(-1...1)
                return (z, i % 3 == 0 ? z.nextUp : z, z)
            }
            try expectOrder(DepthOrderTests.soup(depths), "\(count) triangles, \(1 << bits) buckets")
        }
        // W3's 1,280,000 triangles keep 2,048 buckets.
        #expect(CentroidDepthSort.topBits(count: 1_280_000) == CentroidDepthSort.maximumTopBits)
    }

    /// One thread and two (two parts), against the reference.
    func expectOrder(_ mesh: TriangleMesh, _ comment: Comment) throws {
        let expected = try #require(DepthOrderTests.reference(mesh, geometry: DepthOrderTests.flat), comment)
        for threads in [1, 2] {
            let order = try ParallelLimit.withThreads(threads) {
                try PainterSorter.depthOrder(mesh: mesh, geometry: DepthOrderTests.flat)
            }
            #expect(order == expected, comment)
        }
    }
}
