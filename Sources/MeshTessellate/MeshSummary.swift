import SurfaceKit

/// Facts about a mesh and how it would be tessellated: what `meshgeo info` prints.
public struct MeshSummary: Sendable {
    public var vertexCount: Int
    public var faceCount: Int
    public var edgeCount: Int
    public var boundaryEdgeCount: Int
    /// Control vertices by kind: interior valence → count, boundary face count → count, corners.
    public var interiorValences: [Int: Int]
    public var boundaryFaceCounts: [Int: Int]
    public var cornerCount: Int
    /// Bounds of the control points' `to` and `from`, or `nil` without vertices.
    public var toBounds: (min: Point3D, max: Point3D)?
    public var fromBounds: (min: LayerPoint, max: LayerPoint)?
    /// The steps the file asks for.
    public var requestedSteps: SubdivisionSteps
    /// The uniform steps tessellation uses; with automatic steps, the uniform steps that would
    /// match the densest face (``AdaptiveReport/equivalentUniformSteps``).
    public var resolvedSteps: Int
    /// Surface points and triangles: at `resolvedSteps` with two triangles per quad, or what
    /// automatic steps made.
    public var pointCount: Int
    public var triangleCount: Int
    /// With automatic steps: what the adaptive tessellation chose and measured. Building the
    /// summary tessellates once to find it (nothing is kept but the report).
    public var automatic: AdaptiveReport?

    public init(document: MeshDocument, options: TessellationOptions = TessellationOptions()) throws {
        let mesh = document.mesh
        let topology = try SurfaceTopology(faces: mesh.faces, vertexCount: mesh.vertices.count)
        vertexCount = mesh.vertices.count
        faceCount = mesh.faces.count
        edgeCount = topology.edgeCount
        boundaryEdgeCount = topology.boundaryEdgeCount
        interiorValences = [:]
        boundaryFaceCounts = [:]
        cornerCount = 0
        for kind in topology.vertexKinds {
            switch kind {
            case .interior(let n): interiorValences[n, default: 0] += 1
            case .boundary(let k): boundaryFaceCounts[k, default: 0] += 1
            case .corner: cornerCount += 1
            }
        }
        if let first = mesh.vertices.first {
            var lo = first.to, hi = first.to, flo = first.from, fhi = first.from
            for v in mesh.vertices {
                lo = pointwiseMin(lo, v.to)
                hi = pointwiseMax(hi, v.to)
                flo = pointwiseMin(flo, v.from)
                fhi = pointwiseMax(fhi, v.from)
            }
            toBounds = (lo, hi)
            fromBounds = (flo, fhi)
        }
        requestedSteps = options.steps ?? mesh.subdivisionSteps
        if requestedSteps == .automatic {
            try document.layer.validate()
            let report = try AdaptiveTessellator(mesh: mesh, options: options)
                .tessellate(mesh, geometry: document.geometry, space: .points, tolerance: options.tolerance).report
            automatic = report
            resolvedSteps = report.equivalentUniformSteps
            pointCount = report.vertexCount
            triangleCount = report.triangleCount
            return
        }
        resolvedSteps = options.resolvedSteps(for: mesh)
        (pointCount, triangleCount) = MeshSummary.uniformCounts(
            vertices: vertexCount, edges: edgeCount, faces: faceCount, steps: resolvedSteps)
    }

    /// Surface points and triangles (two a quad) of `steps` uniform steps, by Euler's rule on the
    /// refined quad mesh: every face becomes 2ⁿ × 2ⁿ quads, so points = V + E·(2ⁿ − 1) +
    /// F·(2ⁿ − 1)² and triangles = 2·F·4ⁿ. A count too large for an `Int` (steps 30 on a few
    /// faces already is) is `Int.max`, which ``isSaturated(_:)`` recognises; nothing traps.
    public static func uniformCounts(vertices: Int, edges: Int, faces: Int, steps: Int) -> (points: Int, triangles: Int) {
        guard steps >= 0 else { return (0, 0) }
        // 2ⁿ fits an Int up to n = 62; beyond, every count with a face is saturated anyway.
        let side = steps <= 62 ? (1 << steps) - 1 : Int.max
        let sideSquared = saturatingProduct(side, side)
        let quadsPerFace = steps <= 62 ? saturatingSum(sideSquared, saturatingSum(saturatingProduct(2, side), 1)) : Int.max
        let triangles = faces == 0 ? 0 : saturatingProduct(saturatingProduct(2, faces), quadsPerFace)
        let points = saturatingSum(
            vertices, saturatingSum(edges == 0 ? 0 : saturatingProduct(edges, side), faces == 0 ? 0 : saturatingProduct(faces, sideSquared))
        )
        return (points, triangles)
    }

    /// Whether a count was too large to represent (see ``uniformCounts(vertices:edges:faces:steps:)``).
    public static func isSaturated(_ count: Int) -> Bool { count == Int.max }

    static func saturatingProduct(_ a: Int, _ b: Int) -> Int {
        let (p, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? Int.max : p
    }

    static func saturatingSum(_ a: Int, _ b: Int) -> Int {
        let (s, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : s
    }
}
