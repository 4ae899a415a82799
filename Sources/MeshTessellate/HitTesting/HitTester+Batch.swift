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
    /// path through the BVH (see ``TriangleBVH/coherentOrder(_:)``), which keeps its nodes and
    /// triangles in cache; every answer is the one a single query gives.
    func intersect(_ rays: [Ray]) -> [RayHit?] {
        let order = rays.withUnsafeBufferPointer { bvh.coherentOrder($0) }
        return HitTester.parallelMap(rays, order: order) { intersect($0) }
    }
}

extension HitTester {
    /// Queries per chunk; enough to pay for a thread hand-off, few enough to balance two cores.
    static let chunkSize = 4096

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
