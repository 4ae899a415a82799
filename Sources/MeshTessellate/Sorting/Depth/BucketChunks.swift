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

    /// The chains' tables, in the sort's scratch memory (`tables(in:at:)`): nothing in them need
    /// read as zero beforehand, since each part clears its own rows as its key pass starts (on
    /// its own core), and a chunk's `next` is written before it is read. They take 16 bytes a
    /// part and bucket, so clearing them on the calling thread would grow with the parts; in
    /// the reused scratch they are also not faulted in again on every sort.
    struct Tables {
        /// Per part and bucket (`part × radix + bucket`): the first chunk of the chain, 0 for none.
        let head: UnsafeMutablePointer<Int32>
        /// Per part and bucket: the slot the next item goes to, 0 before the first chunk.
        let cursor: UnsafeMutablePointer<Int>
        /// Per part and bucket: the chunks of the chain.
        let chunks: UnsafeMutablePointer<Int32>
        /// Per chunk: the next chunk of its chain (read only for chunks that are not a chain's last).
        let next: UnsafeMutablePointer<Int32>
    }

    /// Where each table lies in a scratch layout (`reserveTables(in:)`).
    struct TableOffsets {
        let head: Int
        let cursor: Int
        let chunks: Int
        let next: Int
    }

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

    /// Chains for `n` triangles cut into `parts` parts of `PartRanges.range` into
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
            let c = PartRanges.range(p, of: parts, count: n).count
            starts.append(starts[p] + ((c + (1 << shift) - 1) >> shift) + radix)
        }
        regionStart = starts
    }

    /// Reserves the chains' tables in `layout`.
    func reserveTables(in layout: inout SortScratch.Layout) -> TableOffsets {
        TableOffsets(
            head: layout.reserve(Int32.self, count: parts * radix), cursor: layout.reserve(Int.self, count: parts * radix),
            chunks: layout.reserve(Int32.self, count: parts * radix), next: layout.reserve(Int32.self, count: regionStart[parts]))
    }

    /// The chains' tables at `offsets` in `scratch` (which must outlive their use), not cleared.
    func tables(in scratch: SortScratch, at offsets: TableOffsets) -> Tables {
        Tables(
            head: scratch.pointer(to: Int32.self, count: parts * radix, at: offsets.head),
            cursor: scratch.pointer(to: Int.self, count: parts * radix, at: offsets.cursor),
            chunks: scratch.pointer(to: Int32.self, count: parts * radix, at: offsets.chunks),
            next: scratch.pointer(to: Int32.self, count: regionStart[parts], at: offsets.next))
    }

    /// Item slots of all regions (the items' scratch must hold this many).
    var slotCount: Int { regionStart[parts] << chunkShift }

    /// The items of part `p`'s chain of bucket `d` (`index = p × radix + d`).
    @inline(__always)
    func itemCount(at index: Int, in tables: Tables) -> Int {
        let k = Int(tables.chunks[index])
        return k == 0 ? 0 : ((k - 1) << chunkShift) + ((tables.cursor[index] - 1) & ((1 << chunkShift) - 1)) + 1
    }

    /// Each bucket's first place in the order (`radix + 1` of them, the last the item count): the
    /// buckets' sizes (a sum over the parts each) on all cores, then their running sum, a few
    /// thousand adds, on one thread, so the serial work does not grow with the parts.
    func bucketStarts(in tables: Tables) -> [Int] {
        var start = [Int](repeating: 0, count: radix + 1)
        start.withUnsafeMutableBufferPointer { start in
            guard let base = start.baseAddress else { return }
            let sizes = SharedMutableBuffer(base: base)
            parallelChunks(radix, minimumChunk: Self.bucketsSizedTogether) { buckets in
                for d in buckets {
                    var size = 0
                    for p in 0..<parts { size += itemCount(at: p * radix + d, in: tables) }
                    sizes.base[d] = size
                }
            }
        }
        var sum = 0
        for d in 0..<radix {
            let size = start[d]
            start[d] = sum
            sum += size
        }
        start[radix] = sum
        return start
    }

    /// Buckets a core sizes at least in `bucketStarts`: a few parts' counters each, so a few
    /// hundred buckets are a few microseconds of work.
    static let bucketsSizedTogether = 256

    /// Copies bucket `d`'s items, chains in part order, to `out`.
    @inline(__always)
    func gather(
        bucket d: Int, in tables: Tables, from items: UnsafePointer<CentroidDepthSort.Item>,
        into out: UnsafeMutablePointer<CentroidDepthSort.Item>
    ) {
        let size = 1 << chunkShift
        var o = out
        for p in 0..<parts {
            let index = p * radix + d
            let count = itemCount(at: index, in: tables)
            guard count > 0 else { continue }
            var chunk = Int(tables.head[index])
            var left = count
            while left > size {
                o.update(from: items + (chunk << chunkShift), count: size)
                o += size
                left -= size
                chunk = Int(tables.next[chunk])
            }
            o.update(from: items + (chunk << chunkShift), count: left)
            o += left
        }
    }
}
