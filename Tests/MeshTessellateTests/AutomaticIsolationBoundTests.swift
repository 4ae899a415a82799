import Foundation
import SurfaceKit
import Testing

@testable import MeshTessellate

private typealias I = IsolationSupport

/// The corner fans at irregular vertices, with the sampled bound that lets isolation stop sooner:
/// measured against uniform refinement two levels deeper than the isolation, so that most of each
/// corner fan (all but the last quarter of its square next to the vertex) is measured against the
/// surface rather than trusted to the bound; and the triangle counts the shallower isolation gives.
@Suite struct AutomaticIsolationBoundTests {
    /// The cube and the valence-3 fan at the default tolerance: every measured point within τ, the
    /// fans' points included, and watertight.
    @Test(arguments: ["cube", "fan 3"])
    func cornerFansAreWithinTheTolerance(name: String) throws {
        let document = name == "cube" ? try I.cube() : try I.fan(valence: 3)
        let mesh = document.mesh
        let tolerance = AdaptiveTessellator.defaultTolerance(for: document.geometry)
        let result = try AdaptiveTessellator(mesh: mesh).tessellate(
            mesh, geometry: document.geometry, space: .points, keepParameters: true)
        #expect(result.report.largestCornerBound <= tolerance)
        #expect(try I.watertightProblems(result, mesh: mesh) == 0)
        let depth = result.report.deepestIsolation
        try #require(depth <= 6, "\(name): isolated \(depth) levels, too deep for the reference")
        var reference = try I.UniformReference(mesh, steps: depth + 2)
        let measured = try I.deviation(of: result, reference: &reference, scale: document.geometry.pointScale)
        #expect(measured.worst <= tolerance * (1 + 1e-9), "\(name): \(measured.worst) > \(tolerance)")
        // Triangles inside the corner squares, which only the bound covers in the other tests.
        let parameters = try #require(result.parameters)
        var inFans = 0
        for t in result.mesh.triangles.indices {
            let centroid = (parameters[3 * t] + parameters[3 * t + 1] + parameters[3 * t + 2]) / 3
            let size = Double(sign: .plus, exponent: -depth, significand: 1)
            let nearCorner = [SIMD2(0.0, 0), SIMD2(1, 0), SIMD2(1, 1), SIMD2(0, 1)].contains { c in
                max(abs(centroid.x - c.x), abs(centroid.y - c.y)) < size
            }
            if nearCorner { inFans += 1 }
        }
        #expect(inFans > 0, "\(name)")
    }

    /// Triangle counts at the default tolerance, each under the figure reached with the sampled
    /// bound (the control-point bound alone gave 763, 2,688 and 12,480).
    @Test func fewerTrianglesAtIrregularVertices() throws {
        let caps: [(String, MeshDocument, Int)] = [
            ("L", try I.lShape(), 508), ("cube", try I.cube(), 2_310), ("icosahedron", try I.icosahedron(), 6_000),
        ]
        for (name, document, cap) in caps {
            let result = try AdaptiveTessellator(mesh: document.mesh).tessellate(
                document.mesh, geometry: document.geometry, space: .points)
            #expect(result.mesh.triangleCount <= cap, "\(name): \(result.mesh.triangleCount) triangles")
            #expect(result.report.worstDeviation <= AdaptiveTessellator.defaultTolerance(for: document.geometry))
        }
    }
}
