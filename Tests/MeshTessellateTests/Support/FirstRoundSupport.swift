import SurfaceKit

@testable import MeshTessellate

/// The first round of automatic steps on a held-out ripple, taken apart as the tessellator runs it
/// (shortest diagonals, no irregular vertices): the cells, their estimated rates, the layout drawn
/// from them, the build, and the interior search over it. For tests of what a round changes.
struct FirstRound {
    let ripple: AutomaticStepsTests.HeldOutRipple
    let mesh: MeshTransform
    let surfaces: FaceSurfaces
    let scale: SIMD3<Double>
    let cells: [AdaptiveCell]
    /// The rates estimated for the ripple's τ.
    let rates: CellRates
    let layout: AdaptiveLayout
    /// The build from `layout`, measured for the pass mark `mark` (0: every triangle at the
    /// finest lattice).
    let built: AdaptiveBuild

    init(_ ripple: AutomaticStepsTests.HeldOutRipple, mark: Double = 0) throws {
        self.ripple = ripple
        mesh = try ripple.mesh()
        let document = AutomaticStepsTests.document(mesh, size: ripple.side)
        surfaces = try AdaptiveTessellator(mesh: mesh).surfaces
        scale = document.geometry.pointScale
        let control = FaceSurfaces.homogeneous(vertices: mesh.vertices, weights: surfaces.topology.vertexWeights(faces: mesh.faces))
        let patches = AdaptiveTessellator.patches(surfaces: surfaces, control: control)
        cells = try AdaptiveCell.cells(surfaces: surfaces, patches: patches, isolations: []).cells
        rates = try CellRates.estimate(cells: cells, scale: scale, policy: .shortest, tolerance: ripple.tolerance)
        layout = try FirstRound.layout(rates, surfaces: surfaces, cells: cells)
        built = AdaptiveBuild(cells: cells, layout: layout, isolations: [], scale: scale, policy: .shortest, mark: mark)
    }

    /// The layout drawn from `rates` on the same cells.
    func layout(_ rates: CellRates) throws -> AdaptiveLayout {
        try FirstRound.layout(rates, surfaces: surfaces, cells: cells)
    }

    static func layout(_ rates: CellRates, surfaces: FaceSurfaces, cells: [AdaptiveCell]) throws -> AdaptiveLayout {
        try AdaptiveLayout(
            surfaces: surfaces, cells: cells, isolationOfVertex: [:], rates: rates, policy: .shortest, maximumTriangles: 1 << 30)
    }

    /// The interior search over the first build, as the tessellator makes it.
    var search: InteriorSearch {
        InteriorSearch(cells: cells, layout: layout, points: built.unitPositions.map { $0 * scale }, policy: .shortest, scale: scale)
    }
}
