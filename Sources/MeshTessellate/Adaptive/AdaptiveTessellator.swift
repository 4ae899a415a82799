import RealModule
import SurfaceKit

/// Automatic steps: triangles within a tolerance τ of the limit surface, with a density of each
/// face's own, stitched so the result is watertight.
///
/// A face whose corners are all regular is a B-spline patch, evaluated at any parameter. A face at
/// an irregular vertex (interior valence other than 4, a boundary vertex with other than two
/// faces, a non-manifold vertex) is cut by feature-adaptive isolation (``VertexIsolation``): each
/// level of refinement around the vertex leaves three B-spline patches and a corner square half
/// as wide, until the corner square's proven bound is within τ. Every patch — whole face or piece —
/// is a cell with its own number of segments along u and along v (any integers, estimated from
/// bounds on the surface's second derivatives, then lowered to the grid with the fewest squares
/// that measures within τ, ``MeasuredRates``); every segment between two cell corners takes the
/// larger of what the cells on either side ask for. A cell whose sides carry exactly its grid's
/// samples is drawn as that grid; otherwise its interior is a regular grid at its own rates, and
/// a ring of triangles (or, where one pair of opposite sides agrees, strips) joins that grid to
/// the samples on its sides, which both cells of a side share. So no side has a T-junction, and
/// every interior edge is used by exactly two triangles. After building, the distance to the
/// surface is measured on every patch triangle; a cell that misses τ gets a denser interior grid
/// inside a ring or strips (its sides, and so its neighbours, unchanged), or a grid of its own as
/// dense as its sides where that costs less, or, once its interior is far denser than its sides,
/// more segments; after a round drawn from new rates a cell that passed takes the cheapest
/// interior of fewer triangles that also passes; and the mesh is built again.
public struct AdaptiveTessellator: Sendable {
    public let surfaces: FaceSurfaces
    public let diagonal: DiagonalPolicy
    public let maximumTriangles: Int

    /// The most segments along a side of a control face: as many as the most uniform steps give.
    public static let maximumRate = 1 << SubdivisionPlan.maximumSteps
    /// Rates are estimated for τ divided by this, which leaves room for the joining triangles
    /// (a little wider than the grid's) and for sampled bounds on rational faces.
    static let safety = 1.1
    /// A patch triangle passes when its measured points (``CellStitcher/measuredPoints``, and
    /// the dense lattice for those near the mark) are within τ divided by this: the largest
    /// distance can lie a little off those points, by well under 1% at the lattice's spacing.
    static let unmeasuredMargin = 1.01
    /// Rebuilds that grow a failing cell by the square root of how far it missed. Past them, a
    /// failing cell at least doubles its segments each round: growing one cell adds samples to its
    /// neighbours' shared sides, which reshapes their joining rings, so a miss can move from cell
    /// to cell for a few rounds; doubling ends such a chain quickly.
    static let gentleRounds = 5

    /// Prepares automatic tessellation of meshes with `mesh`'s topology.
    public init(mesh: MeshTransform, options: TessellationOptions = TessellationOptions()) throws {
        let topology = try SurfaceTopology(faces: mesh.faces, vertexCount: mesh.vertices.count)
        surfaces = FaceSurfaces(topology: topology)
        diagonal = options.diagonal
        maximumTriangles = options.maximumTriangles
    }

    /// The default tolerance: 0.001 × the larger side of the layer, in points.
    public static func defaultTolerance(for geometry: LayerGeometry) -> Double {
        0.001 * max(abs(geometry.size.x), abs(geometry.size.y))
    }

    /// Tessellates `mesh` (with the topology this tessellator was made for) so that every triangle
    /// is within `tolerance` points of the limit surface (default: ``defaultTolerance(for:)``).
    /// Throws `.limitExceeded`, stating the count, when that would take more triangles than the
    /// budget; nothing is allocated for the output first.
    public func tessellate(
        _ mesh: MeshTransform, geometry: LayerGeometry, space: CoordinateSpace, tolerance: Double? = nil,
        keepParameters: Bool = false
    ) throws -> AdaptiveTessellation {
        let tau = tolerance ?? AdaptiveTessellator.defaultTolerance(for: geometry)
        guard tau.isFinite, tau > 0 else {
            throw MeshError(.invalidValue, path: "tolerance", "\(tau) is not a tolerance (use a finite number of points above 0)")
        }
        guard mesh.vertices.count == surfaces.vertexCount, mesh.faces.count == surfaces.faceCount else {
            throw MeshError(
                .incompatible, path: "vertices",
                "the tessellator was made for \(surfaces.vertexCount) vertices and \(surfaces.faceCount) faces, got \(mesh.vertices.count) and \(mesh.faces.count)"
            )
        }
        let weights = surfaces.topology.vertexWeights(faces: mesh.faces)
        let control = FaceSurfaces.homogeneous(vertices: mesh.vertices, weights: weights)
        let scale = geometry.pointScale
        let patches = AdaptiveTessellator.patches(surfaces: surfaces, control: control)
        var isolations = try AdaptiveTessellator.isolations(surfaces: surfaces, control: control, scale: scale, tolerance: tau)
        var isolationOfVertex: [Int: Int32] = [:]
        for (i, isolation) in isolations.enumerated() { isolationOfVertex[isolation.vertex] = Int32(i) }
        var (cells, _, cellStart) = try AdaptiveCell.cells(surfaces: surfaces, patches: patches, isolations: isolations)
        var rates = try CellRates.estimate(cells: cells, scale: scale, policy: diagonal, tolerance: tau)
        if try AdaptiveTessellator.fitRegionsToNeighbours(
            &isolations, cells: cells, cellStart: cellStart, rates: rates, surfaces: surfaces, control: control, scale: scale,
            tolerance: tau)
        {
            (cells, _, cellStart) = try AdaptiveCell.cells(surfaces: surfaces, patches: patches, isolations: isolations)
            rates = try CellRates.estimate(cells: cells, scale: scale, policy: diagonal, tolerance: tau)
        }
        var round = 1
        var measured: MeasuredCells?
        // Whether this round is drawn from new rates (the first, or after rates grew).
        var newRates = true
        var settled: SettledCells?
        // The last round's samples, taken over where this round samples alike.
        var earlier: EarlierSamples?
        while true {
            let layout = try AdaptiveLayout(
                surfaces: surfaces, cells: cells, isolationOfVertex: isolationOfVertex, rates: rates, policy: diagonal,
                maximumTriangles: maximumTriangles)
            let built = AdaptiveBuild(
                cells: cells, layout: layout, isolations: isolations, scale: scale, policy: diagonal, keepParameters: keepParameters,
                measured: measured, mark: tau / AdaptiveTessellator.unmeasuredMargin, earlier: earlier)
            var worst = 0.0
            var failing: [Int] = []
            for c in cells.indices {
                worst = max(worst, built.deviations[c])
                if cells[c].patch != nil, !(built.deviations[c] <= tau / AdaptiveTessellator.unmeasuredMargin) { failing.append(c) }
            }
            // Never returns a mesh measured over τ. Termination: every round that does not return
            // grows a cell's interior grid or its rates, or gives passing cells cheaper
            // interiors. Rates never shrink (a failing cell's denser grid,
            // `InteriorSearch.raisedGrid`, only grows them) and stop at `maximumRate`, so sides
            // never lose samples and rates grow finitely often; between two rounds that grow
            // rates, sides are fixed and a failing cell takes an interior once, then only
            // interiors of more triangles than it drew, each of at most
            // `CellRates.interiorReach` times its sides' rates (`CellRates.searchInteriors`), and
            // interiors are kept until its rates grow. Passing cells take cheaper interiors
            // (`CellRates.cheapenInteriors`) only in a round drawn from new rates, so once
            // between two rounds that grow rates, and are drawn as they measured. So there are
            // finitely many rounds; a failing cell at the most segments everywhere is refused
            // below, and a layout over the budget is refused by `AdaptiveLayout`.
            let search =
                newRates || !failing.isEmpty
                ? InteriorSearch(
                    cells: cells, layout: layout, points: built.unitPositions.map { $0 * scale }, policy: diagonal, scale: scale)
                : nil
            var cheapened: [Int] = []
            if newRates, let search {
                // A round drawn from new rates (the first, or after rates grew) drew each cell
                // from its own rates, but its sides carry the larger need of the cells on
                // either side: many pass with a coarser interior.
                var isFailing = [Bool](repeating: false, count: cells.count)
                for c in failing { isFailing[c] = true }
                let passing = cells.indices.filter { cells[$0].patch != nil && !isFailing[$0] }
                cheapened = rates.cheapenInteriors(passing, search: search, tolerance: tau, settled: settled)
                settled = SettledCells(drawing: search.drawing, searched: passing, changed: cheapened)
            }
            if let search, !failing.isEmpty || !cheapened.isEmpty {
                let aggressive = round >= AdaptiveTessellator.gentleRounds
                // A failing cell first takes the cheapest interior that measures within τ,
                // keeping its sides' samples, so its neighbours stay as they are, unless a grid
                // of its own as dense as its sides costs less (`InteriorSearch.raisedGrid`);
                // only a cell that neither serves takes more samples on its sides.
                let (rest, raised) = rates.searchInteriors(failing, search: search, tolerance: tau)
                let refined = rest.count < failing.count
                let grown = !rest.isEmpty && rates.densify(rest, deviations: built.deviations, tolerance: tau, aggressive: aggressive)
                let densified = grown || raised
                // Only the refined cells are redrawn when no rate grew; when rates grew, the
                // cells drawn alike are not measured again (`MeasuredCells`).
                measured = MeasuredCells(
                    deviations: built.deviations, unchanged: AdaptiveTessellator.unchanged(cells.count, except: failing + cheapened),
                    earlier: densified ? search.drawing : nil)
                newRates = densified
                guard refined || densified || !cheapened.isEmpty else {
                    let c = failing.max { built.deviations[$0] < built.deviations[$1] } ?? failing[0]
                    throw MeshError(
                        .limitExceeded, path: "faces[\(cells[c].face)]",
                        "a tolerance of \(tau) points is not met on this face even with the most segments (\(AdaptiveTessellator.maximumRate)); measured \(built.deviations[c]) points at that"
                    )
                }
                earlier = EarlierSamples(layout: layout, build: built)
                round += 1
                continue
            }
            let report = AdaptiveReport(
                tolerance: tau, smallestRate: layout.smallestRate, largestRate: layout.largestRate,
                irregularFaces: (0..<surfaces.faceCount).reduce(0) { $0 + (patches[$1] == nil ? 1 : 0) },
                triangleCount: layout.triangleCount, vertexCount: layout.vertexCount, worstDeviation: worst, rounds: round,
                equivalentUniformSteps: AdaptiveTessellator.steps(reaching: layout.largestRate),
                isolatedVertices: isolations.count, deepestIsolation: isolations.map(\.depth).max() ?? 0,
                largestCornerBound: cells.indices.reduce(0.0) { max($0, cells[$1].bound) })
            // The last rounds' samples, measures and searches are not needed for the output:
            // let them go before it is built, so they are not held with it.
            earlier = nil
            measured = nil
            settled = nil
            let pointsMesh = TriangleMesh(
                space: .points, positions: built.unitPositions.map { $0 * scale }, from: built.from,
                normals: built.normals, triangles: built.triangles, sourceFaces: built.sourceFaces)
            let result = pointsMesh.converted(to: space, unitPositions: built.unitPositions, geometry: geometry)
            return AdaptiveTessellation(mesh: result, report: report, parameters: built.parameters)
        }
    }

    /// Isolates every irregular vertex that a face uses, on all cores, in vertex order.
    static func isolations(
        surfaces: FaceSurfaces, control: [SIMD8<Double>], scale: SIMD3<Double>, tolerance: Double
    ) throws -> [VertexIsolation] {
        let irregular = surfaces.irregularVertices
        var found = [Result<VertexIsolation, MeshError>?](repeating: nil, count: irregular.count)
        found.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let out = SharedMutableBuffer(base: base)
            parallelChunks(irregular.count, minimumChunk: 8) { range in
                for k in range {
                    do {
                        out.base[k] = .success(
                            try surfaces.isolate(vertex: irregular[k], control: control, pointScale: scale, tolerance: tolerance))
                    } catch let error as MeshError {
                        out.base[k] = .failure(error)
                    } catch {
                        out.base[k] = .failure(MeshError(.invalidValue, path: "vertices[\(irregular[k])]", "\(error)"))
                    }
                }
            }
        }
        return try found.compactMap { try $0?.get() }
    }

    /// Every cell but `changed`.
    static func unchanged(_ count: Int, except changed: [Int]) -> [Bool] {
        var result = [Bool](repeating: true, count: count)
        for c in changed { result[c] = false }
        return result
    }

    /// The smallest n with 2ⁿ ≥ rate.
    static func steps(reaching rate: Int) -> Int {
        var n = 0
        while (1 << n) < rate { n += 1 }
        return n
    }

    /// Every face's B-spline patch (`nil` at extraordinary vertices), gathered on all cores.
    static func patches(surfaces: FaceSurfaces, control: [SIMD8<Double>]) -> [RationalPatch?] {
        var patches = [RationalPatch?](repeating: nil, count: surfaces.faceCount)
        patches.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let out = SharedMutableBuffer(base: base)
            parallelChunks(surfaces.faceCount, minimumChunk: 1024) { range in
                for f in range { out.base[f] = surfaces.patch(ofFace: f, control: control) }
            }
        }
        return patches
    }
}
