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

private typealias S = TessSupport

@Suite struct AutomaticDenseLatticeTests {
    /// Barycentric weights (i, j, k)/20 with i + j + k = 20.
    static let lattice: [SIMD3<Double>] = (0...20).flatMap { i in
        (0...(20 - i)).map { j in SIMD3(Double(i), Double(j), Double(20 - i - j)) / 20 }
    }

    static func deviation(of mesh: TriangleMesh, surface: AutomaticStepsTests.GridSurface, scale: SIMD3<Double>) -> Double {
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
            let deviation = AutomaticDenseLatticeTests.deviation(of: result.mesh, surface: surface, scale: document.geometry.pointScale)
            #expect(deviation <= ripple.tolerance / 1.005, "\(policy): \(deviation) pt against τ \(ripple.tolerance)")
            #expect(result.report.worstDeviation <= ripple.tolerance)
        }
    }
}
