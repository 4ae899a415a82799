import SurfaceKit

@testable import MeshTessellate

/// The check of a binary answer with the exact sort. The server keeps an order of whole triangles
/// across edits and sorts again only what an edit moves, so its order may differ from the full
/// sort's where several orders are right; what must hold is that the answer is the library's
/// tessellation in a painter's order.
enum ExactAnswers {
    /// Whether `held` is `sorted`'s binary answer (the library's exact sort of `points`), or, when
    /// that sort split and clipped nothing, `points`' vertices exactly as that answer has them and
    /// `points`' triangles, each once, in an order that draws every overlapping pair back before
    /// front and has no pair that crosses in depth (by the exact sort's pair test over every pair
    /// of the answer's triangles).
    static func matches(_ held: [UInt8], points: TriangleMesh, geometry: LayerGeometry, sorted: TriangleMesh) throws -> Bool {
        let expected = LiveEditAPITests.expectedBytes(sorted)
        if held == expected { return true }
        guard sorted.triangleCount == points.triangleCount, sorted.vertexCount == points.vertexCount, held.count == expected.count
        else { return false }
        let vertexBytes = 8 + 32 * points.vertexCount
        guard held[..<vertexBytes] == expected[..<vertexBytes] else { return false }
        var triangles: [SIMD3<Int32>] = []
        for k in 0..<points.triangleCount {
            func index(_ c: Int) -> Int32 {
                let at = vertexBytes + 12 * k + 4 * c
                return Int32(bitPattern: held[at..<(at + 4)].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            }
            triangles.append(SIMD3(index(0), index(1), index(2)))
        }
        func key(_ t: SIMD3<Int32>) -> [Int32] { [t.x, t.y, t.z] }
        guard
            triangles.map(key).sorted(by: { $0.lexicographicallyPrecedes($1) })
                == points.triangles.map(key).sorted(by: { $0.lexicographicallyPrecedes($1) })
        else { return false }
        let pool = try SortPool(clipping: points, geometry: geometry)
        guard let pairs = PairOcclusion.occlusions(screen: pool.screen, triangles: triangles, limit: Int(Int32.max) / 4, screened: false)
        else { return false }
        // The triangles are in draw order, so an edge back → front must go to a later index.
        return pairs.crossingPairs == 0 && zip(pairs.back, pairs.front).allSatisfy { $0 < $1 }
    }
}
