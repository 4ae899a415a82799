import Hummingbird
import MeshTessellate
import SurfaceKit

/// Updating a binary answer in place after an edit, and the delta form that sends only the
/// changed bytes.
///
/// Delta (`"since"` names the answer the client holds, and it is the server's last one): a
/// little-endian header of three UInt32 (vertex count, triangle count, span count), then per span
/// its byte offset and byte length in the full answer (two UInt32) and its bytes. Writing each
/// span's bytes at its offset into the answer the client holds gives the full answer of this edit.
extension MeshEncoding {
    /// Spans closer than this many bytes are sent as one (a span costs 8 bytes of header).
    static let spanGap = 16

    /// Rewrites, in `buffer` (the binary answer of the mesh before the edit), the vertices and
    /// triangles `edit` names, from `mesh`, making the same finite check as ``binary(_:)``. With
    /// `order` (a draw order, after `previousOrder`), the answer lists `mesh`'s triangles in that
    /// order, and every place whose triangle changed, or moved in the order, is rewritten.
    /// Returns the byte ranges that changed, ascending and merged; `nil`, changing nothing, when
    /// `buffer` is not the size of `mesh`'s answer or the orders are not of its triangles.
    static func patch(
        _ buffer: inout ByteBuffer, mesh: TriangleMesh, edit: TessellationEdit, order: [Int32]? = nil, previousOrder: [Int32]? = nil
    ) throws -> [Range<Int>]? {
        let vertexCount = mesh.vertexCount, triangleCount = mesh.triangleCount
        let size = 8 + vertexCount * 8 * 4 + triangleCount * 12
        guard buffer.readableBytes == size else { return nil }
        if order != nil || previousOrder != nil {
            guard order?.count == triangleCount, previousOrder?.count == triangleCount else { return nil }
        }
        var fits = true
        var spans: [Range<Int>] = []
        buffer.withUnsafeMutableReadableBytes { raw in
            guard let base = raw.baseAddress else { return }
            let triangles = 8 + 32 * vertexCount
            fits = writeVertices(edit.vertices, of: mesh, into: base, spans: &spans)
            /// Writes triangle t at place k; true when its bytes changed.
            func write(_ t: Int, at k: Int) -> Bool {
                let value = mesh.triangles[t]
                let at = base + triangles + 12 * k
                let new = (
                    UInt32(bitPattern: value.x).littleEndian, UInt32(bitPattern: value.y).littleEndian,
                    UInt32(bitPattern: value.z).littleEndian
                )
                let old = (
                    at.loadUnaligned(as: UInt32.self), at.loadUnaligned(fromByteOffset: 4, as: UInt32.self),
                    at.loadUnaligned(fromByteOffset: 8, as: UInt32.self)
                )
                guard new != old else { return false }
                at.storeBytes(of: new.0, as: UInt32.self)
                at.storeBytes(of: new.1, toByteOffset: 4, as: UInt32.self)
                at.storeBytes(of: new.2, toByteOffset: 8, as: UInt32.self)
                return true
            }
            var rewritten: [Int] = []
            if let order, let previousOrder {
                var isChanged = [Bool](repeating: false, count: triangleCount)
                for t in edit.triangles { isChanged[t] = true }
                for k in 0..<triangleCount where order[k] != previousOrder[k] || isChanged[Int(order[k])] {
                    if write(Int(order[k]), at: k) { rewritten.append(k) }
                }
            } else {
                // In place: only a triangle whose corners changed (a flipped diagonal) changes bytes.
                for t in edit.triangles where write(t, at: t) { rewritten.append(t) }
            }
            for run in runs(rewritten) { spans.append((triangles + 12 * run.lowerBound)..<(triangles + 12 * run.upperBound)) }
        }
        guard fits else {
            try mesh.checkFinite(asFloat32: true)
            throw MeshError(.invalidValue, path: "", "a value is not a finite number as a 32-bit float; nothing was written")
        }
        return merged(spans)
    }

    /// The byte ranges (whole 32-bit words, merged as ``merged(_:)``) where `new` differs from
    /// `old`; `nil` when their sizes or counts differ (a delta applies to an answer of the same
    /// counts only).
    static func differences(_ old: ByteBuffer, _ new: ByteBuffer) -> [Range<Int>]? {
        guard old.readableBytes == new.readableBytes, old.readableBytes % 4 == 0, old.readableBytes >= 8 else { return nil }
        var spans: [Range<Int>] = []
        let same = old.withUnsafeReadableBytes { a in
            new.withUnsafeReadableBytes { b -> Bool in
                guard a.count == b.count, a.count >= 8, a.loadUnaligned(as: UInt64.self) == b.loadUnaligned(as: UInt64.self) else {
                    return false
                }
                var k = 8
                while k < a.count {
                    if a.loadUnaligned(fromByteOffset: k, as: UInt32.self) == b.loadUnaligned(fromByteOffset: k, as: UInt32.self) {
                        k += 4
                        continue
                    }
                    let start = k
                    while k < a.count,
                        a.loadUnaligned(fromByteOffset: k, as: UInt32.self) != b.loadUnaligned(fromByteOffset: k, as: UInt32.self)
                    { k += 4 }
                    if let last = spans.last, start <= last.upperBound + spanGap {
                        spans[spans.count - 1] = last.lowerBound..<k
                    } else {
                        spans.append(start..<k)
                    }
                }
                return true
            }
        }
        return same ? spans : nil
    }

    /// Writes the vertices `vertices` (ascending indices) of `mesh` into the binary answer at
    /// `base` (position, normal and layer point, as 32-bit floats) and appends the byte ranges
    /// written to `spans`; false when a value is not finite as a 32-bit float (everything is
    /// still written, so the caller throws before the answer is used).
    static func writeVertices(
        _ vertices: [Int], of mesh: TriangleMesh, into base: UnsafeMutableRawPointer, spans: inout [Range<Int>]
    ) -> Bool {
        let vertexCount = mesh.vertexCount
        let positions = 8, normals = 8 + 12 * vertexCount, from = 8 + 24 * vertexCount
        var fits = true
        for run in runs(vertices) {
            var out = base + positions + 12 * run.lowerBound
            fits = narrow(mesh.positions[run], lanes: 3, to: &out) && fits
            out = base + normals + 12 * run.lowerBound
            fits = narrow(mesh.normals[run], lanes: 3, to: &out) && fits
            out = base + from + 8 * run.lowerBound
            fits = narrow(mesh.from[run], lanes: 2, to: &out) && fits
            spans.append((positions + 12 * run.lowerBound)..<(positions + 12 * run.upperBound))
            spans.append((normals + 12 * run.lowerBound)..<(normals + 12 * run.upperBound))
            spans.append((from + 8 * run.lowerBound)..<(from + 8 * run.upperBound))
        }
        return fits
    }

    /// Ascending indices as runs of consecutive ones.
    static func runs(_ indices: [Int]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for i in indices {
            if let last = result.last, last.upperBound == i {
                result[result.count - 1] = last.lowerBound..<(i + 1)
            } else {
                result.append(i..<(i + 1))
            }
        }
        return result
    }

    /// Sorted, with spans less than ``spanGap`` bytes apart joined.
    static func merged(_ spans: [Range<Int>]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, span.lowerBound <= last.upperBound + spanGap {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, span.upperBound)
            } else {
                result.append(span)
            }
        }
        return result
    }

    /// The delta answer: the header, then each span of `answer` with its offset and length.
    static func delta(_ answer: ByteBuffer, spans: [Range<Int>]) -> ByteBuffer {
        let payload = spans.reduce(0) { $0 + 8 + $1.count }
        var out = ByteBufferAllocator().buffer(capacity: 12 + payload)
        let counts = answer.getBytes(at: answer.readerIndex, length: 8) ?? []
        out.writeBytes(counts)
        out.writeInteger(UInt32(spans.count), endianness: .little)
        for span in spans {
            out.writeInteger(UInt32(span.lowerBound), endianness: .little)
            out.writeInteger(UInt32(span.count), endianness: .little)
            if let bytes = answer.getSlice(at: answer.readerIndex + span.lowerBound, length: span.count) {
                var slice = bytes
                out.writeBuffer(&slice)
            }
        }
        return out
    }
}
