import Foundation
import SurfaceKit
import Testing

@testable import MeshTessellate

// Cells that miss τ grow inside, keeping their sides' samples (`CellRates.searchInteriors`), and
// strips zip by the shorter diagonal. Checked against the B-spline surface that
// `AutomaticStepsTests.GridSurface` writes out independently of the library, at ten points of
// every triangle, and by counting edges.

@Suite struct AutomaticInteriorTests {
    /// More ripples than the rates were tuned on (other grids, frequencies, centres, layers), each
    /// held to the 0.35 target (Docs/automatic-steps.md).
    static let ripples: [AutomaticStepsTests.HeldOutRipple] = [
        .init(rows: 18, columns: 26, frequency: 2.2, amplitude: 0.035, centre: SIMD2(0.52, 0.38), side: 900, tolerance: 0.3),
        .init(rows: 22, columns: 14, frequency: 1.8, amplitude: 0.05, centre: SIMD2(0.35, 0.4), side: 700, tolerance: 0.4),
        .init(rows: 12, columns: 12, frequency: 2.7, amplitude: 0.04, centre: SIMD2(0.6, 0.6), side: 500, tolerance: 0.2),
    ]

    /// Growing a failing cell inside changes no segment's samples: every side keeps its rate, so
    /// no neighbour is redrawn; each grown cell is drawn around a grid of its own (in a ring or
    /// strips, as chosen) and measures within τ in the next build.
    @Test func refiningInteriorsKeepsEverySide() throws {
        let ripple = AutomaticStepsTests.heldOutRipples[1]
        let mesh = try ripple.mesh()
        let document = AutomaticStepsTests.document(mesh, size: ripple.side)
        let tessellator = try AdaptiveTessellator(mesh: mesh)
        let surfaces = tessellator.surfaces
        let scale = document.geometry.pointScale
        let control = FaceSurfaces.homogeneous(vertices: mesh.vertices, weights: surfaces.topology.vertexWeights(faces: mesh.faces))
        let patches = AdaptiveTessellator.patches(surfaces: surfaces, control: control)
        let cells = try AdaptiveCell.cells(surfaces: surfaces, patches: patches, isolations: []).cells
        var rates = try CellRates.estimate(cells: cells, scale: scale, policy: .shortest, tolerance: ripple.tolerance)
        let before = try AdaptiveLayout(
            surfaces: surfaces, cells: cells, isolationOfVertex: [:], rates: rates, policy: .shortest, maximumTriangles: 1 << 30)
        let built = AdaptiveBuild(cells: cells, layout: before, isolations: [], scale: scale, policy: .shortest)
        let failing = cells.indices.filter { !(built.deviations[$0] <= ripple.tolerance / AdaptiveTessellator.unmeasuredMargin) }
        #expect(!failing.isEmpty, "the first round of this ripple has cells over τ to grow")
        let search = InteriorSearch(
            cells: cells, layout: before, points: built.unitPositions.map { $0 * scale },
            sampler: FaceSampler(cells: cells, isolations: [], scale: scale), policy: .shortest, scale: scale)
        let left = rates.searchInteriors(failing, search: search, tolerance: ripple.tolerance)
        #expect(left.isEmpty)
        let after = try AdaptiveLayout(
            surfaces: surfaces, cells: cells, isolationOfVertex: [:], rates: rates, policy: .shortest, maximumTriangles: 1 << 30)
        #expect(after.segments.map(\.rate) == before.segments.map(\.rate))
        #expect(after.nodes.count == before.nodes.count)
        let rebuilt = AdaptiveBuild(cells: cells, layout: after, isolations: [], scale: scale, policy: .shortest)
        for c in failing {
            let shapes: [CellRates.InteriorShape: AdaptiveLayout.Kind] = [.ring: .ring, .rows: .rows, .columns: .columns]
            #expect(after.kind[c] == shapes[rates.shape(c)])
            #expect(rates.interiorGrid(c) == SIMD2(after.nu[c], after.nv[c]))
            #expect(rebuilt.deviations[c] <= ripple.tolerance / AdaptiveTessellator.unmeasuredMargin)
        }
    }

    /// On ripples the rates were not tuned on, every diagonal policy stays within τ (ten points of
    /// every triangle against the written-out surface) and watertight, and the default takes at
    /// most 0.35 of the fewest uniform steps meeting τ, measured the same way.
    @Test(arguments: ripples)
    func moreRipplesWithinToleranceWithFewTriangles(ripple: AutomaticStepsTests.HeldOutRipple) throws {
        let mesh = try ripple.mesh()
        let document = AutomaticStepsTests.document(mesh, size: ripple.side)
        let surface = AutomaticStepsTests.GridSurface(mesh: mesh, rows: ripple.rows, columns: ripple.columns)
        let scale = document.geometry.pointScale
        var automatic: [DiagonalPolicy: Int] = [:]
        for policy in [DiagonalPolicy.shortest, .first, .second, .center] {
            let result = try AdaptiveTessellator(mesh: mesh, options: TessellationOptions(diagonal: policy)).tessellate(
                mesh, geometry: document.geometry, space: .points, tolerance: ripple.tolerance)
            let deviation = surface.deviation(of: result.mesh, scale: scale)
            #expect(deviation <= ripple.tolerance, "\(policy): \(deviation) pt over τ")
            AutomaticStepsTests.checkWatertight(result.mesh)
            automatic[policy] = result.mesh.triangleCount
        }
        let uniformTriangles = try AutomaticStepsTests.fewestUniformTriangles(
            document, surface: surface, tolerance: ripple.tolerance)
        let uniform = Double(try #require(uniformTriangles))
        let share = Double(try #require(automatic[.shortest])) / uniform
        #expect(share <= ripple.mostOfUniform, "\(automatic) triangles, \(share) of uniform's \(uniform)")
    }
}
