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

extension MeshService {
    /// The binary answer of ``tessellate(_:options:space:sort:)`` for `document`. With fixed steps
    /// and no sort (or the depth sort in points space), the last tessellation of the topology is
    /// kept (``KeptTessellation``, ``KeptDepthOrder``), so that an edit re-evaluates only the
    /// patches its moved vertices reach, places again only the triangles they move, and rewrites
    /// only the changed bytes of the kept answer; when `since` names that kept answer, only those
    /// bytes are sent.
    /// The full answer is always the one ``MeshEncoding/binary(_:)`` writes for the full
    /// tessellation (the kept one is updated to exactly those bytes).
    func binaryAnswer(
        _ document: MeshDocument, options: TessellationOptions, space: CoordinateSpace, sort: PainterSorter.Mode, since: String?,
        timing: inout ServerTiming
    ) throws -> BinaryAnswer {
        guard sort == .none || (sort == .depth && space == .points),
            case .fixed(let steps) = options.steps ?? document.mesh.subdivisionSteps
        else {
            return try fullAnswer(document, options: options, space: space, sort: sort, timing: &timing)
        }
        try document.layer.validate()
        return try cache.using(document.mesh, steps: steps, options: options) { tessellator, slot in
            let kept: BinaryAnswer?? = try slot.state.withLockIfAvailable { state throws -> BinaryAnswer? in
                try MeshService.update(
                    &state, slot: slot, tessellator: tessellator, document: document, space: space,
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
        _ state: inout EditSlot.State, slot: EditSlot, tessellator: Tessellator, document: MeshDocument, space: CoordinateSpace,
        sort: PainterSorter.Mode, since: String?, instance: UInt64, timing: inout ServerTiming
    ) throws -> BinaryAnswer? {
        var kept = state.kept
        var depth = state.sort == .depth ? state.depth : nil
        var answer = state.sort == sort ? state.answer : nil
        let previousTag = state.tag
        // Cleared first: an error below leaves nothing half updated behind, and the arrays
        // taken out are the only references, so they are changed in place.
        state = EditSlot.State(version: state.version)
        let edit = try tessellator.tessellate(document.mesh, geometry: document.geometry, space: space, keeping: &kept)
        timing.lap("evaluate")
        guard let mesh = kept?.mesh else { return nil }
        var spans: [Range<Int>]?
        var order: [Int32]?
        if sort == .depth {
            let previous = depth?.order
            if let edit, var kept = depth, kept.update(mesh: mesh, edit: edit) {
                depth = kept
            } else {
                depth = try KeptDepthOrder(mesh: mesh, geometry: document.geometry)
                answer = nil
            }
            guard let depth else { return nil }
            order = depth.order
            if let edit, var held = answer, let previous {
                answer = nil
                spans = try MeshEncoding.patch(&held, mesh: mesh, edit: edit, order: depth.order, previousOrder: previous)
                answer = held
            }
            timing.lap("sort")
        } else if let edit, var held = answer {
            answer = nil
            spans = try MeshEncoding.patch(&held, mesh: mesh, edit: edit)
            answer = held
        }
        if spans == nil { answer = try MeshEncoding.binary(order.map { mesh.reordered($0) } ?? mesh) }
        guard let full = answer else { return nil }
        let version = state.version + 1
        let tag = "\(String(instance, radix: 36))-\(slot.serial)-\(version)"
        state = EditSlot.State(kept: kept, depth: depth, sort: sort, answer: full, tag: tag, version: version)
        var result = BinaryAnswer(bytes: full, triangleCount: mesh.triangleCount, tag: tag)
        if let spans, let since, since == previousTag {
            let delta = MeshEncoding.delta(full, spans: spans)
            // Changes that would take more bytes than the whole answer are sent as the answer.
            if delta.readableBytes < full.readableBytes {
                result.bytes = delta
                result.isDelta = true
            }
        }
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
