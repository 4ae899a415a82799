import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MeshServe
import MeshTessellate
import SurfaceKit
import Testing

/// `/api/tessellate` with `base` and `edits` in place of `mesh`: the answer is the library's for
/// the held mesh with the edits applied (applied here by the library's own editing calls), and bad
/// edits get the mesh reader's messages at the edit's path.
@Suite struct EditRequestAPITests {
    static func header(_ response: TestResponse, _ name: String) -> String? {
        HTTPField.Name(name).flatMap { response.headers[$0] }
    }

    static func text(_ v: SIMD3<Double>) -> String { "[\(v.x),\(v.y),\(v.z)]" }

    static func layerText(_ layer: LayerProperties) -> String {
        "{\"size\":[\(layer.size.x),\(layer.size.y)],\"transform\":[\(layer.transform.elements.map(\.description).joined(separator: ","))]}"
    }

    /// The mesh.json text of `document`'s mesh, written here, with the text `to` in place of vertex
    /// `vertex`'s `to`, or `w` as face `face`'s weights.
    static func meshText(_ document: MeshDocument, vertex: Int = -1, to: String = "", face: Int = -1, w: String = "") -> String {
        let vertices = document.mesh.vertices.enumerated().map { i, v in
            "{\"from\":[\(v.from.x),\(v.from.y)],\"to\":\(i == vertex ? to : text(v.to))}"
        }
        let faces = document.mesh.faces.enumerated().map { f, face0 in
            "{\"indices\":[\((0..<4).map { String(face0.indices[$0]) }.joined(separator: ","))]\(f == face ? ",\"w\":\(w)" : "")}"
        }
        return "{\"vertices\":[\(vertices.joined(separator: ","))],\"faces\":[\(faces.joined(separator: ","))]}"
    }

    @Test(arguments: ["none", "depth", "exact"])
    func editsGiveTheLibrarysAnswerForTheEditedMesh(sort: String) async throws {
        let start = try ServeSupport.grid(rows: 10, columns: 12, transform: ServeSupport.tilted) { p in SIMD3(0, 0, 0.1 * p.x * p.y) }
        let server = MeshServer(document: ExampleMesh.skew.document, port: 0)
        let fields = ["steps": "2", "space": "\"points\"", "format": "\"binary\"", "diagonal": "\"shortest\"", "sort": "\"\(sort)\""]
        try await server.application().test(.router) { client in
            var document = start
            var options = TessellationOptions(steps: .fixed(2))
            options.diagonal = .shortest
            var response = try await ServeSupport.post(client, "/api/tessellate", ServeSupport.body(document, fields))
            #expect(response.status == .ok)
            var held = Array(response.body.readableBytesView)
            var meshTag = try #require(EditRequestAPITests.header(response, "Mesh-Tag"))
            var answerTag = EditRequestAPITests.header(response, "Mesh-Version")
            var deltas = 0
            for k in 1..<9 {
                // The edits, as JSON text, and the same change made to the test's own document.
                var edits: [String] = []
                let i = (7 * k) % document.mesh.vertices.count
                var v = document.mesh.vertices[i]
                v.to += SIMD3(0.01 * Double(k), -0.02, 0.03)
                edits.append("{\"vertex\":\(i),\"to\":\(EditRequestAPITests.text(v.to))}")
                // A second edit of the same vertex, `from` only: `to` stays as the first set it.
                if k % 3 == 0 {
                    v.from += SIMD2(0.001, -0.002)
                    edits.append("{\"from\":[\(v.from.x),\(v.from.y)],\"vertex\":\(i)}")
                }
                try document.mesh.replaceVertex(at: i, with: v)
                if k == 4 {
                    var face = document.mesh.faces[20]
                    face.weights = SIMD4(1, 1.5, 0.75, 2)
                    try document.mesh.replaceFace(at: 20, with: face)
                    edits.append("{\"face\":20,\"w\":[1,1.5,0.75,2]}")
                }
                var extra = fields
                if k == 6 {
                    // A new layer (turned): the tessellation is kept, the sort made anew.
                    document.layer.transform = ServeSupport.tilted.concatenating(Transform3D.rotation(angle: 0.3, axis: SIMD3(0, 1, 0)))
                    extra["layer"] = EditRequestAPITests.layerText(document.layer)
                }
                extra["base"] = "\"\(meshTag)\""
                extra["edits"] = "[" + edits.joined(separator: ",") + "]"
                if let answerTag { extra["since"] = "\"\(answerTag)\"" }
                var text = "{"
                for (key, value) in extra.sorted(by: { $0.key < $1.key }) { text += (text == "{" ? "" : ",") + "\"\(key)\":\(value)" }
                response = try await ServeSupport.post(client, "/api/tessellate", ByteBuffer(string: text + "}"))
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                let bytes = Array(response.body.readableBytesView)
                if EditRequestAPITests.header(response, "Mesh-Answer") == "delta" {
                    deltas += 1
                    held = try LiveEditAPITests.applying(bytes, to: held)
                } else {
                    held = bytes
                }
                meshTag = try #require(EditRequestAPITests.header(response, "Mesh-Tag"))
                answerTag = EditRequestAPITests.header(response, "Mesh-Version")
                let points = try Tessellator.tessellate(document, options: options, space: .points)
                let mesh =
                    sort == "none"
                    ? points
                    : try PainterSorter.sorted(
                        mesh: points, geometry: document.geometry, mode: sort == "depth" ? .depth : .exact, space: .points
                    )
                    .mesh
                // The exact sort's order is kept across edits: a painter's order, not always the full sort's.
                if sort == "exact" {
                    #expect(try ExactAnswers.matches(held, points: points, geometry: document.geometry, sorted: mesh), "edit \(k)")
                } else {
                    #expect(held == LiveEditAPITests.expectedBytes(mesh), "edit \(k)")
                }
            }
            #expect(deltas >= 6)
        }
    }

    @Test func badEditsAreRefusedWithTheReadersMessageAtTheEditsPath() async throws {
        let document = try ServeSupport.grid(rows: 4, columns: 4)
        let server = MeshServer(document: ExampleMesh.skew.document, port: 0)
        try await server.application().test(.router) { client in
            let first = try await ServeSupport.post(client, "/api/tessellate", ServeSupport.body(document, ["steps": "1"]))
            let tag = try #require(EditRequestAPITests.header(first, "Mesh-Tag"))
            /// The command line's message for the mesh with `to` or `w` put in (its path is the mesh's).
            func readersMessage(vertex: Int = -1, to: String = "", face: Int = -1, w: String = "") throws -> String {
                let text = EditRequestAPITests.meshText(document, vertex: vertex, to: to, face: face, w: w)
                do {
                    try MeshDocument(jsonString: text).checkNumericRange()
                } catch let error as MeshError {
                    return error.message
                }
                throw ServeSupport.TestFailure("the reader accepted \(text)")
            }
            let cases: [(edits: String, status: HTTPResponse.Status, path: String, message: String?)] = [
                (
                    "[{\"vertex\":2,\"to\":[0,0,0]},{\"vertex\":3,\"to\":[0,\"x\",0]}]", .unprocessableContent, "edits[1].to[1]",
                    try readersMessage(vertex: 3, to: "[0,\"x\",0]")
                ),
                ("[{\"vertex\":3,\"to\":[0,0]}]", .unprocessableContent, "edits[0].to", try readersMessage(vertex: 3, to: "[0,0]")),
                (
                    "[{\"vertex\":3,\"to\":[0,1e999,0]}]", .unprocessableContent, "edits[0].to[1]",
                    try readersMessage(vertex: 3, to: "[0,1e999,0]")
                ),
                (
                    "[{\"vertex\":3,\"to\":[0,2e9,0]}]", .unprocessableContent, "edits[0].to[1]",
                    try readersMessage(vertex: 3, to: "[0,2e9,0]")
                ),
                ("[{\"face\":5,\"w\":[1,1,0,1]}]", .unprocessableContent, "edits[0].w[2]", try readersMessage(face: 5, w: "[1,1,0,1]")),
                ("[{\"face\":5,\"w\":[1,1,1]}]", .unprocessableContent, "edits[0].w", try readersMessage(face: 5, w: "[1,1,1]")),
                ("[{\"vertex\":25,\"to\":[0,0,0]}]", .unprocessableContent, "edits[0].vertex", "25 is out of range (25 vertices)"),
                ("[{\"face\":16,\"w\":[1,1,1,1]}]", .unprocessableContent, "edits[0].face", "16 is out of range (16 faces)"),
                ("[{\"vertex\":1.5,\"to\":[0,0,0]}]", .badRequest, "edits[0].vertex", nil),
                ("[{\"vertex\":1,\"too\":[0,0,0]}]", .badRequest, "edits[0].too", nil),
                ("[{\"vertex\":1}]", .badRequest, "edits[0]", nil),
                ("[{\"w\":[1,1,1,1]}]", .badRequest, "edits[0]", nil),
                ("[3]", .badRequest, "edits[0]", nil),
                ("[{\"vertex\":1,\"to\":[0,0,0}}]", .badRequest, "edits", nil),
                ("[{\"face\":1,\"w\":[1,1,1,1}}]", .badRequest, "edits[0].w", nil),
                ("{\"vertex\":1}", .badRequest, "edits", nil),
                ("[{\"vertex\":1,\"to\":[0,0,0],\"to\":[1,1,1]}]", .badRequest, "edits[0].to", nil),
            ]
            for (edits, status, path, message) in cases {
                let body = "{\"base\":\"\(tag)\",\"edits\":\(edits),\"steps\":1}"
                let response = try await ServeSupport.post(client, "/api/tessellate", ByteBuffer(string: body))
                #expect(response.status == status, "\(edits): \(String(buffer: response.body))")
                let json = try ServeSupport.json(response.body)
                #expect(json["path"] as? String == path, "\(edits)")
                if let message { #expect(json["error"] as? String == "\(path): \(message)", "\(edits)") }
            }
            // Weights whose ratio is over the limit only across faces: the whole mesh's check, which
            // blames the weight farther from the median (0.0001), at the edit that set it.
            let ratio = try await ServeSupport.post(
                client, "/api/tessellate",
                ByteBuffer(
                    string: "{\"base\":\"\(tag)\",\"edits\":[{\"face\":2,\"w\":[1000,1000,1000,1000]},"
                        + "{\"face\":3,\"w\":[0.0001,0.0001,0.0001,0.0001]}],\"steps\":1}"))
            #expect(ratio.status == .unprocessableContent)
            #expect(try ServeSupport.json(ratio.body)["path"] as? String == "edits[1].w[0]")
            // A bad layer is the reader's, at its own path.
            let layer = try await ServeSupport.post(
                client, "/api/tessellate", ByteBuffer(string: "{\"base\":\"\(tag)\",\"edits\":[],\"layer\":{\"size\":[0,1]},\"steps\":1}"))
            #expect(layer.status == .unprocessableContent)
            #expect(try ServeSupport.json(layer.body)["path"] as? String == "layer.size[0]")
            // More edits than the mesh has vertices and faces (25 + 16): 413, before any is read.
            let many = Array(repeating: "{\"vertex\":0,\"to\":[0,0,0]}", count: 42).joined(separator: ",")
            let tooMany = try await ServeSupport.post(
                client, "/api/tessellate", ByteBuffer(string: "{\"base\":\"\(tag)\",\"edits\":[\(many)],\"steps\":1}"))
            #expect(tooMany.status == .contentTooLarge)
            #expect(try ServeSupport.json(tooMany.body)["path"] as? String == "edits")
            // A tag the server never gave: 409, so the client sends the whole mesh.
            let stale = try await ServeSupport.post(
                client, "/api/tessellate", ByteBuffer(string: "{\"base\":\"m0-1\",\"edits\":[],\"steps\":1}"))
            #expect(stale.status == .conflict)
            #expect(try ServeSupport.json(stale.body)["path"] as? String == "base")
            // Both forms at once, or edits without a base tag, are refused.
            let both = try await ServeSupport.post(
                client, "/api/tessellate", ServeSupport.body(document, ["base": "\"\(tag)\"", "edits": "[]", "steps": "1"]))
            #expect(both.status == .badRequest)
            #expect(try ServeSupport.json(both.body)["path"] as? String == "base")
            let number = try await ServeSupport.post(client, "/api/tessellate", ByteBuffer(string: "{\"base\":7,\"edits\":[],\"steps\":1}"))
            #expect(number.status == .badRequest)
            // The held mesh is unchanged by refused edits: an empty edit gives its answer.
            let same = try await ServeSupport.post(
                client, "/api/tessellate", ByteBuffer(string: "{\"base\":\"\(tag)\",\"edits\":[],\"steps\":1}"))
            #expect(same.status == .ok)
            #expect(String(buffer: same.body) == String(buffer: first.body))
        }
    }

    @Test func theServerKeepsOnlyTheLastFewMeshes() async throws {
        let document = try ServeSupport.grid(rows: 3, columns: 3)
        let server = MeshServer(document: ExampleMesh.skew.document, port: 0)
        try await server.application().test(.router) { client in
            let first = try await ServeSupport.post(client, "/api/tessellate", ServeSupport.body(document, ["steps": "1"]))
            let tag = try #require(EditRequestAPITests.header(first, "Mesh-Tag"))
            var tags: Set<String> = [tag]
            for _ in 0..<8 {
                let response = try await ServeSupport.post(client, "/api/tessellate", ServeSupport.body(document, ["steps": "1"]))
                tags.insert(try #require(EditRequestAPITests.header(response, "Mesh-Tag")))
            }
            #expect(tags.count == 9, "every answer names its mesh anew")
            let forgotten = try await ServeSupport.post(
                client, "/api/tessellate", ByteBuffer(string: "{\"base\":\"\(tag)\",\"edits\":[],\"steps\":1}"))
            #expect(forgotten.status == .conflict)
        }
    }
}

extension EditRequestAPITests {
    /// A strip bent into a figure eight (x = sin t, z = sin t cos t across the layer) passes
    /// through itself: the exact sort splits triangles, so the answer carries vertices the sort
    /// made after the tessellation's, and an edit may change how many. Every answer, rebuilt from
    /// the changes, is the library's.
    @Test(arguments: [0.0, 0.4])
    func exactAnswersWithSplitPiecesStayTheLibrarys(turn: Double) async throws {
        var eight = try ServeSupport.grid(rows: 4, columns: 14)
        try eight.mesh.mapVertices { vertex, _ in
            let t = 2 * Double.pi * (-0.21 + 0.93 * vertex.from.x)
            return MeshVertex(from: vertex.from, to: SIMD3(0.5 + 0.35 * sin(t), vertex.from.y, 0.3 * sin(t) * cos(t)))
        }
        eight.layer.transform = ServeSupport.tilted.concatenating(Transform3D.rotation(angle: turn, axis: SIMD3(0, 1, 0)))
        let start = eight
        let server = MeshServer(document: ExampleMesh.skew.document, port: 0)
        let fields = ["steps": "2", "space": "\"points\"", "format": "\"binary\"", "diagonal": "\"shortest\"", "sort": "\"exact\""]
        try await server.application().test(.router) { client in
            var document = start
            var options = TessellationOptions(steps: .fixed(2))
            options.diagonal = .shortest
            func expected() throws -> (mesh: TriangleMesh, split: Bool) {
                let points = try Tessellator.tessellate(document, options: options, space: .points)
                let sorted = try PainterSorter.sorted(mesh: points, geometry: document.geometry, mode: .exact, space: .points).mesh
                return (sorted, sorted.vertexCount > points.vertexCount)
            }
            var response = try await ServeSupport.post(client, "/api/tessellate", ServeSupport.body(document, fields))
            var held = Array(response.body.readableBytesView)
            let first = try expected()
            try #require(first.split, "the exact sort splits this mesh's triangles")
            #expect(held == LiveEditAPITests.expectedBytes(first.mesh))
            var deltas = 0
            var previous = first.mesh
            /// Edits after which the sort made as many vertices as before, some of them elsewhere.
            var splitMoved = 0
            for k in 1..<9 {
                let meshTag = try #require(EditRequestAPITests.header(response, "Mesh-Tag"))
                let answerTag = try #require(EditRequestAPITests.header(response, "Mesh-Version"))
                // A vertex next to where the strip passes through itself (columns 3 and 11), moved a little.
                let i = (k % 2 == 0 ? 3 : 11) + 15 * (1 + k % 3)
                var v = document.mesh.vertices[i]
                v.to += SIMD3(0.002, 0.001, 0.001) * (k % 4 < 2 ? 1 : -1)
                try document.mesh.replaceVertex(at: i, with: v)
                var text =
                    "{\"base\":\"\(meshTag)\",\"since\":\"\(answerTag)\",\"edits\":[{\"vertex\":\(i),\"to\":\(EditRequestAPITests.text(v.to))}]"
                for (key, value) in fields { text += ",\"\(key)\":\(value)" }
                response = try await ServeSupport.post(client, "/api/tessellate", ByteBuffer(string: text + "}"))
                #expect(response.status == .ok)
                let bytes = Array(response.body.readableBytesView)
                if EditRequestAPITests.header(response, "Mesh-Answer") == "delta" {
                    deltas += 1
                    held = try LiveEditAPITests.applying(bytes, to: held)
                } else {
                    held = bytes
                }
                let now = try expected().mesh
                #expect(held == LiveEditAPITests.expectedBytes(now), "edit \(k)")
                let input = try Tessellator.tessellate(document, options: options, space: .points).vertexCount
                if now.vertexCount == previous.vertexCount, now.triangleCount == previous.triangleCount,
                    now.positions[input...] != previous.positions[input...]
                {
                    splitMoved += 1
                }
                previous = now
            }
            #expect(deltas > 0)
            #expect(splitMoved > 0, "some edit moves split vertices and keeps the counts")
        }
    }
}
