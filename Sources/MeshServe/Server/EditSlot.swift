import Hummingbird
import MeshTessellate
import Synchronization

/// The last tessellation of one cached topology and the binary answer made from it, so that the
/// next edit of the same mesh re-evaluates and re-encodes only what its moved vertices reach.
///
/// One request at a time updates a slot; a request that finds it busy computes its answer in full
/// without touching it (the same answer, more slowly), so concurrent requests never wait on it.
final class EditSlot: Sendable {
    struct State: Sendable {
        var kept: KeptTessellation?
        /// With the depth sort: the kept draw order of `kept.mesh`.
        var depth: KeptDepthOrder?
        /// With the exact sort in points space: the kept draw order of `kept.mesh`, when it needs
        /// no split piece.
        var exact: KeptExactOrder?
        /// With the exact sort: whether the last one split pieces (or clipped), so that the next
        /// edit sorts in full rather than first trying for an order of whole triangles.
        var exactSplits = false
        /// The sort `answer` was made with.
        var sort: PainterSorter.Mode = .none
        /// The binary answer of `kept.mesh`, and the tag the client names to ask for changes since.
        var answer: ByteBuffer?
        /// The space `answer` was written in.
        var space: CoordinateSpace?
        /// With a sort that makes its answer afresh (exact, points space): what of the sorted mesh
        /// `answer` encodes the next answer is compared with, to write only what changed.
        var sorted: SortedAnswer?
        var tag: String?
        var version = 0
    }

    let serial: Int
    let state = Mutex(State())

    init(serial: Int) {
        self.serial = serial
    }
}
