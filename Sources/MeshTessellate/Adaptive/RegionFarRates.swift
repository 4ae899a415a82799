import SurfaceKit

extension AdaptiveTessellator {
    /// Isolates again the vertices whose corner regions ask a far-side rate that does not divide
    /// what the pieces beyond need there, now that those pieces' rates are estimated; returns
    /// whether any isolation changed.
    ///
    /// A region asking n segments of a far side is proven for any multiple of n there, so the
    /// layout rounds the side up to one, and the pieces beyond draw the segments they did not
    /// need (on the icosahedron, a valence-3 region asking 2 beside pieces that need 3 gives
    /// them 4). Isolation comes before the pieces are measured, so its search counts a far-side
    /// rate as if they needed one segment; here it runs again at such a vertex with the needs
    /// measured (``FaceSurfaces/isolate(vertex:control:pointScale:tolerance:farNeeds:)``), and
    /// takes whatever that proves cheapest. The needs change only what each rate costs, so every
    /// region it can choose is one the search proves within the tolerance.
    static func fitRegionsToNeighbours(
        _ isolations: inout [VertexIsolation], cells: [AdaptiveCell], cellStart: [Int], rates: CellRates, surfaces: FaceSurfaces,
        control: [SIMD8<Double>], scale: SIMD3<Double>, tolerance: Double
    ) throws -> Bool {
        var changed = false
        for i in isolations.indices {
            let regions = isolations[i].cells.filter { !$0.rings.isEmpty }
            guard let top = regions.first?.level else { continue }
            var needs: [Int: SIMD2<Int>] = [:]
            var rounded = false
            for region in regions {
                let k = region.corner
                let need = SIMD2(
                    farSideNeed(region, side: (k + 1) % 4, cells: cells, cellStart: cellStart, rates: rates),
                    farSideNeed(region, side: (k + 2) % 4, cells: cells, cellStart: cellStart, rates: rates))
                needs[region.face] = need
                // A need of one is what the search assumes already.
                for m in [need.x, need.y] where m > 1 && m % region.farRate != 0 { rounded = true }
            }
            guard rounded, needs.count == regions.count else { continue }
            let refit = try surfaces.isolate(
                vertex: isolations[i].vertex, control: control, pointScale: scale, tolerance: tolerance, farNeeds: (top, needs))
            guard refit != isolations[i] else { continue }
            isolations[i] = refit
            changed = true
        }
        return changed
    }

    /// The segments the piece across side k of a corner region (a piece of its face, of the same
    /// size) asks along that side: its rate along u for the bottom and top, along v for the
    /// left and right; 1 where there is none.
    static func farSideNeed(_ region: IsolatedCell, side k: Int, cells: [AdaptiveCell], cellStart: [Int], rates: CellRates) -> Int {
        let s = region.size
        let offset: SIMD2<Double> = [SIMD2(0, -s), SIMD2(s, 0), SIMD2(0, s), SIMD2(-s, 0)][k]
        let origin = region.origin + offset
        let face = region.face
        guard face >= 0, face + 1 < cellStart.count else { return 1 }
        for c in cellStart[face]..<cellStart[face + 1]
        where cells[c].patch != nil && cells[c].level == region.level && cells[c].origin == origin {
            return k % 2 == 0 ? rates.u[c] : rates.v[c]
        }
        return 1
    }
}
