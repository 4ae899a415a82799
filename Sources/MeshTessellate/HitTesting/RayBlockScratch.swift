import SurfaceKit

/// The working memory of one chunk of ray blocks (see `HitTester.answerRays`): the sort keys of a
/// block and their spare, the sort's counters, a gathered run of rays and their hits. A chunk
/// allocates it once and reuses it for each of its blocks; no two chunks share any of it.
struct RayBlockScratch {
    let keys: UnsafeMutablePointer<UInt64>
    let spare: UnsafeMutablePointer<UInt64>
    let counts: UnsafeMutablePointer<Int32>
    let rays: UnsafeMutablePointer<Ray>
    let hits: UnsafeMutablePointer<TriangleHit>

    /// `body` with scratch for blocks of up to `rays` rays, freed when it returns.
    static func with<Result>(rays count: Int, _ body: (RayBlockScratch) -> Result) -> Result {
        let keys = UnsafeMutablePointer<UInt64>.allocate(capacity: 2 * count)
        let counts = UnsafeMutablePointer<Int32>.allocate(capacity: TriangleBVH.orderCounts)
        let rays = UnsafeMutablePointer<Ray>.allocate(capacity: HitTester.gatherBlock)
        let hits = UnsafeMutablePointer<TriangleHit>.allocate(capacity: HitTester.gatherBlock)
        defer {
            keys.deallocate()
            counts.deallocate()
            rays.deallocate()
            hits.deallocate()
        }
        return body(RayBlockScratch(keys: keys, spare: keys + count, counts: counts, rays: rays, hits: hits))
    }
}
