import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MeshServe
import MeshTessellate
import SurfaceKit
import Testing

/// The server's cache of refined topologies: found by counts, told apart by the tessellator's own
/// face check, budget-checked with the library's message, safe under concurrent requests.
@Suite struct PlanCacheTests {
    /// `document` with its vertices listed in reverse order (vertex i becomes n − 1 − i) and the
    /// faces renamed to match: the same surface, the same counts, other face indices.
    static func relabelled(_ document: MeshDocument) throws -> MeshDocument {
        let n = document.mesh.vertices.count
        let faces = document.mesh.faces.map { face in
            MeshFace(indices: SIMD4(repeating: n - 1) &- face.indices, weights: face.weights)
        }
        var copy = document
        copy.mesh = try MeshTransform(
            vertices: document.mesh.vertices.reversed(), faces: faces, depthNormalization: document.mesh.depthNormalization,
            subdivisionSteps: document.mesh.subdivisionSteps)
        return copy
    }

    @Test func sameCountsOtherFacesGetTheirOwnTopology() async throws {
        let service = MeshService()
        let server = MeshServer(document: ExampleMesh.skew.document, port: 0, service: service)
        let a = try ServeSupport.grid(rows: 3, columns: 3) { p in SIMD3(0, 0, 0.1 * p.x * p.y) }
        let b = try PlanCacheTests.relabelled(a)
        #expect(a.mesh.faces != b.mesh.faces && a.mesh.vertices.count == b.mesh.vertices.count)
        try await server.application().test(.router) { client in
            // a, b, a, b: each answer is the library's for that mesh; two topologies are refined.
            for document in [a, b, a, b] {
                let response = try await ServeSupport.post(
                    client, "/api/tessellate", ServeSupport.body(document, ["steps": "2", "space": "\"points\""]))
                #expect(response.status == .ok)
                let fresh = try Tessellator.tessellate(document, options: TessellationOptions(steps: .fixed(2)), space: .points)
                #expect(RawJSON.array(response.body, "positions") == fresh.positions.flatMap { [$0.x, $0.y, $0.z] })
                #expect(RawJSON.array(response.body, "indices") == fresh.triangles.flatMap { [Double($0.x), Double($0.y), Double($0.z)] })
            }
            // Hit-testing reuses the same two.
            for document in [a, b] {
                let response = try await ServeSupport.post(
                    client, "/api/hit", ServeSupport.body(document, ["steps": "2", "points": "[[100, 75]]"]))
                #expect(response.status == .ok)
            }
        }
        #expect(service.topologyBuilds == 2)
    }

    @Test func cachedTopologyHonoursASmallerBudgetWithTheLibrarysMessage() async throws {
        let service = MeshService()
        let server = MeshServer(document: ExampleMesh.skew.document, port: 0, service: service)
        let document = try ServeSupport.grid(rows: 2, columns: 3)
        // 6 faces × 4³ sub-quads × 2 triangles = 768 triangles at steps 3.
        var small = TessellationOptions(steps: .fixed(3), maximumTriangles: 767)
        small.diagonal = .shortest
        var message = ""
        do { _ = try Tessellator(mesh: document.mesh, options: small) } catch let error as MeshError { message = error.description }
        let expected = message
        #expect(expected.contains("768"))
        try await server.application().test(.router) { client in
            let first = try await ServeSupport.post(client, "/api/tessellate", ServeSupport.body(document, ["steps": "3"]))
            #expect(first.status == .ok)
            let refused = try await ServeSupport.post(
                client, "/api/tessellate", ServeSupport.body(document, ["steps": "3", "maxTriangles": "767"]))
            #expect(refused.status == .contentTooLarge)
            let json = try ServeSupport.json(refused.body)
            #expect(json["error"] as? String == expected)
            #expect(json["path"] as? String == "subdivisionSteps")
            let exact = try await ServeSupport.post(
                client, "/api/tessellate", ServeSupport.body(document, ["steps": "3", "maxTriangles": "768"]))
            #expect(exact.status == .ok)
        }
        #expect(service.topologyBuilds == 1)
    }

    @Test func concurrentEditsOfTwoTopologiesMatchTheLibrary() async throws {
        let service = MeshService()
        let server = MeshServer(document: ExampleMesh.skew.document, port: 0, service: service)
        let base = try ServeSupport.grid(rows: 3, columns: 4)
        let other = try PlanCacheTests.relabelled(base)
        // Sixteen requests at once: both topologies, each with one vertex moved its own way.
        var edited: [MeshDocument] = []
        for k in 0..<16 {
            var document = k % 2 == 0 ? base : other
            let v = document.mesh.vertices[7]
            try document.mesh.replaceVertex(at: 7, with: MeshVertex(from: v.from, to: v.to + Point3D(0, 0, 0.01 * Double(k))))
            edited.append(document)
        }
        let documents = edited
        try await server.application().test(.live) { client in
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for document in documents {
                    group.addTask {
                        let response = try await ServeSupport.post(
                            client, "/api/tessellate", ServeSupport.body(document, ["steps": "2", "space": "\"points\""]))
                        let expected = try Tessellator.tessellate(document, options: TessellationOptions(steps: .fixed(2)), space: .points)
                        return RawJSON.array(response.body, "positions") == expected.positions.flatMap { [$0.x, $0.y, $0.z] }
                    }
                }
                for try await matches in group { #expect(matches) }
            }
        }
        // Requests that miss at the same moment may each build; never more than one per request.
        #expect((2...16).contains(service.topologyBuilds))
    }
}
