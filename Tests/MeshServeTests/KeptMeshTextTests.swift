import Foundation
import MeshTessellate
import SurfaceKit
import Testing

@testable import MeshServe

/// Reading an edited mesh through the kept text: always the strict reader's document (or its
/// error, word for word), and the shortcut is taken where only vertex values changed.
@Suite struct KeptMeshTextTests {
    /// The mesh's text in one of two layouts: the library's (a vertex a line) or a hand-written
    /// one with other spacing and key order, as another client may send.
    static func text(_ document: MeshDocument, compact: Bool) -> String {
        guard compact else { return document.jsonString() }
        func number(_ x: Double) -> String { "\(x)" }
        let vertices = document.mesh.vertices.map { v in
            "{ \"to\": [\(number(v.to.x)), \(number(v.to.y)), \(number(v.to.z))], \"from\": [\(number(v.from.x)), \(number(v.from.y))] }"
        }
        let faces = document.mesh.faces.map { f in "{\"indices\": [\(f.indices[0]), \(f.indices[1]), \(f.indices[2]), \(f.indices[3])]}" }
        return "{\"faces\": [\(faces.joined(separator: ", "))], \"vertices\": [\(vertices.joined(separator: ", "))],"
            + " \"layer\": {\"size\": [\(document.layer.size.x), \(document.layer.size.y)]}}"
    }

    /// The strict reader's result, or its error as the API reports it.
    static func strict(_ text: String) -> Result<MeshDocument, APIError> {
        Result { () throws(APIError) in try RequestBody(Array("{\"mesh\":\(text)}".utf8)).document() }
    }

    static func kept(_ reader: KeptMeshText, _ text: String) -> Result<MeshDocument, APIError> {
        Result { () throws(APIError) in
            let body = try RequestBody(Array("{\"mesh\":\(text)}".utf8))
            return try reader.document(body.members["mesh"] ?? []) { _ throws(APIError) in try body.document() }
        }
    }

    static func same(_ a: Result<MeshDocument, APIError>, _ b: Result<MeshDocument, APIError>) -> Bool {
        switch (a, b) {
        case (.success(let x), .success(let y)):
            // Bit for bit, so −0 and 0 differ.
            let bits = { (d: MeshDocument) in
                d.mesh.vertices.flatMap { [$0.from.x, $0.from.y, $0.to.x, $0.to.y, $0.to.z].map(\.bitPattern) }
            }
            return x == y && bits(x) == bits(y)
        case (.failure(let x), .failure(let y)):
            return x.status == y.status && x.path == y.path && x.message == y.message
        default:
            return false
        }
    }

    @Test(arguments: [false, true])
    func editedTextsReadAsTheStrictReaderReadsThem(compact: Bool) throws {
        let reader = KeptMeshText()
        var random = KeptTessellationTests.Seeded(state: compact ? 4 : 5)
        var document = try ServeSupport.grid(rows: 6, columns: 7) { p in SIMD3(0, 0, 0.1 * sin(5 * p.x)) }
        var expectedReuses = 0
        for k in 0..<60 {
            var text = KeptMeshTextTests.text(document, compact: compact)
            let onlyVertices: Bool
            switch k % 6 {
            case 0:
                // Text edits the strict reader refuses or reads differently: a missing coordinate,
                // an unknown key, a number out of range, −0, a face index, spacing between vertices.
                let edits = [
                    ("\"to\": [", "\"to\": [1e400, "), ("\"to\":[", "\"to\":[1e400,"), ("\"from\"", "\"form\""),
                    ("0.5", "-0.0"), ("\"indices\": [0", "\"indices\": [1"), ("}, {", "},{"), ("},\n", "} ,\n"), ("1e+300", "1"),
                ]
                let (from, to) = edits[Int.random(in: 0..<edits.count, using: &random)]
                if let range = text.range(of: from) { text.replaceSubrange(range, with: to) }
                onlyVertices = false
            default:
                // One to three vertices moved, sometimes far (another length of text), or nothing.
                for _ in 0..<Int.random(in: 0...3, using: &random) {
                    let i = Int.random(in: 0..<document.mesh.vertices.count, using: &random)
                    var v = document.mesh.vertices[i]
                    v.to.z = Bool.random(using: &random) ? Double.random(in: -1...1, using: &random) : 1e-7 * Double(k)
                    if Int.random(in: 0..<5, using: &random) == 0 { v.from.x = 0.25 }
                    try document.mesh.replaceVertex(at: i, with: v)
                }
                text = KeptMeshTextTests.text(document, compact: compact)
                onlyVertices = true
            }
            let before = reader.reuses.load(ordering: .relaxed)
            let strict = KeptMeshTextTests.strict(text)
            #expect(KeptMeshTextTests.same(KeptMeshTextTests.kept(reader, text), strict), "edit \(k)")
            if onlyVertices, k % 6 != 1 {
                // (The edit after a refused text starts from a text the reader did not keep.)
                #expect(reader.reuses.load(ordering: .relaxed) == before + 1, "edit \(k) was read in full")
                expectedReuses += 1
            }
        }
        #expect(expectedReuses >= 30)
    }

    @Test func spansAreTheVerticesValues() throws {
        let text = Array("{\"vertices\": [ {\"from\":[0,0],\"to\":[0,0,0]} ,{\"from\":[1,0],\"to\":[1,0,\"]\"]}], \"faces\": []}".utf8)
        let spans = try #require(KeptMeshText.vertexSpans(text))
        #expect(
            spans.map { String(decoding: text[$0], as: UTF8.self) } == [
                "{\"from\":[0,0],\"to\":[0,0,0]}", "{\"from\":[1,0],\"to\":[1,0,\"]\"]}",
            ])
        #expect(KeptMeshText.span(containing: spans[1].lowerBound, in: spans) == 1)
        #expect(KeptMeshText.span(containing: spans[0].upperBound, in: spans) == nil)
    }
}
