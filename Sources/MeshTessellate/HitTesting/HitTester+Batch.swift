import CSwiftRuntimeShims
import Dispatch
import SurfaceKit

public extension HitTester {
    /// ``hitTest(_:)-(SIMD2<Double>)`` for many screen points, in chunks on all cores; results in
    /// the order of the points.
    func hitTest(_ points: [SIMD2<Double>]) -> [ScreenHit?] {
        HitTester.parallelMap(points, order: nil) { hitTest($0) }
    }

    /// ``intersect(_:)-(Ray)`` for many rays, in independent blocks on all cores; results in the
    /// order of the rays. Each large block is answered in an order where neighbouring rays take
    /// nearly the same path through the BVH (see `TriangleBVH.coherentOrder`), which keeps its
    /// nodes and triangles in cache; every answer is the one a single query gives.
    func intersect(_ rays: [Ray]) -> [RayHit?] {
        answerRays(rays)
    }

    /// ``firstHit(_:)`` for many rays, in independent blocks on all cores, in the coherent order of
    /// ``intersect(_:)-([Ray])``; results in the order of the rays, each the one a single query
    /// gives. Use it when only the nearest triangle is needed: an answer is 32 bytes where a
    /// ``RayHit`` record is 224, and none of the mesh's per-vertex arrays is read.
    /// A miss is `nil`; an optional ``TriangleHit`` still takes 32 bytes.
    func firstHits(_ rays: [Ray]) -> [TriangleHit?] {
        answerRays(rays)
    }
}

/// What a batch of rays answers each ray with, made from its first hit.
protocol BatchAnswer {
    static func make(_ hit: TriangleHit, of ray: Ray, tester: HitTester) -> Self
}

/// A record a batch answers a hit ray with (`nil` for a miss).
protocol BatchRecord {
    static func record(_ hit: TriangleHit, of ray: Ray, tester: HitTester) -> Self?
}

extension TriangleHit: BatchRecord {
    @inline(__always)
    static func record(_ hit: TriangleHit, of _: Ray, tester _: HitTester) -> TriangleHit? { hit.orNil }
}

extension RayHit: BatchRecord {
    @inline(__always)
    static func record(_ hit: TriangleHit, of ray: Ray, tester: HitTester) -> RayHit? {
        hit.found ? tester.rayHit(hit, of: ray) : nil
    }
}

extension Optional: BatchAnswer where Wrapped: BatchRecord {
    @inline(__always)
    static func make(_ hit: TriangleHit, of ray: Ray, tester: HitTester) -> Wrapped? { Wrapped.record(hit, of: ray, tester: tester) }
}

extension HitTester {
    /// Queries per chunk; enough to pay for a thread hand-off, few enough to balance two cores.
    static let chunkSize = 4096
    /// Rays taken at a time in a coherent block (16 KB of them).
    static let gatherBlock = 256
    /// Rays a block answers at most (2²⁰): a batch is cut into one block a thread unless its
    /// blocks would be larger than this. The coherent order pays more the more rays a block
    /// holds: on random rays over the W2 ripple (Docs/performance.md) one block of 1,000,000
    /// walks in 0.31 s on one core, blocks of 131,072 in 0.40 s, of 16,384 in 0.85 s, as
    /// neighbours in a sparser block share less of their path. So blocks are as large as the
    /// threads allow.
    static let rayBlock = 1 << 20

    /// How `count` rays are cut into blocks: one for each of `threads` threads while each keeps
    /// ``TriangleBVH/coherentBatchMinimum`` rays (so it still sorts them), and enough that none
    /// holds more than ``rayBlock``. The blocks are answered independently, so the cut decides
    /// only the speed, never an answer.
    static func blockCount(_ count: Int, threads: Int) -> Int {
        let bySize = (count + rayBlock - 1) / rayBlock
        return Swift.max(1, bySize, Swift.min(threads, count / TriangleBVH.coherentBatchMinimum))
    }

    /// `Answer.make(firstHit(ray), ray)` for every ray, written to the ray's slot of the result.
    ///
    /// The rays are cut into contiguous blocks (``blockCount(_:threads:)``), answered on all cores
    /// with nothing shared between them but the hierarchy, which they only read: each block sorts
    /// its own rays into the coherent order (`TriangleBVH.coherentOrder`) in its chunk's own
    /// scratch memory, walks them a gathered run at a time, and writes its answers into its own
    /// slots of the result. There is no step over the whole batch, so the work grows with the
    /// threads.
    func answerRays<Answer: BatchAnswer>(_ rays: [Ray]) -> [Answer] {
        let count = rays.count
        guard count > 0 else { return [] }
        let blocks = HitTester.blockCount(count, threads: ParallelLimit.threads)
        return rays.withUnsafeBufferPointer { input in
            [Answer](unsafeUninitializedCapacity: count) { buffer, initialized in
                guard let base = buffer.baseAddress else { return }
                adviseHugePages(UnsafeMutableRawBufferPointer(buffer))
                let out = SharedMutableBuffer(base: base)
                // Each block initializes only its own slots, and all finish before this returns.
                parallelChunks(blocks, minimumChunk: 1) { chunk in
                    let largest = (count + blocks - 1) / blocks
                    RayBlockScratch.with(rays: largest) { scratch in
                        bvh.withTraversal { traversal in
                            for b in chunk {
                                let range = (count * b / blocks)..<(count * (b + 1) / blocks)
                                answerBlock(
                                    UnsafeBufferPointer(rebasing: input[range]), into: out.base + range.lowerBound,
                                    traversal: traversal, scratch: scratch)
                            }
                        }
                    }
                }
                initialized = count
            }
        }
    }

    /// Answers one block of rays into `out[0..<rays.count]`, in the coherent order when the block
    /// is large enough: a run of rays is gathered, walked several at a time
    /// (`TriangleBVH.Traversal.firstHits`), and its answers scattered, each in a short loop whose
    /// cache misses overlap.
    @inline(__always)
    func answerBlock<Answer: BatchAnswer>(
        _ rays: UnsafeBufferPointer<Ray>, into out: UnsafeMutablePointer<Answer>, traversal: TriangleBVH.Traversal,
        scratch: RayBlockScratch
    ) {
        let count = rays.count
        let hits = scratch.hits
        let records = scratch.records
        guard
            let sorted = bvh.coherentOrder(
                rays, keys: scratch.keys, spare: scratch.spare, counts: scratch.counts, records: records)
        else {
            var start = 0
            while start < count {
                let end = Swift.min(start + HitTester.gatherBlock, count)
                traversal.firstHits(UnsafeBufferPointer(rebasing: rays[start..<end]), into: hits)
                for k in start..<end { (out + k).initialize(to: Answer.make(hits[k - start], of: rays[k], tester: self)) }
                start = end
            }
            return
        }
        let local = scratch.rays
        // The rays and answer slots of the first run, asked for ahead like every later run's.
        prefetchRun(0..<Swift.min(HitTester.gatherBlock, count), of: records, sorted: sorted, out: out)
        var start = 0
        while start < count {
            let end = Swift.min(start + HitTester.gatherBlock, count)
            for k in start..<end { (local + (k - start)).initialize(to: records[Int(UInt32(truncatingIfNeeded: sorted[k]))].ray) }
            // The next run's rays and answer slots lie anywhere in the block's memory: asked for
            // now, they arrive while this run is walked instead of stalling its gather and scatter.
            prefetchRun(end..<Swift.min(end + HitTester.gatherBlock, count), of: records, sorted: sorted, out: out)
            traversal.firstHits(UnsafeBufferPointer(start: local, count: end - start), into: hits)
            for k in start..<end {
                let answer = Answer.make(hits[k - start], of: local[k - start], tester: self)
                (out + Int(UInt32(truncatingIfNeeded: sorted[k]))).initialize(to: answer)
            }
            start = end
        }
    }

    /// Starts loading the copies of the rays `sorted[run]` name (a cache line each) and their
    /// answer slots (a hint only: nothing is read or written, and an address not yet mapped is
    /// skipped).
    @inline(__always)
    func prefetchRun<Answer>(
        _ run: Range<Int>, of records: UnsafeMutablePointer<TriangleBVH.RayRecord>, sorted: UnsafeMutablePointer<UInt64>,
        out: UnsafeMutablePointer<Answer>
    ) {
        for k in run {
            let i = Int(UInt32(truncatingIfNeeded: sorted[k]))
            shims_prefetch(UnsafeRawPointer(records + i))
            shims_prefetch(UnsafeRawPointer(out + i))
        }
    }

    /// `body` on every query, taken in `order` (a permutation of the indices) when given; results
    /// in the queries' order.
    static func parallelMap<Query, Answer>(_ queries: [Query], order: [Int32]?, _ body: (Query) -> Answer?) -> [Answer?] {
        let count = queries.count
        guard count > 0 else { return [] }
        return [Answer?](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            let out = SharedMutableBuffer(base: base)
            queries.withUnsafeBufferPointer { input in
                // Each chunk initializes only its own slots, and all finish before this returns.
                parallelChunks(count, minimumChunk: chunkSize) { range in
                    if let order {
                        order.withUnsafeBufferPointer { order in
                            for k in range {
                                let i = Int(order[k])
                                (out.base + i).initialize(to: body(input[i]))
                            }
                        }
                    } else {
                        for i in range { (out.base + i).initialize(to: body(input[i])) }
                    }
                }
            }
            initialized = count
        }
    }
}
