import SurfaceKit

/// The engine of the `depth` sort: the stable ascending order of the triangles' centroid depths
/// `(z_a + z_b + z_c) / 3`, each computed in Double exactly as `SortPool.centroidDepths` computes it,
/// equal depths in triangle order.
///
/// 1. **Keys.** One pass over the triangles computes each key and a 27-bit code q, the key's place
///    on a uniform scale over the vertices' depth range (clamped to it). q never decreases as the
///    key grows, so sorting by q and settling equal codes by the keys gives the order of the keys
///    (whatever the scale: it only decides how the work is shared among the buckets). The same
///    pass moves (key, index, low 16 bits of q) straight into one of up to 2,048 buckets by the
///    top bits of q (`topBits(count:)`: about `bucketTarget` triangles a bucket, so 2,048 for
///    W3's 1,280,000 and 512 for a frame's 320,000), in triangle order (the scatter is stable). The buckets are chains of
///    fixed-size chunks (`BucketChunks`), so no pass has to count the buckets beforehand and no
///    array of keys is written and read back.
/// 2. **Buckets.** Each bucket (a few hundred items, so it stays in cache) is gathered from its
///    chunks and sorted by the low 16 bits of q in two stable 8-bit passes; then runs of equal q are
///    settled by their Double keys (a run keeps triangle order, and swaps only where a later
///    triangle's key is smaller). Runs of two, which the mirror symmetry of a tessellated surface
///    makes common (twin triangles whose depths differ in the last bits), settle without a branch;
///    longer runs by insertion.
///
/// The keys travel with the indices, so settling never gathers from a whole key array, and the
/// whole sort reads the triangles once and writes the items once. Parts of the triangles are
/// handled on separate cores (each part fills its own chains of every bucket, taken in part
/// order, so the result does not depend on the number of parts), and buckets likewise.
enum CentroidDepthSort {
    /// A key with its tag: the low `lowBits` of its code above the triangle index.
    struct Item {
        var key: Double
        var tag: UInt64
    }

    enum Outcome {
        case sorted([Int32])
        /// Some key is NaN (a corner's depth is NaN); there is no order of the keys.
        case nanKey
        /// Some triangle names a vertex that does not exist.
        case indexOutOfRange
    }

    /// Bits of the top digit (the buckets of the key pass) at most: 2,048 buckets.
    static let maximumTopBits = 11
    /// Bits of the top digit at least (64 buckets, for the smallest counts sorted this way).
    static let minimumTopBits = 6
    /// Triangles a bucket takes at least on average, where the count allows: the key pass writes
    /// into the open chunk of every bucket at once, so fewer buckets keep those writes in the L1
    /// cache, and each bucket's two passes clear and sum 512 counters whatever its size. Sized
    /// so that W3's 1,280,000 triangles keep their 2,048 buckets (625 a bucket).
    static let bucketTarget = 512
    static let lowBits = 8

    /// Bits of the top digit for `n` triangles: the most, up to ``maximumTopBits``, that leave
    /// ``bucketTarget`` triangles a bucket.
    static func topBits(count n: Int) -> Int {
        var bits = minimumTopBits
        while bits < maximumTopBits, n >> (bits + 1) >= bucketTarget { bits += 1 }
        return bits
    }

    /// The largest code with a top digit of `topBits` bits above the two low digits.
    static func maxCode(topBits: Int) -> Double { Double((1 << (topBits + 2 * lowBits)) - 1) }
    /// Below this many triangles the plain radix sort of the keys is used (same order).
    static let minimumCount = 1 << 15
    /// Buckets up to this size are settled by insertion alone.
    static let insertionBucket = 24
    /// Runs of equal codes up to this long are settled by insertion, longer ones by a full sort.
    static let insertionRun = 32
    /// Triangles a part of the key pass takes at least: below this, waking a thread
    /// costs more than the part's work.
    static let minimumPart = 1 << 16
    /// The most parts: each has its own chains of every bucket (32 KB) and up to a chunk a bucket
    /// unfilled, which the serial sum of the bucket starts reads; the result is the same for any
    /// number of parts.
    static let maximumParts = 64
    /// Triangles ahead whose cache line the key pass asks for (4 KiB): on the virtual machines
    /// measured the hardware's prefetch alone left the pass waiting on the triangles' stream
    /// (W3's depth order 8% faster with it).
    static let trianglePrefetch = 256
    /// Positions ahead whose cache line the projection asks for (2 KiB), for the same reason (5%).
    static let positionPrefetch = 64

    /// The order of the centroid depths of `triangles` over `vertexCount` vertex depths, which
    /// `depths` writes (into the sort's scratch memory), returning the
    /// smallest and largest of those that are not NaN.
    static func order(
        vertexCount: Int, triangles: UnsafeBufferPointer<SIMD3<Int32>>,
        depths: (UnsafeMutableBufferPointer<Double>) -> (lo: Double, hi: Double)
    ) -> Outcome {
        let n = triangles.count
        guard n >= minimumCount, vertexCount > 0, n <= Int(Int32.max) else {
            var z = [Double](repeating: 0, count: vertexCount)
            _ = z.withUnsafeMutableBufferPointer { depths($0) }
            return z.withUnsafeBufferPointer { plainOrder(z: $0, triangles: triangles) }
        }
        // A part per thread: each part scatters into its own chains of every bucket, taken in part
        // order, so any number of parts gives the same order.
        let parts = partCount(n)
        let top = topBits(count: n)
        let buckets = BucketChunks(count: n, parts: parts, topBits: top)
        // One scratch for the items' chunks, the vertex depths (read until the key pass ends) and
        // the chains' tables.
        var layout = SortScratch.Layout()
        let itemsOffset = layout.reserve(Item.self, count: buckets.slotCount)
        let zOffset = layout.reserve(Double.self, count: vertexCount)
        let tablesOffsets = buckets.reserveTables(in: &layout)
        let scratch = SortScratch(bytes: layout.bytes)
        let tables = buckets.tables(in: scratch, at: tablesOffsets)
        let zBuffer = scratch.buffer(of: Double.self, count: vertexCount, at: zOffset)
        // The depth range; keys outside it (by rounding) are clamped. An infinite depth leaves no
        // scale, and the plain sort takes over.
        let (lo, hi) = depths(zBuffer)
        let z = UnsafeBufferPointer(zBuffer)
        let scale = Double(1 << (top + 2 * lowBits)) / (hi - lo)
        guard hi > lo, scale.isFinite, scale > 0 else { return plainOrder(z: z, triangles: triangles) }

        let items = scratch.buffer(of: Item.self, count: buckets.slotCount, at: itemsOffset)
        let counted = scatteredKeys(
            triangles: triangles, z: z, vertexCount: vertexCount, into: items, buckets: buckets, tables: tables, lo: lo, scale: scale,
            maxCode: maxCode(topBits: top))
        if counted.bad > 0 { return .indexOutOfRange }
        if counted.nan > 0 { return .nanKey }
        let order = sortedBuckets(UnsafeBufferPointer(items), buckets: buckets, tables: tables, parts: parts)
        withExtendedLifetime(scratch) {}
        return .sorted(order)
    }

    /// The parts the key pass cuts `n` triangles into: one a core, each of at least `minimumPart`.
    static func partCount(_ n: Int) -> Int { Swift.max(1, Swift.min(ProcessInfoCores.count, maximumParts, n / minimumPart)) }

    /// The triangle indices of the items in `buckets`' chains, each bucket gathered into a buffer
    /// of its own and sorted by `BucketSorter`; buckets split among the parts by item count.
    static func sortedBuckets(_ items: UnsafeBufferPointer<Item>, buckets: BucketChunks, tables: BucketChunks.Tables, parts: Int) -> [Int32]
    {
        let start = buckets.bucketStarts(in: tables)
        let n = start[start.count - 1]
        return [Int32](unsafeUninitializedCapacity: n) { buffer, initialized in
            adviseHugePages(UnsafeMutableRawBufferPointer(buffer))
            guard let oBase = buffer.baseAddress, let iBase = items.baseAddress else { return }
            let out = SharedMutableBuffer(base: oBase), its = UncheckedSendable(iBase)
            // Buckets split among the parts by item count.
            let groups = bucketGroups(start: start, parts: parts)
            let largest = zip(start.dropFirst(), start).map { $0 - $1 }.max() ?? 0
            parallelChunks(groups.count - 1, minimumChunk: 1) { chunk in
                var local = BucketSorter(capacity: largest)
                var bucket = [Item](repeating: Item(key: 0, tag: 0), count: largest)
                bucket.withUnsafeMutableBufferPointer { bucket in
                    guard let bBase = bucket.baseAddress else { return }
                    for g in chunk {
                        for d in groups[g]..<groups[g + 1] {
                            let b = start[d], e = start[d + 1]
                            guard e > b else { continue }
                            buckets.gather(bucket: d, in: tables, from: its.value, into: bBase)
                            local.sort(UnsafeMutableBufferPointer(start: bBase, count: e - b), into: out.base + b)
                        }
                    }
                }
            }
            initialized = n
        }
    }

    /// Bucket boundaries of `parts` groups holding about equal numbers of items.
    static func bucketGroups(start: [Int], parts: Int) -> [Int] {
        let radix = start.count - 1, n = start[radix]
        var groups = [0]
        var d = 0
        for p in 1..<parts {
            let target = PartRanges.range(p, of: parts, count: n).lowerBound
            while d < radix, start[d + 1] <= target { d += 1 }
            groups.append(Swift.max(d, groups[groups.count - 1]))
        }
        groups.append(radix)
        return groups
    }

    /// Keys computed plainly and sorted by the Float-keyed radix sort: small inputs and degenerate
    /// depth ranges (all depths equal, or a range too wide for a Double).
    static func plainOrder(z: UnsafeBufferPointer<Double>, triangles: UnsafeBufferPointer<SIMD3<Int32>>) -> Outcome {
        var keys = [Double]()
        keys.reserveCapacity(triangles.count)
        // Every index is checked before a NaN key is reported: the NaN path reads the vertices
        // of every triangle, so a bad index must stop the sort first.
        var sawNaN = false
        for t in triangles {
            guard let a = Int(exactly: t.x), let b = Int(exactly: t.y), let c = Int(exactly: t.z),
                z.indices.contains(a), z.indices.contains(b), z.indices.contains(c)
            else { return .indexOutOfRange }
            let key = (z[a] + z[b] + z[c]) / 3
            if key.isNaN { sawNaN = true }
            keys.append(key)
        }
        return sawNaN ? .nanKey : .sorted(RadixSort.stableOrder(keys))
    }
}
