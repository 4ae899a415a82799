import Foundation
import SurfaceKit
import Testing

@testable import MeshTessellate

// Interiors drawn in strips, and cells that passed redrawn with fewer triangles
// (`CellRates.searchInteriors`, `CellRates.cheapenInteriors`). Checked by the triangles' (u, v)
// tiling each cell exactly (every triangle wound the face's way, their areas summing to the
// cell's), by triangle counts written out here from the strips' shape, and against the B-spline
// surface that `AutomaticStepsTests.GridSurface` writes out independently of the library.

@Suite struct AutomaticStripInteriorTests {
    /// The held-out ripple whose first round has the most cells over τ (Docs/automatic-steps.md).
    static let ripple = AutomaticRippleFamilyTests.ripples[1]

    /// The triangles of a cell drawn in `count` strips of `along` squares (two triangles each),
    /// whose first strip's outer side has `first` segments and last's `last`, evenly spaced or
    /// not: a strip between two lines of `along` evenly spaced segments is squares; a strip
    /// against a side sampled otherwise is a zipper, one triangle per segment of either line.
    static func stripTriangles(count: Int, along: Int, first: Int, firstEven: Bool, last: Int, lastEven: Bool) -> Int {
        (0..<count).reduce(0) { sum, s in
            let lower = s == 0 ? (first == along && firstEven ? nil : first) : nil
            let upper = s == count - 1 ? (last == along && lastEven ? nil : last) : nil
            if lower == nil, upper == nil { return sum + 2 * along }
            return sum + (lower ?? along) + (upper ?? along)
        }
    }

    /// Whether side k of cell c carries n evenly spaced samples: each of its segments, covering
    /// the share (end − start) of the side, places its samples at start + (end − start)·j/rate.
    static func evenlySampled(_ layout: AdaptiveLayout, cell c: Int, side k: Int, _ n: Int) -> Bool {
        var fractions: [Double] = [0]
        for piece in layout.pieces[layout.sideStart[4 * c + k]..<layout.sideStart[4 * c + k + 1]] {
            let rate = layout.segments[Int(piece.segment)].rate
            for j in 1...rate { fractions.append(piece.start + (piece.end - piece.start) * Double(j) / Double(rate)) }
        }
        guard fractions.count == n + 1 else { return false }
        return fractions.enumerated().allSatisfy { i, t in abs(t - Double(i) / Double(n)) < 1e-12 }
    }

    /// After the first round of the ripple, failing cells take the cheapest interior that passes
    /// (strips among the candidates) and passing ones the cheapest with fewer triangles: no side
    /// changes, no other cell is redrawn, every changed cell is tiled by its triangles and
    /// measures within τ, strips have the triangles their shape gives, and the cheapened cells
    /// have fewer triangles.
    @Test func stripsAndCheaperInteriorsTileTheirCells() throws {
        let ripple = AutomaticStripInteriorTests.ripple
        let mark = ripple.tolerance / AdaptiveTessellator.unmeasuredMargin
        let round = try FirstRound(ripple, mark: mark)
        let (cells, scale, before, built) = (round.cells, round.scale, round.layout, round.built)
        var rates = round.rates
        let failing = cells.indices.filter { !(built.deviations[$0] <= mark) }
        let passing = cells.indices.filter { built.deviations[$0] <= mark }
        let search = round.search
        let left = rates.searchInteriors(failing, search: search, tolerance: ripple.tolerance, raising: false).unserved
        let cheapened = rates.cheapenInteriors(passing, search: search, tolerance: ripple.tolerance)
        // One cell of this ripple is served by no interior (it takes more side samples later).
        let refined = failing.filter { !left.contains($0) }
        #expect(!refined.isEmpty)
        #expect(!cheapened.isEmpty, "some passing cells have a cheaper drawing that passes")
        let after = try round.layout(rates)
        #expect(after.segments.map(\.rate) == before.segments.map(\.rate))
        let rebuilt = AdaptiveBuild(
            cells: cells, layout: after, isolations: [], scale: scale, policy: .shortest, keepParameters: true, mark: mark)
        let parameters = try #require(rebuilt.parameters)
        func triangles(_ layout: AdaptiveLayout, _ c: Int) -> Int { layout.triangleBase[c + 1] - layout.triangleBase[c] }
        var strips = 0
        for c in refined + cheapened {
            // Tiled: every triangle wound counter-clockwise in (u, v), areas summing to the cell's.
            var area = 0.0
            for t in after.triangleBase[c]..<after.triangleBase[c + 1] {
                let a = parameters[3 * t], b = parameters[3 * t + 1], d = parameters[3 * t + 2]
                let twice = (b.x - a.x) * (d.y - a.y) - (b.y - a.y) * (d.x - a.x)
                #expect(twice > 0, "cell \(c): triangle \(t) is not wound the face's way")
                area += twice / 2
            }
            #expect(abs(area - 1) < 1e-9, "cell \(c): its triangles cover \(area) of it")
            #expect(rebuilt.deviations[c] <= mark, "cell \(c): \(rebuilt.deviations[c]) pt")
            let grid = try #require(rates.interiorGrid(c))
            #expect(SIMD2(after.nu[c], after.nv[c]) == grid)
            let sides = (0..<4).map { after.sideRate(c, $0) }
            switch rates.shape(c) {
            case .ring:
                #expect(after.kind[c] == .ring)
            case .rows:
                #expect(after.kind[c] == .rows)
                #expect(sides[1] == grid.y && sides[3] == grid.y)
                let expected = AutomaticStripInteriorTests.stripTriangles(
                    count: grid.y, along: grid.x, first: sides[0],
                    firstEven: AutomaticStripInteriorTests.evenlySampled(after, cell: c, side: 0, sides[0]),
                    last: sides[2], lastEven: AutomaticStripInteriorTests.evenlySampled(after, cell: c, side: 2, sides[2]))
                #expect(triangles(after, c) == expected)
                strips += 1
            case .columns:
                #expect(after.kind[c] == .columns)
                #expect(sides[0] == grid.x && sides[2] == grid.x)
                let expected = AutomaticStripInteriorTests.stripTriangles(
                    count: grid.x, along: grid.y, first: sides[3],
                    firstEven: AutomaticStripInteriorTests.evenlySampled(after, cell: c, side: 3, sides[3]),
                    last: sides[1], lastEven: AutomaticStripInteriorTests.evenlySampled(after, cell: c, side: 1, sides[1]))
                #expect(triangles(after, c) == expected)
                strips += 1
            }
        }
        #expect(strips > 0, "some cells on this ripple take strips")
        for c in cheapened { #expect(triangles(after, c) < triangles(before, c)) }
        for c in cells.indices where !refined.contains(c) && !cheapened.contains(c) {
            #expect(triangles(after, c) == triangles(before, c))
        }
        AutomaticStepsTests.checkWatertight(
            TriangleMesh(
                space: .points, positions: rebuilt.unitPositions.map { $0 * scale }, from: rebuilt.from, normals: rebuilt.normals,
                triangles: rebuilt.triangles, sourceFaces: rebuilt.sourceFaces))
    }
}
