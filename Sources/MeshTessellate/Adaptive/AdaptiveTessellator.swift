import RealModule
import SurfaceKit

/// Automatic steps (Docs/automatic-steps.md): triangles within a tolerance τ of the limit surface, with a density
/// of each face's own, stitched so the result is watertight.
///
/// Every control face gets its own number of segments along u and along v, estimated from bounds
/// on the surface's second derivatives; every edge takes the larger of what its two faces ask for.
/// A face's interior is a regular grid at its own rates, and a ring of triangles joins that grid
/// to the samples on its four edges, which both faces of an edge share. So no edge has a
/// T-junction, and every interior edge is used by exactly two triangles. After building, the
/// distance to the surface is measured on every triangle; a face that misses τ is made denser and
/// the mesh is built again.
///
/// Faces that are B-spline patches (all corners regular) are evaluated at any parameter. Faces
/// that touch an extraordinary or non-manifold vertex use the dyadic grids of uniform refinement
/// (rates 2ⁿ), computed by refining only the faces around them; an edge next to such a face is
/// sampled from the B-spline face on its other side when there is one.
public struct AdaptiveTessellator: Sendable {
    public let surfaces: FaceSurfaces
    public let diagonal: DiagonalPolicy
    public let maximumTriangles: Int

    /// The most segments along a side of a control face: as many as the most uniform steps give.
    public static let maximumRate = 1 << SubdivisionPlan.maximumSteps
    /// Rates are estimated for τ divided by this, which leaves room for the joining triangles
    /// (a little wider than the grid's) and for sampled bounds on rational faces.
    static let safety = 1.1
    /// Rebuilds allowed when the measurement finds a face over τ.
    static let maximumRounds = 5

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
        _ mesh: MeshTransform, geometry: LayerGeometry, space: CoordinateSpace, tolerance: Double? = nil
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
        var rates = try FaceRates.estimate(
            surfaces: surfaces, patches: patches, mesh: mesh, weights: weights, scale: scale, policy: diagonal,
            tolerance: tau, maximumTriangles: maximumTriangles)
        var round = 1
        while true {
            let layout = try AdaptiveLayout(surfaces: surfaces, rates: rates, policy: diagonal, maximumTriangles: maximumTriangles)
            let built = AdaptiveBuild(
                surfaces: surfaces, layout: layout, rates: rates, patches: patches, scale: scale, policy: diagonal)
            var worst = 0.0
            var failing: [Int] = []
            for f in 0..<surfaces.faceCount {
                let d = max(built.deviations[f], rates.irregularDeviation[f])
                worst = max(worst, d)
                if built.deviations[f] > tau { failing.append(f) }
            }
            if failing.isEmpty || round == AdaptiveTessellator.maximumRounds
                || !rates.densify(failing, deviations: built.deviations, tolerance: tau)
            {
                let report = AdaptiveReport(
                    tolerance: tau, smallestRate: layout.smallestRate, largestRate: layout.largestRate,
                    irregularFaces: rates.irregularCount, triangleCount: layout.triangleCount,
                    vertexCount: layout.vertexCount, worstDeviation: worst, rounds: round,
                    equivalentUniformSteps: AdaptiveTessellator.steps(reaching: layout.largestRate))
                let pointsMesh = TriangleMesh(
                    space: .points, positions: built.unitPositions.map { $0 * scale }, from: built.from,
                    normals: built.normals, triangles: built.triangles, sourceFaces: built.sourceFaces)
                let result = pointsMesh.converted(to: space, unitPositions: built.unitPositions, geometry: geometry)
                return AdaptiveTessellation(mesh: result, report: report)
            }
            round += 1
        }
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
