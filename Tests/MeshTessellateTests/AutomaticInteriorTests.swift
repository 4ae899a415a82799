import Foundation
import SurfaceKit
import Testing

@testable import MeshTessellate

// Cells that miss τ grow inside, keeping their sides' samples (`CellRates.searchInteriors`), or
// take a grid as dense as their sides where that is cheaper (`InteriorSearch.raisedGrid`), and
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
        let round = try FirstRound(AutomaticStepsTests.heldOutRipples[1])
        let (ripple, cells, scale, before, built) = (round.ripple, round.cells, round.scale, round.layout, round.built)
        var rates = round.rates
        let failing = cells.indices.filter { !(built.deviations[$0] <= ripple.tolerance / AdaptiveTessellator.unmeasuredMargin) }
        #expect(!failing.isEmpty, "the first round of this ripple has cells over τ to grow")
        let left = rates.searchInteriors(failing, search: round.search, tolerance: ripple.tolerance, raising: false)
        #expect(left.unserved.isEmpty && !left.raised)
        let after = try round.layout(rates)
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

    /// A failing cell drawn from its own rates takes, where it costs fewer triangles than the
    /// cheapest interior that passes, a grid with at least its sides' rates and at most one
    /// segment more each way: rates only grow, and every side it touches gains only what the
    /// grid asks. Checked on the 26 × 16 held-out ripple, whose first round has such cells.
    @Test func failingCellsTakeTheirSidesRatesWhereCheaper() throws {
        let round = try FirstRound(AutomaticRippleFamilyTests.ripples[1])
        let (ripple, mesh, cells, scale, layout, built) = (round.ripple, round.mesh, round.cells, round.scale, round.layout, round.built)
        var rates = round.rates
        let before = rates
        let target = ripple.tolerance / AdaptiveTessellator.unmeasuredMargin
        let failing = cells.indices.filter { !(built.deviations[$0] <= target) }
        let search = round.search
        let result = rates.searchInteriors(failing, search: search, tolerance: ripple.tolerance)
        let raised = failing.filter { rates.u[$0] != before.u[$0] || rates.v[$0] != before.v[$0] }
        #expect(result.raised == !raised.isEmpty)
        #expect(!raised.isEmpty, "the first round of this ripple has cells whose sides' rates are cheaper")
        var scratch = search.points
        var out: [SIMD3<Int32>] = []
        for c in raised {
            let sides = (0..<4).map { layout.sideRate(c, $0) }
            let (nu, nv) = (rates.u[c], rates.v[c])
            #expect(nu >= max(before.u[c], sides[0], sides[2]) && nu <= max(before.u[c], sides[0], sides[2]) + 1)
            #expect(nv >= max(before.v[c], sides[1], sides[3]) && nv <= max(before.v[c], sides[1], sides[3]) + 1)
            #expect(rates.interiorGrid(c) == nil)
            // Cheaper, counting what it adds to its sides, than any interior that passes.
            let added = 2 * nu + 2 * nv - sides.reduce(0, +)
            let cost = 2 * nu * nv + InteriorSearch.sideGrowthCost * added
            let limit = 2 * max(sides.max() ?? 2, 2)
            if let interior = search.cheapestPassing(
                cell: c, least: 0, excluding: CellRates.drawnInterior(c, layout: layout), limit: limit, target: target,
                scratch: &scratch, out: &out)
            {
                #expect(cost < interior.cost)
            }
        }
        // The raised grids, drawn alone, are within τ at 28 points of every triangle against the
        // B-spline surface written out independently of the library.
        let surface = AutomaticStepsTests.GridSurface(mesh: mesh, rows: ripple.rows, columns: ripple.columns)
        for c in raised {
            // The face's (u, v) square in the layer: the grid's faces are axis-aligned.
            let face = mesh.faces[cells[c].face].indices
            let origin = mesh.vertices[Int(face[0])].from, size = mesh.vertices[Int(face[2])].from - origin
            let (nu, nv) = (rates.u[c], rates.v[c])
            var worst = 0.0
            for j in 0..<nv {
                for i in 0..<nu {
                    // The square's corners on the surface, split by the shorter diagonal in space.
                    func from(_ a: Int, _ b: Int) -> SIMD2<Double> {
                        origin + SIMD2(Double(a) / Double(nu), Double(b) / Double(nv)) * size
                    }
                    let q = [from(i, j), from(i + 1, j), from(i + 1, j + 1), from(i, j + 1)]
                    let p = q.map { surface.point(at: $0) * scale }
                    let first = TessSupport.norm(p[0] - p[2]) <= TessSupport.norm(p[1] - p[3])
                    let triangles = first ? [[0, 1, 2], [0, 2, 3]] : [[0, 1, 3], [1, 2, 3]]
                    for t in triangles {
                        for w in AutomaticRippleFamilyTests.lattice {
                            let at = w.x * q[t[0]] + w.y * q[t[1]] + w.z * q[t[2]]
                            let linear = w.x * p[t[0]] + w.y * p[t[1]] + w.z * p[t[2]]
                            worst = max(worst, TessSupport.norm(surface.point(at: at) * scale - linear))
                        }
                    }
                }
            }
            #expect(worst <= ripple.tolerance, "cell \(c): \(worst) pt")
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
