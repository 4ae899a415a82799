import CSwiftRuntimeShims
import SurfaceKit

/// The key pass: each triangle's centroid depth, moved with its code's low bits and its index
/// straight into the chunks of its bucket (the top digit of the code).
extension CentroidDepthSort {
    /// The code of `key`: its place on the scale, clamped (a key can round a little outside the
    /// vertices' range, and an infinite one goes to an end; NaN goes to 0, and the caller refuses
    /// NaN keys anyway), rounded to an integer by adding 2^52 (round to nearest, which never
    /// decreases either, and needs no checked conversion).
    @inline(__always)
    static func code(_ key: Double, lo: Double, scale: Double, maxCode: Double) -> UInt64 {
        let x = (key - lo) * scale
        let clamped = x > 0 ? (x < maxCode ? x : maxCode) : 0
        return (clamped + 0x1p52).bitPattern & ((1 << 52) - 1)
    }

    /// The items of all `triangles` into the chains of `buckets` (their slots in `items`), in the
    /// buckets' parts on all cores; with the NaN keys and the triangles with an index out of range
    /// (which are left out).
    static func scatteredKeys(
        triangles: UnsafeBufferPointer<SIMD3<Int32>>, z: UnsafeBufferPointer<Double>, vertexCount: Int,
        into items: UnsafeMutableBufferPointer<Item>, buckets: BucketChunks, tables: BucketChunks.Tables, lo: Double, scale: Double,
        maxCode: Double
    ) -> (nan: Int, bad: Int) {
        let n = triangles.count
        let radix = buckets.radix
        let parts = buckets.parts
        let regionStart = buckets.regionStart
        // Indices are Int32, so clamping keeps every bounds check right.
        let vertices = UInt32(clamping: vertexCount)
        // `order` calls this with at least `minimumCount` triangles, a depth a vertex (vertexCount > 0)
        // and a slot an item (slotCount >= n), so all three buffers are non-empty and have a base
        // address: the early return, which leaves the chains' tables uncleared, is never taken.
        guard let zBase = z.baseAddress, let tBase = triangles.baseAddress, let iBase = items.baseAddress else { return (0, 0) }
        let chains = UncheckedSendable(
            Chains(
                head: tables.head, cursor: tables.cursor, chunks: tables.chunks, next: tables.next, items: iBase,
                shift: buckets.chunkShift))
        let zs = UncheckedSendable(zBase), ts = UncheckedSendable(tBase)
        // Per part: NaN keys and triangles with a bad index.
        let flags = parallelParts(parts) { p -> (nan: Int, bad: Int) in
            // Each part clears and writes only its own chains and its own region of chunks.
            let own = chains.value.part(p, radix: radix)
            own.head.initialize(repeating: 0, count: radix)
            own.cursor.initialize(repeating: 0, count: radix)
            own.chunks.initialize(repeating: 0, count: radix)
            return scatterKeys(
                triangles: ts.value, z: zs.value, vertexCount: vertices, range: PartRanges.range(p, of: parts, count: n), into: own,
                firstChunk: regionStart[p], lo: lo, scale: scale, maxCode: maxCode)
        }
        return flags.reduce((0, 0)) { ($0.0 + $1.nan, $0.1 + $1.bad) }
    }

    /// Pointers to one part's chains (or, before `part`, to all of them).
    struct Chains {
        var head: UnsafeMutablePointer<Int32>
        var cursor: UnsafeMutablePointer<Int>
        var chunks: UnsafeMutablePointer<Int32>
        let next: UnsafeMutablePointer<Int32>
        let items: UnsafeMutablePointer<Item>
        let shift: Int

        func part(_ p: Int, radix: Int) -> Chains {
            Chains(head: head + p * radix, cursor: cursor + p * radix, chunks: chunks + p * radix, next: next, items: items, shift: shift)
        }
    }

    /// Keys of `triangles[range]`, each item appended to its bucket's chain, a new chunk taken from
    /// `firstChunk` on when the chain's last one is full; returns the NaN keys, and 1 for `bad` at the
    /// first pair of triangles with an index out of range (the caller then refuses the mesh, so the
    /// items left unwritten are never read).
    ///
    /// Triangles go two at a time (``keyPair``), a lone last one by itself; the items are appended
    /// in triangle order, so the scatter stays stable.
    static func scatterKeys(
        triangles: UnsafePointer<SIMD3<Int32>>, z: UnsafePointer<Double>, vertexCount: UInt32, range: Range<Int>,
        into chains: Chains, firstChunk: Int, lo: Double, scale: Double, maxCode: Double
    ) -> (nan: Int, bad: Int) {
        var free = firstChunk
        var nan = 0
        // Ahead within the range only, so no pointer goes past the triangles.
        let prefetchEnd = range.upperBound - trianglePrefetch
        var i = range.lowerBound
        while i + 1 < range.upperBound {
            // A line of four triangles every other pair (i & 2 alternates from pair to pair, whether
            // the range starts at an even or an odd triangle).
            if i & 2 == 0, i < prefetchEnd { shims_prefetch(triangles + i + trianglePrefetch) }
            guard let key = keyPair(triangles[i], triangles[i + 1], z: z, vertexCount: vertexCount) else { return (nan, 1) }
            nan &+= (key[0].isNaN ? 1 : 0) &+ (key[1].isNaN ? 1 : 0)
            append(key[0], code: code(key[0], lo: lo, scale: scale, maxCode: maxCode), index: i, into: chains, free: &free)
            append(key[1], code: code(key[1], lo: lo, scale: scale, maxCode: maxCode), index: i + 1, into: chains, free: &free)
            i += 2
        }
        if i < range.upperBound {
            let t = triangles[i]
            guard let key = keyPair(t, t, z: z, vertexCount: vertexCount)?[0] else { return (nan, 1) }
            nan &+= key.isNaN ? 1 : 0
            append(key, code: code(key, lo: lo, scale: scale, maxCode: maxCode), index: i, into: chains, free: &free)
        }
        return (nan, 0)
    }

    /// The centroid depths of triangles `t` and `u`, `(z_a + z_b + z_c) / 3` each, or nil when one
    /// of them names a vertex at or past `vertexCount` (checked before any read; negative indices
    /// are huge here).
    ///
    /// The two keys share one vector division: each lane is the IEEE quotient of its own sum, so
    /// each key has the bits of the scalar `(z_a + z_b + z_c) / 3`, while the divider, the key
    /// pass's slowest unit, is used once for two triangles (one packed division takes about as
    /// long as one scalar division on the cores measured).
    @inline(__always)
    static func keyPair(_ t: SIMD3<Int32>, _ u: SIMD3<Int32>, z: UnsafePointer<Double>, vertexCount: UInt32) -> SIMD2<Double>? {
        let v = SIMD3<UInt32>(truncatingIfNeeded: t), w = SIMD3<UInt32>(truncatingIfNeeded: u)
        guard Swift.max(v.max(), w.max()) < vertexCount else { return nil }
        let a = SIMD2(z[Int(v.x)], z[Int(w.x)]), b = SIMD2(z[Int(v.y)], z[Int(w.y)]), c = SIMD2(z[Int(v.z)], z[Int(w.z)])
        return (a + b + c) / 3
    }

    /// Appends one item to its bucket's chain, taking chunk `free` when the chain has none yet or
    /// its last one is full.
    @inline(__always)
    static func append(_ key: Double, code q: UInt64, index: Int, into chains: Chains, free: inout Int) {
        let d = Int(truncatingIfNeeded: q >> UInt64(2 * lowBits))
        var slot = chains.cursor[d]
        // Slot 0 (no chunk yet) or the end of a full chunk.
        if slot & ((1 << chains.shift) - 1) == 0 {
            if slot == 0 {
                chains.head[d] = Int32(truncatingIfNeeded: free)
            } else {
                chains.next[(slot >> chains.shift) - 1] = Int32(truncatingIfNeeded: free)
            }
            chains.chunks[d] &+= 1
            slot = free << chains.shift
            free &+= 1
        }
        chains.items[slot] = Item(key: key, tag: (q & ((1 << (2 * lowBits)) - 1)) << 32 | UInt64(truncatingIfNeeded: index))
        chains.cursor[d] = slot &+ 1
    }
}
