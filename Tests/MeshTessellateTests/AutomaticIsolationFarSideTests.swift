import Foundation
import Testing

@testable import MeshTessellate
@testable import SurfaceKit

private typealias I = IsolationSupport

/// Corner regions whose far-side rate follows what the pieces beyond need: the cost counted for
/// a rate against the layout's rule written out here, and the icosahedron's regions, found by
/// their pieces' geometry, asking rates that divide their neighbours' needs.
struct AutomaticIsolationFarSideTests {
    /// The cost counted for asking n segments of a far side whose pieces need m: the side
    /// carries the least multiple of n that is at least m; the pieces draw two triangles for each
    /// segment they did not need, the region one for each sample beyond both n and m.
    @Test func farCostCountsTheSamplesTheLayoutAdds() {
        func expected(_ n: Int, _ m: Int) -> Int {
            var s = n
            while s < m { s += n }
            return 2 * (s - m) + (s - max(n, m))
        }
        for n in 1...4 {
            for m1 in 1...6 {
                for m2 in 1...6 {
                    #expect(FaceSurfaces.farCost(n, needs: [SIMD2(m1, m2)]) == expected(n, m1) + expected(n, m2))
                }
            }
            // Pieces that need one segment, or needs unknown: 2(n − 1) a side.
            #expect(FaceSurfaces.farCost(n, needs: [SIMD2(1, 1), SIMD2(1, 1)]) == 4 * (n - 1))
            #expect(FaceSurfaces.farCost(n, needs: []) == 4 * (n - 1))
        }
    }

    /// On the icosahedron, after the regions are fitted to their neighbours, every region's
    /// far-side rate divides the rate of the piece across each far side (found here by its
    /// square: same face, same size, sharing that side, among the pieces drawn for the fitted
    /// regions), so the layout adds no samples there; isolated without the needs, the valence-3
    /// regions ask 2 where those pieces need 3. Every far side must find its piece.
    @Test func icosahedronRegionsDivideTheirNeighboursRates() throws {
        let document = try I.icosahedron()
        let tessellator = try AdaptiveTessellator(mesh: document.mesh)
        let surfaces = tessellator.surfaces
        let tolerance = AdaptiveTessellator.defaultTolerance(for: document.geometry)
        let scale = document.geometry.pointScale
        let weights = surfaces.topology.vertexWeights(faces: document.mesh.faces)
        let control = FaceSurfaces.homogeneous(vertices: document.mesh.vertices, weights: weights)
        let patches = AdaptiveTessellator.patches(surfaces: surfaces, control: control)
        var isolations = try AdaptiveTessellator.isolations(surfaces: surfaces, control: control, scale: scale, tolerance: tolerance)
        let (cells, _, cellStart) = try AdaptiveCell.cells(surfaces: surfaces, patches: patches, isolations: isolations)
        let rates = try CellRates.estimate(cells: cells, scale: scale, policy: .shortest, tolerance: tolerance)
        /// The rate along the side shared with the region, of the piece whose square has that side.
        func neighbourRate(_ region: IsolatedCell, side k: Int, cells: [AdaptiveCell], rates: CellRates) -> Int? {
            let lo = region.origin, hi = region.origin + SIMD2(repeating: region.size)
            for c in cells.indices where cells[c].face == region.face && cells[c].patch != nil && cells[c].size == region.size {
                let o = cells[c].origin, p = o + SIMD2(repeating: cells[c].size)
                switch k {
                case 0 where p.y == lo.y && o.x == lo.x: return rates.u[c]
                case 1 where o.x == hi.x && o.y == lo.y: return rates.v[c]
                case 2 where o.y == hi.y && o.x == lo.x: return rates.u[c]
                case 3 where p.x == lo.x && o.y == lo.y: return rates.v[c]
                default: continue
                }
            }
            return nil
        }
        /// The far sides checked, those with no piece across, and those whose piece's rate the
        /// region's far-side rate does not divide.
        func misfits(_ isolations: [VertexIsolation], cells: [AdaptiveCell], rates: CellRates) -> (sides: Int, unmatched: Int, misfits: Int)
        {
            var found = (sides: 0, unmatched: 0, misfits: 0)
            for region in isolations.flatMap(\.cells) where !region.rings.isEmpty {
                for k in [(region.corner + 1) % 4, (region.corner + 2) % 4] {
                    found.sides += 1
                    guard let m = neighbourRate(region, side: k, cells: cells, rates: rates) else {
                        found.unmatched += 1
                        continue
                    }
                    if m > 1, m % region.farRate != 0 { found.misfits += 1 }
                }
            }
            return found
        }
        let unfitted = misfits(isolations, cells: cells, rates: rates)
        #expect(unfitted.sides > 0 && unfitted.unmatched == 0)
        #expect(unfitted.misfits > 0, "the valence-3 regions ask 2 where their neighbours need 3")
        let changed = try AdaptiveTessellator.fitRegionsToNeighbours(
            &isolations, cells: cells, cellStart: cellStart, rates: rates, surfaces: surfaces, control: control, scale: scale,
            tolerance: tolerance)
        #expect(changed)
        let (fittedCells, _, _) = try AdaptiveCell.cells(surfaces: surfaces, patches: patches, isolations: isolations)
        let fittedRates = try CellRates.estimate(cells: fittedCells, scale: scale, policy: .shortest, tolerance: tolerance)
        let fitted = misfits(isolations, cells: fittedCells, rates: fittedRates)
        #expect(fitted.sides > 0 && fitted.unmatched == 0)
        #expect(fitted.misfits == 0)
    }
}
