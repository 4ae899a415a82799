import SurfaceKit
import Testing

@testable import MeshTessellate

// The listing the exact sort builds on (see `Tessellator.triangulate`), checked on real output: a
// quad's triangles at 2k and 2k + 1 sharing its diagonal, the pair winding as the quad, and the
// quads of a face row by row, each sharing a side with the one before it and with one a fixed
// number of quads back.

@Suite struct TessellatorListingTests {
    /// The directed edges of a triangle.
    private func runs(_ t: SIMD3<Int32>) -> [SIMD2<Int32>] { [SIMD2(t.x, t.y), SIMD2(t.y, t.z), SIMD2(t.z, t.x)] }

    /// The vertices two quads (as corner sets) have in common.
    private func shared(_ a: Set<Int32>, _ b: Set<Int32>) -> Int { a.intersection(b).count }

    @Test(arguments: ExampleMesh.allCases)
    func aQuadsTwoTrianglesFollowEachOtherAndShareItsDiagonal(example: ExampleMesh) throws {
        let document = example.document
        let steps = example == .ripple ? 1 : 2
        for diagonal in DiagonalPolicy.allCases where diagonal.trianglesPerQuad == 2 {
            let options = TessellationOptions(steps: .fixed(steps), diagonal: diagonal)
            let tessellator = try Tessellator(mesh: document.mesh, options: options)
            let plan = tessellator.plan
            let mesh = try tessellator.tessellate(document.mesh, geometry: document.geometry, space: .points)
            try #require(plan.isolatedVertexCount == 0, "the examples use every control vertex")
            #expect(mesh.triangleCount == 2 * plan.quadCount)
            var broken = 0
            for k in 0..<plan.quadCount {
                let first = mesh.triangles[2 * k], second = mesh.triangles[2 * k + 1]
                let c = plan.quad(k)
                let corners: Set<Int32> = [c[0], c[1], c[2], c[3]]
                // Together the quad's four corners; in common exactly one edge, run one way in the
                // first and the other way in the second (so the two wind the same way).
                let union = Set([first.x, first.y, first.z, second.x, second.y, second.z])
                let firstRuns = runs(first), secondRuns = runs(second)
                let common = firstRuns.filter { r in secondRuns.contains(SIMD2(r.y, r.x)) }
                let sameWay = firstRuns.contains { secondRuns.contains($0) }
                if union != corners || common.count != 1 || sameWay || mesh.sourceFaces[2 * k] != mesh.sourceFaces[2 * k + 1] {
                    broken += 1
                }
            }
            #expect(broken == 0, "\(example) \(diagonal): \(broken) quads listed otherwise")
        }
    }

    @Test(arguments: ExampleMesh.allCases)
    func theQuadsOfAFaceFollowRowByRow(example: ExampleMesh) throws {
        let document = example.document
        let steps = example == .ripple ? 1 : 2
        let side = 1 << steps
        let tessellator = try Tessellator(mesh: document.mesh, options: TessellationOptions(steps: .fixed(steps)))
        let plan = tessellator.plan
        let quadsOf = Dictionary(grouping: 0..<plan.quadCount) { plan.controlFace(ofQuad: $0) }
        for (face, quads) in quadsOf {
            // Every control face becomes side × side quads listed one after another.
            #expect(quads.count == side * side && quads == Array(quads[0]..<quads[0] + quads.count))
            let corners = quads.map { q in Set((0..<4).map { plan.quad(q)[$0] }) }
            // Along a row each quad shares a side (two corners) with the one before it; between
            // rows, every quad with the one `side` quads back.
            let alongRows = (1..<quads.count).filter { shared(corners[$0], corners[$0 - 1]) == 2 }.count
            let acrossRows = (side..<quads.count).filter { shared(corners[$0], corners[$0 - side]) == 2 }.count
            #expect(alongRows == side * (side - 1), "\(example) face \(face): \(alongRows) quads follow their left neighbour")
            #expect(acrossRows == side * (side - 1), "\(example) face \(face): \(acrossRows) quads follow the one a row back")
        }
    }

    @Test func theCentrePolicyListsFourTrianglesAQuadAroundItsCentre() throws {
        let document = ExampleMesh.wavy.document
        let options = TessellationOptions(steps: .fixed(2), diagonal: .center)
        let tessellator = try Tessellator(mesh: document.mesh, options: options)
        let plan = tessellator.plan
        let mesh = try tessellator.tessellate(document.mesh, geometry: document.geometry, space: .points)
        #expect(mesh.triangleCount == 4 * plan.quadCount)
        var broken = 0
        for k in 0..<plan.quadCount {
            let group = (0..<4).map { mesh.triangles[4 * k + $0] }
            let centre = Int32(plan.pointCount + k)
            if !group.allSatisfy({ $0.x == centre || $0.y == centre || $0.z == centre }) { broken += 1 }
        }
        #expect(broken == 0)
    }
}
