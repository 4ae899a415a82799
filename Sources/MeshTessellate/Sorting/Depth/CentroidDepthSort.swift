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

    /// The code of `key`: its place on the scale, clamped (a key can round a little outside the
    /// vertices' range, and an infinite one goes to an end; NaN goes to 0, and the caller refuses
    /// NaN keys anyway), rounded to an integer by adding 2^52 (round to nearest, which never
    /// decreases either, and needs no checked conversion).
    @inline(__always)
    static func code(_ key: Double, lo: Double, scale: Double) -> UInt64 {
        let x = (key - lo) * scale
        let clamped = x > 0 ? (x < maxCode ? x : maxCode) : 0
        return (clamped + 0x1p52).bitPattern & ((1 << 52) - 1)
    }

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

        let radix = 1 << topBits
        let copies = histogramCopies
        let parts = Swift.max(1, Swift.min(ProcessInfoCores.count, 8, n / (1 << 16)))
        let keysScratch = SortScratch(bytes: n * MemoryLayout<Double>.stride)
        let keys = keysScratch.buffer(of: Double.self, count: n)
        let items = itemsScratch.buffer(of: Item.self, count: n)
        var histograms = [UInt32](repeating: 0, count: parts * copies * radix)
        // Per part: NaN keys and triangles with a bad index.
        var flags = [Int](repeating: 0, count: parts * 2)
        // Indices are Int32, so clamping keeps every bounds check right.
        let vertices = UInt32(clamping: vertexCount)
        func partRange(_ p: Int) -> Range<Int> { (n * p / parts)..<(n * (p + 1) / parts) }

        histograms.withUnsafeMutableBufferPointer { hb in
            flags.withUnsafeMutableBufferPointer { fb in
                guard let hBase = hb.baseAddress, let fBase = fb.baseAddress, let zBase = z.baseAddress,
                    let tBase = triangles.baseAddress, let kBase = keys.baseAddress
                else { return }
                let h = SharedMutableBuffer(base: hBase), f = SharedMutableBuffer(base: fBase)
                let k = SharedMutableBuffer(base: kBase)
                let zs = UncheckedSendable(zBase), ts = UncheckedSendable(tBase)
                parallelChunks(parts, minimumChunk: 1) { chunk in
                    for p in chunk {
                        let (nan, bad) = makeKeys(
                            triangles: ts.value, z: zs.value, vertexCount: vertices, range: partRange(p), keys: k.base,
                            histogram: h.base + p * copies * radix, lo: lo, scale: scale)
                        f.base[2 * p] = nan
                        f.base[2 * p + 1] = bad
                    }
                }
            }
        }
        var nanCount = 0, badCount = 0
        for p in 0..<parts {
            nanCount += flags[2 * p]
            badCount += flags[2 * p + 1]
        }
        if badCount > 0 { return .indexOutOfRange }
        if nanCount > 0 { return .nanKey }

        // Bucket starts, and each part's write cursor in every bucket (parts in order).
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

        cursors.withUnsafeMutableBufferPointer { cb in
            guard let cBase = cb.baseAddress, let iBase = items.baseAddress, let kBase = keys.baseAddress else { return }
            let cur = SharedMutableBuffer(base: cBase), out = SharedMutableBuffer(base: iBase)
            let ks = UncheckedSendable(kBase)
            parallelChunks(parts, minimumChunk: 1) { chunk in
                for p in chunk {
                    scatter(keys: ks.value, range: partRange(p), cursors: cur.base + p * radix, into: out.base, lo: lo, scale: scale)
                }
            }
        }

        let order = [Int32](unsafeUninitializedCapacity: n) { buffer, initialized in
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
        withExtendedLifetime((keysScratch, itemsScratch)) {}
        return .sorted(order)
    }

    /// Keys of `triangles[range]` into `keys`, their top digits counted into `histogram`
    /// (`histogramCopies` interleaved copies); returns the NaN keys and the triangles with an index
    /// out of range (whose keys are not written).
    static func makeKeys(
        triangles: UnsafePointer<SIMD3<Int32>>, z: UnsafePointer<Double>, vertexCount: UInt32, range: Range<Int>,
        keys: UnsafeMutablePointer<Double>, histogram: UnsafeMutablePointer<UInt32>, lo: Double, scale: Double
    ) -> (nan: Int, bad: Int) {
        let radix = 1 << topBits
        let lowShift = UInt64(2 * lowBits)
        var nan = 0, bad = 0
        for i in range {
            let t = triangles[i]
            let a = UInt32(bitPattern: t.x), b = UInt32(bitPattern: t.y), c = UInt32(bitPattern: t.z)
            // Checked before any read (negative indices are huge here); the caller refuses the
            // mesh, so the missing key is never used.
            guard Swift.max(a, b, c) < vertexCount else {
                bad += 1
                continue
            }
            let key = (z[Int(a)] + z[Int(b)] + z[Int(c)]) / 3
            keys[i] = key
            nan &+= key.isNaN ? 1 : 0
            histogram[(i & (histogramCopies - 1)) &* radix &+ Int(code(key, lo: lo, scale: scale) >> lowShift)] &+= 1
        }
        return (nan, bad)
    }

    /// The stable scatter of `keys[range]` into their buckets. Two items at a time: when both go
    /// to the same bucket the second cursor comes from the first (neighbours often share a bucket,
    /// and reading the cursor back would wait for the store just made).
    @inline(__always)
    static func scatter(
        keys: UnsafePointer<Double>, range: Range<Int>, cursors: UnsafeMutablePointer<Int>, into out: UnsafeMutablePointer<Item>,
        lo: Double, scale: Double
    ) {
        let lowShift = UInt64(2 * lowBits)
        let lowMask = UInt64((1 << (2 * lowBits)) - 1)
        var i = range.lowerBound
        while i + 1 < range.upperBound {
            let k0 = keys[i], k1 = keys[i + 1]
            let q0 = code(k0, lo: lo, scale: scale), q1 = code(k1, lo: lo, scale: scale)
            let d0 = Int(q0 >> lowShift), d1 = Int(q1 >> lowShift)
            let s0 = cursors[d0]
            let c1 = cursors[d1]
            let s1 = d0 == d1 ? s0 &+ 1 : c1
            cursors[d0] = s0 &+ 1
            cursors[d1] = s1 &+ 1
            out[s0] = Item(key: k0, tag: (q0 & lowMask) << 32 | UInt64(truncatingIfNeeded: i))
            out[s1] = Item(key: k1, tag: (q1 & lowMask) << 32 | UInt64(truncatingIfNeeded: i &+ 1))
            i &+= 2
        }
        if i < range.upperBound {
            let k0 = keys[i]
            let q0 = code(k0, lo: lo, scale: scale)
            let d0 = Int(q0 >> lowShift)
            let s0 = cursors[d0]
            cursors[d0] = s0 + 1
            out[s0] = Item(key: k0, tag: (q0 & lowMask) << 32 | UInt64(i))
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

/// Sorts one bucket: by the low bits of the code (two stable passes), then settles runs of equal
/// codes by key. Buckets under 65,536 items (all but degenerate ones) sort 4-byte tags, the code's
/// low 16 bits above the item's place in the bucket, so the passes move a quarter of the bytes
/// and stay in the L1 cache; settling then reads each item where it lies. Scratch arrays are kept
/// from bucket to bucket.
struct BucketSorter {
    typealias Item = CentroidDepthSort.Item
    private var scratch: [Item]
    private var tags: [UInt32]
    private var counts: [UInt32]
    private var run: [Item] = []
    private var longRuns: [Int] = []

    init(capacity: Int) {
        scratch = capacity >= 1 << 16 ? [Item](repeating: Item(key: 0, tag: 0), count: capacity) : []
        tags = [UInt32](repeating: 0, count: 2 * Swift.min(Swift.max(capacity, 1), 1 << 16))
        counts = [UInt32](repeating: 0, count: 2 << CentroidDepthSort.lowBits)
    }

    /// Sorts `bucket` (items in triangle order) and writes its triangle indices to `out`.
    mutating func sort(_ bucket: UnsafeMutableBufferPointer<Item>, into out: UnsafeMutablePointer<Int32>) {
        let m = bucket.count
        if m <= CentroidDepthSort.insertionBucket {
            // Insertion by key: stable, and the codes follow the keys.
            var items = bucket
            items.insertionSort { $0.key < $1.key }
            for i in 0..<m { out[i] = Int32(truncatingIfNeeded: bucket[i].tag) }
            return
        }
        guard m < 1 << 16 else {
            sortLarge(bucket, into: out)
            return
        }
        let bits = UInt32(CentroidDepthSort.lowBits)
        let radix = 1 << CentroidDepthSort.lowBits
        let mask = UInt32(radix - 1)
        longRuns.removeAll(keepingCapacity: true)
        tags.withUnsafeMutableBufferPointer { t in
            counts.withUnsafeMutableBufferPointer { c in
                guard let a = t.baseAddress else { return }
                let b = a + m
                for d in 0..<(2 * radix) { c[d] = 0 }
                for j in 0..<m {
                    let q = UInt32(truncatingIfNeeded: bucket[j].tag >> 32)
                    a[j] = q << 16 | UInt32(truncatingIfNeeded: j)
                    c[Int(q & mask)] &+= 1
                    c[radix + Int(q >> bits)] &+= 1
                }
                Self.startsFromCounts(c, radix: radix)
                for j in 0..<m {
                    let tag = a[j]
                    let d = Int((tag >> 16) & mask)
                    let slot = c[d]
                    c[d] = slot &+ 1
                    b[Int(slot)] = tag
                }
                for j in 0..<m {
                    let tag = b[j]
                    let d = radix + Int(tag >> (16 + bits))
                    let slot = c[d]
                    c[d] = slot &+ 1
                    a[Int(slot)] = tag
                }
                // Settle: one branch-free step per item puts each run of two right (the later item
                // goes first when its key is smaller); runs of three or more are noted.
                var previousCode = a[0] >> 16
                var previous = bucket[Int(a[0] & 0xFFFF)]
                var runLength = 1
                for j in 1..<m {
                    let tag = a[j]
                    let item = bucket[Int(tag & 0xFFFF)]
                    let same = tag >> 16 == previousCode
                    let swap = same && previous.key > item.key
                    out[j - 1] = Int32(truncatingIfNeeded: swap ? item.tag : previous.tag)
                    previous = swap ? previous : item
                    previousCode = tag >> 16
                    runLength = same ? runLength + 1 : 1
                    if runLength == 3 { longRuns.append(j - 2) }
                }
                out[m - 1] = Int32(truncatingIfNeeded: previous.tag)
                for first in longRuns {
                    var end = first + 3
                    while end < m, a[end] >> 16 == a[first] >> 16 { end += 1 }
                    // Places ascend within a run (the passes are stable), so triangle order does.
                    run.removeAll(keepingCapacity: true)
                    for j in first..<end { run.append(bucket[Int(a[j] & 0xFFFF)]) }
                    Self.settleRun(&run)
                    for (i, item) in run.enumerated() { out[first + i] = Int32(truncatingIfNeeded: item.tag) }
                }
            }
        }
    }

    /// Turns the counts of two digits (the low digit's in `c[0..<radix]`, the high digit's in
    /// `c[radix..<2·radix]`) into each bucket's first slot, as the two scatter passes need.
    @inline(__always)
    static func startsFromCounts(_ c: UnsafeMutableBufferPointer<UInt32>, radix: Int) {
        var s0: UInt32 = 0, s1: UInt32 = 0
        for d in 0..<radix {
            let c0 = c[d], c1 = c[radix + d]
            c[d] = s0
            c[radix + d] = s1
            s0 &+= c0
            s1 &+= c1
        }
    }

    /// Sorts a run of items with equal codes, in triangle order, stably by key.
    static func settleRun(_ run: inout [Item]) {
        if run.count <= CentroidDepthSort.insertionRun {
            run.insertionSort { $0.key < $1.key }
        } else {
            // Indices are unique, so (key, index) is a strict total order.
            run.sort { a, b in
                a.key < b.key || (a.key == b.key && UInt32(truncatingIfNeeded: a.tag) < UInt32(truncatingIfNeeded: b.tag))
            }
        }
    }

    /// A bucket of 65,536 items or more (a depth range stretched by outliers): the items
    /// themselves go through the two passes.
    private mutating func sortLarge(_ bucket: UnsafeMutableBufferPointer<Item>, into out: UnsafeMutablePointer<Int32>) {
        let m = bucket.count
        if scratch.count < m { scratch = [Item](repeating: Item(key: 0, tag: 0), count: m) }
        let bits = UInt64(CentroidDepthSort.lowBits)
        let radix = 1 << CentroidDepthSort.lowBits
        let mask = UInt64(radix - 1)
        scratch.withUnsafeMutableBufferPointer { tmp in
            counts.withUnsafeMutableBufferPointer { c in
                for d in 0..<(2 * radix) { c[d] = 0 }
                for item in bucket {
                    let q = item.tag >> 32
                    c[Int(q & mask)] &+= 1
                    c[radix + Int(q >> bits)] &+= 1
                }
                Self.startsFromCounts(c, radix: radix)
                for item in bucket {
                    let d = Int((item.tag >> 32) & mask)
                    let slot = c[d]
                    c[d] = slot &+ 1
                    tmp[Int(slot)] = item
                }
                for i in 0..<m {
                    let item = tmp[i]
                    let d = radix + Int(item.tag >> (32 + bits))
                    let slot = c[d]
                    c[d] = slot &+ 1
                    bucket[Int(slot)] = item
                }
            }
        }
        var previous = bucket[0]
        var runStart = 0
        for i in 1...m {
            if i < m, bucket[i].tag >> 32 == previous.tag >> 32 { continue }
            if i - runStart > 1 {
                run.removeAll(keepingCapacity: true)
                run.append(contentsOf: bucket[runStart..<i])
                Self.settleRun(&run)
                for (k, item) in run.enumerated() { bucket[runStart + k] = item }
            }
            if i < m {
                runStart = i
                previous = bucket[i]
            }
        }
        for i in 0..<m { out[i] = Int32(truncatingIfNeeded: bucket[i].tag) }
    }
}
