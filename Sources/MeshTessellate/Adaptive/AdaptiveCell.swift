import SurfaceKit

/// A square piece of a control face that automatic steps tessellate on its own: a whole regular
/// face, or a piece of a face at an irregular vertex (``VertexIsolation``).
struct AdaptiveCell: Sendable {
    var face: Int
    /// 0 for a whole face; the piece is the square of side 2⁻ˡᵉᵛᵉˡ at `origin` in the face's (u, v).
    var level: Int
    var origin: SIMD2<Double>
    /// The limit surface over the piece, (s, t) ∈ [0, 1]²; `nil` for a corner square at an
    /// irregular vertex.
    var patch: RationalPatch?
    /// For a corner square: the corner at the irregular vertex, which its triangles fan from; −1
    /// for a patch.
    var fanCorner: Int
    /// For a corner square: the proven bound on its triangles' distance from the surface.
    var bound: Double
    /// For a corner region drawn as rings: the levels and rates of its nested squares and the
    /// surface samples of their chains (``IsolatedCell/rings``); empty for a plain fan or a patch.
    var rings: [Int] = []
    var ringRates: [Int] = []
    var ringSamples: [RingSample] = []
    /// For a corner region: the segments it asks for on each far side.
    var farRate = 1

    var size: Double { Double(sign: .plus, exponent: -level, significand: 1) }

    /// The cells of every face, face by face: regular faces whole, the others as their isolations
    /// cut them. `cellRange[f]` lists face f's cells.
    static func cells(
        surfaces: FaceSurfaces, patches: [RationalPatch?], isolations: [VertexIsolation]
    ) throws -> (cells: [AdaptiveCell], faceOf: [Int32], cellStart: [Int]) {
        var pieces = [[AdaptiveCell]](repeating: [], count: surfaces.faceCount)
        for isolation in isolations {
            for c in isolation.cells {
                pieces[c.face].append(
                    AdaptiveCell(
                        face: c.face, level: c.level, origin: c.origin, patch: c.patch,
                        fanCorner: c.patch == nil ? c.corner : -1, bound: c.bound, rings: c.rings, ringRates: c.ringRates,
                        ringSamples: c.ringSamples,
                        farRate: c.farRate))
            }
        }
        var cells: [AdaptiveCell] = []
        cells.reserveCapacity(surfaces.faceCount)
        var cellStart = [Int](repeating: 0, count: surfaces.faceCount + 1)
        for f in 0..<surfaces.faceCount {
            cellStart[f] = cells.count
            if let patch = patches[f] {
                cells.append(AdaptiveCell(face: f, level: 0, origin: .zero, patch: patch, fanCorner: -1, bound: 0))
            } else {
                guard !pieces[f].isEmpty else {
                    throw MeshError(.unsupported, path: "faces[\(f)]", "this face is neither a B-spline patch nor at an irregular vertex")
                }
                cells.append(contentsOf: pieces[f])
            }
        }
        cellStart[surfaces.faceCount] = cells.count
        return (cells, cells.map { Int32(truncatingIfNeeded: $0.face) }, cellStart)
    }
}
