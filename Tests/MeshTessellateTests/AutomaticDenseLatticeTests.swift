import Foundation
import SurfaceKit
import Testing

@testable import MeshTessellate

// Every triangle of automatic steps within τ between, not only at, the points the library
// measures: on held-out ripples where triangles sit close to τ, each triangle is measured
// against the B-spline surface that `AutomaticStepsTests.GridSurface` writes out independently of
// the library, at barycentric twentieths (231 points, a lattice other than the library's twelfths
// and twenty-fourths, without its thirds). The ten points the library once relied on alone read some of these
// triangles (along a border, in joining rings) up to a third low: the 26 × 16 ripple measured
// 0.3548 pt against τ 0.35 here while its ten points read 0.3464.

@Suite struct AutomaticDenseLatticeTests {
    /// Barycentric twentieths: 231 points of a triangle.
    static let lattice = AutomaticRippleFamilyTests.lattice(20)

    static let ripples: [AutomaticStepsTests.HeldOutRipple] = [
        AutomaticRippleFamilyTests.ripples[1], AutomaticRippleFamilyTests.ripples[2],
        .init(rows: 24, columns: 24, frequency: 2, amplitude: 0.04, centre: SIMD2(0.45, 0.55), side: 1000, tolerance: 0.35),
    ]

    /// Within τ at the lattice, with a margin of half a percent, for every diagonal policy; the
    /// report's largest deviation is at most τ too.
    @Test(arguments: ripples)
    func withinToleranceAtDenseLattice(ripple: AutomaticStepsTests.HeldOutRipple) throws {
        let mesh = try ripple.mesh()
        let document = AutomaticStepsTests.document(mesh, size: ripple.side)
        let surface = AutomaticStepsTests.GridSurface(mesh: mesh, rows: ripple.rows, columns: ripple.columns)
        for policy in DiagonalPolicy.allCases {
            let result = try AdaptiveTessellator(mesh: mesh, options: TessellationOptions(diagonal: policy)).tessellate(
                mesh, geometry: document.geometry, space: .points, tolerance: ripple.tolerance)
            let deviation = AutomaticRippleFamilyTests.deviation(
                of: result.mesh, surface: surface, scale: document.geometry.pointScale, lattice: AutomaticDenseLatticeTests.lattice)
            #expect(deviation <= ripple.tolerance / 1.005, "\(policy): \(deviation) pt against τ \(ripple.tolerance)")
            #expect(result.report.worstDeviation <= ripple.tolerance)
        }
    }
}
