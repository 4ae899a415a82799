import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MeshServe
import MeshTessellate
import SurfaceKit
import Testing

/// `/api/tessellate`'s binary answer across edits: always the library's tessellation, in full or,
/// when `since` names the answer the client holds, as the spans that turn it into the new one.
@Suite struct LiveEditAPITests {
    /// The binary answer as the API documents it, written here from the library's tessellation.
    static func expectedBytes(_ mesh: TriangleMesh) -> [UInt8] {
        var out: [UInt8] = []
        func word(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { out += $0 } }
        word(UInt32(mesh.vertexCount))
        word(UInt32(mesh.triangleCount))
        for p in mesh.positions { for k in 0..<3 { word(Float(p[k]).bitPattern) } }
        for n in mesh.normals { for k in 0..<3 { word(Float(n[k]).bitPattern) } }
        for f in mesh.from { for k in 0..<2 { word(Float(f[k]).bitPattern) } }
        for t in mesh.triangles { for k in 0..<3 { word(UInt32(bitPattern: t[k])) } }
        return out
    }

    /// `held` with each span of a delta answer written over it.
    static func applying(_ delta: [UInt8], to held: [UInt8]) throws -> [UInt8] {
        func u32(_ offset: Int) -> Int { Int(delta[offset..<(offset + 4)].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }) }
        var result = held
        #expect(delta[0..<8] == held[0..<8], "the counts are those of the held answer")
        var at = 12
        for _ in 0..<u32(8) {
            let offset = u32(at), length = u32(at + 4)
            guard offset + length <= result.count, at + 8 + length <= delta.count else {
                throw ServeSupport.TestFailure("span \(offset)+\(length) outside the answer")
            }
            result.replaceSubrange(offset..<(offset + length), with: delta[(at + 8)..<(at + 8 + length)])
            at += 8 + length
        }
        #expect(at == delta.count)
        return result
    }

    @Test(arguments: [("points", "none"), ("unit", "none"), ("points", "depth"), ("unit", "depth"), ("points", "exact")])
    func deltaAnswersRebuildTheFullAnswerAfterEveryEdit(space: String, sort: String) async throws {
        let start = try ServeSupport.grid(rows: 12, columns: 12, transform: ServeSupport.tilted) { p in SIMD3(0, 0, 0.1 * p.x * p.y) }
        let server = MeshServer(document: ExampleMesh.skew.document, port: 0)
        try await server.application().test(.router) { client in
            var document = start
            var options = TessellationOptions(steps: .fixed(2))
            options.diagonal = .shortest
            var held: [UInt8] = []
            var tag: String?
            var deltas = 0
            for k in 0..<8 {
                if k > 0 {
                    // Move one vertex (on the boundary every third edit), or a face weight.
                    let i = k % 3 == 0 ? k : 7 + k
                    var v = document.mesh.vertices[i]
                    v.to += SIMD3(0.01 * Double(k), -0.02, 0.03)
                    try document.mesh.replaceVertex(at: i, with: v)
                    if k == 6 {
                        // The layer turned: the tessellation is kept, the depth order made anew.
                        document.layer.transform = ServeSupport.tilted.concatenating(Transform3D.rotation(angle: 0.3, axis: SIMD3(0, 1, 0)))
                    }
                    if k == 5 {
                        var face = document.mesh.faces[14]
                        face.weights[2] = 1.7
                        try document.mesh.replaceFace(at: 14, with: face)
                    }
                }
                var fields = [
                    "steps": "2", "space": "\"\(space)\"", "format": "\"binary\"", "diagonal": "\"shortest\"", "sort": "\"\(sort)\"",
                ]
                // The third request names an answer the server never gave: it gets the full one.
                if let tag { fields["since"] = k == 3 ? "\"stale-0-0\"" : "\"\(tag)\"" }
                let response = try await ServeSupport.post(client, "/api/tessellate", ServeSupport.body(document, fields))
                #expect(response.status == .ok)
                let bytes = Array(response.body.readableBytesView)
                let kind = response.headers[HTTPField.Name("Mesh-Answer")!]
                if kind == "delta" {
                    deltas += 1
                    #expect(k != 3 && k > 0)
                    // A few vertices: far less than the answer; the depth order may move many
                    // triangles of a small mesh, but a delta is never sent larger than the answer.
                    #expect(bytes.count < (sort == "none" ? held.count / 3 : held.count), "a delta of \(bytes.count) bytes")
                    held = try LiveEditAPITests.applying(bytes, to: held)
                } else {
                    #expect(kind == "full")
                    held = bytes
                }
                tag = response.headers[HTTPField.Name("Mesh-Version")!]
                // Kept: no sort in either space, the depth sort in points space.
                // With fixed steps every binary answer is kept and tagged, whatever the sort.
                #expect(tag != nil)
                var mesh = try Tessellator.tessellate(document, options: options, space: space == "unit" ? .unit : .points)
                let points = try Tessellator.tessellate(document, options: options, space: .points)
                if sort != "none" {
                    mesh = try PainterSorter.sorted(
                        mesh: points, geometry: document.geometry, mode: sort == "depth" ? .depth : .exact,
                        space: space == "unit" ? .unit : .points
                    ).mesh
                }
                // The exact sort's order is kept across edits: a painter's order, not always the full sort's.
                if sort == "exact" {
                    #expect(try ExactAnswers.matches(held, points: points, geometry: document.geometry, sorted: mesh), "edit \(k)")
                } else {
                    #expect(held == LiveEditAPITests.expectedBytes(mesh), "edit \(k)")
                }
            }
            // Every edit after the first sends changes, but the depth order's answer after the turn.
            #expect(deltas == (sort == "depth" && space == "points" ? 5 : 6))
        }
    }

    @Test func sortedAnswersAndBusySlotsAreStillTheLibrarys() async throws {
        let document = try ServeSupport.grid(rows: 5, columns: 5, transform: ServeSupport.tilted) { p in SIMD3(0, 0, 30 * p.x * p.y) }
        let server = MeshServer(document: ExampleMesh.skew.document, port: 0)
        let options = TessellationOptions(steps: .fixed(2))
        let expected = LiveEditAPITests.expectedBytes(try Tessellator.tessellate(document, options: options, space: .points))
        try await server.application().test(.router) { client in
            // Concurrent requests of one mesh: whichever finds the slot busy answers in full.
            try await withThrowingTaskGroup(of: [UInt8].self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        let response = try await ServeSupport.post(
                            client, "/api/tessellate",
                            ServeSupport.body(document, ["steps": "2", "space": "\"points\"", "format": "\"binary\""]))
                        return Array(response.body.readableBytesView)
                    }
                }
                for try await bytes in group { #expect(bytes == expected) }
            }
        }
    }
}
