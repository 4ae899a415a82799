import SurfaceKit

/// The working memory of one chunk of ray blocks (see `HitTester.answerRays`): the sort keys of a
/// block and their spare, the sort's counters, a copy of the block's rays in one cache line
/// each, a gathered run of rays and their hits. A chunk
/// takes it once and reuses it for each of its blocks; no two chunks share any of it.
///
/// It is one `SortScratch`: huge pages, so that the radix passes' scattered writes over the 16 MB
/// of keys of a million-ray block stay inside the TLB, and a mapping kept from an earlier batch
/// when one fits, so that a renderer's batch after batch does not fault the keys in again. The
/// copy of the rays is what the coherent order gathers from: the caller's rays lie in ordinary
/// pages, and reading them in that order costs a page walk a ray (about a tenth of the compact
/// pass on the W2 rays, Docs/performance.md), where the copy's huge pages stay inside the TLB.
struct RayBlockScratch {
    let keys: UnsafeMutablePointer<UInt64>
    let spare: UnsafeMutablePointer<UInt64>
    let counts: UnsafeMutablePointer<Int32>
    let records: UnsafeMutablePointer<TriangleBVH.RayRecord>
    let rays: UnsafeMutablePointer<Ray>
    let hits: UnsafeMutablePointer<TriangleHit>

    /// `body` with scratch for blocks of up to `rays` rays, handed back when it returns.
    static func with<Result>(rays count: Int, _ body: (RayBlockScratch) -> Result) -> Result {
        var layout = SortScratch.Layout()
        let keysAt = layout.reserve(UInt64.self, count: 2 * count)
        let countsAt = layout.reserve(Int32.self, count: TriangleBVH.orderCounts)
        let recordsAt = layout.reserve(TriangleBVH.RayRecord.self, count: count)
        let raysAt = layout.reserve(Ray.self, count: HitTester.gatherBlock)
        let hitsAt = layout.reserve(TriangleHit.self, count: HitTester.gatherBlock)
        let scratch = SortScratch(bytes: layout.bytes)
        return withExtendedLifetime(scratch) {
            let keys = (scratch.base + keysAt).bindMemory(to: UInt64.self, capacity: 2 * count)
            return body(
                RayBlockScratch(
                    keys: keys, spare: keys + count,
                    counts: (scratch.base + countsAt).bindMemory(to: Int32.self, capacity: TriangleBVH.orderCounts),
                    records: (scratch.base + recordsAt).bindMemory(to: TriangleBVH.RayRecord.self, capacity: count),
                    rays: (scratch.base + raysAt).bindMemory(to: Ray.self, capacity: HitTester.gatherBlock),
                    hits: (scratch.base + hitsAt).bindMemory(to: TriangleHit.self, capacity: HitTester.gatherBlock)))
        }
    }
}
