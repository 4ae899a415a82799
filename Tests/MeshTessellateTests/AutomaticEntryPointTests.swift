import Foundation
import SurfaceKit
import Testing

@testable import MeshTessellate

private typealias I = IsolationSupport

/// Automatic steps mean the same everywhere: `Tessellator(mesh:)`, the one-call API, the adaptive
/// tessellator itself, `HitTester` (both ways of making one) and `MeshSummary` (what `meshgeo info`
/// prints) give the same triangles over the same points, whether the file or the options ask for
/// automatic steps.
@Suite struct AutomaticEntryPointTests {
    static func meshes() throws -> [(String, MeshDocument)] {
        let ripple = try AutomaticStepsTests.ripple(rows: 8, columns: 8)
        return [
            ("ripple", MeshDocument(mesh: ripple, layer: LayerProperties(size: SIMD2(300, 300)))),
            ("L", try I.lShape()), ("cube", try I.cube()), ("fan 5", try I.fan(valence: 5)),
        ]
    }

    @Test(arguments: [DiagonalPolicy.shortest, .center])
    func everyEntryPointMakesTheSameTriangles(policy: DiagonalPolicy) throws {
        for (name, document) in try Self.meshes() {
            let mesh = document.mesh, geometry = document.geometry
            for (label, options, fileSteps) in [
                ("file asks", TessellationOptions(diagonal: policy), SubdivisionSteps.automatic),
                ("options ask", TessellationOptions(steps: .automatic, diagonal: policy, tolerance: 0.3), .fixed(3)),
            ] {
                var doc = document
                doc.mesh.subdivisionSteps = fileSteps
                let reference = try AdaptiveTessellator(mesh: mesh, options: options)
                    .tessellate(mesh, geometry: geometry, space: .points, tolerance: options.tolerance)
                let tessellator = try Tessellator(mesh: doc.mesh, options: options)
                #expect(tessellator.isAutomatic)
                let candidates: [(String, TriangleMesh)] = [
                    ("Tessellator(mesh:)", try tessellator.tessellate(doc.mesh, geometry: geometry, space: .points)),
                    ("Tessellator.tessellate", try Tessellator.tessellate(doc, options: options, space: .points)),
                    ("HitTester(document:)", try HitTester(document: doc, options: options).mesh),
                    ("HitTester(tessellator:)", try HitTester(tessellator: tessellator, mesh: doc.mesh, geometry: geometry).mesh),
                ]
                for (entry, result) in candidates {
                    #expect(result.triangles == reference.mesh.triangles, "\(name), \(label): \(entry) triangles differ")
                    #expect(result.positions == reference.mesh.positions, "\(name), \(label): \(entry) points differ")
                    #expect(result.sourceFaces == reference.mesh.sourceFaces, "\(name), \(label): \(entry) faces differ")
                }
                // Unit space is the same triangles over the same points divided by the layer's scale.
                let unit = try Tessellator.tessellate(doc, options: options, space: .unit)
                #expect(unit.triangles == reference.mesh.triangles)
                let summary = try MeshSummary(document: doc, options: options)
                #expect(summary.automatic == reference.report, "\(name), \(label): info differs")
                #expect(summary.triangleCount == reference.mesh.triangleCount)
                #expect(summary.pointCount == reference.mesh.vertexCount)
            }
        }
    }

    /// Fixed steps still go the uniform way: a Tessellator for them is not automatic, and its
    /// triangle count is faces × 2 × 4ⁿ.
    @Test func fixedStepsStayUniform() throws {
        let document = try I.lShape()
        let tessellator = try Tessellator(mesh: document.mesh, options: TessellationOptions(steps: .fixed(2)))
        #expect(!tessellator.isAutomatic)
        let mesh = try tessellator.tessellate(document.mesh, geometry: document.geometry, space: .points)
        #expect(mesh.triangleCount == 3 * 2 * 16)
    }
}
