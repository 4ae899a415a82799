/// The connectivity of one level of a quad mesh, on indices only (no positions).
///
/// Edge `k` of a face runs from its corner `k` to corner `k + 1`. Faces keep the orientation of the
/// control mesh at every level, and children of a face are aligned with its (u, v) frame: u runs
/// from corner 0 to corner 1, v from corner 0 to corner 3.
struct TopologyLevel: Sendable {
    var vertexCount: Int
    /// Four vertex indices per face.
    var faceVertices: [Int32]
    /// Four edge indices per face.
    var faceEdges: [Int32]
    /// Two vertex indices per edge.
    var edgeVertices: [Int32]
    /// Two face indices per edge; the second is −1 on a boundary edge.
    var edgeFaces: [Int32]

    var faceCount: Int { faceVertices.count / 4 }
    var edgeCount: Int { edgeVertices.count / 2 }

    /// Vertex → incident faces (compressed rows).
    var vertexFaceOffsets: [Int32] = []
    var vertexFaces: [Int32] = []
    /// Vertex → incident edges (compressed rows).
    var vertexEdgeOffsets: [Int32] = []
    var vertexEdges: [Int32] = []
}

extension TopologyLevel {
    @inline(__always)
    func isBoundary(edge e: Int) -> Bool { edgeFaces[2 * e + 1] < 0 }

    @inline(__always)
    func otherVertex(ofEdge e: Int, _ v: Int32) -> Int32 {
        let a = edgeVertices[2 * e]
        return a == v ? edgeVertices[2 * e + 1] : a
    }

    /// Fills the vertex → face and vertex → edge tables.
    mutating func buildVertexAdjacency() {
        vertexFaceOffsets = TopologyLevel.compressedRows(
            count: vertexCount, items: faceVertices, into: &vertexFaces)
        vertexEdgeOffsets = TopologyLevel.compressedRows(
            count: vertexCount, items: edgeVertices, into: &vertexEdges, perItemGroup: 2)
    }

    /// Groups `items` (each a vertex index, in groups of `perItemGroup` per owner) by vertex: row v of
    /// the result lists the owners (item index / perItemGroup) that name v.
    static func compressedRows(
        count: Int, items: [Int32], into rows: inout [Int32], perItemGroup: Int = 4
    ) -> [Int32] {
        var offsets = [Int32](repeating: 0, count: count + 1)
        for v in items { offsets[Int(v) + 1] += 1 }
        for i in 0..<count { offsets[i + 1] += offsets[i] }
        var cursor = offsets
        rows = [Int32](repeating: 0, count: items.count)
        for (i, v) in items.enumerated() {
            let slot = Int(cursor[Int(v)])
            rows[slot] = Int32(i / perItemGroup)
            cursor[Int(v)] += 1
        }
        return offsets
    }

    /// One Catmull–Clark step on indices. Child vertices are ordered: the parent's vertices, then one
    /// per parent edge, then one per parent face. Child faces of face f are `4f + q` for the
    /// quadrants q = 0 (at corner 0), 1 (corner 1), 2 (corner 2), 3 (corner 3), each keeping the
    /// parent's orientation and (u, v) frame.
    func refined() -> TopologyLevel {
        let nv = vertexCount, ne = edgeCount, nf = faceCount
        let edgeBase = Int32(nv), faceBase = Int32(nv + ne)

        var childEdgeVertices = [Int32](repeating: 0, count: 2 * (2 * ne + 4 * nf))
        // Parent edge e (a, b) → child edges 2e = (a, E) and 2e + 1 = (E, b).
        for e in 0..<ne {
            let a = edgeVertices[2 * e], b = edgeVertices[2 * e + 1]
            let mid = edgeBase + Int32(e)
            childEdgeVertices[4 * e] = a
            childEdgeVertices[4 * e + 1] = mid
            childEdgeVertices[4 * e + 2] = mid
            childEdgeVertices[4 * e + 3] = b
        }
        // Face f → interior child edges 2ne + 4f + k = (E_k, F), E_k the point of the face's edge k.
        var childFaceVertices = [Int32](repeating: 0, count: 16 * nf)
        var childFaceEdges = [Int32](repeating: 0, count: 16 * nf)
        let interiorBase = 2 * ne
        for f in 0..<nf {
            let F = faceBase + Int32(f)
            var c = SIMD4<Int32>(), E = SIMD4<Int32>()
            // For corner k: the child edge of edge k that touches corner k (toward k + 1), and the
            // child edge of edge k − 1 that touches corner k.
            var fromCorner = SIMD4<Int32>(), intoCorner = SIMD4<Int32>()
            for k in 0..<4 {
                c[k] = faceVertices[4 * f + k]
                let e = Int(faceEdges[4 * f + k])
                E[k] = edgeBase + Int32(e)
                fromCorner[k] = Int32(edgeVertices[2 * e] == c[k] ? 2 * e : 2 * e + 1)
                let ep = Int(faceEdges[4 * f + (k + 3) % 4])
                intoCorner[k] = Int32(edgeVertices[2 * ep] == c[k] ? 2 * ep : 2 * ep + 1)
                let ie = interiorBase + 4 * f + k
                childEdgeVertices[2 * ie] = E[k]
                childEdgeVertices[2 * ie + 1] = F
            }
            let inner = SIMD4<Int32>(0, 1, 2, 3) &+ Int32(interiorBase + 4 * f)
            // Quadrant 0: (c0, E0, F, E3); edges: c0–E0, E0–F, F–E3, E3–c0.
            // Quadrant 1: (E0, c1, E1, F);  edges: E0–c1, c1–E1, E1–F, F–E0.
            // Quadrant 2: (F, E1, c2, E2);  edges: F–E1, E1–c2, c2–E2, E2–F.
            // Quadrant 3: (E3, F, E2, c3);  edges: E3–F, F–E2, E2–c3, c3–E3.
            let q = 16 * f
            let vertices: (SIMD4<Int32>, SIMD4<Int32>, SIMD4<Int32>, SIMD4<Int32>) = (
                SIMD4(c[0], E[0], F, E[3]),
                SIMD4(E[0], c[1], E[1], F),
                SIMD4(F, E[1], c[2], E[2]),
                SIMD4(E[3], F, E[2], c[3])
            )
            let edges: (SIMD4<Int32>, SIMD4<Int32>, SIMD4<Int32>, SIMD4<Int32>) = (
                SIMD4(fromCorner[0], inner[0], inner[3], intoCorner[0]),
                SIMD4(intoCorner[1], fromCorner[1], inner[1], inner[0]),
                SIMD4(inner[1], intoCorner[2], fromCorner[2], inner[2]),
                SIMD4(inner[3], inner[2], intoCorner[3], fromCorner[3])
            )
            for k in 0..<4 {
                childFaceVertices[q + k] = vertices.0[k]
                childFaceVertices[q + 4 + k] = vertices.1[k]
                childFaceVertices[q + 8 + k] = vertices.2[k]
                childFaceVertices[q + 12 + k] = vertices.3[k]
                childFaceEdges[q + k] = edges.0[k]
                childFaceEdges[q + 4 + k] = edges.1[k]
                childFaceEdges[q + 8 + k] = edges.2[k]
                childFaceEdges[q + 12 + k] = edges.3[k]
            }
        }
        var child = TopologyLevel(
            vertexCount: nv + ne + nf,
            faceVertices: childFaceVertices,
            faceEdges: childFaceEdges,
            edgeVertices: childEdgeVertices,
            edgeFaces: TopologyLevel.edgeFaces(faceEdges: childFaceEdges, edgeCount: 2 * ne + 4 * nf))
        child.buildVertexAdjacency()
        return child
    }

    /// The two faces of each edge (second −1 on a boundary), from the faces' edge lists. Assumes no
    /// edge has more than two faces (checked on the control mesh; refinement keeps it).
    static func edgeFaces(faceEdges: [Int32], edgeCount: Int) -> [Int32] {
        var result = [Int32](repeating: -1, count: 2 * edgeCount)
        for (slot, e) in faceEdges.enumerated() {
            let f = Int32(slot / 4)
            let i = 2 * Int(e)
            if result[i] < 0 { result[i] = f } else { result[i + 1] = f }
        }
        return result
    }
}
