import SurfaceKit

@testable import MeshTessellate

extension OverlapCandidates {
    /// `candidateList` as one flag per triangle, for tests that look triangles up by index: false
    /// when the triangle provably overlaps no other on screen; nil when the list gives up. `signs`
    /// are the screen-area signs (0 for triangles that cover no area, which are never candidates).
    static func candidates(screen: [Point3D], triangles: [SIMD3<Int32>], signs: [Double], scale: Double) -> [Bool]? {
        let small = signs.map { Int8($0 > 0 ? 1 : ($0 < 0 ? -1 : 0)) }
        let list = screen.withUnsafeBufferPointer { s in
            triangles.withUnsafeBufferPointer { t in
                small.withUnsafeBufferPointer { g in candidateList(screen: s, triangles: t, signs: g, scale: scale) }
            }
        }
        guard let list else { return nil }
        var result = [Bool](repeating: false, count: triangles.count)
        for t in list { result[Int(t)] = true }
        return result
    }
}
