import SurfaceKit

/// The working memory of the coherent order of one block of rays (see `HitTester.answerRays`):
/// the sort keys and their spare, each part's counters, and a copy of the block's rays in one
/// cache line each. One scratch serves every block of a batch, one block after another; inside a
/// block the threads write disjoint parts of it (a part's keys, records and counters), and the
/// walks only read the keys and records.
///
/// It is one `SortScratch`: huge pages, so that the radix passes' scattered writes over the 16 MB
/// of keys of a million-ray block stay inside the TLB, and a mapping kept from an earlier batch
/// when one fits, so that a renderer's batch after batch does not fault the keys in again. It is
/// one mapping for the whole batch whatever the threads (at most about 87 MB, for a block of
/// 2²⁰ rays in 64 parts), so the reserve can keep it for the next batch. The
/// copy of the rays is what the coherent order gathers from: the caller's rays lie in ordinary
/// pages, and reading them in that order costs a page walk a ray (about a tenth of the compact
/// pass on the W2 rays, Docs/performance.md), where the copy's huge pages stay inside the TLB.
struct RayBlockScratch {
    let keys: UnsafeMutablePointer<UInt64>
    let spare: UnsafeMutablePointer<UInt64>
    /// ``TriangleBVH/orderCounts`` counters for each of ``parts`` parts, part after part.
    let counts: UnsafeMutablePointer<Int32>
    let records: UnsafeMutablePointer<TriangleBVH.RayRecord>
    /// The parts the coherent order may be cut into at most.
    let parts: Int

    /// `body` with scratch for blocks of up to `rays` rays sorted in up to `parts` parts, handed
    /// back when it returns.
    static func with<Result>(rays count: Int, parts: Int, _ body: (RayBlockScratch) throws -> Result) rethrows -> Result {
        let parts = Swift.max(1, parts)
        var layout = SortScratch.Layout()
        let keysAt = layout.reserve(UInt64.self, count: 2 * count)
        // Each part's counters start a cache line of their own (the layout aligns every region
        // to 64 bytes and a part's counters are 12 KB), so no two threads write one line.
        let countsAt = layout.reserve(Int32.self, count: parts * TriangleBVH.orderCounts)
        let recordsAt = layout.reserve(TriangleBVH.RayRecord.self, count: count)
        let scratch = SortScratch(bytes: layout.bytes)
        return try withExtendedLifetime(scratch) {
            let keys = (scratch.base + keysAt).bindMemory(to: UInt64.self, capacity: 2 * count)
            return try body(
                RayBlockScratch(
                    keys: keys, spare: keys + count,
                    counts: (scratch.base + countsAt).bindMemory(to: Int32.self, capacity: parts * TriangleBVH.orderCounts),
                    records: (scratch.base + recordsAt).bindMemory(to: TriangleBVH.RayRecord.self, capacity: count),
                    parts: parts))
        }
    }
}
