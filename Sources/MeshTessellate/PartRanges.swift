import SurfaceKit

/// Contiguous parts of a count of items, for passes cut among the cores, and the running sum that
/// hands each part its places in a list sorted by bucket (the parallel counting sorts: the depth
/// order's radix passes, R's runs by block of vertices, the grid's band lists, the rays' order).
enum PartRanges {
    /// Part `part` of `count` items cut into `parts` contiguous parts: items
    /// `count · part / parts ..< count · (part + 1) / parts`. Each part ends where the next
    /// begins, part 0 at 0 and the last at `count`, and sizes differ by at most one, for any
    /// `parts` ≥ 1 with `count · parts` within `Int`.
    @inline(__always)
    static func range(_ part: Int, of parts: Int, count: Int) -> Range<Int> {
        (count * part / parts)..<(count * (part + 1) / parts)
    }

    /// The first place of each part in each bucket of a list sorted by bucket whose parts keep
    /// their order within a bucket (what makes a parallel counting sort stable): bucket-major,
    /// so bucket b's places follow every earlier bucket's, and within it part p's follow parts
    /// 0…p − 1's. `count(p, b)` is part p's count in bucket b; `setFirst(p, b, place)` receives
    /// part p's first place in bucket b, from `origin` on, after `count(p, b)` was last read (so
    /// it may overwrite the count). Returns every bucket's first place and the end of the last
    /// (`buckets + 1` places).
    ///
    /// Two passes, each reading the parts one after another and each part's buckets in order
    /// (along memory where a part's counts lie together): the buckets' totals, their running
    /// sum on one thread, then each part's places from a cursor per bucket. With `minimumChunk`,
    /// both passes run on all cores in chunks of at least that many buckets (each chunk reads and
    /// writes its own buckets alone, and each bucket's parts are still taken in part order, so
    /// the places are the same); by default on the calling thread. The callers' counts and
    /// places fit `Int`, so the sums are written without overflow checks.
    @inline(__always)
    static func bucketMajorFirsts(
        parts: Int, buckets: Int, from origin: Int = 0, minimumChunk: Int = .max, count: (_ part: Int, _ bucket: Int) -> Int,
        setFirst: (_ part: Int, _ bucket: Int, _ place: Int) -> Void
    ) -> [Int] {
        var first = [Int](repeating: 0, count: buckets + 1)
        var next = [Int](repeating: 0, count: buckets)
        first.withUnsafeMutableBufferPointer { first in
            next.withUnsafeMutableBufferPointer { next in
                guard let firstBase = first.baseAddress, let nextBase = next.baseAddress else { return }
                let (firsts, cursors) = (SharedMutableBuffer(base: firstBase), SharedMutableBuffer(base: nextBase))
                // Each chunk adds up its own buckets' totals.
                parallelChunks(buckets, minimumChunk: minimumChunk) { chunk in
                    for p in 0..<parts {
                        for b in chunk { cursors.base[b] &+= count(p, b) }
                    }
                }
                var sum = origin
                for b in 0..<buckets {
                    let total = cursors.base[b]
                    firsts.base[b] = sum
                    cursors.base[b] = sum
                    sum &+= total
                }
                firsts.base[buckets] = sum
                // Each chunk hands out its own buckets' places.
                parallelChunks(buckets, minimumChunk: minimumChunk) { chunk in
                    for p in 0..<parts {
                        for b in chunk {
                            let place = cursors.base[b]
                            cursors.base[b] = place &+ count(p, b)
                            setFirst(p, b, place)
                        }
                    }
                }
            }
        }
        return first
    }
}
