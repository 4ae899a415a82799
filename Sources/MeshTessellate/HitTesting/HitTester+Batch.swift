import Dispatch
import SurfaceKit

public extension HitTester {
    /// ``hitTest(_:)-(SIMD2<Double>)`` for many screen points, in chunks on all cores; results in
    /// the order of the points.
    func hitTest(_ points: [SIMD2<Double>]) -> [ScreenHit?] {
        HitTester.parallelMap(points) { hitTest($0) }
    }

    /// ``intersect(_:)-(Ray)`` for many rays, in chunks on all cores; results in the order of the rays.
    func intersect(_ rays: [Ray]) -> [RayHit?] {
        HitTester.parallelMap(rays) { intersect($0) }
    }
}

extension HitTester {
    /// Queries per chunk; enough to pay for a thread hand-off, few enough to balance two cores.
    static let chunkSize = 4096

    static func parallelMap<Query, Answer>(_ queries: [Query], _ body: (Query) -> Answer?) -> [Answer?] {
        let count = queries.count
        var results = [Answer?](repeating: nil, count: count)
        let chunks = (count + chunkSize - 1) / chunkSize
        guard chunks > 1 else {
            for i in 0..<count { results[i] = body(queries[i]) }
            return results
        }
        results.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let out = SharedMutableBuffer(base: base)
            queries.withUnsafeBufferPointer { input in
                // Each chunk writes only its own slots, and all finish before this returns.
                parallelChunks(count, minimumChunk: chunkSize) { range in
                    for i in range { out.base[i] = body(input[i]) }
                }
            }
        }
        return results
    }
}
