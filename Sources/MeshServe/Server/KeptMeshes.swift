import SurfaceKit
import Synchronization

/// The last meshes `/api/tessellate` read, each under the tag its answer carried (`Mesh-Tag`), so
/// that the next request may send only its changes against one of them (``MeshEdits``).
///
/// A tag names one document for good: an edit makes a new document under a new tag, and the
/// oldest are forgotten. A request naming a tag no longer (or never) kept is refused with 409, and
/// the client sends the whole mesh instead.
///
/// Two limits bound what is kept: at most ``capacity`` meshes, and at most ``byteBudget`` bytes of
/// vertex and face storage among them, the newest mesh always kept. An edit writes a new vertex
/// array (a weight edit a new face array too), so the kept meshes' bytes mostly add up; where two
/// share a face array the count is high, which errs on the safe side.
final class KeptMeshes: Sendable {
    /// A few meshes: the current one of a page or two, and the one an edit in flight started from.
    static let capacity = 8
    /// 64 MiB: eight meshes of the live view's size (a 50 × 50 grid is about 0.2 MB) fit many
    /// times over, while meshes read from bodies near the 16 MiB limit (15 to 25 MB of vertices
    /// and faces each) are kept two to four at a time instead of eight.
    static let byteBudget = 64 << 20

    private let meshes = Mutex<(next: Int, list: [(tag: String, document: MeshDocument)])>((1, []))
    /// Tells this server's tags from those of another run (a page left open over a restart).
    let instance: UInt64
    let budget: Int

    init(instance: UInt64, budget: Int = KeptMeshes.byteBudget) {
        self.instance = instance
        self.budget = budget
    }

    /// The bytes a kept document holds: its vertex and face arrays (the layer is a few hundred).
    static func bytes(_ document: MeshDocument) -> Int {
        document.mesh.vertices.count * MemoryLayout<MeshVertex>.stride + document.mesh.faces.count * MemoryLayout<MeshFace>.stride
    }

    /// Keeps `document` and returns its new tag, forgetting the oldest meshes past either limit.
    func keep(_ document: MeshDocument) -> String {
        meshes.withLock { state in
            let tag = "m\(String(instance, radix: 36))-\(state.next)"
            state.next += 1
            state.list.insert((tag, document), at: 0)
            var kept = 1
            var bytes = KeptMeshes.bytes(document)
            while kept < min(state.list.count, KeptMeshes.capacity) {
                bytes += KeptMeshes.bytes(state.list[kept].document)
                if bytes > budget { break }
                kept += 1
            }
            state.list.removeLast(state.list.count - kept)
            return tag
        }
    }

    /// The document kept under `tag`, or a 409 naming it.
    func document(_ tag: String) throws(APIError) -> MeshDocument {
        guard let document = meshes.withLock({ state in state.list.first(where: { $0.tag == tag })?.document }) else {
            throw APIError(
                .conflict, path: "base",
                "no mesh is kept under '\(tag)' (the server keeps the last \(KeptMeshes.capacity) it read, fewer when they are large): send the whole mesh as 'mesh'"
            )
        }
        return document
    }
}
