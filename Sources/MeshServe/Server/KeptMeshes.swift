import SurfaceKit
import Synchronization

/// The last meshes `/api/tessellate` read, each under the tag its answer carried (`Mesh-Tag`), so
/// that the next request may send only its changes against one of them (``MeshEdits``).
///
/// A tag names one document for good: an edit makes a new document under a new tag, and the
/// oldest are forgotten. A request naming a tag no longer (or never) kept is refused with 409, and
/// the client sends the whole mesh instead.
final class KeptMeshes: Sendable {
    /// A few meshes: the current one of a page or two, and the one an edit in flight started from.
    static let capacity = 8

    private let meshes = Mutex<(next: Int, list: [(tag: String, document: MeshDocument)])>((1, []))
    /// Tells this server's tags from those of another run (a page left open over a restart).
    let instance: UInt64

    init(instance: UInt64) {
        self.instance = instance
    }

    /// Keeps `document` and returns its new tag.
    func keep(_ document: MeshDocument) -> String {
        meshes.withLock { state in
            let tag = "m\(String(instance, radix: 36))-\(state.next)"
            state.next += 1
            state.list.insert((tag, document), at: 0)
            if state.list.count > KeptMeshes.capacity { state.list.removeLast(state.list.count - KeptMeshes.capacity) }
            return tag
        }
    }

    /// The document kept under `tag`, or a 409 naming it.
    func document(_ tag: String) throws(APIError) -> MeshDocument {
        guard let document = meshes.withLock({ state in state.list.first(where: { $0.tag == tag })?.document }) else {
            throw APIError(
                .conflict, path: "base",
                "no mesh is kept under '\(tag)' (the server keeps the last \(KeptMeshes.capacity) it read): send the whole mesh as 'mesh'")
        }
        return document
    }
}
