import SurfaceKit

/// Where every sample and triangle of an adaptive tessellation goes, counted before anything is
/// allocated for the output (so the budget refuses first).
///
/// Output vertices come in four blocks: the limit points of the used control vertices, the inner
/// samples of each edge (from its first vertex to its second), each face's interior grid, and the
/// centres of interior quads when the diagonal policy needs them. Triangles go face by face.
struct AdaptiveLayout: Sendable {
    /// How a face is triangulated.
    enum Kind: UInt8, Sendable {
        /// One quad, split by the diagonal policy.
        case single
        /// One row of cells: the top edge's samples joined to the bottom edge's (side edges unsplit).
        case rowStrip
        /// One column: the left edge's samples joined to the right edge's (top and bottom unsplit).
        case columnStrip
        /// An interior grid of nu × nv cells (at least 2 × 2) and a ring joining it to the edges.
        case ring
    }

    var kind: [Kind]
    /// Interior grid of each ring face: nu × nv cells.
    var nu: [Int]
    var nv: [Int]
    var edgeRate: [Int]
    /// The face (and its side) whose surface gives an edge's samples.
    var edgeSource: [Int32]
    var edgeSide: [UInt8]
    /// Output index of each control vertex's limit point (−1 if no face uses it), and the face and
    /// corner it is evaluated from.
    var cornerIndex: [Int32]
    var cornerSource: [Int32]
    var cornerSlot: [UInt8]
    var edgeBase: [Int]
    var faceBase: [Int]
    var centerBase: [Int]
    var triangleBase: [Int]
    var vertexCount: Int
    var triangleCount: Int
    var smallestRate: Int
    var largestRate: Int

    init(surfaces: FaceSurfaces, rates: FaceRates, policy: DiagonalPolicy, maximumTriangles: Int) throws {
        let faceCount = surfaces.faceCount, edgeCount = surfaces.edgeCount
        let perQuad = policy.trianglesPerQuad
        // Edges: the larger of what the faces on either side ask along it; sampled from a
        // B-spline face when one is there, else from the face on the finer dyadic grid.
        edgeRate = [Int](repeating: 1, count: edgeCount)
        edgeSource = [Int32](repeating: -1, count: edgeCount)
        edgeSide = [UInt8](repeating: 0, count: edgeCount)
        for f in 0..<faceCount {
            let edges = surfaces.edges(ofFace: f)
            for k in 0..<4 {
                let e = Int(edges[k])
                let rate = k % 2 == 0 ? rates.u[f] : rates.v[f]
                edgeRate[e] = max(edgeRate[e], rate)
                let current = Int(edgeSource[e])
                let better: Bool
                if current < 0 {
                    better = true
                } else if rates.level[current] < 0 {
                    better = false
                } else {
                    better = rates.level[f] < 0 || rates.level[f] > rates.level[current]
                }
                if better {
                    edgeSource[e] = Int32(f)
                    edgeSide[e] = UInt8(k)
                }
            }
        }
        // Faces: one quad when the face and all its edges ask for one segment; a strip when only
        // one direction is split; otherwise an interior grid of at least 2 × 2 cells, so there is
        // an inner ring to join the edges to.
        nu = rates.u
        nv = rates.v
        kind = [Kind](repeating: .single, count: faceCount)
        var smallest = Int.max, largest = 0
        for f in 0..<faceCount {
            let edges = surfaces.edges(ofFace: f)
            let r = SIMD4(edgeRate[Int(edges[0])], edgeRate[Int(edges[1])], edgeRate[Int(edges[2])], edgeRate[Int(edges[3])])
            if nu[f] == 1, nv[f] == 1, r == SIMD4(repeating: 1) {
                kind[f] = .single
            } else if nv[f] == 1, r[1] == 1, r[3] == 1 {
                kind[f] = .rowStrip
            } else if nu[f] == 1, r[0] == 1, r[2] == 1 {
                kind[f] = .columnStrip
            } else {
                kind[f] = .ring
                nu[f] = max(nu[f], 2)
                nv[f] = max(nv[f], 2)
            }
            smallest = min(smallest, rates.u[f], rates.v[f])
            largest = max(largest, rates.u[f], rates.v[f], r.max())
        }
        smallestRate = faceCount > 0 ? smallest : 0
        largestRate = largest
        // Control vertices: in order, each evaluated from the first face that uses it.
        cornerIndex = [Int32](repeating: -1, count: surfaces.vertexCount)
        cornerSource = [Int32](repeating: -1, count: surfaces.vertexCount)
        cornerSlot = [UInt8](repeating: 0, count: surfaces.vertexCount)
        for f in 0..<faceCount {
            let corners = surfaces.corners(ofFace: f)
            for k in 0..<4 where cornerSource[Int(corners[k])] < 0 {
                cornerSource[Int(corners[k])] = Int32(f)
                cornerSlot[Int(corners[k])] = UInt8(k)
            }
        }
        var next = 0
        for v in 0..<surfaces.vertexCount where cornerSource[v] >= 0 {
            cornerIndex[v] = Int32(truncatingIfNeeded: next)
            next += 1
        }
        // Counts, then the budget, before any output exists.
        edgeBase = [Int](repeating: 0, count: edgeCount)
        for e in 0..<edgeCount {
            edgeBase[e] = next
            next += edgeRate[e] - 1
        }
        faceBase = [Int](repeating: 0, count: faceCount)
        centerBase = [Int](repeating: 0, count: faceCount)
        triangleBase = [Int](repeating: 0, count: faceCount + 1)
        for f in 0..<faceCount where kind[f] == .ring {
            faceBase[f] = next
            next += (nu[f] - 1) * (nv[f] - 1)
        }
        var triangles = 0
        for f in 0..<faceCount {
            triangleBase[f] = triangles
            let edges = surfaces.edges(ofFace: f)
            switch kind[f] {
            case .single:
                if policy.needsCenters { centerBase[f] = next; next += 1 }
                triangles += perQuad
            case .rowStrip:
                triangles += edgeRate[Int(edges[0])] + edgeRate[Int(edges[2])]
            case .columnStrip:
                triangles += edgeRate[Int(edges[1])] + edgeRate[Int(edges[3])]
            case .ring:
                let interiorQuads = (nu[f] - 2) * (nv[f] - 2)
                if policy.needsCenters { centerBase[f] = next; next += interiorQuads }
                triangles += interiorQuads * perQuad
                for k in 0..<4 {
                    let inner = k % 2 == 0 ? nu[f] - 1 : nv[f] - 1
                    triangles += edgeRate[Int(edges[k])] + inner - 1
                }
            }
        }
        triangleBase[faceCount] = triangles
        vertexCount = next
        triangleCount = triangles
        guard triangles <= maximumTriangles else {
            throw MeshError(
                .limitExceeded, path: "subdivisionSteps",
                "automatic steps would make \(triangles) triangles, over the budget of \(maximumTriangles)")
        }
        guard next <= Int(Int32.max) else {
            throw MeshError(
                .limitExceeded, path: "subdivisionSteps", "automatic steps would make \(next) vertices, more than a mesh can index")
        }
    }
}
