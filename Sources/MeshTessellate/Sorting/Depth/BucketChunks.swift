import SurfaceKit

/// The buckets of the depth sort as chains of fixed-size chunks, so that the key pass can move
/// each item straight into its bucket without knowing the buckets' sizes beforehand.
///
/// Each part of the triangles owns a region of chunks and, for every bucket, a chain of chunks in
/// that region: the chunks of a chain are filled in triangle order, each full but the last, and a
/// new chunk is taken from the part's region when the last one is full. A bucket's items are then
/// its chains in part order, which is triangle order, so the scatter stays stable.
///
/// A part of c triangles takes at most ⌈c / C⌉ + radix chunks of C items: each bucket's chain has
/// at most one chunk that is not full. Chunk 0 is never handed out, so slot 0 can mean "no chunk
/// yet".
struct BucketChunks {
    /// log2 of the items in a chunk.
    let chunkShift: Int
    /// The parts, each with its own chains and region.
    let parts: Int
    /// Buckets: 2^`topBits` of the sort.
    let radix: Int
    /// The first chunk of each part's region (and, last, the chunk count of all regions).
    let regionStart: [Int]
    /// Per part and bucket (`part × radix + bucket`): the first chunk of the chain, 0 for none.
    var head: [Int32]
    /// Per part and bucket: the slot the next item goes to, 0 before the first chunk.
    var cursor: [Int]
    /// Per part and bucket: the chunks of the chain.
    var chunks: [Int32]
    /// Per chunk: the next chunk of its chain (read only for chunks that are not a chain's last).
    var next: [Int32]

    /// Items in a chunk at most 2^`largestShift` (64 items, 1 KiB): the key pass writes into the
    /// last chunk of every bucket its triangles reach at once, and chunks are handed out one after
    /// another from a region, so smaller chunks keep those writes on fewer pages; larger ones also
    /// leave up to a chunk a bucket unfilled in every part. On W3's 1,280,000 triangles the depth
    /// order took 8–12% less time with chunks of 64 items than of 256 (32: 2–6% more than 64;
    /// 16: about as much as 256).
    static let largestShift = 6
    /// Items in a chunk at least 2^`smallestShift`: a chunk of 16 items is a few cache lines, so
    /// the chains still read as runs.
    static let smallestShift = 4

    /// Chains for `n` triangles cut into `parts` parts of `CentroidDepthSort.partRange` into
    /// 2^`topBits` buckets, with chunks of about n / (2 · radix · parts) items (at most
    /// 2^`largestShift`), so that the chunks left unfilled (at most one a bucket a part) are at
    /// most half as many items as the triangles.
    init(count n: Int, parts: Int, topBits: Int) {
        let radix = 1 << topBits
        self.radix = radix
        let target = Swift.max(1, n / (2 * radix * parts))
        var shift = Self.smallestShift
        while shift < Self.largestShift, 1 << (shift + 1) <= target { shift += 1 }
        chunkShift = shift
        self.parts = parts
        var starts = [1]
        for p in 0..<parts {
            let c = CentroidDepthSort.partRange(p, of: n, parts: parts).count
            starts.append(starts[p] + ((c + (1 << shift) - 1) >> shift) + radix)
        }
        regionStart = starts
        head = [Int32](repeating: 0, count: parts * radix)
        cursor = [Int](repeating: 0, count: parts * radix)
        chunks = [Int32](repeating: 0, count: parts * radix)
        next = [Int32](repeating: 0, count: starts[parts])
    }

    /// Item slots of all regions (the items' scratch must hold this many).
    var slotCount: Int { regionStart[parts] << chunkShift }

    /// The items of part `p`'s chain of bucket `d` (`index = p × radix + d`).
    func itemCount(at index: Int) -> Int {
        let k = Int(chunks[index])
        return k == 0 ? 0 : ((k - 1) << chunkShift) + ((cursor[index] - 1) & ((1 << chunkShift) - 1)) + 1
    }

    /// Each bucket's first place in the order (`radix + 1` of them, the last the item count).
    func bucketStarts() -> [Int] {
        var start = [Int](repeating: 0, count: radix + 1)
        var sum = 0
        for d in 0..<radix {
            start[d] = sum
            for p in 0..<parts { sum += itemCount(at: p * radix + d) }
        }
        start[radix] = sum
        return start
    }

    /// Copies bucket `d`'s items, chains in part order, to `out`.
    @inline(__always)
    func gather(bucket d: Int, from items: UnsafePointer<CentroidDepthSort.Item>, into out: UnsafeMutablePointer<CentroidDepthSort.Item>) {
        let size = 1 << chunkShift
        var o = out
        for p in 0..<parts {
            let index = p * radix + d
            let count = itemCount(at: index)
            guard count > 0 else { continue }
            var chunk = Int(head[index])
            var left = count
            while left > size {
                o.update(from: items + (chunk << chunkShift), count: size)
                o += size
                left -= size
                chunk = Int(next[chunk])
            }
            o.update(from: items + (chunk << chunkShift), count: left)
            o += left
        }
    }
}
