import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MeshRender
import MeshServe
import MeshTessellate
import SurfaceKit
import Testing

/// The JSON API against the library's own results and against formulas, through Hummingbird's
/// in-process test client (the same router `meshgeo serve` runs).
@Suite struct APITests {
    let server = MeshServer(document: ExampleMesh.skew.document, port: 0)

    @Test func tessellateMatchesTheLibrary() async throws {
        let document = try ServeSupport.grid(rows: 3, columns: 4, transform: ServeSupport.tilted) { p in
            SIMD3(0.05 * p.y, 0, 0.2 * p.x * (1 - p.x))
        }
        var options = TessellationOptions(steps: .fixed(2))
        options.diagonal = .surface
        let expected = try Tessellator.tessellate(document, options: options, space: .points)
        try await server.application().test(.router) { client in
            let response = try await ServeSupport.post(
                client, "/api/tessellate", ServeSupport.body(document, ["steps": "2", "diagonal": "\"surface\"", "space": "\"points\""]))
            #expect(response.status == .ok)
            let json = try ServeSupport.json(response.body)
            // Numbers are written in round-trip form: the answer is the library's, bit for bit.
            #expect(RawJSON.array(response.body, "positions") == expected.positions.flatMap { [$0.x, $0.y, $0.z] })
            #expect(RawJSON.array(response.body, "normals") == expected.normals.flatMap { [$0.x, $0.y, $0.z] })
            #expect(RawJSON.array(response.body, "from") == expected.from.flatMap { [$0.x, $0.y] })
            #expect(RawJSON.array(response.body, "indices") == expected.triangles.flatMap { [Double($0.x), Double($0.y), Double($0.z)] })
            let triangleCount: Int = 3 * 4 * 16 * 2
            #expect(json["triangleCount"] as? Int == triangleCount)
        }
    }

    @Test func identityMeshIsTheLayerItself() async throws {
        // to = (from, 0): every tessellated point is (W·u, H·v, 0) with u, v its from, normal +z.
        let document = try ServeSupport.grid(rows: 2, columns: 3)
        try await server.application().test(.router) { client in
            let response = try await ServeSupport.post(
                client, "/api/tessellate", ServeSupport.body(document, ["steps": "3", "space": "\"points\""]))
            let json = try ServeSupport.json(response.body)
            let positions = RawJSON.array(response.body, "positions"), from = RawJSON.array(response.body, "from")
            let normals = RawJSON.array(response.body, "normals")
            let pointCount: Int = (2 * 8 + 1) * (3 * 8 + 1)
            #expect(positions.count == 3 * pointCount)
            for k in 0..<(positions.count / 3) {
                #expect(abs(positions[3 * k] - 200 * from[2 * k]) < 1e-9)
                #expect(abs(positions[3 * k + 1] - 150 * from[2 * k + 1]) < 1e-9)
                #expect(positions[3 * k + 2] == 0)
                #expect(normals[3 * k + 2] == 1)
            }
        }
    }

    @Test func binaryFormatCarriesTheSameTriangles() async throws {
        let document = try ServeSupport.grid(rows: 2, columns: 2) { p in SIMD3(0, 0, p.x * p.y) }
        let expected = try Tessellator.tessellate(document, options: TessellationOptions(steps: .fixed(1)), space: .points)
        try await server.application().test(.router) { client in
            let response = try await ServeSupport.post(
                client, "/api/tessellate", ServeSupport.body(document, ["steps": "1", "space": "\"points\"", "format": "\"binary\""]))
            let bytes = Array(response.body.readableBytesView)
            func u32(_ offset: Int) -> UInt32 { bytes[offset..<(offset + 4)].reversed().reduce(0) { $0 << 8 | UInt32($1) } }
            let n = Int(u32(0)), t = Int(u32(4))
            #expect(n == expected.vertexCount && t == expected.triangleCount)
            #expect(bytes.count == 8 + 32 * n + 12 * t)
            for k in 0..<n {
                let p = expected.positions[k]
                for c in 0..<3 { #expect(Float(bitPattern: u32(8 + 12 * k + 4 * c)) == Float(p[c])) }
            }
            let indexStart = 8 + 32 * n
            for k in 0..<t {
                for c in 0..<3 { #expect(Int32(bitPattern: u32(indexStart + 12 * k + 4 * c)) == expected.triangles[k][c]) }
            }
            #expect(response.headers[HTTPField.Name("Server-Timing")!]?.hasPrefix("compute;dur=") == true)
        }
    }

    @Test func depthSortDrawsFarthestFirst() async throws {
        // Screen z of each triangle's centroid, computed here from the points-space positions
        // through the transform (row vectors about the anchor, then the divide), must not decrease.
        let document = try ServeSupport.grid(rows: 4, columns: 4, transform: ServeSupport.tilted) { p in
            SIMD3(0, 0, 40 * sin(3 * p.x) * p.y)
        }
        try await server.application().test(.router) { client in
            let response = try await ServeSupport.post(
                client, "/api/tessellate", ServeSupport.body(document, ["steps": "2", "space": "\"screen\"", "sort": "\"depth\""]))
            #expect(response.status == .ok)
            let json = try ServeSupport.json(response.body)
            let positions = RawJSON.array(response.body, "positions"), indices = RawJSON.array(response.body, "indices").map { Int($0) }
            var previous = -Double.infinity
            var ordered = true
            for t in stride(from: 0, to: indices.count, by: 3) {
                let z = (positions[3 * indices[t] + 2] + positions[3 * indices[t + 1] + 2] + positions[3 * indices[t + 2] + 2]) / 3
                if z < previous - 1e-9 { ordered = false }
                previous = z
            }
            #expect(ordered)
            let triangleCount: Int = 4 * 4 * 16 * 2
            #expect(indices.count == 3 * triangleCount)
        }
    }

    @Test func hitMatchesTheLibraryAndTheLayerPoint() async throws {
        let flat = try ServeSupport.grid(rows: 3, columns: 3)
        let bent = try ServeSupport.grid(rows: 3, columns: 3, transform: ServeSupport.tilted) { p in SIMD3(0, 0, 0.3 * p.x * (1 - p.x)) }
        let points: [SIMD2<Double>] = [SIMD2(37.5, 12.25), SIMD2(100, 75), SIMD2(180.5, 140), SIMD2(-20, 10)]
        let pointsJSON = "[" + points.map { "[\($0.x),\($0.y)]" }.joined(separator: ",") + "]"
        try await server.application().test(.router) { client in
            // On the identity layer the point shown at (x, y) is (x / W, y / H), off it nothing.
            let response = try await ServeSupport.post(
                client, "/api/hit", ServeSupport.body(flat, ["steps": "2", "exact": "true", "points": pointsJSON]))
            let hits = try #require(try ServeSupport.json(response.body)["hits"] as? [[String: Any]])
            #expect(hits.count == 4)
            for (hit, point) in zip(hits.prefix(3), points) {
                let from = ServeSupport.doubles(hit["from"])
                #expect(hit["hit"] as? Bool == true)
                #expect(abs(from[0] - point.x / 200) < 1e-9 && abs(from[1] - point.y / 150) < 1e-9)
            }
            #expect(hits[3]["hit"] as? Bool == false)

            let tester = try HitTester(document: bent, options: TessellationOptions(steps: .fixed(3)), precision: .exact)
            let expected = tester.hitTest(points)
            let bentResponse = try await ServeSupport.post(
                client, "/api/hit", ServeSupport.body(bent, ["steps": "3", "exact": "true", "points": pointsJSON]))
            let bentHits = RawJSON.objects(Substring(String(buffer: bentResponse.body)), "hits")
            #expect(bentHits.count == points.count)
            for (hit, want) in zip(bentHits, expected) {
                #expect(hit.contains("\"hit\":true") == (want != nil))
                guard let want else { continue }
                #expect(RawJSON.array(hit, "from") == [want.from.x, want.from.y])
                #expect(RawJSON.array(hit, "to") == [want.to.x, want.to.y, want.to.z])
                #expect(RawJSON.number(hit, "face") == Double(want.face))
                #expect(RawJSON.number(hit, "depth") == want.depth)
            }
        }
    }

    @Test func movedVertexReusesTheRefinedTopology() async throws {
        let service = MeshService()
        let server = MeshServer(document: ExampleMesh.skew.document, port: 0, service: service)
        let start = try ServeSupport.grid(rows: 5, columns: 5) { p in SIMD3(0, 0, 0.1 * p.x) }
        try await server.application().test(.router) { client in
            var document = start
            for step in 0..<3 {
                let moved = document.mesh.vertices[14]
                try document.mesh.replaceVertex(
                    at: 14, with: MeshVertex(from: moved.from, to: Point3D(moved.to.x, moved.to.y, 0.1 * Double(step + 1))))
                let response = try await ServeSupport.post(
                    client, "/api/tessellate", ServeSupport.body(document, ["steps": "3", "space": "\"points\""]))
                let fresh = try Tessellator.tessellate(document, options: TessellationOptions(steps: .fixed(3)), space: .points)
                #expect(
                    RawJSON.array(response.body, "positions")
                        == fresh.positions.flatMap { [$0.x, $0.y, $0.z] })
            }
        }
        // Three positions of one topology: one refinement.
        #expect(service.topologyBuilds == 1)
    }

    @Test func badRequestsAreClientErrorsNamingThePath() async throws {
        let good = try ServeSupport.grid(rows: 2, columns: 2)
        let goodMesh = good.jsonString()
        let cases: [(body: String, status: HTTPResponse.Status, path: String)] = [
            ("", .badRequest, ""),
            ("   ", .badRequest, ""),
            ("{\"mesh\":", .badRequest, ""),
            ("[1,2]", .badRequest, ""),
            ("{}", .badRequest, "mesh"),
            ("{\"mesh\": 3}", .unprocessableContent, ""),
            ("{\"mesh\": \(goodMesh), \"steps\": \"many\"}", .badRequest, "steps"),
            ("{\"mesh\": \(goodMesh), \"steps\": true}", .badRequest, "steps"),
            ("{\"mesh\": \(goodMesh), \"steps\": 1.5}", .badRequest, "steps"),
            ("{\"mesh\": \(goodMesh), \"steps\": 0x2}", .badRequest, "steps"),
            ("{\"mesh\": \(goodMesh), \"steps\": 1e300}", .contentTooLarge, "subdivisionSteps"),
            ("{\"mesh\": \(goodMesh), \"steps\": 40}", .contentTooLarge, "subdivisionSteps"),
            ("{\"mesh\": \(goodMesh), \"diagonal\": 5}", .badRequest, "diagonal"),
            ("{\"mesh\": \(goodMesh), \"sort\": \"bogus\"}", .badRequest, "sort"),
            ("{\"mesh\": \(goodMesh), \"steps\": 1, \"steps\": 2}", .badRequest, "steps"),
            ("{\"mesh\": {\"vertices\": [], \"faces\": [{\"indices\": [0, 1, 2, 3]}]}}", .unprocessableContent, "faces[0].indices[0]"),
            (
                "{\"mesh\": {\"vertices\": [{\"from\": [0, 0], \"to\": [0, 0, \"x\"]}], \"faces\": []}}", .unprocessableContent,
                "vertices[0].to[2]"
            ),
            // Outside the command line's numeric range (coordinates at most 1e9 in magnitude).
            (
                "{\"mesh\": {\"vertices\": [{\"from\": [0, 0], \"to\": [1e300, 0, 0]}, {\"from\": [1, 0], \"to\": [1, 0, 0]}, "
                    + "{\"from\": [1, 1], \"to\": [1, 1, 0]}, {\"from\": [0, 1], \"to\": [0, 1, 0]}], "
                    + "\"faces\": [{\"indices\": [0, 1, 2, 3]}]}}", .unprocessableContent, "vertices[0].to[0]"
            ),
        ]
        try await server.application().test(.router) { client in
            for item in cases {
                let response = try await ServeSupport.post(client, "/api/tessellate", ByteBuffer(string: item.body))
                #expect(response.status == item.status, "\(item.body.prefix(80))")
                let json = try ServeSupport.json(response.body)
                #expect(json["path"] as? String == item.path, "\(item.body.prefix(80)): \(json)")
                #expect((json["error"] as? String)?.isEmpty == false)
            }
        }
    }

    @Test func meshErrorsCarryTheCommandLinesMessage() async throws {
        let text = "{\"vertices\": [{\"from\": [0, 0], \"to\": [0, 0, 0]}], \"faces\": [{\"indices\": [0, 1, 2, 400]}]}"
        let expected: MeshError
        do {
            _ = try MeshDocument(jsonString: text)
            Issue.record("the mesh should be refused")
            return
        } catch let error as MeshError {
            expected = error
        }
        try await server.application().test(.router) { client in
            let response = try await ServeSupport.post(client, "/api/hit", ByteBuffer(string: "{\"mesh\": \(text), \"points\": [[0, 0]]}"))
            #expect(response.status == .unprocessableContent)
            let json = try ServeSupport.json(response.body)
            #expect(json["error"] as? String == expected.description)
            #expect(json["path"] as? String == expected.path)
        }
    }

    @Test func oversizedBodiesAndPointListsAreRefused() async throws {
        let good = try ServeSupport.grid(rows: 1, columns: 1)
        try await server.application().test(.router) { client in
            let padding = String(repeating: " ", count: MeshServer.maximumBodyBytes)
            let response = try await ServeSupport.post(
                client, "/api/tessellate", ByteBuffer(string: "{\"mesh\": \(good.jsonString())\(padding)}"))
            #expect(response.status == .contentTooLarge)
            let points = "[" + Array(repeating: "[0,0]", count: MeshService.maximumHitPoints + 1).joined(separator: ",") + "]"
            let many = try await ServeSupport.post(client, "/api/hit", ServeSupport.body(good, ["points": points]))
            #expect(many.status == .contentTooLarge)
            let wrong = try await ServeSupport.post(client, "/api/hit", ServeSupport.body(good, ["points": "[[1, true]]"]))
            #expect(wrong.status == .badRequest)
        }
    }

    @Test func concurrentRequestsAllAnswer() async throws {
        let documents = try (0..<12).map { k in
            try ServeSupport.grid(rows: 3 + k % 3, columns: 4) { p in SIMD3(0, 0, 0.02 * Double(k) * p.x) }
        }
        try await server.application().test(.live) { client in
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for document in documents {
                    group.addTask {
                        let response = try await ServeSupport.post(
                            client, "/api/tessellate", ServeSupport.body(document, ["steps": "2", "space": "\"points\""]))
                        let expected = try Tessellator.tessellate(document, options: TessellationOptions(steps: .fixed(2)), space: .points)
                        return RawJSON.array(response.body, "positions")
                            == expected.positions.flatMap { [$0.x, $0.y, $0.z] }
                    }
                }
                for try await matches in group { #expect(matches) }
            }
        }
    }

    @Test func renderExportExamplesAndPage() async throws {
        let document = try ServeSupport.grid(rows: 2, columns: 2, size: SIMD2(64, 48))
        try await server.application().test(.router) { client in
            let png = try await ServeSupport.post(client, "/api/render", ServeSupport.body(document, ["steps": "1"]))
            let bytes = Array(png.body.readableBytesView)
            #expect(bytes.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            // IHDR: width and height big-endian at bytes 16 and 20: the layer's 64 × 48 points.
            #expect(bytes[16..<20] == [0, 0, 0, 64] && bytes[20..<24] == [0, 0, 0, 48])
            let huge = try await ServeSupport.post(client, "/api/render", ServeSupport.body(document, ["scale": "1000"]))
            #expect(huge.status.code >= 400 && huge.status.code < 500)

            let obj = try await ServeSupport.post(client, "/api/export", ServeSupport.body(document, ["steps": "0", "format": "\"obj\""]))
            let lines = String(buffer: obj.body).split(separator: "\n")
            #expect(lines.filter { $0.hasPrefix("f ") }.count == 8)
            let glb = try await ServeSupport.post(client, "/api/export", ServeSupport.body(document, ["steps": "0", "format": "\"glb\""]))
            #expect(Array(glb.body.readableBytesView.prefix(4)) == Array("glTF".utf8))

            let list = try await client.execute(uri: "/api/examples", method: .get)
            let names = try JSONSerialization.jsonObject(with: Data(list.body.readableBytesView)) as? [[String: Any]]
            #expect(names?.compactMap { $0["name"] as? String } == ExampleMesh.allCases.map(\.rawValue))
            let curl = try await client.execute(uri: "/api/examples/curl", method: .get)
            #expect(try MeshDocument(json: Array(curl.body.readableBytesView)) == ExampleMesh.curl.document)
            let missing = try await client.execute(uri: "/api/examples/nope", method: .get)
            #expect(missing.status == .notFound)
            let served = try await client.execute(uri: "/api/mesh", method: .get)
            #expect(try MeshDocument(json: Array(served.body.readableBytesView)) == ExampleMesh.skew.document)

            let page = try await client.execute(uri: "/", method: .get)
            #expect(String(buffer: page.body).contains("<script src=\"viewer.js\"></script>"))
            for asset in ["viewer.js", "renderer.js", "shading.js"] {
                let response = try await client.execute(uri: "/\(asset)", method: .get)
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("text/javascript") == true)
            }
        }
    }
}
