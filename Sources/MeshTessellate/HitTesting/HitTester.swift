import SurfaceKit

/// Hit-testing through a tessellated mesh transform (Docs/hit-testing.md): screen points to the frontmost
/// layer point they show, and arbitrary points-space rays to their nearest hit.
///
/// Build it once per tessellation; the BVH (and, in exact mode, the refined control points) are
/// shared by every query, and the value is `Sendable`, so queries may run on any thread. Batches
/// (``hitTest(_:)-(SIMD2<Double>)`` on arrays, ``intersect(_:)-([Ray])``) use all cores.
public struct HitTester: Sendable {
    /// The tessellated mesh, points space.
    public let mesh: TriangleMesh
    /// The layer's coordinate maps: unit ↔ points ↔ screen.
    public let geometry: LayerGeometry
    /// How hits are located.
    public let precision: HitPrecision
    let bvh: TriangleBVH
    /// The layer transform's inverse; `nil` for a singular transform, whose screen queries use
    /// ``screenFallback`` instead.
    let inverseTransform: Transform3D?
    let screenFallback: ScreenFallback?
    /// The triangle layout and limit patches exact mode refines on.
    let grid: TessellationGrid?
    let surface: ExactSurface?
    /// A points-space point near the middle of the mesh: screen rays start at its screen depth, so
    /// their origin stays near the geometry whatever the perspective.
    let centre: Point3D?

    /// A hit tester for any triangle mesh in points space (precision `.triangles`; exact mode needs
    /// the surface, see ``init(document:options:precision:)``). Throws `.unsupported` for a mesh in
    /// another space and `.invalidValue` for a triangle naming no vertex.
    public init(mesh: TriangleMesh, geometry: LayerGeometry) throws {
        try self.init(mesh: mesh, geometry: geometry, grid: nil, surface: nil)
    }

    /// Tessellates `mesh` (which must have the topology `tessellator` was made for) and builds a
    /// hit tester on it; `.exact` also keeps the refined control points for Newton refinement.
    ///
    /// With an automatic tessellator, `.triangles` tests its adaptive triangles; `.exact` refines on
    /// the uniform grid of the steps that match their densest face.
    public init(
        tessellator: Tessellator, mesh: MeshTransform, geometry: LayerGeometry, precision: HitPrecision = .triangles
    ) throws {
        if let automatic = tessellator.automatic {
            let adaptive = try automatic.tessellate(mesh, geometry: geometry, space: .points, tolerance: tessellator.tolerance)
            guard precision == .exact else {
                try self.init(mesh: adaptive.mesh, geometry: geometry, grid: nil, surface: nil)
                return
            }
            // Exact refinement walks a uniform grid: the one whose steps match the densest face
            // the adaptive tessellation chose (only its report is kept).
            let uniform = TessellationOptions(
                steps: .fixed(adaptive.report.equivalentUniformSteps), diagonal: tessellator.diagonal,
                maximumTriangles: automatic.maximumTriangles)
            try self.init(tessellator: Tessellator(mesh: mesh, options: uniform), mesh: mesh, geometry: geometry, precision: precision)
            return
        }
        let triangles = try tessellator.tessellate(mesh, geometry: geometry, space: .points)
        let plan = tessellator.plan
        let grid = TessellationGrid(
            controlFaces: plan.controlFaceCount, resolution: plan.resolution,
            trianglesPerQuad: tessellator.diagonal.trianglesPerQuad)
        var surface: ExactSurface?
        if precision == .exact {
            let topology = try SurfaceTopology(faces: mesh.faces, vertexCount: mesh.vertices.count)
            let patches = try plan.limitPatches(vertices: mesh.vertices, weights: topology.vertexWeights(faces: mesh.faces))
            surface = ExactSurface(patches: patches, pointScale: geometry.pointScale)
        }
        try self.init(mesh: triangles, geometry: geometry, grid: grid, surface: surface)
    }

    /// One call: validate, tessellate and build a hit tester for a document. With automatic steps,
    /// `.triangles` tests the adaptive tessellation (within `options.tolerance` of the surface);
    /// `.exact` refines on the uniform grid of the steps that match its densest face.
    public init(
        document: MeshDocument, options: TessellationOptions = TessellationOptions(), precision: HitPrecision = .triangles
    ) throws {
        try document.layer.validate()
        try self.init(
            tessellator: Tessellator(mesh: document.mesh, options: options), mesh: document.mesh,
            geometry: document.geometry, precision: precision)
    }

    /// The nearest hit of `ray` (points space) in its interval, or `nil`. In exact mode the hit is
    /// refined on the limit surface along the same ray.
    public func intersect(_ ray: Ray) -> RayHit? {
        firstHit(ray).flatMap { rayHit($0, of: ray) }
    }

    /// The nearest triangle `ray` (points space) hits in its interval, in 32 bytes (t, triangle,
    /// barycentric u and v), or `nil`. Of triangles hit at exactly the same t, the
    /// lowest index wins. This is the triangle hit also in exact mode; ``rayHit(_:of:)`` makes the
    /// full record (refined on the limit surface in exact mode), the one ``intersect(_:)-(Ray)``
    /// returns.
    public func firstHit(_ ray: Ray) -> TriangleHit? {
        bvh.firstHit(origin: ray.origin, direction: ray.direction, tmin: ray.tmin, tmax: ray.tmax).orNil
    }

    /// The full record of `hit`, the answer ``firstHit(_:)`` or ``firstHits(_:)`` gave for `ray`:
    /// the same as ``intersect(_:)-(Ray)`` on `ray`. `nil` for a triangle the mesh does not have.
    public func rayHit(_ hit: TriangleHit, of ray: Ray) -> RayHit? {
        guard hit.triangle >= 0, Int(hit.triangle) < mesh.triangleCount else { return nil }
        let found = self.hit(triangle: Int(hit.triangle), barycentric: hit.barycentric, t: hit.t)
        if let surface, let grid, let refined = surface.refine(found, grid: grid, mesh: mesh, along: ray) {
            return refined
        }
        return found
    }
}

extension HitTester {
    /// A triangles-mode tester over a tessellation laid out as `grid`, whose BVH starts from the
    /// grid's ready-made hierarchy (what a tester made from a document does), for the benchmarks.
    package init(mesh: TriangleMesh, geometry: LayerGeometry, grid: TessellationGrid) throws {
        try self.init(mesh: mesh, geometry: geometry, grid: grid, surface: nil)
    }

    init(mesh: TriangleMesh, geometry: LayerGeometry, grid: TessellationGrid?, surface: ExactSurface?) throws {
        guard mesh.space == .points else {
            throw MeshError(.unsupported, path: "", "hit-testing needs a points-space mesh, got one in \(mesh.space.rawValue) space")
        }
        // The hierarchy indexes triangles with Int32.
        guard mesh.triangleCount < Int(Int32.max) else {
            throw MeshError(.limitExceeded, path: "", "hit-testing indexes at most \(Int32.max - 1) triangles, got \(mesh.triangleCount)")
        }
        if !HitTester.indicesInRange(mesh.triangles, vertexCount: mesh.vertexCount) {
            for (t, tri) in mesh.triangles.enumerated() {
                for k in 0..<3 where !(tri[k] >= 0 && Int(tri[k]) < mesh.vertexCount) {
                    throw MeshError(
                        .invalidValue, path: "triangles[\(t)][\(k)]", "\(tri[k]) is out of range (\(mesh.vertexCount) vertices)")
                }
            }
        }
        guard mesh.sourceFaces.count == mesh.triangleCount, mesh.from.count == mesh.vertexCount,
            mesh.normals.count == mesh.vertexCount
        else {
            throw MeshError(.invalidValue, path: "", "the mesh's per-vertex and per-triangle arrays do not match its counts")
        }
        self.mesh = mesh
        self.geometry = geometry
        self.grid = grid
        self.surface = surface
        self.precision = surface == nil ? .triangles : .exact
        bvh = TriangleBVH(positions: mesh.positions, triangles: mesh.triangles, grid: grid)
        inverseTransform = geometry.transform.inverse
        screenFallback = inverseTransform == nil ? ScreenFallback(mesh: mesh, geometry: geometry) : nil
        centre = mesh.bounds.map { ($0.min + $0.max) / 2 }
    }

    /// The nearest triangle hit, with barycentric interpolation in points space.
    func triangleHit(_ ray: Ray) -> RayHit? {
        guard let h = firstHit(ray) else { return nil }
        return hit(triangle: Int(h.triangle), barycentric: h.barycentric, t: h.t)
    }

    /// A triangle hit at the given barycentric weights.
    func hit(triangle: Int, barycentric w: SIMD3<Double>, t: Double) -> RayHit {
        let tri = mesh.triangles[triangle]
        let a = Int(tri.x), b = Int(tri.y), c = Int(tri.z)
        let pa = mesh.positions[a], pb = mesh.positions[b], pc = mesh.positions[c]
        let position = w.x * pa + w.y * pb + w.z * pc
        let from = w.x * mesh.from[a] + w.y * mesh.from[b] + w.z * mesh.from[c]
        let geometric = (pb - pa).cross(pc - pa).normalized()
        let normal = (w.x * mesh.normals[a] + w.y * mesh.normals[b] + w.z * mesh.normals[c]).normalized(or: geometric)
        return RayHit(
            t: t, triangle: triangle, face: Int(mesh.sourceFaces[triangle]), barycentric: w,
            position: position, from: from, normal: normal, geometricNormal: geometric,
            quad: nil, patchParameter: nil, isExact: false)
    }
}

extension HitTester {
    /// Whether every corner of `triangles` names one of `vertexCount` vertices: the smallest and
    /// largest index of each part, the parts on all cores. Only when this fails is the mesh
    /// searched, in order, for the first index out of range to name in the error.
    static func indicesInRange(_ triangles: [SIMD3<Int32>], vertexCount: Int) -> Bool {
        let parts = Swift.max(1, Swift.min(64, triangles.count / 65_536))
        let count = triangles.count
        let extremes = triangles.withUnsafeBufferPointer { t in
            parallelParts(parts) { part -> (SIMD3<Int32>, SIMD3<Int32>) in
                var lo = SIMD3<Int32>(repeating: .max), hi = SIMD3<Int32>(repeating: .min)
                for i in PartRanges.range(part, of: parts, count: count) {
                    lo = pointwiseMin(lo, t[i])
                    hi = pointwiseMax(hi, t[i])
                }
                return (lo, hi)
            }
        }
        return extremes.allSatisfy { lo, hi in lo.min() >= 0 && Int(hi.max()) < vertexCount }
    }
}
