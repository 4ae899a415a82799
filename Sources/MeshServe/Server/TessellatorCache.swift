import MeshTessellate
import SurfaceKit
import Synchronization

/// The refined topology of recent meshes, so that moving vertices (a drag, an animation) costs one
/// evaluation of the cached plan instead of a rebuild.
///
/// Entries are found by what can be compared without reading the faces: the vertex and face
/// counts, the steps and the diagonal policy (weights and positions are read at each evaluation).
/// The faces themselves are compared once, by the ``Tessellator``: it checks them corner by corner
/// before it evaluates anything and throws `.incompatible` when they differ, so a cached entry
/// whose counts match but whose faces do not costs that comparison and nothing else, and the next
/// candidate (or a fresh build) is tried. Two meshes a tessellator accepts have the same topology,
/// so sharing it gives exactly the result a fresh one gives.
final class TessellatorCache: Sendable {
    /// What a cached tessellator must match before its faces are compared.
    struct Shape: Equatable, Sendable {
        var vertexCount: Int
        var faceCount: Int
        var steps: Int
        var diagonal: DiagonalPolicy
    }

    struct Entry: Sendable {
        var shape: Shape
        var tessellator: Tessellator
        /// Tells entries apart (a `Tessellator` is a value); unique per build.
        var serial: Int
        /// The last tessellation of this topology and its answer, which the next edit updates.
        var edits: EditSlot
    }

    /// A few topologies: the current mesh, the animation's second mesh, and an example or two.
    static let capacity = 4

    private let entries = Mutex<[Entry]>([])

    /// The number of tessellators built (a miss) since the cache was made; for tests and stats.
    let builds = Atomic<Int>(0)

    /// Runs `body` with the tessellator of `mesh` at fixed `steps`, built on a miss. `body` must
    /// begin with the tessellator's own face check (``Tessellator/tessellate(_:geometry:space:)``
    /// and ``HitTester/init(tessellator:mesh:geometry:precision:)`` do): its `.incompatible`
    /// error is what tells a cached entry of another topology apart. The budget is checked on
    /// every call, with the tessellator's own message, so a smaller `maximumTriangles` than the
    /// cached entry's is honoured.
    func using<Result>(
        _ mesh: MeshTransform, steps: Int, options: TessellationOptions, _ body: (Tessellator) throws -> Result
    ) throws -> Result {
        try using(mesh, steps: steps, options: options) { tessellator, _ in try body(tessellator) }
    }

    /// ``using(_:steps:options:_:)``, giving `body` the entry's ``EditSlot`` too.
    func using<Result>(
        _ mesh: MeshTransform, steps: Int, options: TessellationOptions, _ body: (Tessellator, EditSlot) throws -> Result
    ) throws -> Result {
        let shape = Shape(vertexCount: mesh.vertices.count, faceCount: mesh.faces.count, steps: steps, diagonal: options.diagonal)
        let candidates = entries.withLock { list in list.filter { $0.shape == shape } }
        for candidate in candidates {
            try candidate.tessellator.checkBudget(options)
            let result: Result
            do {
                result = try body(candidate.tessellator, candidate.edits)
            } catch let error as MeshError where error.kind == .incompatible {
                continue
            }
            promote(candidate.serial)
            return result
        }
        var fixed = options
        fixed.steps = .fixed(steps)
        let built = try Tessellator(mesh: mesh, options: fixed)
        let serial = builds.add(1, ordering: .relaxed).newValue
        let slot = EditSlot(serial: serial)
        entries.withLock { list in
            list.insert(Entry(shape: shape, tessellator: built, serial: serial, edits: slot), at: 0)
            if list.count > TessellatorCache.capacity { list.removeLast(list.count - TessellatorCache.capacity) }
        }
        return try body(built, slot)
    }

    /// Moves an entry to the front (most recently used); gone already (evicted by another
    /// request meanwhile) is fine.
    private func promote(_ serial: Int) {
        entries.withLock { list in
            guard let index = list.firstIndex(where: { $0.serial == serial }), index > 0 else { return }
            list.insert(list.remove(at: index), at: 0)
        }
    }
}
