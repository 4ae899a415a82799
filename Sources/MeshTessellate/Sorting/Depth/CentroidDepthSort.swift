import SurfaceKit

/// The engine of the `depth` sort: the stable ascending order of the triangles' centroid depths
/// `(z_a + z_b + z_c) / 3`, each computed in Double exactly as `SortPool.centroidDepths` computes it,
/// equal depths in triangle order.
///
/// 1. **Keys.** One pass over the triangles computes each key and a 30-bit code q, the key's place
///    on a uniform scale over the vertices' depth range (clamped to it). q never decreases as the
///    key grows, so sorting by q and settling equal codes by the keys gives the order of the keys.
///    The same pass counts the top 10 bits of q (a histogram).
/// 2. **Scatter.** One pass moves (key, index, low 20 bits of q) into 1,024 buckets by the top bits,
///    in triangle order (the scatter is stable).
/// 3. **Buckets.** Each bucket (about n / 1,024 items, so it stays in cache) is sorted by the low
///    20 bits of q in two stable 10-bit passes; then runs of equal q are settled by their Double keys
///    (a run keeps triangle order, and swaps only where a later triangle's key is smaller). Runs of
///    two, which the mirror symmetry of a tessellated surface makes common (twin triangles whose
///    depths differ in the last bits), settle without a branch; longer runs by insertion.
///
/// The keys travel with the indices, so settling never gathers from the whole key array, and the
/// whole sort reads the triangles once and writes the scratch twice. Parts of the triangles are
/// handled on separate cores (each part scatters into its own slice of every bucket, in part
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

    static let topBits = 11
    static let lowBits = 8
    static let codeBits = topBits + 2 * lowBits
    static let maxCode = Double((1 << codeBits) - 1)
    /// Below this many triangles the plain radix sort of the keys is used (same order).
    static let minimumCount = 1 << 15
    /// Buckets up to this size are settled by insertion alone.
    static let insertionBucket = 24
    /// Runs of equal codes up to this long are settled by insertion, longer ones by a full sort.
    static let insertionRun = 32
    /// Histogram copies in the key pass: neighbouring triangles often share a bucket, and with one
    /// counter each increment would wait for the previous one.
    static let histogramCopies = 4
    /// Triangles a part of the key and scatter passes takes at least: below this, waking a thread
    /// costs more than the part's work.
    static let minimumPart = 1 << 16
    /// The most parts: each has its own histograms and cursors (48 KB), which the serial sum of
    /// the bucket starts reads; the result is the same for any number of parts.
    static let maximumParts = 64

    /// The order of the centroid depths of `triangles` over `vertexCount` vertex depths, which
    /// `depths` writes (into scratch memory the sort reuses once the keys are made), returning the
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
        // The items' scratch holds the vertex depths until the scatter overwrites them.
        let itemsScratch = SortScratch(bytes: Swift.max(n * MemoryLayout<Item>.stride, vertexCount * MemoryLayout<Double>.stride))
        let zBuffer = itemsScratch.buffer(of: Double.self, count: vertexCount)
        // The depth range; keys outside it (by rounding) are clamped. An infinite depth leaves no
        // scale, and the plain sort takes over.
        let (lo, hi) = depths(zBuffer)
        let z = UnsafeBufferPointer(zBuffer)
        let scale = Double(1 << codeBits) / (hi - lo)
        guard hi > lo, scale.isFinite, scale > 0 else { return plainOrder(z: z, triangles: triangles) }

        // A part per thread: each part scatters into its own slice of every bucket, in part order,
        // so any number of parts gives the same order.
        let parts = Swift.max(1, Swift.min(ProcessInfoCores.count, maximumParts, n / minimumPart))
        let keysScratch = SortScratch(bytes: n * MemoryLayout<Double>.stride)
        let keys = keysScratch.buffer(of: Double.self, count: n)
        let items = itemsScratch.buffer(of: Item.self, count: n)
        let counted = countedKeys(
            triangles: triangles, z: z, vertexCount: vertexCount, into: keys, lo: lo, scale: scale, parts: parts)
        if counted.bad > 0 { return .indexOutOfRange }
        if counted.nan > 0 { return .nanKey }

        // A `var`, so the scatter moves the cursors in place (a copy of them would be a fresh array).
        var buckets = bucketStarts(histograms: counted.histograms, parts: parts)
        scatterAll(keys: UnsafeBufferPointer(keys), cursors: &buckets.cursors, into: items, lo: lo, scale: scale, parts: parts)
        let order = sortedBuckets(items, start: buckets.start, parts: parts)
        withExtendedLifetime((keysScratch, itemsScratch)) {}
        return .sorted(order)
    }

    /// The part `p` of `n` items cut into `parts` parts of about equal size.
    @inline(__always)
    static func partRange(_ p: Int, of n: Int, parts: Int) -> Range<Int> { (n * p / parts)..<(n * (p + 1) / parts) }

    /// Bucket starts (`radix + 1` of them, the last the item count), and each part's write cursor
    /// in every bucket (parts in order), from the parts' histograms (`histogramCopies` each).
    static func bucketStarts(histograms: [UInt32], parts: Int) -> (start: [Int], cursors: [Int]) {
        let radix = 1 << topBits
        let copies = histogramCopies
        var start = [Int](repeating: 0, count: radix + 1)
        var cursors = [Int](repeating: 0, count: parts * radix)
        var sum = 0
        for d in 0..<radix {
            start[d] = sum
            for p in 0..<parts {
                cursors[p * radix + d] = sum
                for copy in 0..<copies { sum += Int(histograms[(p * copies + copy) * radix + d]) }
            }
        }
        start[radix] = sum
        return (start, cursors)
    }

    /// The triangle indices of `items` (scattered into the buckets that `start` bounds), each
    /// bucket sorted by `BucketSorter`; buckets split among the parts by item count.
    static func sortedBuckets(_ items: UnsafeMutableBufferPointer<Item>, start: [Int], parts: Int) -> [Int32] {
        let n = items.count
        return [Int32](unsafeUninitializedCapacity: n) { buffer, initialized in
            adviseHugePages(UnsafeMutableRawBufferPointer(buffer))
            guard let oBase = buffer.baseAddress, let iBase = items.baseAddress else { return }
            let out = SharedMutableBuffer(base: oBase), its = SharedMutableBuffer(base: iBase)
            // Buckets split among the parts by item count.
            let groups = bucketGroups(start: start, parts: parts)
            let largest = zip(start.dropFirst(), start).map { $0 - $1 }.max() ?? 0
            parallelChunks(groups.count - 1, minimumChunk: 1) { chunk in
                var local = BucketSorter(capacity: largest)
                for g in chunk {
                    for d in groups[g]..<groups[g + 1] {
                        let b = start[d], e = start[d + 1]
                        guard e > b else { continue }
                        local.sort(UnsafeMutableBufferPointer(start: its.base + b, count: e - b), into: out.base + b)
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
            let target = n * p / parts
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
