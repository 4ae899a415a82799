import SurfaceKit
import Testing

@testable import MeshTessellate

// A batch's scratch (`RayBlockScratch`) is memory an earlier batch may have written and handed
// back: keys, counters and ray copies left over from a larger batch must not change an answer.
// Every answer is checked against the brute force over all triangles (`HitBatchTests.bruteFirstHit`).

@Suite struct HitBatchScratchTests {
    @Test func aSmallerBatchAfterALargerOneMatchesBruteForce() throws {
        let mesh = HitBatchTests.soup(count: 80, seed: 41)
        let tester = try HitTester(mesh: mesh, geometry: HitBatchTests.geometry)
        // Both large enough for the coherent order; the second reuses what the first handed back
        // (a kept mapping serves requests down to about half its size).
        let large = HitBatchTests.rays(count: 40_000, through: mesh.positions, seed: 42)
        let small = HitBatchTests.rays(count: 33_001, through: mesh.positions, seed: 43)
        // On two threads both batches are ordered in two parts, so the smaller batch's second part
        // runs on the counters and keys the larger batch's second part left over.
        #expect(TriangleBVH.orderParts(large.count, threads: 2) == 2)
        #expect(TriangleBVH.orderParts(small.count, threads: 2) == 2)
        for threads in [1, 2] {
            for rays in [large, small, large] {
                let batch = ParallelLimit.withThreads(threads) { tester.firstHits(rays) }
                #expect(batch.count == rays.count)
                var wrong = 0
                for (k, ray) in rays.enumerated() where batch[k] != HitBatchTests.bruteFirstHit(mesh, ray) { wrong += 1 }
                #expect(wrong == 0)
            }
        }
    }
}
