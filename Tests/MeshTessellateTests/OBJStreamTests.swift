import SurfaceKit
import Testing

@testable import MeshTessellate

// The streamed OBJ writer: the text it hands out piece by piece, joined, must be byte for byte
// what a plain serial formatter written here makes with `Double.description`, whatever the piece
// and group sizes (so a mesh spanning many groups is written exactly as a small one).

@Suite struct OBJStreamTests {
    /// The OBJ text written out serially, independently of the exporter's formatter: numbers by
    /// `Double.description`, negative zero as `0.0`.
    private func reference(_ mesh: TriangleMesh) -> [UInt8] {
        func number(_ x: Double) -> String { x == 0 ? "0.0" : x.description }
        var text = "# meshgeo: \(mesh.vertexCount) vertices, \(mesh.triangleCount) triangles, \(mesh.space.rawValue) space\n"
        for i in 0..<mesh.vertexCount {
            let p = mesh.positions[i], t = mesh.from[i], n = mesh.normals[i]
            text += "v \(number(p.x)) \(number(p.y)) \(number(p.z))\n"
            text += "vt \(number(t.x)) \(number(1 - t.y))\n"
            text += "vn \(number(n.x)) \(number(n.y)) \(number(n.z))\n"
        }
        for t in mesh.triangles {
            let (a, b, c) = (Int(t.x) + 1, Int(t.y) + 1, Int(t.z) + 1)
            text += "f \(a)/\(a)/\(a) \(b)/\(b)/\(b) \(c)/\(c)/\(c)\n"
        }
        return Array(text.utf8)
    }

    /// Numbers that exercise the formatter: zeros of both signs, the extremes, subnormals,
    /// exponents both ways, and values whose shortest form is long.
    private func awkwardMesh() -> TriangleMesh {
        let values: [Double] = [
            0, -0.0, 1, -1, 0.1, 1.0 / 3, -2.0 / 3, 1e22, 1e-7, .leastNonzeroMagnitude, -.leastNormalMagnitude,
            .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 123456789.125, 0.010000000000000002, 1e16, 100,
        ]
        var positions: [Point3D] = [], from: [LayerPoint] = [], normals: [Point3D] = []
        for i in 0..<40 {
            func v(_ k: Int) -> Double { values[(i * 7 + k * 5) % values.count] }
            positions.append(SIMD3(v(0), v(1), v(2)))
            from.append(LayerPoint(v(3), v(4)))
            normals.append(SIMD3(v(5), v(6), v(7)))
        }
        let triangles = (0..<30).map { (i: Int) -> SIMD3<Int32> in
            SIMD3(Int32(i), Int32((i * 13 + 1) % 40), Int32((i * 29 + 2) % 40))
        }
        return TriangleMesh(
            space: .points, positions: positions, from: from, normals: normals, triangles: triangles,
            sourceFaces: triangles.indices.map { Int32($0 / 2) })
    }

    /// The reference ripple at steps 1: 80,000 triangles, several default groups of pieces.
    private func ripple() throws -> TriangleMesh {
        let document = ExampleMesh.ripple.document
        return try Tessellator.tessellate(document, options: TessellationOptions(steps: .fixed(1)), space: .unit)
    }

    private func streamed(_ mesh: TriangleMesh, itemsPerPiece: Int, piecesPerGroup: Int) -> (bytes: [UInt8], pieces: [[UInt8]]) {
        var pieces: [[UInt8]] = []
        mesh.writeOBJ(itemsPerPiece: itemsPerPiece, piecesPerGroup: piecesPerGroup) { pieces.append($0) }
        return (pieces.flatMap { $0 }, pieces)
    }

    @Test func awkwardNumbersAreWrittenAsTheSerialReference() {
        let mesh = awkwardMesh()
        let expected = reference(mesh)
        #expect(mesh.objBytes() == expected)
        var pieces: [[UInt8]] = []
        mesh.writeOBJ { pieces.append($0) }
        #expect(pieces.flatMap { $0 } == expected)
        for (items, group) in [(1, 1), (3, 2), (7, 3), (40, 1), (1_000, 8)] {
            #expect(streamed(mesh, itemsPerPiece: items, piecesPerGroup: group).bytes == expected, "pieces of \(items), groups of \(group)")
        }
    }

    @Test func rippleSpanningManyGroupsIsWrittenAsTheSerialReference() throws {
        let mesh = try ripple()
        #expect(mesh.triangleCount == 80_000)
        let expected = reference(mesh)
        var joined: [UInt8] = []
        var calls = 0
        mesh.writeOBJ {
            joined += $0
            calls += 1
        }
        #expect(joined == expected)
        // Default pieces of 8,192 items: the header, 5 pieces of vertices and 10 of triangles (in
        // groups of four per core, so how many groups depends on the machine).
        let vertexPieces = (mesh.vertexCount + 8_191) / 8_192
        #expect(calls == 1 + vertexPieces + 10)
        // Small pieces and groups: hundreds of groups on any machine, reused buffers, same bytes.
        #expect(streamed(mesh, itemsPerPiece: 997, piecesPerGroup: 3).bytes == expected)
    }

    @Test func piecesHoldWholeLinesOfTheirItems() {
        let mesh = awkwardMesh()
        let (bytes, pieces) = streamed(mesh, itemsPerPiece: 7, piecesPerGroup: 2)
        #expect(bytes == reference(mesh))
        // The header, then ⌈40/7⌉ = 6 pieces of vertices (three lines each) and ⌈30/7⌉ = 5 of faces.
        #expect(pieces.count == 1 + 6 + 5)
        func lines(_ piece: [UInt8]) -> Int { piece.filter { $0 == UInt8(ascii: "\n") }.count }
        #expect(pieces.allSatisfy { $0.last == UInt8(ascii: "\n") })
        #expect(pieces[1...6].map(lines) == [21, 21, 21, 21, 21, 15])
        #expect(pieces[7...11].map(lines) == [7, 7, 7, 7, 2])
        // A vertex is at most 208 bytes (eight numbers of at most 24 characters, tags, separators).
        #expect(pieces[1...6].allSatisfy { $0.count <= 7 * 208 })
    }

    @Test func writingStopsAtTheFirstError() {
        struct Full: Error {}
        let mesh = awkwardMesh()
        var calls = 0
        #expect(throws: Full.self) {
            try mesh.writeOBJ(itemsPerPiece: 5, piecesPerGroup: 2) { _ in
                calls += 1
                if calls == 3 { throw Full() }
            }
        }
        #expect(calls == 3)
    }

    @Test func emptyMeshIsTheHeaderAlone() {
        let mesh = TriangleMesh(space: .unit, positions: [], from: [], normals: [], triangles: [], sourceFaces: [])
        var pieces: [[UInt8]] = []
        mesh.writeOBJ { pieces.append($0) }
        #expect(pieces == [Array("# meshgeo: 0 vertices, 0 triangles, unit space\n".utf8)])
        #expect(mesh.objBytes() == reference(mesh))
    }
}
