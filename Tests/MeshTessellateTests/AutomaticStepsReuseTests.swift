import Foundation
import SurfaceKit
import Testing

@testable import MeshTessellate

// Automatic steps search cells on all cores and skip work an earlier round already did: a cell
// drawn alike (`CellDrawing.alike`) keeps its measured deviation, and a passing cell that found
// no cheaper drawing is not searched again. Neither may change a bit of the output: checked
// against one thread and against measuring and searching every cell.

@Suite struct AutomaticStepsReuseTests {
    /// Meshes that take several rounds (held-out ripples whose cells grow) and one with an
    /// irregular vertex; small enough for a debug build.
    static func meshes() throws -> [(name: String, document: MeshDocument, tolerance: Double?)] {
        var meshes: [(String, MeshDocument, Double?)] = []
        for ripple in [AutomaticRippleFamilyTests.ripples[1], AutomaticStepsTests.heldOutRipples[1], AutomaticInteriorTests.ripples[2]] {
            meshes.append(("\(ripple)", AutomaticStepsTests.document(try ripple.mesh(), size: ripple.side), ripple.tolerance))
        }
        meshes.append(("fan 5", try IsolationSupport.fan(valence: 5), nil))
        return meshes
    }

    static func same(_ a: [Point3D], _ b: [Point3D]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { p, q in (0..<3).allSatisfy { p[$0].bitPattern == q[$0].bitPattern } }
    }

    /// On 2 and 5 threads (the cells' searches split into as many parts, at most the cores), the
    /// shortest and centre diagonals give the same triangles, positions, normals, rounds and largest deviation as on one thread.
    @Test func allCoresGiveTheOneThreadOutput() throws {
        for (name, document, tolerance) in try AutomaticStepsReuseTests.meshes() {
            for policy in [DiagonalPolicy.shortest, .center] {
                let tessellator = try AdaptiveTessellator(mesh: document.mesh, options: TessellationOptions(diagonal: policy))
                func run(_ threads: Int) throws -> AdaptiveTessellation {
                    try ParallelLimit.withThreads(threads) {
                        try tessellator.tessellate(document.mesh, geometry: document.geometry, space: .points, tolerance: tolerance)
                    }
                }
                let one = try run(1)
                for threads in [2, 5] {
                    let many = try run(threads)
                    #expect(many.mesh.triangles == one.mesh.triangles, "\(name), \(policy), \(threads) threads")
                    #expect(AutomaticStepsReuseTests.same(many.mesh.positions, one.mesh.positions), "\(name), \(policy)")
                    #expect(AutomaticStepsReuseTests.same(many.mesh.normals, one.mesh.normals), "\(name), \(policy)")
                    #expect(many.report.rounds == one.report.rounds)
                    #expect(many.report.worstDeviation.bitPattern == one.report.worstDeviation.bitPattern)
                }
            }
        }
    }

    /// After a round whose failing cells take denser rates (so sides change), a build that takes
    /// the deviations of the cells drawn alike from the round before gives every cell the
    /// deviation that measuring all of them gives, bit for bit; the cells next to the grown ones
    /// are measured again, most others not. And the passing cells' search for cheaper drawings,
    /// skipping those settled in the round before, changes exactly what searching all of them does.
    @Test func cellsDrawnAlikeKeepTheirMeasures() throws {
        let ripple = AutomaticRippleFamilyTests.ripples[1]
        let mark = ripple.tolerance / AdaptiveTessellator.unmeasuredMargin
        let round = try FirstRound(ripple, mark: mark)
        let (cells, scale) = (round.cells, round.scale)
        var rates = round.rates
        let failing = cells.indices.filter { !(round.built.deviations[$0] <= mark) }
        let passing = cells.indices.filter { cells[$0].patch != nil && round.built.deviations[$0] <= mark }
        let search = round.search
        let cheapened = rates.cheapenInteriors(passing, search: search, tolerance: ripple.tolerance)
        let settled = SettledCells(drawing: search.drawing, searched: passing, changed: cheapened)
        let result = rates.searchInteriors(failing, search: search, tolerance: ripple.tolerance)
        #expect(result.raised, "some failing cells of this ripple take their sides' rates")
        let layout = try round.layout(rates)
        let measured = MeasuredCells(
            deviations: round.built.deviations, unchanged: AdaptiveTessellator.unchanged(cells.count, except: failing + cheapened),
            earlier: search.drawing)
        let fresh = AdaptiveBuild(cells: cells, layout: layout, isolations: [], scale: scale, policy: .shortest, mark: mark)
        let reused = AdaptiveBuild(
            cells: cells, layout: layout, isolations: [], scale: scale, policy: .shortest, measured: measured, mark: mark)
        #expect(reused.deviations.map(\.bitPattern) == fresh.deviations.map(\.bitPattern))
        #expect(reused.triangles == fresh.triangles)
        let current = CellDrawing(cells: cells, layout: layout, points: fresh.unitPositions.map { $0 * scale })
        let alike = cells.indices.filter { measured.deviation($0, current: current) != nil }
        #expect(alike.count > cells.count / 2, "most cells keep their drawing")
        // A cell whose rates grew, and each cell sharing a side with it, is drawn otherwise.
        let grown = failing.filter { rates.u[$0] != round.rates.u[$0] || rates.v[$0] != round.rates.v[$0] }
        #expect(!grown.isEmpty)
        for c in grown { #expect(!CellDrawing.alike(c, search.drawing, current)) }
        // The next round's search for cheaper drawings, with and without the settled cells.
        let next = InteriorSearch(cells: cells, layout: layout, points: current.points, policy: .shortest, scale: scale)
        let stillPassing = cells.indices.filter { cells[$0].patch != nil && fresh.deviations[$0] <= mark }
        var all = rates, skipping = rates
        let everyCell = all.cheapenInteriors(stillPassing, search: next, tolerance: ripple.tolerance)
        let skipped = skipping.cheapenInteriors(stillPassing, search: next, tolerance: ripple.tolerance, settled: settled)
        #expect(skipped == everyCell)
        #expect(skipping.interior == all.interior && skipping.interiorShape == all.interiorShape)
        let settles = stillPassing.filter { settled.settles($0, current: current) && CellRates.drawnInterior($0, layout: layout) != nil }
        #expect(!settles.isEmpty, "some cells drawn inside a ring or strips are not searched again")
    }
}
