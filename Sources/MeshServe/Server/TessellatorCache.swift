import MeshTessellate
import SurfaceKit
import Synchronization

/// The refined topology of recent meshes, so that moving vertices (a drag, an animation) costs one
/// evaluation of the cached plan instead of a rebuild.
///
/// Keyed by everything a ``Tessellator`` depends on: the vertex count, every face's indices, the
/// steps and the diagonal policy (weights and positions are read at each evaluation). Two meshes
/// with equal keys have the same topology, so sharing the tessellator gives exactly the result a
/// fresh one gives.
final class TessellatorCache: Sendable {
    struct Key: Hashable, Sendable {
        var vertexCount: Int
        var faces: [SIMD4<Int>]
        var steps: Int
        var diagonal: DiagonalPolicy
    }

    /// A few topologies: the current mesh, the animation's second mesh, and an example or two.
    static let capacity = 4

    private let entries = Mutex<[(key: Key, tessellator: Tessellator)]>([])

    /// The number of tessellators built (a miss) since the cache was made; for tests and stats.
    let builds = Atomic<Int>(0)

    /// The tessellator for `mesh` at fixed `steps`, built on a miss. The budget is checked on
    /// every call (it is cheap), so a smaller `maximumTriangles` than the cached entry's is honoured.
    func tessellator(for mesh: MeshTransform, steps: Int, options: TessellationOptions) throws -> Tessellator {
        var fixed = options
        fixed.steps = .fixed(steps)
        let key = Key(vertexCount: mesh.vertices.count, faces: mesh.faces.map(\.indices), steps: steps, diagonal: options.diagonal)
        if let hit = entries.withLock({ list -> Tessellator? in
            guard let index = list.firstIndex(where: { $0.key == key }) else { return nil }
            let entry = list.remove(at: index)
            list.insert(entry, at: 0)
            return entry.tessellator
        }) {
            let count = hit.plan.quadCount * options.diagonal.trianglesPerQuad
            guard count <= options.maximumTriangles else {
                throw MeshError(
                    .limitExceeded, path: "subdivisionSteps",
                    "\(steps) steps on \(mesh.faces.count) faces would make \(count) triangles, over the budget of \(options.maximumTriangles)"
                )
            }
            return hit
        }
        let built = try Tessellator(mesh: mesh, options: fixed)
        builds.add(1, ordering: .relaxed)
        entries.withLock { list in
            list.removeAll { $0.key == key }
            list.insert((key, built), at: 0)
            if list.count > TessellatorCache.capacity { list.removeLast(list.count - TessellatorCache.capacity) }
        }
        return built
    }
}
