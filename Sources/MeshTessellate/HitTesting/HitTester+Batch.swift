import Dispatch
import SurfaceKit

public extension HitTester {
    /// ``hitTest(_:)-(SIMD2<Double>)`` for many screen points, in chunks on all cores; results in
    /// the order of the points.
    func hitTest(_ points: [SIMD2<Double>]) -> [ScreenHit?] {
        HitTester.parallelMap(points, order: nil) { hitTest($0) }
    }

    /// ``intersect(_:)-(Ray)`` for many rays, in chunks on all cores; results in the order of the
    /// rays. A large batch is answered in an order where neighbouring rays take nearly the same
    /// path through the BVH (see `TriangleBVH.coherentOrder(_:)`), which keeps its nodes and
    /// triangles in cache; every answer is the one a single query gives.
    func intersect(_ rays: [Ray]) -> [RayHit?] {
        answerRays(rays)
    }

    /// ``firstHit(_:)`` for many rays, in chunks on all cores, in the coherent order of
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
    /// Rays taken at a time in a coherent batch (20 KB of them).
    static let gatherBlock = 256

    /// `Answer.make(firstHit(ray), ray)` for every ray, in chunks on all cores, written to the
    /// ray's slot of the result. A large batch is taken in the coherent order: the rays then come
    /// from all over their array and the answers go all over theirs, a cache miss each, which a
    /// walk in between would wait for one by one. So a block of rays is gathered first, walked,
    /// and its answers scattered, each in a short loop whose misses overlap.
    func answerRays<Answer: BatchAnswer>(_ rays: [Ray]) -> [Answer] {
        let count = rays.count
        guard count > 0 else { return [] }
        return rays.withUnsafeBufferPointer { input in
            let order = bvh.coherentOrder(input)
            return [Answer](unsafeUninitializedCapacity: count) { buffer, initialized in
                guard let base = buffer.baseAddress else { return }
                adviseHugePages(UnsafeMutableRawBufferPointer(buffer))
                let out = SharedMutableBuffer(base: base)
                // Each chunk initializes only its own slots, and all finish before this returns.
                parallelChunks(count, minimumChunk: HitTester.chunkSize) { range in
                    bvh.withTraversal { traversal in
                        guard let order else {
                            for i in range {
                                let ray = input[i]
                                let hit = traversal.firstHit(origin: ray.origin, direction: ray.direction, tmin: ray.tmin, tmax: ray.tmax)
                                (out.base + i).initialize(to: Answer.make(hit, of: ray, tester: self))
                            }
                            return
                        }
                        withUnsafeTemporaryAllocation(of: Ray.self, capacity: HitTester.gatherBlock) { block in
                            withUnsafeTemporaryAllocation(of: TriangleHit.self, capacity: HitTester.gatherBlock) { found in
                                guard let local = block.baseAddress, let hits = found.baseAddress else { return }
                                order.withUnsafeBufferPointer { order in
                                    var start = range.lowerBound
                                    while start < range.upperBound {
                                        let end = Swift.min(start + HitTester.gatherBlock, range.upperBound)
                                        for k in start..<end { (local + (k - start)).initialize(to: input[Int(order[k])]) }
                                        traversal.firstHits(UnsafeBufferPointer(start: local, count: end - start), into: hits)
                                        for k in start..<end {
                                            let answer = Answer.make(hits[k - start], of: local[k - start], tester: self)
                                            (out.base + Int(order[k])).initialize(to: answer)
                                        }
                                        start = end
                                    }
                                }
                            }
                        }
                    }
                }
                initialized = count
            }
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
