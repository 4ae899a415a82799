/// The limit surface face by face, for tessellation at a density of each face's own.
///
/// A face whose four corners are regular (interior of valence 4, boundary with two faces, or the
/// corner of one face) is a uniform rational bicubic B-spline patch of its 4 × 4 neighbourhood,
/// which ``patch(ofFace:control:)`` gives for evaluation at any (u, v). A face that touches an
/// extraordinary or non-manifold vertex has no such patch; ``grid(ofFace:level:vertices:weights:pointScale:)``
/// gives its exact limit points on the dyadic grid of a level, by refining only the faces around it.
///
/// Everything here depends on the topology alone: build it once and evaluate moved vertices often.
public struct FaceSurfaces: Sendable {
    public let topology: SurfaceTopology
    /// 16 control indices per face, row by row (−1: a phantom beyond a boundary); only meaningful
    /// where `regular` is true.
    let neighbourhoods: [Int32]
    let regular: [Bool]

    public init(topology: SurfaceTopology) {
        self.topology = topology
        let level = topology.level
        var neighbourhoods = [Int32](repeating: -1, count: 16 * level.faceCount)
        var regular = [Bool](repeating: false, count: level.faceCount)
        // Each vertex's corner test once (a face's neighbourhood exists only when its four
        // corners pass it), instead of once for every face around the vertex.
        var regularCorner = [Bool](repeating: false, count: level.vertexCount)
        regularCorner.withUnsafeMutableBufferPointer { rc in
            guard let base = rc.baseAddress else { return }
            let out = SharedMutableBuffer(base: base)
            parallelChunks(level.vertexCount, minimumChunk: 4096) { range in
                for v in range where level.vertexFaceOffsets[v + 1] > level.vertexFaceOffsets[v] {
                    out.base[v] = level.isRegularCorner(v)
                }
            }
        }
        // Faces are independent: each writes only its own 16 slots and flag, on all cores.
        neighbourhoods.withUnsafeMutableBufferPointer { nb in
            regular.withUnsafeMutableBufferPointer { rb in
                guard let nbase = nb.baseAddress, let rbase = rb.baseAddress else { return }
                let n = SharedMutableBuffer(base: nbase), r = SharedMutableBuffer(base: rbase)
                parallelChunks(level.faceCount, minimumChunk: 1024) { range in
                    for f in range {
                        guard (0..<4).allSatisfy({ regularCorner[Int(level.faceVertices[4 * f + $0])] }),
                            let grid = level.neighbourhoodOfRegularCorners(ofFace: f)
                        else { continue }
                        r.base[f] = true
                        for slot in 0..<16 { n.base[16 * f + slot] = grid[slot] }
                    }
                }
            }
        }
        self.neighbourhoods = neighbourhoods
        self.regular = regular
    }

    public var faceCount: Int { topology.faceCount }
    public var edgeCount: Int { topology.edgeCount }
    public var vertexCount: Int { topology.vertexCount }

    /// The corners of face `f`: top-left, top-right, bottom-right, bottom-left.
    public func corners(ofFace f: Int) -> SIMD4<Int32> {
        let v = topology.level.faceVertices
        return SIMD4(v[4 * f], v[4 * f + 1], v[4 * f + 2], v[4 * f + 3])
    }

    /// The edges of face `f`; edge k runs from corner k to corner k + 1.
    public func edges(ofFace f: Int) -> SIMD4<Int32> {
        let e = topology.level.faceEdges
        return SIMD4(e[4 * f], e[4 * f + 1], e[4 * f + 2], e[4 * f + 3])
    }

    /// The two vertices of edge `e`, in the direction its first face runs along it.
    public func vertices(ofEdge e: Int) -> SIMD2<Int32> {
        SIMD2(topology.level.edgeVertices[2 * e], topology.level.edgeVertices[2 * e + 1])
    }

    /// The faces of edge `e`; the second is −1 on a boundary.
    public func faces(ofEdge e: Int) -> SIMD2<Int32> {
        SIMD2(topology.level.edgeFaces[2 * e], topology.level.edgeFaces[2 * e + 1])
    }

    /// The vertices for which ``isIrregular(vertex:)`` holds, in increasing order.
    ///
    /// A face is a B-spline patch only when each of its corners passes the test that
    /// ``isIrregular(vertex:)`` negates (interior valence 4, two faces on a boundary, or a lone
    /// corner), so a vertex of any patch face is regular: only vertices without one are tested.
    public var irregularVertices: [Int] {
        let level = topology.level
        return (0..<vertexCount).filter { v in
            let faces = Int(level.vertexFaceOffsets[v])..<Int(level.vertexFaceOffsets[v + 1])
            return !faces.contains { regular[Int(level.vertexFaces[$0])] } && isIrregular(vertex: v)
        }
    }

    /// Homogeneous control values `(W·from, W·to, W, 0, 0)` for these vertices and vertex weights.
    public static func homogeneous(vertices: [MeshVertex], weights: [Double]) -> [SIMD8<Double>] {
        (0..<min(vertices.count, weights.count)).map { Homogeneous(vertex: vertices[$0], weight: weights[$0]) }
    }

    /// The B-spline patch of face `f` (u from corner 0 to 1, v from corner 0 to 3), or `nil` when the
    /// face is not regular or `control` is too short.
    public func patch(ofFace f: Int, control: [SIMD8<Double>]) -> RationalPatch? {
        guard f >= 0, f < regular.count, regular[f], control.count == vertexCount else { return nil }
        // One allocation, the patch's own, for a face away from the boundary: with no phantom
        // slot, mirroring fills nothing, so it runs only where a slot is −1.
        let slots = 16 * f..<16 * f + 16
        var phantoms = false
        func at(_ slot: Int) -> SIMD8<Double> {
            let i = neighbourhoods[16 * f + slot]
            if i < 0 { phantoms = true }
            return i >= 0 ? control[Int(i)] : .zero
        }
        // An array literal: `Array(unsafeUninitializedCapacity:)` and `Array(repeating:count:)`
        // look up the storage's generic metadata on every call, which cost more than the copy.
        let (v0, v1, v2, v3, v4, v5, v6, v7) = (at(0), at(1), at(2), at(3), at(4), at(5), at(6), at(7))
        let (v8, v9, v10, v11, v12, v13, v14, v15) = (at(8), at(9), at(10), at(11), at(12), at(13), at(14), at(15))
        var values: [SIMD8<Double>] = [v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15]
        if phantoms { TopologyLevel.fillPhantoms(&values, indices: Array(neighbourhoods[slots])) }
        return RationalPatch(control: values)
    }

    /// The faces that share a vertex with face `f`, `f` first: the control points of these faces
    /// are all the limit surface over `f` depends on.
    public func ring(ofFace f: Int) -> [Int] {
        let level = topology.level
        var result = [f]
        var seen: Set<Int> = [f]
        for k in 0..<4 {
            let v = Int(level.faceVertices[4 * f + k])
            for slot in Int(level.vertexFaceOffsets[v])..<Int(level.vertexFaceOffsets[v + 1]) {
                let g = Int(level.vertexFaces[slot])
                if seen.insert(g).inserted { result.append(g) }
            }
        }
        return result
    }

    /// The exact limit surface of face `f` on the (2ˡ + 1) × (2ˡ + 1) grid of parameters
    /// (i/2ˡ, j/2ˡ), from refining `level` times only the faces around `f`. The faces around it
    /// keep their true vertex weights, and rules at the edge of that patch of faces reach no
    /// further than the faces there, so the grid equals the whole mesh's refinement over `f`.
    public func grid(
        ofFace f: Int, level: Int, vertices: [MeshVertex], weights: [Double], pointScale: SIMD3<Double>
    ) throws -> FaceGrid {
        let faces = ring(ofFace: f)
        var local: [Int32: Int] = [:]
        var localVertices: [MeshVertex] = [], localWeights: [Double] = []
        var localFaces: [MeshFace] = []
        let fv = topology.level.faceVertices
        for g in faces {
            var indices = SIMD4<Int>(repeating: 0)
            for k in 0..<4 {
                let v = fv[4 * g + k]
                if let i = local[v] {
                    indices[k] = i
                } else {
                    let i = localVertices.count
                    local[v] = i
                    guard Int(v) < vertices.count, Int(v) < weights.count else {
                        throw MeshError(.incompatible, path: "vertices", "vertex \(v) is missing")
                    }
                    localVertices.append(vertices[Int(v)])
                    localWeights.append(weights[Int(v)])
                    indices[k] = i
                }
            }
            localFaces.append(MeshFace(indices: indices))
        }
        let localTopology = try SurfaceTopology(faces: localFaces, vertexCount: localVertices.count)
        let plan = try SubdivisionPlan(topology: localTopology, steps: level, maximumQuads: Int.max)
        let evaluation = try plan.evaluate(vertices: localVertices, weights: localWeights, pointScale: pointScale)
        let n = plan.resolution
        let side = n + 1
        var samples = SurfaceSamples(
            from: [LayerPoint](repeating: .zero, count: side * side),
            to: [Point3D](repeating: .zero, count: side * side),
            normals: [Point3D](repeating: .zero, count: side * side))
        // Face 0 of the local mesh is f; its sub-quads come first, row by row.
        for q in 0..<(n * n) {
            let i = q % n, j = q / n
            let c = plan.quad(q)
            let slots = [j * side + i, j * side + i + 1, (j + 1) * side + i + 1, (j + 1) * side + i]
            for k in 0..<4 {
                let p = Int(c[k])
                samples.from[slots[k]] = evaluation.points.from[p]
                samples.to[slots[k]] = evaluation.points.to[p]
                samples.normals[slots[k]] = evaluation.points.normals[p]
            }
        }
        return FaceGrid(resolution: n, samples: samples)
    }
}

/// Limit-surface samples of one face on a square grid: sample (i, j), at parameters
/// (i/resolution, j/resolution), is at index `j·(resolution + 1) + i`.
public struct FaceGrid: Sendable {
    public let resolution: Int
    public let samples: SurfaceSamples

    public func index(_ i: Int, _ j: Int) -> Int { j * (resolution + 1) + i }
}
