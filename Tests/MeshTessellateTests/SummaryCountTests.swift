import Testing

@testable import MeshTessellate
@testable import SurfaceKit

/// `info`'s counts at any number of steps: exact where they fit an Int (checked against what the
/// tessellator makes), saturated beyond, never trapping.
@Suite struct SummaryCountTests {
    @Test(arguments: [(2, 3), (1, 1), (5, 2)])
    func countsMatchTheTessellation(rows: Int, columns: Int) throws {
        let mesh = try MeshTransform.identity(rows: rows, columns: columns)
        let document = MeshDocument(mesh: mesh)
        for steps in 0...3 {
            let options = TessellationOptions(steps: .fixed(steps), diagonal: .first)
            let summary = try MeshSummary(document: document, options: options)
            let triangles = try Tessellator.tessellate(document, options: options, space: .unit)
            #expect(summary.pointCount == triangles.vertexCount, "steps \(steps)")
            #expect(summary.triangleCount == triangles.triangleCount, "steps \(steps)")
            // And the closed forms: a grid of R × C faces refined 2ⁿ times per side.
            let side = 1 << steps
            #expect(summary.pointCount == (rows * side + 1) * (columns * side + 1))
            #expect(summary.triangleCount == 2 * rows * columns * side * side)
        }
    }

    @Test func largeStepsSaturateInsteadOfOverflowing() throws {
        // V = 9, E = 12, F = 4 (a 2 × 2 grid). Steps 30: triangles 2·4·4³⁰ = 2⁶⁶ do not fit.
        let thirty = MeshSummary.uniformCounts(vertices: 9, edges: 12, faces: 4, steps: 30)
        #expect(MeshSummary.isSaturated(thirty.triangles))
        let side = (1 << 30) - 1
        #expect(thirty.points == 9 + 12 * side + 4 * side * side)
        // Steps 29: 2·4·4²⁹ = 2⁶¹ fits exactly.
        #expect(MeshSummary.uniformCounts(vertices: 9, edges: 12, faces: 4, steps: 29).triangles == 1 << 61)
        for steps in [31, 62, 63, 64, 1000, Int(Int32.max)] {
            let counts = MeshSummary.uniformCounts(vertices: 9, edges: 12, faces: 4, steps: steps)
            #expect(MeshSummary.isSaturated(counts.points) && MeshSummary.isSaturated(counts.triangles), "steps \(steps)")
        }
        // No faces: nothing to refine, whatever the steps.
        #expect(MeshSummary.uniformCounts(vertices: 3, edges: 0, faces: 0, steps: 1000) == (3, 0))
        // Through the summary itself, from a document with steps 30.
        let mesh = try MeshTransform.identity(rows: 2, columns: 2, subdivisionSteps: .fixed(30))
        let summary = try MeshSummary(document: MeshDocument(mesh: mesh))
        #expect(MeshSummary.isSaturated(summary.triangleCount))
    }

    @Test func theFinalGuardRefusesNonFiniteNumbers() throws {
        let document = MeshDocument(mesh: try MeshTransform.identity(rows: 1, columns: 1))
        let mesh = try Tessellator.tessellate(document, options: TessellationOptions(steps: .fixed(1)), space: .unit)
        try mesh.checkFinite(asFloat32: true)
        var broken = mesh
        broken.normals[3].y = .nan
        #expect(throws: MeshError.self) { try broken.checkFinite() }
        broken = mesh
        broken.from[0].x = -.infinity
        #expect(throws: MeshError.self) { try broken.checkFinite() }
        // Finite as a Double, infinite as a Float: refused for glb and PLY only.
        broken = mesh
        broken.positions[2].z = 1e39
        try broken.checkFinite()
        #expect(throws: MeshError.self) { try broken.checkFinite(asFloat32: true) }
    }
}
