import Foundation
import SurfaceKit
import Testing

@testable import MeshTessellate

// The ripple target of automatic steps on ripples chosen for this file and not used to tune the
// rates: z = a·sin(2πf·|p − c|) on grids of other shapes, frequencies, centres, layers and
// tolerances. Each triangle is measured against the B-spline surface that
// `AutomaticStepsTests.GridSurface` writes out independently of the library, at 28 points (a
// lattice of barycentric sixths, corners included), which is denser than the ten points the
// library measures itself; watertightness is checked by counting edges.

private typealias S = TessSupport

@Suite struct AutomaticRippleFamilyTests {
    /// Each held to the 0.35 target (Docs/automatic-steps.md). The 26 × 16 ripple, whose fewest
    /// uniform steps meeting τ only just meet it, is the closest: 0.349 of uniform.
    static let ripples: [AutomaticStepsTests.HeldOutRipple] = [
        .init(rows: 14, columns: 18, frequency: 2, amplitude: 0.045, centre: SIMD2(0.4, 0.65), side: 600, tolerance: 0.25),
        .init(rows: 26, columns: 16, frequency: 3.2, amplitude: 0.03, centre: SIMD2(0.58, 0.47), side: 800, tolerance: 0.35),
        .init(rows: 10, columns: 14, frequency: 1.6, amplitude: 0.05, centre: SIMD2(0.3, 0.35), side: 400, tolerance: 0.15),
    ]

    /// Barycentric weights (i, j, k)/n with i + j + k = n: (n + 1)(n + 2)/2 points of a triangle.
    static func lattice(_ n: Int) -> [SIMD3<Double>] {
        (0...n).flatMap { i in (0...(n - i)).map { j in SIMD3(Double(i), Double(j), Double(n - i - j)) / Double(n) } }
    }

    /// Barycentric sixths: 28 points of a triangle.
    static let lattice = lattice(6)

    /// The largest distance, in points, between a point of a triangle and the surface point with
    /// the same parameters, over `lattice` of every triangle.
    static func deviation(
        of mesh: TriangleMesh, surface: AutomaticStepsTests.GridSurface, scale: SIMD3<Double>, lattice: [SIMD3<Double>] = lattice
    ) -> Double {
        var worst = 0.0
        for t in mesh.triangles {
            let k = [Int(t.x), Int(t.y), Int(t.z)]
            for w in lattice {
                let from = w.x * mesh.from[k[0]] + w.y * mesh.from[k[1]] + w.z * mesh.from[k[2]]
                let linear = w.x * mesh.positions[k[0]] + w.y * mesh.positions[k[1]] + w.z * mesh.positions[k[2]]
                worst = max(worst, S.norm(surface.point(at: from) * scale - linear))
            }
        }
        return worst
    }

    /// The fewest uniform steps (0 to 4) whose triangles are all within τ at the lattice points.
    static func fewestUniformTriangles(_ document: MeshDocument, surface: AutomaticStepsTests.GridSurface, tolerance: Double) throws
        -> Int?
    {
        for n in 0...4 {
            let uniform = try Tessellator.tessellate(document, options: TessellationOptions(steps: .fixed(n)), space: .points)
            if deviation(of: uniform, surface: surface, scale: document.geometry.pointScale) <= tolerance { return uniform.triangleCount }
        }
        return nil
    }

    /// Every triangle within τ, watertight, for every diagonal policy; with the default one, at
    /// most 0.35 of the triangles of the fewest uniform steps that are within τ, measured alike.
    @Test(arguments: ripples)
    func rippleWithinToleranceWithFewTriangles(ripple: AutomaticStepsTests.HeldOutRipple) throws {
        let mesh = try ripple.mesh()
        let document = AutomaticStepsTests.document(mesh, size: ripple.side)
        let surface = AutomaticStepsTests.GridSurface(mesh: mesh, rows: ripple.rows, columns: ripple.columns)
        let scale = document.geometry.pointScale
        var automatic: [DiagonalPolicy: Int] = [:]
        for policy in [DiagonalPolicy.shortest, .first, .second, .center] {
            let result = try AdaptiveTessellator(mesh: mesh, options: TessellationOptions(diagonal: policy)).tessellate(
                mesh, geometry: document.geometry, space: .points, tolerance: ripple.tolerance)
            let deviation = AutomaticRippleFamilyTests.deviation(of: result.mesh, surface: surface, scale: scale)
            #expect(deviation <= ripple.tolerance, "\(policy): \(deviation) pt over τ")
            AutomaticStepsTests.checkWatertight(result.mesh)
            automatic[policy] = result.mesh.triangleCount
        }
        let uniformTriangles = try AutomaticRippleFamilyTests.fewestUniformTriangles(
            document, surface: surface, tolerance: ripple.tolerance)
        let uniform = Double(try #require(uniformTriangles))
        let share = Double(try #require(automatic[.shortest])) / uniform
        #expect(share <= ripple.mostOfUniform, "\(automatic) triangles, \(share) of uniform's \(uniform)")
    }
}
