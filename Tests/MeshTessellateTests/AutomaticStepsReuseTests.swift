import Foundation
import SurfaceKit
import Testing

@testable import MeshTessellate

// Automatic steps search cells on all cores and skip work an earlier round already did: a cell
// drawn alike (`CellDrawing.alike`) keeps its measured deviation, and a passing cell that found
// no cheaper drawing is not searched again. Neither may change a bit of the output: checked
// against one thread and against measuring and searching every cell.

@Suite struct AutomaticStepsReuseTests {
    /// A mesh that takes several rounds (a held-out ripple whose cells grow) and one with an
    /// irregular vertex; small enough for a debug build.
    static func meshes() throws -> [(name: String, document: MeshDocument, tolerance: Double?)] {
        var meshes: [(String, MeshDocument, Double?)] = []
        for ripple in [AutomaticRippleFamilyTests.ripples[2]] {
            meshes.append(("\(ripple)", AutomaticStepsTests.document(try ripple.mesh(), size: ripple.side), ripple.tolerance))
        }
        meshes.append(("fan 5", try IsolationSupport.fan(valence: 5), nil))
        return meshes
    }

    static func same(_ a: [Point3D], _ b: [Point3D]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { p, q in (0..<3).allSatisfy { p[$0].bitPattern == q[$0].bitPattern } }
    }

    /// On 2 threads (the cells' searches split into 2 parts), the shortest and centre diagonals
    /// give the same triangles, positions, normals, rounds and largest deviation as on one thread.
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
                for threads in [2] {
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

    /// A build that takes over the samples of the build before it (``EarlierSamples``) where
    /// the layouts sample alike writes every sample's parameters, position and normal with the
    /// bits that sampling them all again gives: after cells across the mesh take denser rates
    /// (their sides, their neighbours' sides and their insides change; the rest are as they
    /// were), on a ripple and on meshes with an irregular vertex, on both diagonals that sample
    /// differently inside (`center` samples cells' centres).
    @Test func samplesTakenOverAreTheSamplesEvaluated() throws {
        let ripple = AutomaticRippleFamilyTests.ripples[2]
        let documents = [
            ("\(ripple)", AutomaticStepsTests.document(try ripple.mesh(), size: ripple.side), ripple.tolerance),
            ("fan 5", try IsolationSupport.fan(valence: 5), nil), ("L", try IsolationSupport.lShape(), nil),
        ]
        for (name, document, tolerance) in documents {
            for policy in [DiagonalPolicy.shortest, .center] {
                let mesh = document.mesh, scale = document.geometry.pointScale
                let tolerance = tolerance ?? AdaptiveTessellator.defaultTolerance(for: document.geometry)
                let surfaces = try AdaptiveTessellator(mesh: mesh).surfaces
                let control = FaceSurfaces.homogeneous(vertices: mesh.vertices, weights: surfaces.topology.vertexWeights(faces: mesh.faces))
                let patches = AdaptiveTessellator.patches(surfaces: surfaces, control: control)
                let isolations = try AdaptiveTessellator.isolations(
                    surfaces: surfaces, control: control, scale: scale, tolerance: tolerance)
                var isolationOfVertex: [Int: Int32] = [:]
                for (i, isolation) in isolations.enumerated() { isolationOfVertex[isolation.vertex] = Int32(i) }
                let cells = try AdaptiveCell.cells(surfaces: surfaces, patches: patches, isolations: isolations).cells
                var rates = try CellRates.estimate(cells: cells, scale: scale, policy: policy, tolerance: tolerance)
                func layout() throws -> AdaptiveLayout {
                    try AdaptiveLayout(
                        surfaces: surfaces, cells: cells, isolationOfVertex: isolationOfVertex, rates: rates, policy: policy,
                        maximumTriangles: 1 << 30)
                }
                func build(_ layout: AdaptiveLayout, earlier: EarlierSamples?) -> AdaptiveBuild {
                    AdaptiveBuild(cells: cells, layout: layout, isolations: isolations, scale: scale, policy: policy, earlier: earlier)
                }
                let previousLayout = try layout()
                let previous = build(previousLayout, earlier: nil)
                // Every fifth cell on a patch takes one segment more each way.
                let grown = cells.indices.filter { cells[$0].patch != nil && $0 % 5 == 0 }
                #expect(!grown.isEmpty, "\(name)")
                for c in grown {
                    rates.u[c] = min(rates.u[c] + 1, AdaptiveTessellator.maximumRate)
                    rates.v[c] = min(rates.v[c] + 1, AdaptiveTessellator.maximumRate)
                }
                let next = try layout()
                let earlier = EarlierSamples(layout: previousLayout, build: previous)
                let fresh = build(next, earlier: nil), reused = build(next, earlier: earlier)
                #expect(reused.from.count == fresh.from.count)
                #expect(
                    zip(reused.from, fresh.from).allSatisfy { $0.x.bitPattern == $1.x.bitPattern && $0.y.bitPattern == $1.y.bitPattern },
                    "\(name), \(policy)")
                #expect(AutomaticStepsReuseTests.same(reused.unitPositions, fresh.unitPositions), "\(name), \(policy)")
                #expect(AutomaticStepsReuseTests.same(reused.normals, fresh.normals), "\(name), \(policy)")
                #expect(reused.triangles == fresh.triangles)
                // Not empty: nodes, segments and insides were taken over (counted into scratch).
                let copied = AutomaticStepsReuseTests.copies(earlier, layout: next, policy: policy)
                #expect(copied.nodes > 0 && copied.segments > 0, "\(name), \(policy): \(copied)")
                #expect(copied.insides > 0, "\(name), \(policy): \(copied)")
            }
        }
    }

    /// How many nodes, segments and cell insides `earlier` takes over into a build of `layout`.
    static func copies(_ earlier: EarlierSamples, layout: AdaptiveLayout, policy: DiagonalPolicy) -> (
        nodes: Int, segments: Int, insides: Int
    ) {
        let count = layout.vertexCount
        var from = [LayerPoint](repeating: .zero, count: count)
        var to = [Point3D](repeating: .zero, count: count), normals = [Point3D](repeating: .zero, count: count)
        var counted = (nodes: 0, segments: 0, insides: 0)
        from.withUnsafeMutableBufferPointer { pf in
            to.withUnsafeMutableBufferPointer { pt in
                normals.withUnsafeMutableBufferPointer { pn in
                    guard let bf = pf.baseAddress, let bt = pt.baseAddress, let bn = pn.baseAddress else { return }
                    let out = AdaptiveBuild.SampleOutput(
                        from: SharedMutableBuffer(base: bf), to: SharedMutableBuffer(base: bt), normals: SharedMutableBuffer(base: bn))
                    counted.nodes =
                        layout.nodes.indices.filter {
                            layout.nodes[$0] != .pending && earlier.copyNode($0, layout: layout, out: out)
                        }.count
                    counted.segments =
                        layout.segments.indices.filter {
                            layout.segments[$0].rate > 1 && earlier.copySegment($0, layout: layout, out: out)
                        }.count
                    counted.insides =
                        layout.kind.indices.filter {
                            // A single quad has no inner sample but its centre.
                            (layout.kind[$0] == .single ? policy.needsCenters : [.ring, .rows, .columns].contains(layout.kind[$0]))
                                && earlier.copyInside(cell: $0, layout: layout, policy: policy, out: out)
                        }.count
                }
            }
        }
        return counted
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
