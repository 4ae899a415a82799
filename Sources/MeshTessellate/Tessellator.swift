import RealModule
import SurfaceKit

/// Turns a mesh transform into triangles: refines its topology once (a `SubdivisionPlan`) and
/// tessellates any vertex positions of that topology as often as asked, as an animation does.
public struct Tessellator: Sendable {
    /// The topology-only part: stencil tables, limit stencils, sub-quad order.
    public let plan: SubdivisionPlan
    public let diagonal: DiagonalPolicy
    let topology: SurfaceTopology
    /// Triangles for the policies that do not look at positions, built once.
    let fixedTriangles: [SIMD3<Int32>]?
    /// Maps refined points to output vertices when some control vertices belong to no face.
    let vertexRemap: [Int32]?
    /// The control face of each output triangle (topology only, so built once).
    let sourceFaces: [Int32]
    /// With automatic steps: the adaptive tessellator that makes the triangles (the same one every
    /// entry point uses), and the tolerance asked for (`nil`: the layer's default).
    let automatic: AdaptiveTessellator?
    let tolerance: Double?

    /// Whether this tessellator makes automatic steps (``AdaptiveTessellator``) rather than uniform ones.
    public var isAutomatic: Bool { automatic != nil }

    /// Prepares tessellation of meshes with `mesh`'s topology. Throws `.limitExceeded`, stating the
    /// count, when the triangles would exceed `options.maximumTriangles`; nothing is refined first.
    ///
    /// With automatic steps (the mesh's −1 or `options.steps`), ``tessellate(_:geometry:space:)``
    /// gives exactly what ``AdaptiveTessellator`` gives for `options.tolerance` on that layer, as
    /// ``tessellate(_:options:space:)``, ``HitTester`` and `meshgeo` do; `plan` is then the control
    /// mesh's (steps 0), and the budget is checked when the tolerance is known.
    public init(mesh: MeshTransform, options: TessellationOptions = TessellationOptions()) throws {
        if (options.steps ?? mesh.subdivisionSteps) == .automatic {
            let adaptive = try AdaptiveTessellator(mesh: mesh, options: options)
            topology = adaptive.surfaces.topology
            plan = try SubdivisionPlan(topology: topology, steps: 0)
            diagonal = options.diagonal
            fixedTriangles = nil
            vertexRemap = nil
            sourceFaces = []
            automatic = adaptive
            tolerance = options.tolerance
            return
        }
        automatic = nil
        tolerance = nil
        let steps = options.resolvedSteps(for: mesh)
        try Tessellator.checkBudget(faces: mesh.faces.count, steps: steps, options: options)
        let topology = try SurfaceTopology(faces: mesh.faces, vertexCount: mesh.vertices.count)
        let plan = try SubdivisionPlan(topology: topology, steps: steps, maximumQuads: Int.max)
        self.plan = plan
        self.topology = topology
        self.diagonal = options.diagonal
        switch options.diagonal {
        case .first, .second, .center:
            fixedTriangles = Tessellator.triangulate(plan: plan, policy: options.diagonal, points: [], centers: nil)
        case .shortest, .surface:
            fixedTriangles = nil
        }
        vertexRemap = plan.isolatedVertexCount > 0 ? Tessellator.usedVertexRemap(plan: plan) : nil
        let perQuad = options.diagonal.trianglesPerQuad
        sourceFaces = (0..<(plan.quadCount * perQuad)).map { Int32(plan.controlFace(ofQuad: $0 / perQuad)) }
    }

    /// Refuses a request over the budget, stating what it would need.
    static func checkBudget(faces: Int, steps: Int, options: TessellationOptions) throws {
        guard steps >= 0 else {
            throw MeshError(
                .invalidValue, path: "subdivisionSteps", "\(steps) is not a number of steps (use 0 or more, or −1 for automatic)")
        }
        // 2ⁿ × 2ⁿ quads a face; counted in floating point first so no size overflows.
        let exact = Double(faces) * Double(options.diagonal.trianglesPerQuad) * Double.pow(4, Double(steps))
        // Past 9·10¹⁸ the count is written as a power of ten (4ⁿ overflows Double from n = 512).
        let count: String
        if exact < 9e18 {
            count = "\(Int(exact))"
        } else {
            let log = Double.log10(Double(max(faces, 1)) * Double(options.diagonal.trianglesPerQuad)) + Double(steps) * Double.log10(4)
            count = "about 10^\(Int(log.rounded(.down)))"
        }
        guard exact <= Double(options.maximumTriangles) else {
            throw MeshError(
                .limitExceeded, path: "subdivisionSteps",
                "\(steps) steps on \(faces) faces would make \(count) triangles, over the budget of \(options.maximumTriangles)")
        }
        guard steps <= SubdivisionPlan.maximumSteps else {
            throw MeshError(
                .limitExceeded, path: "subdivisionSteps",
                "\(steps) steps (\(count) triangles) is above the most this tessellator refines, \(SubdivisionPlan.maximumSteps)")
        }
    }

    /// Tessellates `mesh` (which must have the topology this tessellator was made for) on a layer
    /// with the given geometry, with positions and normals in `space`. A mesh with other faces or
    /// another vertex count is refused with `.incompatible` (the faces are compared corner by
    /// corner with those the tessellator was built from, which costs far less than the evaluation).
    public func tessellate(_ mesh: MeshTransform, geometry: LayerGeometry, space: CoordinateSpace) throws -> TriangleMesh {
        if let difference = topology.difference(faces: mesh.faces, vertexCount: mesh.vertices.count) { throw difference }
        if let automatic {
            return try automatic.tessellate(mesh, geometry: geometry, space: space, tolerance: tolerance).mesh
        }
        let weights = topology.vertexWeights(faces: mesh.faces)
        var evaluation = try plan.evaluate(
            vertices: mesh.vertices, weights: weights, pointScale: geometry.pointScale,
            includeCenters: diagonal.needsCenters)
        // Taken out so that `unit` holds the only references (changing it copies nothing).
        var unit = evaluation.points
        evaluation.points = SurfaceSamples()
        if diagonal == .center, let centers = evaluation.centers {
            unit.from += centers.from
            unit.to += centers.to
            unit.normals += centers.normals
        }
        let scale = geometry.pointScale
        // Unit and points output without isolated vertices take the lean path: no points-space
        // copy outlives the triangulation, and normals are converted in place (at steps 4 on the
        // ripple that is 160 MB less at the peak). Screen space clips, so it goes through points.
        if vertexRemap == nil, space != .screen {
            let triangles: [SIMD3<Int32>]
            if let fixedTriangles {
                triangles = fixedTriangles
            } else {
                let points = unit.to.map { $0 * scale }
                triangles = Tessellator.triangulate(
                    plan: plan, policy: diagonal, points: points, centers: evaluation.centers.map { $0.to.map { $0 * scale } })
            }
            var positions = unit.to, normals = unit.normals
            let from = unit.from
            unit = SurfaceSamples()
            if space == .points {
                Tessellator.transform(&positions) { $0 * scale }
            } else {
                Tessellator.transform(&normals) { geometry.unitNormal(fromPoints: $0) }
            }
            return TriangleMesh(
                space: space, positions: positions, from: from, normals: normals, triangles: triangles, sourceFaces: sourceFaces)
        }
        let points = unit.to.map { $0 * scale }
        let triangles =
            fixedTriangles
            ?? Tessellator.triangulate(
                plan: plan, policy: diagonal, points: points, centers: evaluation.centers.map { $0.to.map { $0 * scale } })
        var pointsMesh = TriangleMesh(
            space: .points, positions: points, from: unit.from, normals: unit.normals,
            triangles: triangles, sourceFaces: sourceFaces)
        var unitPositions = unit.to
        if let remap = vertexRemap {
            pointsMesh = pointsMesh.compacted(remap: remap)
            unitPositions = Tessellator.compact(unitPositions, remap: remap)
        }
        return pointsMesh.converted(to: space, unitPositions: unitPositions, geometry: geometry)
    }

    /// Applies `body` to every element in place, on all cores.
    static func transform(_ values: inout [Point3D], _ body: (Point3D) -> Point3D) {
        let count = values.count
        values.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let out = SharedMutableBuffer(base: base)
            parallelChunks(count, minimumChunk: 65_536) { range in
                for i in range { out.base[i] = body(out.base[i]) }
            }
        }
    }

    /// One call: check, refine and tessellate a document. With automatic steps (the file's −1 or
    /// `options.steps`), the ``AdaptiveTessellator`` meets `options.tolerance`, as it does through
    /// ``init(mesh:options:)``.
    public static func tessellate(
        _ document: MeshDocument, options: TessellationOptions = TessellationOptions(), space: CoordinateSpace = .unit
    ) throws -> TriangleMesh {
        try document.layer.validate()
        return try Tessellator(mesh: document.mesh, options: options)
            .tessellate(document.mesh, geometry: document.geometry, space: space)
    }
}

extension TriangleMesh {
    /// This points-space mesh in `space`: unit positions (given, to avoid a division), points as
    /// they are, or projected to the screen.
    func converted(to space: CoordinateSpace, unitPositions: [Point3D], geometry: LayerGeometry) -> TriangleMesh {
        switch space {
        case .points:
            return self
        case .unit:
            var mesh = self
            mesh.space = .unit
            mesh.positions = unitPositions
            mesh.normals = normals.map { geometry.unitNormal(fromPoints: $0) }
            return mesh
        case .screen:
            return projectedToScreen(geometry)
        }
    }
}

extension Tessellator {
    /// Points that some quad uses keep their order; the others (refined copies of control vertices
    /// that no face uses) are dropped. −1 marks a dropped point.
    static func usedVertexRemap(plan: SubdivisionPlan) -> [Int32] {
        var used = [Bool](repeating: false, count: plan.pointCount)
        for i in plan.quadCorners { used[Int(i)] = true }
        var remap = [Int32](repeating: -1, count: plan.pointCount)
        var next: Int32 = 0
        for i in used.indices where used[i] {
            remap[i] = next
            next += 1
        }
        return remap
    }

    static func compact<T>(_ values: [T], remap: [Int32]) -> [T] {
        var result = [T]()
        result.reserveCapacity(values.count)
        for i in values.indices where i >= remap.count || remap[i] >= 0 {
            result.append(values[i])
        }
        return result
    }
}

extension TriangleMesh {
    /// Drops unused points (centres, appended after the points, are always used).
    func compacted(remap: [Int32]) -> TriangleMesh {
        let pointCount = remap.count
        let kept = remap.reduce(0) { $0 + ($1 >= 0 ? 1 : 0) }
        func map(_ i: Int32) -> Int32 {
            Int(i) < pointCount ? remap[Int(i)] : Int32(kept + Int(i) - pointCount)
        }
        var mesh = self
        mesh.positions = Tessellator.compact(positions, remap: remap)
        mesh.from = Tessellator.compact(from, remap: remap)
        mesh.normals = Tessellator.compact(normals, remap: remap)
        mesh.triangles = triangles.map { SIMD3(map($0.x), map($0.y), map($0.z)) }
        return mesh
    }
}
