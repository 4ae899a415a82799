import CSwiftRuntimeShims
import Dispatch
import SurfaceKit

public extension HitTester {
    /// ``hitTest(_:)-(SIMD2<Double>)`` for many screen points, in chunks on all cores; results in
    /// the order of the points.
    func hitTest(_ points: [SIMD2<Double>]) -> [ScreenHit?] {
        HitTester.parallelMap(points, order: nil) { hitTest($0) }
    }

    /// ``intersect(_:)-(Ray)`` for many rays, on all cores; results in the order of the rays. A
    /// large batch is answered in an order where neighbouring rays take nearly the same path
    /// through the BVH (see `TriangleBVH.coherentOrder`), which keeps its nodes and triangles in
    /// cache; every answer is the one a single query gives, on any number of threads.
    func intersect(_ rays: [Ray]) -> [RayHit?] {
        answerRays(rays)
    }

    /// ``firstHit(_:)`` for many rays, on all cores, in the coherent order of
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
    /// Rays a block answers at most (2²⁰): a batch is cut into blocks of at most this many, sorted
    /// and answered one after another, each on all cores. The coherent order pays more the more
    /// rays a block holds: on random rays over the W2 ripple (Docs/performance.md) one block of
    /// 1,000,000 walks in 0.31 s on one core, blocks of 131,072 in 0.40 s, of 16,384 in 0.85 s,
    /// as neighbours in a sparser block share less of their path. Past a million rays the order
    /// gains little more, while its scratch (80 bytes a ray) keeps growing.
    static let rayBlock = 1 << 20
    /// Sorted rays a thread takes at a time (``parallelChunks(_:minimumChunk:_:)`` makes up to four
    /// runs a thread of at least this many): each run is a patch of the screen whose nodes and
    /// triangles stay in its core's cache, and four a thread even out patches that take longer.
    static let walkChunk = 4096

    /// How many blocks of at most ``rayBlock`` rays a batch of `count` rays is cut into, all of
    /// nearly the same size. The cut decides only the speed, never an answer.
    static func blockCount(_ count: Int) -> Int {
        Swift.max(1, (count + rayBlock - 1) / rayBlock)
    }

    /// `Answer.make(firstHit(ray), ray)` for every ray, written to the ray's slot of the result.
    ///
    /// The rays are cut into blocks (``blockCount(_:)``) answered one after another, each on all
    /// cores: its coherent order (`TriangleBVH.coherentOrder`) is made in parts, one a thread,
    /// and the sorted block is then walked in runs that the threads take in turn. No step over
    /// the rays runs on one thread, and as every thread walks a run of the one sorted block, the
    /// walks gain as much from the order on any number of threads as on one. All threads share
    /// one scratch; each writes its own parts of it and its own answers.
    func answerRays<Answer: BatchAnswer>(_ rays: [Ray]) -> [Answer] {
        let count = rays.count
        guard count > 0 else { return [] }
        let blocks = HitTester.blockCount(count)
        let largest = (count + blocks - 1) / blocks
        let parts = TriangleBVH.orderParts(largest, threads: ParallelLimit.threads)
        return rays.withUnsafeBufferPointer { input in
            [Answer](unsafeUninitializedCapacity: count) { buffer, initialized in
                guard let base = buffer.baseAddress else { return }
                adviseHugePages(UnsafeMutableRawBufferPointer(buffer))
                RayBlockScratch.with(rays: largest, parts: parts) { scratch in
                    for b in 0..<blocks {
                        let range = PartRanges.range(b, of: blocks, count: count)
                        // Each block initializes only its own slots, and all finish before this returns.
                        answerBlock(
                            UnsafeBufferPointer(rebasing: input[range]), into: base + range.lowerBound, parts: parts,
                            scratch: scratch)
                    }
                }
                initialized = count
            }
        }
    }

    /// Answers one block of rays into `out[0..<rays.count]` on all cores, in the coherent order
    /// when the block is large enough, sorted in `parts` parts.
    func answerBlock<Answer: BatchAnswer>(
        _ rays: UnsafeBufferPointer<Ray>, into out: UnsafeMutablePointer<Answer>, parts: Int, scratch: RayBlockScratch
    ) {
        let count = rays.count
        let answers = SharedMutableBuffer(base: out)
        // The answers' pages are touched by the part that sorts their rays (see `touchPages`).
        let sorted = bvh.coherentOrder(rays, parts: parts, scratch: scratch) { HitTester.touchPages(of: answers.base, $0) }
        guard let sorted else {
            // Each chunk initializes only its own slots.
            parallelChunks(count, minimumChunk: HitTester.chunkSize) { range in
                withRunScratch { hits, _, traversal in
                    var start = range.lowerBound
                    while start < range.upperBound {
                        let end = Swift.min(start + HitTester.gatherBlock, range.upperBound)
                        traversal.firstHits(UnsafeBufferPointer(rebasing: rays[start..<end]), into: hits)
                        for k in start..<end {
                            (answers.base + k).initialize(to: Answer.make(hits[k - start], of: rays[k], tester: self))
                        }
                        start = end
                    }
                }
            }
            return
        }
        let order = SharedMutableBuffer(base: sorted)
        // Every ray's slot is named once in the sorted keys, and each run writes the slots of its
        // own keys.
        parallelChunks(count, minimumChunk: HitTester.walkChunk) { run in
            withRunScratch { hits, local, traversal in
                answerSorted(
                    run, of: order.base, records: scratch.records, into: answers.base, traversal: traversal, hits: hits,
                    local: local)
            }
        }
    }

    /// The rays `records[sorted[k] & 0xFFFF_FFFF]` for k in `run`, answered into their slots of
    /// `out`: a run of rays is gathered, walked several at a time (`TriangleBVH.Traversal.firstHits`),
    /// and its answers scattered, each in a short loop whose cache misses overlap.
    @inline(__always)
    func answerSorted<Answer: BatchAnswer>(
        _ run: Range<Int>, of sorted: UnsafeMutablePointer<UInt64>, records: UnsafeMutablePointer<TriangleBVH.RayRecord>,
        into out: UnsafeMutablePointer<Answer>, traversal: TriangleBVH.Traversal, hits: UnsafeMutablePointer<TriangleHit>,
        local: UnsafeMutablePointer<Ray>
    ) {
        // The rays and answer slots of the first run, asked for ahead like every later run's.
        let first = run.lowerBound..<Swift.min(run.lowerBound + HitTester.gatherBlock, run.upperBound)
        prefetchRun(first, of: records, sorted: sorted, out: out)
        var start = run.lowerBound
        while start < run.upperBound {
            let end = Swift.min(start + HitTester.gatherBlock, run.upperBound)
            for k in start..<end { (local + (k - start)).initialize(to: records[Int(UInt32(truncatingIfNeeded: sorted[k]))].ray) }
            // The next run's rays and answer slots lie anywhere in the block's memory: asked for
            // now, they arrive while this run is walked instead of stalling its gather and scatter.
            prefetchRun(end..<Swift.min(end + HitTester.gatherBlock, run.upperBound), of: records, sorted: sorted, out: out)
            traversal.firstHits(UnsafeBufferPointer(start: local, count: end - start), into: hits)
            for k in start..<end {
                let answer = Answer.make(hits[k - start], of: local[k - start], tester: self)
                (out + Int(UInt32(truncatingIfNeeded: sorted[k]))).initialize(to: answer)
            }
            start = end
        }
    }

    /// `body` with one thread's memory for walking runs: room for a run's hits and gathered rays
    /// (``gatherBlock`` of each, 28 KB) and a traversal of the hierarchy.
    @inline(__always)
    func withRunScratch(
        _ body: (UnsafeMutablePointer<TriangleHit>, UnsafeMutablePointer<Ray>, TriangleBVH.Traversal) -> Void
    ) {
        withUnsafeTemporaryAllocation(of: TriangleHit.self, capacity: HitTester.gatherBlock) { hits in
            withUnsafeTemporaryAllocation(of: Ray.self, capacity: HitTester.gatherBlock) { local in
                guard let hits = hits.baseAddress, let local = local.baseAddress else { return }
                bvh.withTraversal { body(hits, local, $0) }
            }
        }
    }

    /// Page size the answers are touched at: the smallest page of the systems this runs on.
    static let touchedPage = 4096

    /// Writes a zero byte at the start of every page that starts inside the answer slots `range`
    /// of `out`, before any answer is written. A fresh batch's answers are pages the kernel has
    /// not mapped yet; the walks write them in the coherent order, so without this every thread
    /// would fault pages anywhere in the array, several at once on one page, each fault stopping
    /// the prefetch of its slot. Touched here, each part faults the pages of its own range in
    /// order. The byte lies in a slot not yet initialized, which its answer then overwrites
    /// (answers are initialized, never read, before that); a page starting inside two parts'
    /// ranges cannot be, so no byte is written twice.
    @inline(__always)
    static func touchPages<Answer>(of out: UnsafeMutablePointer<Answer>, _ range: Range<Int>) {
        let start = UInt(bitPattern: out + range.lowerBound), end = UInt(bitPattern: out + range.upperBound)
        let page = UInt(touchedPage)
        var at = (start + page - 1) & ~(page - 1)
        while at < end {
            UnsafeMutableRawPointer(bitPattern: at)?.storeBytes(of: 0, as: UInt8.self)
            at += page
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
