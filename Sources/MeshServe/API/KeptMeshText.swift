import SurfaceKit
import Synchronization

/// The last mesh a request carried, as text and as the document read from it, so that the next
/// request's mesh, which a drag changes in one vertex, is read by reading that vertex alone.
///
/// Why the result is the strict reader's: the new text is compared with the kept one byte by byte.
/// When every differing byte lies inside the values of vertices i…j of the kept text, the new text
/// is the kept one with those values replaced by new text, everything around them byte for byte the
/// same. The reader reads each array element on its own, so the new document is the kept one with
/// vertices i…j replaced by what the reader makes of the new values: those are read by the same
/// reader (as the vertices of a small mesh), checked as a whole mesh's vertices are (numbers and
/// numeric range), and must come out as exactly j − i + 1 vertices. The faces, and so the
/// topology already checked, are unchanged. Anything else, and every failure on the way, goes to
/// the full reader, which also gives every error message.
final class KeptMeshText: Sendable {
    struct Kept: Sendable {
        var text: [UInt8]
        var document: MeshDocument
        /// The byte range of each vertex's value in `text`.
        var vertexSpans: [Range<Int>]
    }

    private let kept = Mutex<Kept?>(nil)
    /// How many reads reused the kept document (for tests and the benchmark's figures).
    let reuses = Atomic<Int>(0)

    /// The document in `raw`, as `read` (the strict reader) gives it, reusing the kept one where the
    /// texts differ only inside vertex values.
    func document(_ raw: ArraySlice<UInt8>, read: (ArraySlice<UInt8>) throws(APIError) -> MeshDocument) throws(APIError) -> MeshDocument {
        let text = Array(raw)
        if let previous = kept.withLock({ $0 }), let next = KeptMeshText.reuse(previous, text: text) {
            reuses.add(1, ordering: .relaxed)
            kept.withLock { $0 = next }
            return next.document
        }
        let document = try read(raw)
        if let spans = KeptMeshText.vertexSpans(text) {
            kept.withLock { $0 = Kept(text: text, document: document, vertexSpans: spans) }
        }
        return document
    }

    /// The byte range of each element of the mesh object's `vertices` array; `nil` when the text
    /// is not shaped so (the reader decides what it is).
    static func vertexSpans(_ text: [UInt8]) -> [Range<Int>]? {
        var scanner = RequestBody.Scanner(bytes: text)
        guard let members = try? scanner.topLevelMembers(), let vertices = members["vertices"] else { return nil }
        return elementSpans(text, array: vertices.startIndex..<vertices.endIndex)
    }

    /// The elements of the JSON array whose text is `text[array]`.
    static func elementSpans(_ text: [UInt8], array: Range<Int>) -> [Range<Int>]? {
        guard array.count >= 2, text[array.lowerBound] == UInt8(ascii: "["), text[array.upperBound - 1] == UInt8(ascii: "]") else {
            return nil
        }
        var scanner = RequestBody.Scanner(bytes: Array(text[..<array.upperBound]), offset: array.lowerBound + 1)
        var spans: [Range<Int>] = []
        scanner.skipSpace()
        if scanner.peek() == UInt8(ascii: "]") { return scanner.offset == array.upperBound - 1 ? [] : nil }
        while true {
            scanner.skipSpace()
            let start = scanner.offset
            guard (try? scanner.skipValue()) != nil, scanner.offset > start else { return nil }
            spans.append(start..<scanner.offset)
            scanner.skipSpace()
            switch scanner.peek() {
            case UInt8(ascii: ","): scanner.offset += 1
            case UInt8(ascii: "]"): return scanner.offset == array.upperBound - 1 ? spans : nil
            default: return nil
            }
        }
    }

    /// The kept document with the vertices whose text changed read anew; `nil` when the change
    /// reaches outside vertex values or anything fails.
    static func reuse(_ kept: Kept, text: [UInt8]) -> Kept? {
        let old = kept.text
        let common = min(old.count, text.count)
        var prefix = 0
        old.withUnsafeBufferPointer { a in
            text.withUnsafeBufferPointer { b in
                while prefix < common, a[prefix] == b[prefix] { prefix += 1 }
            }
        }
        if prefix == old.count, old.count == text.count { return kept }
        var suffix = 0
        old.withUnsafeBufferPointer { a in
            text.withUnsafeBufferPointer { b in
                while suffix < common - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
            }
        }
        let changeEnd = old.count - suffix
        let spans = kept.vertexSpans
        guard let i = span(containing: prefix, in: spans), let j = span(containing: max(prefix, changeEnd - 1), in: spans) else {
            return nil
        }
        let delta = text.count - old.count
        let start = spans[i].lowerBound, end = spans[j].upperBound + delta
        guard start >= 1, start < end, end < text.count, let fresh = elementSpans(text, array: (start - 1)..<(end + 1), bracketed: true),
            fresh.count == j - i + 1
        else { return nil }
        let fragment = Array("{\"vertices\":[".utf8) + text[start..<end] + Array("],\"faces\":[]}".utf8)
        guard let read = try? MeshDocument(json: fragment), (try? read.checkNumericRange()) != nil,
            read.mesh.vertices.count == j - i + 1
        else { return nil }
        var document = kept.document
        for (k, vertex) in read.mesh.vertices.enumerated() {
            guard (try? document.mesh.replaceVertex(at: i + k, with: vertex)) != nil else { return nil }
        }
        var vertexSpans = Array(spans[..<i])
        vertexSpans += fresh
        vertexSpans += spans[(j + 1)...].map { ($0.lowerBound + delta)..<($0.upperBound + delta) }
        return Kept(text: text, document: document, vertexSpans: vertexSpans)
    }

    /// ``elementSpans(_:array:)`` of the elements between `array`'s first and last byte, which need
    /// not be brackets (`bracketed`: the new text's neighbours of the changed vertices).
    static func elementSpans(_ text: [UInt8], array: Range<Int>, bracketed: Bool) -> [Range<Int>]? {
        var copy = Array(text[array])
        copy[0] = UInt8(ascii: "[")
        copy[copy.count - 1] = UInt8(ascii: "]")
        return elementSpans(copy, array: 0..<copy.count)?.map { ($0.lowerBound + array.lowerBound)..<($0.upperBound + array.lowerBound) }
    }

    /// The index of the span holding byte `offset`, by bisection (the spans ascend).
    static func span(containing offset: Int, in spans: [Range<Int>]) -> Int? {
        var lo = 0, hi = spans.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if spans[mid].upperBound <= offset { lo = mid + 1 } else { hi = mid }
        }
        return lo < spans.count && spans[lo].contains(offset) ? lo : nil
    }
}
