import Foundation
import Hummingbird
import MeshTessellate
import SurfaceKit

/// A binary tessellation answer, and what the client may name next time to get only its changes.
struct BinaryAnswer: Sendable {
    var bytes: ByteBuffer
    var triangleCount: Int
    /// Names this answer (the full one) for the next request's `since`; `nil` when none is kept.
    var tag: String?
    /// Whether `bytes` is the delta form (see ``MeshEncoding/delta(_:spans:)``).
    var isDelta = false
}

extension BinaryAnswer {
    /// The answer `full`, or only its `changes` (byte spans of `full`, for a client holding the
    /// previous answer) in the delta form when that takes fewer bytes than the whole answer.
    init(_ full: ByteBuffer, triangleCount: Int, tag: String, changes: [Range<Int>]?) {
        self.init(bytes: full, triangleCount: triangleCount, tag: tag)
        guard let changes else { return }
        let delta = MeshEncoding.delta(full, spans: changes)
        if delta.readableBytes < full.readableBytes {
            bytes = delta
            isDelta = true
        }
    }
}

extension MeshService {
    /// The most triangles whose tessellation and answer a slot keeps: about 125 bytes a triangle
    /// (the evaluation, the mesh, the depth order and the answer), and about 80 more with a kept
    /// exact order (its places, screen boxes and their grid), so at most about 205 MB a slot and
    /// 820 MB for the four; an edit of a larger mesh is computed in full each time.
    static let largestKeptTriangles = 1_000_000

    /// The binary answer of ``tessellate(_:options:space:sort:)`` for `document`. With fixed steps
    /// the last tessellation of the topology is kept (``KeptTessellation``), so that an edit
    /// re-evaluates only the patches its moved vertices reach. With no sort, or the depth sort in
    /// points space, the answer is kept too (with ``KeptDepthOrder``): an edit places again only
    /// the triangles it moves and rewrites only the changed bytes, and when `since` names the kept
    /// answer only those bytes are sent. Other sorts sort the kept tessellation in full; after the
    /// exact sort in points space only what differs from the kept sorted mesh is written into the
    /// kept answer (``MeshEncoding/patch(_:sorted:previous:changed:inputVertexCount:)``), and
    /// otherwise the changes are found by comparing the new answer with the kept one.
    /// The full answer is always the one ``MeshEncoding/binary(_:)`` writes for the full
    /// tessellation and sort (the kept one is updated to exactly those bytes).
    func binaryAnswer(
        _ document: MeshDocument, options: TessellationOptions, space: CoordinateSpace, sort: PainterSorter.Mode, since: String?,
        timing: inout ServerTiming
    ) throws -> BinaryAnswer {
        guard case .fixed(let steps) = options.steps ?? document.mesh.subdivisionSteps else {
            return try fullAnswer(document, options: options, space: space, sort: sort, timing: &timing)
        }
        try document.layer.validate()
        return try cache.using(document.mesh, steps: steps, options: options) { tessellator, slot in
            let kept: BinaryAnswer?? = try slot.state.withLockIfAvailable { state throws -> BinaryAnswer? in
                try MeshService.update(
                    &state, slot: slot, tessellator: tessellator, document: document, options: options, space: space,
                    sort: sort, since: since, instance: instance, timing: &timing)
            }
            if let kept, let answer = kept { return answer }
            // The slot is busy with another request, or the shortcut does not apply: in full.
            return try fullAnswer(document, options: options, space: space, sort: sort, timing: &timing)
        }
    }

    func fullAnswer(
        _ document: MeshDocument, options: TessellationOptions, space: CoordinateSpace, sort: PainterSorter.Mode,
        timing: inout ServerTiming
    ) throws -> BinaryAnswer {
        let mesh = try tessellate(document, options: options, space: space, sort: sort, timing: &timing)
        let bytes = try MeshEncoding.binary(mesh)
        timing.lap("encode")
        return BinaryAnswer(bytes: bytes, triangleCount: mesh.triangleCount)
    }

    /// Updates the slot's kept tessellation, order and answer for `document`; `nil` (the slot
    /// cleared) when the kept path does not apply to this tessellator or layer.
    static func update(
        _ state: inout EditSlot.State, slot: EditSlot, tessellator: Tessellator, document: MeshDocument,
        options: TessellationOptions, space: CoordinateSpace, sort: PainterSorter.Mode, since: String?, instance: UInt64,
        timing: inout ServerTiming
    ) throws -> BinaryAnswer? {
        guard tessellator.plan.quadCount * 2 <= MeshService.largestKeptTriangles else {
            state = EditSlot.State(version: state.version)
            return nil
        }
        var kept = state.kept
        var depth = state.sort == .depth ? state.depth : nil
        var exact = state.sort == .exact && state.space == .points ? state.exact : nil
        var exactSplits = state.sort == .exact && state.space == .points && state.exactSplits
        var answer = state.sort == sort && state.space == space ? state.answer : nil
        let previousSorted = state.sort == sort && state.space == space ? state.sorted : nil
        let previousTag = state.tag
        let version = state.version + 1
        // Cleared first: an error below leaves nothing half updated behind, and the arrays
        // taken out are the only references, so they are changed in place.
        state = EditSlot.State(version: version)
        // Sorting needs points space (the sorter writes `space` itself).
        let evaluated = sort == .none ? space : .points
        let edit = try tessellator.tessellate(document.mesh, geometry: document.geometry, space: evaluated, keeping: &kept)
        timing.lap("evaluate")
        guard let mesh = kept?.mesh else { return nil }
        var spans: [Range<Int>]?
        var order: [Int32]?
        if space == .points, sort == .depth || (sort == .exact && !exactSplits) {
            // The kept order, updated for the edit or made anew. Each is taken out of its optional
            // before the update, so that its arrays have one reference and change in place
            // instead of being copied whole on every edit.
            let previous: [Int32]?
            if sort == .depth {
                previous = depth?.order
                if let edit, var keptOrder = depth.take(), keptOrder.update(mesh: mesh, edit: edit, geometry: document.geometry) {
                    depth = keptOrder
                } else {
                    depth = try KeptDepthOrder(mesh: mesh, geometry: document.geometry)
                    answer = nil
                }
                order = depth?.order
            } else {
                // Only the changed triangles and the windows they move across are sorted again;
                // `nil` when the exact sort must split or clip, and the library's sort below does that.
                previous = exact?.order
                if let edit, var keptOrder = exact.take(),
                    case .success = try keptOrder.update(mesh: mesh, edit: edit, geometry: document.geometry)
                {
                    exact = keptOrder
                } else {
                    exact = try KeptExactOrder(mesh: mesh, geometry: document.geometry)
                    exactSplits = exact == nil
                }
                order = exact?.order
            }
            timing.lap("sort")
            // The held answer lists the tessellation before the edit in `previous`: every place whose
            // triangle changed or moved is rewritten, whether the order was updated or made anew.
            if let edit, var held = answer, let previous, let order {
                answer = nil
                spans = try MeshEncoding.patch(&held, mesh: mesh, edit: edit, order: order, previousOrder: previous)
                answer = held
            }
        } else if sort == .none, let edit, var held = answer {
            answer = nil
            spans = try MeshEncoding.patch(&held, mesh: mesh, edit: edit)
            answer = held
        }
        if sort != .none, order == nil {
            // The exact sort, a sort in another space, or a layer the depth order must clip: the
            // library's sort of the kept tessellation; only the tessellation is kept.
            let sorted = try PainterSorter.sorted(
                mesh: mesh, geometry: document.geometry, mode: sort, space: space, maximumTriangles: options.maximumTriangles
            ).mesh
            timing.lap("sort")
            // Nothing split or clipped: the next edit tries for a kept order of whole triangles again.
            if sort == .exact { exactSplits = sorted.triangleCount != mesh.triangleCount || sorted.vertexCount != mesh.vertexCount }
            // Taken out of `answer`, so that the patch below changes the only reference in place.
            var held = answer
            answer = nil
            var bytes: ByteBuffer?
            var changes: [Range<Int>]?
            if let edit, let previousSorted, var buffer = held {
                held = nil
                // In points space only what changed is written (see the patch's argument); `nil`
                // leaves the buffer as it was.
                if let patched = try MeshEncoding.patch(
                    &buffer, sorted: sorted, previous: previousSorted, changed: edit.vertices, inputVertexCount: mesh.vertexCount)
                {
                    bytes = buffer
                    changes = patched
                } else {
                    held = buffer
                }
            }
            if bytes == nil {
                let full = try MeshEncoding.binary(sorted)
                bytes = full
                // The changes are found by comparing the two answers.
                changes = held.flatMap { MeshEncoding.differences($0, full) }
            }
            guard let bytes else { return nil }
            let tag = "\(String(instance, radix: 36))-\(slot.serial)-\(version)"
            state = EditSlot.State(
                kept: kept, exactSplits: exactSplits, sort: sort, answer: bytes, space: space,
                sorted: space == .points ? SortedAnswer(sorted, inputVertexCount: mesh.vertexCount) : nil, tag: tag, version: version)
            let result = BinaryAnswer(
                bytes, triangleCount: sorted.triangleCount, tag: tag, changes: since != nil && since == previousTag ? changes : nil)
            timing.lap("encode")
            return result
        }
        if spans == nil { answer = try MeshEncoding.binary(order.map { mesh.reordered($0) } ?? mesh) }
        guard let full = answer else { return nil }
        let tag = "\(String(instance, radix: 36))-\(slot.serial)-\(version)"
        state = EditSlot.State(kept: kept, depth: depth, exact: exact, sort: sort, answer: full, space: space, tag: tag, version: version)
        let result = BinaryAnswer(
            full, triangleCount: mesh.triangleCount, tag: tag, changes: since != nil && since == previousTag ? spans : nil)
        timing.lap("encode")
        return result
    }
}

extension TriangleMesh {
    /// The triangles (and their faces) in `order`, the vertices as they are: the depth sort's
    /// answer when nothing is clipped.
    func reordered(_ order: [Int32]) -> TriangleMesh {
        var mesh = self
        mesh.triangles = order.map { triangles[Int($0)] }
        mesh.sourceFaces = order.map { sourceFaces[Int($0)] }
        return mesh
    }
}
