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

    static let topBits = 10
    static let lowBits = 10
    static let codeBits = topBits + 2 * lowBits
    static let maxCode = Double((1 << codeBits) - 1)
    /// Below this many triangles the plain radix sort of the keys is used (same order).
    static let minimumCount = 1 << 15
    /// Buckets up to this size are settled by insertion alone.
    static let insertionBucket = 24
    /// Runs of equal codes up to this long are settled by insertion, longer ones by a full sort.
    static let insertionRun = 32

    /// The code of `key`: clamped (a key can round a little outside the vertices' range, and an
    /// infinite one goes to an end); NaN goes to 0 (the caller refuses NaN keys anyway).
    @inline(__always)
    static func code(_ key: Double, lo: Double, scale: Double) -> UInt64 {
        let x = (key - lo) * scale
        return x > 0 ? UInt64(Int(x < maxCode ? x : maxCode)) : 0
    }

    /// The order of the centroid depths of `triangles` over vertex depths `z`.
    static func order(z: UnsafeBufferPointer<Double>, triangles: UnsafeBufferPointer<SIMD3<Int32>>) -> Outcome {
        let n = triangles.count
        let vertexCount = z.count
        guard n >= minimumCount, vertexCount > 0, n <= Int(Int32.max) else {
            return plainOrder(z: z, triangles: triangles)
        }
        // The finite depth range; keys outside it (rounding, infinities) are clamped.
        var lo = Double.infinity, hi = -Double.infinity
        for v in z where v.isFinite {
            lo = Swift.min(lo, v)
            hi = Swift.max(hi, v)
        }
        let scale = Double(1 << codeBits) / (hi - lo)
        guard hi > lo, scale.isFinite, scale > 0 else { return plainOrder(z: z, triangles: triangles) }

        let radix = 1 << topBits
        let parts = Swift.max(1, Swift.min(ProcessInfoCores.count, 8, n / (1 << 16)))
        let keysScratch = SortScratch(bytes: n * MemoryLayout<Double>.stride)
        let itemsScratch = SortScratch(bytes: n * MemoryLayout<Item>.stride)
        let keys = keysScratch.buffer(of: Double.self, count: n)
        let items = itemsScratch.buffer(of: Item.self, count: n)
        // Per part: two histograms (even and odd triangles: neighbours often share a digit, and one
        // counter would make each increment wait for the last), a NaN count and a bad-index count.
        var histograms = [Int](repeating: 0, count: parts * 2 * radix)
        var flags = [Int](repeating: 0, count: parts * 2)
        let lowShift = UInt64(2 * lowBits)
        let last = UInt32(vertexCount - 1)
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
                        let hist = h.base + p * 2 * radix
                        var nan = 0, bad = 0
                        for i in partRange(p) {
                            let t = ts.value[i]
                            // Out-of-range indices are counted and read as the last vertex, so no
                            // read leaves the buffer; the caller refuses the mesh.
                            let a = UInt32(bitPattern: t.x), b = UInt32(bitPattern: t.y), c = UInt32(bitPattern: t.z)
                            bad &+= (a > last || b > last || c > last) ? 1 : 0
                            let za = zs.value[Int(Swift.min(a, last))]
                            let zb = zs.value[Int(Swift.min(b, last))]
                            let zc = zs.value[Int(Swift.min(c, last))]
                            let key = (za + zb + zc) / 3
                            k.base[i] = key
                            nan &+= key.isNaN ? 1 : 0
                            hist[(i & 1) * radix + Int(code(key, lo: lo, scale: scale) >> lowShift)] &+= 1
                        }
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
                sum += histograms[p * 2 * radix + d] + histograms[p * 2 * radix + radix + d]
            }
        }
        start[radix] = sum

        cursors.withUnsafeMutableBufferPointer { cb in
            guard let cBase = cb.baseAddress, let iBase = items.baseAddress, let kBase = keys.baseAddress else { return }
            let cur = SharedMutableBuffer(base: cBase), out = SharedMutableBuffer(base: iBase)
            let ks = UncheckedSendable(kBase)
            parallelChunks(parts, minimumChunk: 1) { chunk in
                for p in chunk {
                    let o = cur.base + p * radix
                    let lowMask = UInt64((1 << (2 * lowBits)) - 1)
                    for i in partRange(p) {
                        let key = ks.value[i]
                        let q = code(key, lo: lo, scale: scale)
                        let d = Int(q >> lowShift)
                        let slot = o[d]
                        o[d] = slot + 1
                        out.base[slot] = Item(key: key, tag: (q & lowMask) << 32 | UInt64(i))
                    }
                }
            }
        }

        let order = [Int32](unsafeUninitializedCapacity: n) { buffer, initialized in
            adviseSortHugePages(UnsafeMutableRawBufferPointer(buffer))
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
        for t in triangles {
            guard let a = Int(exactly: t.x), let b = Int(exactly: t.y), let c = Int(exactly: t.z),
                z.indices.contains(a), z.indices.contains(b), z.indices.contains(c)
            else { return .indexOutOfRange }
            let key = (z[a] + z[b] + z[c]) / 3
            if key.isNaN { return .nanKey }
            keys.append(key)
        }
        return .sorted(RadixSort.stableOrder(keys))
    }
}

/// Sorts one bucket: by the low bits of the code (two stable passes through a scratch array kept
/// from bucket to bucket), then settles runs of equal codes by key.
struct BucketSorter {
    typealias Item = CentroidDepthSort.Item
    private var scratch: [Item]
    private var counts: [Int]

    init(capacity: Int) {
        scratch = [Item](repeating: Item(key: 0, tag: 0), count: Swift.max(capacity, 1))
        counts = [Int](repeating: 0, count: 2 << CentroidDepthSort.lowBits)
    }

    /// Sorts `bucket` (items in triangle order) and writes its triangle indices to `out`.
    mutating func sort(_ bucket: UnsafeMutableBufferPointer<Item>, into out: UnsafeMutablePointer<Int32>) {
        let m = bucket.count
        if m <= CentroidDepthSort.insertionBucket {
            // Insertion by key: stable, and the codes follow the keys.
            for i in 1..<Swift.max(m, 1) {
                let moving = bucket[i]
                var j = i
                while j > 0, bucket[j - 1].key > moving.key {
                    bucket[j] = bucket[j - 1]
                    j -= 1
                }
                bucket[j] = moving
            }
            for i in 0..<m { out[i] = Int32(truncatingIfNeeded: bucket[i].tag) }
            return
        }
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
                var s0 = 0, s1 = 0
                for d in 0..<radix {
                    let c0 = c[d], c1 = c[radix + d]
                    c[d] = s0
                    c[radix + d] = s1
                    s0 += c0
                    s1 += c1
                }
                for item in bucket {
                    let d = Int((item.tag >> 32) & mask)
                    let slot = c[d]
                    c[d] = slot + 1
                    tmp[slot] = item
                }
                for i in 0..<m {
                    let item = tmp[i]
                    let d = radix + Int(item.tag >> (32 + bits))
                    let slot = c[d]
                    c[d] = slot + 1
                    bucket[slot] = item
                }
            }
        }
        settle(bucket, into: out)
    }

    /// `bucket` sorted by code, equal codes in triangle order: writes the order of (key, index).
    /// One branch-free step per item puts each run of two right (the later item goes first when
    /// its key is smaller); runs of three or more are noted and sorted afterwards.
    private func settle(_ bucket: UnsafeMutableBufferPointer<Item>, into out: UnsafeMutablePointer<Int32>) {
        let m = bucket.count
        var previous = bucket[0]
        var runLength = 1
        var longRuns: [Int] = []
        for i in 1..<m {
            let item = bucket[i]
            let same = item.tag >> 32 == previous.tag >> 32
            let swap = same && previous.key > item.key
            out[i - 1] = Int32(truncatingIfNeeded: swap ? item.tag : previous.tag)
            previous = swap ? previous : item
            runLength = same ? runLength + 1 : 1
            if runLength == 3 { longRuns.append(i - 2) }
        }
        out[m - 1] = Int32(truncatingIfNeeded: previous.tag)
        for first in longRuns {
            let code = bucket[first].tag >> 32
            var end = first + 3
            while end < m, bucket[end].tag >> 32 == code { end += 1 }
            var run = UnsafeMutableBufferPointer(rebasing: bucket[first..<end])
            if run.count <= CentroidDepthSort.insertionRun {
                for i in 1..<run.count {
                    let moving = run[i]
                    var j = i
                    while j > 0, run[j - 1].key > moving.key {
                        run[j] = run[j - 1]
                        j -= 1
                    }
                    run[j] = moving
                }
            } else {
                // Indices are unique, so (key, index) is a strict total order.
                run.sort { a, b in
                    a.key < b.key || (a.key == b.key && UInt32(truncatingIfNeeded: a.tag) < UInt32(truncatingIfNeeded: b.tag))
                }
            }
            for i in run.indices { out[first + i] = Int32(truncatingIfNeeded: run[i].tag) }
        }
    }
}
