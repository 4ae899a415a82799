import MeshRender
import MeshTessellate
import SurfaceKit

/// What the API computes, apart from HTTP: tessellation, hit-testing, pictures and exports of the
/// meshes that requests carry, with the refined topology of recent meshes cached.
///
/// Every result is the one the library (and so the command line) gives for the same mesh and
/// options; the cache only skips rebuilding a topology already refined.
public final class MeshService: Sendable {
    /// The most triangles one request may make: well below the command line's default (20 million),
    /// because a server answers many requests, each holding its mesh in memory while it is encoded.
    public static let defaultTriangleBudget = 4_000_000
    /// The most screen points one hit request may carry.
    public static let maximumHitPoints = 100_000
    /// The most pixels one picture, or one texture sent to render, may have (4096 × 4096): 64 MiB of RGBA.
    public static let maximumPixels = 4096 * 4096

    public let triangleBudget: Int
    let cache = TessellatorCache()
    /// The last mesh `/api/tessellate` read, for reading the next one (an edit of it) quickly.
    let meshText = KeptMeshText()
    /// Tells this server's answer tags from those of another run (a page left open over a restart).
    let instance: UInt64
    /// The last meshes `/api/tessellate` read, by tag, for requests that send only their edits.
    let meshes: KeptMeshes

    public init(triangleBudget: Int = MeshService.defaultTriangleBudget) {
        self.triangleBudget = triangleBudget
        instance = UInt64.random(in: 1...UInt64.max)
        meshes = KeptMeshes(instance: instance)
    }

    /// The number of topologies refined so far (cache misses).
    public var topologyBuilds: Int { cache.builds.load(ordering: .relaxed) }

    /// Tessellates `document` with `options`, in `space`, in the draw order of `sort`. Fixed steps
    /// reuse the cached plan of the mesh's topology; automatic steps depend on the positions, so
    /// they are chosen afresh each time (as `Tessellator.tessellate(_:options:space:)` does).
    public func tessellate(
        _ document: MeshDocument, options: TessellationOptions, space: CoordinateSpace, sort: PainterSorter.Mode
    ) throws -> TriangleMesh {
        var timing = ServerTiming()
        return try tessellate(document, options: options, space: space, sort: sort, timing: &timing)
    }

    /// ``tessellate(_:options:space:sort:)``, timing its stages: `evaluate` (the cached plan's
    /// evaluation and triangulation, or a build on a miss: `topologyBuilds` says which) and `sort`.
    func tessellate(
        _ document: MeshDocument, options: TessellationOptions, space: CoordinateSpace, sort: PainterSorter.Mode,
        timing: inout ServerTiming
    ) throws -> TriangleMesh {
        try document.layer.validate()
        // Sorting needs points space; the sorter converts to `space` as it writes its answer.
        let evaluated = sort == .none ? space : .points
        let points: TriangleMesh
        switch options.steps ?? document.mesh.subdivisionSteps {
        case .automatic:
            points = try Tessellator.tessellate(document, options: options, space: evaluated)
        case .fixed(let steps):
            points = try cache.using(document.mesh, steps: steps, options: options) { tessellator in
                try tessellator.tessellate(document.mesh, geometry: document.geometry, space: evaluated)
            }
        }
        timing.lap("evaluate")
        if sort == .none { return points }
        let sorted = try PainterSorter.sorted(
            mesh: points, geometry: document.geometry, mode: sort, space: space, maximumTriangles: options.maximumTriangles
        ).mesh
        timing.lap("sort")
        return sorted
    }

    /// Hit-tests screen points (the layer's untransformed frame, in points) as `meshgeo hit` does.
    public func hit(_ document: MeshDocument, options: TessellationOptions, points: [SIMD2<Double>], exact: Bool) throws -> [ScreenHit?] {
        let precision: HitPrecision = exact ? .exact : .triangles
        let tester: HitTester
        switch options.steps ?? document.mesh.subdivisionSteps {
        case .automatic:
            tester = try HitTester(document: document, options: options, precision: precision)
        case .fixed(let steps):
            try document.layer.validate()
            tester = try cache.using(document.mesh, steps: steps, options: options) { tessellator in
                try HitTester(tessellator: tessellator, mesh: document.mesh, geometry: document.geometry, precision: precision)
            }
        }
        return tester.hitTest(points)
    }

    /// A PNG of the layer's content (`texture`, or a checkerboard) mapped through the mesh, as
    /// `meshgeo render`.
    public func png(_ document: MeshDocument, texture: RGBAImage? = nil, options: RenderOptions) throws -> [UInt8] {
        let size = try options.pixelSize(forLayerSize: document.layer.size)
        guard size.width * size.height <= MeshService.maximumPixels else {
            throw MeshError(
                .limitExceeded, path: "scale",
                "a picture of \(size.width) × \(size.height) pixels is over the server's limit of \(MeshService.maximumPixels) pixels")
        }
        return try MeshRenderer.image(of: document, texture: texture, options: options).pngData()
    }
}
