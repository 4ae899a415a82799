/// The one-ring of a vertex in rotation order.
///
/// Around vertex v, a face with v at corner k contributes its `next` corner (k + 1, the u direction
/// of that face's corner), its `opposite` corner (k + 2) and its `previous` corner (k + 3, the v
/// direction). The following face is the one across the edge (v, previous). Walking that way turns
/// from u toward v, so tangent masks built on this order give `Tu × Tv` normals.
struct RingWalk {
    /// Faces visited.
    var faceCount: Int
    /// Whether the walk started and ended on boundary edges (an open fan).
    var isBoundary: Bool
}

extension TopologyLevel {
    @inline(__always)
    func corner(of v: Int32, inFace f: Int) -> Int {
        let base = 4 * f
        if faceVertices[base] == v { return 0 }
        if faceVertices[base + 1] == v { return 1 }
        if faceVertices[base + 2] == v { return 2 }
        return 3
    }

    /// Appends the ring of `v` to `ring` as `e₀, f₀, e₁, f₁, …` (edge neighbours and opposite
    /// corners), ending with the last edge neighbour `e_k` on a boundary. Returns `nil` when the faces
    /// around v do not form a single fan (a non-manifold vertex) or v has no face.
    func orderedRing(_ v: Int, into ring: inout [Int32]) -> RingWalk? {
        let lo = Int(vertexFaceOffsets[v]), hi = Int(vertexFaceOffsets[v + 1])
        guard hi > lo else { return nil }
        let vv = Int32(v)
        // On a boundary, start at the face whose edge (v, next) is a boundary edge.
        var start = Int(vertexFaces[lo])
        var boundary = false
        for slot in lo..<hi {
            let f = Int(vertexFaces[slot])
            let k = corner(of: vv, inFace: f)
            if isBoundary(edge: Int(faceEdges[4 * f + k])) {
                start = f
                boundary = true
                break
            }
        }
        var f = start
        var visited = 0
        while true {
            let k = corner(of: vv, inFace: f)
            ring.append(faceVertices[4 * f + (k + 1) % 4])
            ring.append(faceVertices[4 * f + (k + 2) % 4])
            visited += 1
            let e = Int(faceEdges[4 * f + (k + 3) % 4])
            let a = Int(edgeFaces[2 * e]), b = Int(edgeFaces[2 * e + 1])
            let across = a == f ? b : a
            if across < 0 {
                if !boundary { return nil }
                ring.append(faceVertices[4 * f + (k + 3) % 4])
                break
            }
            if across == start { break }
            if visited >= hi - lo { return nil }
            f = across
        }
        guard visited == hi - lo else { return nil }
        return RingWalk(faceCount: visited, isBoundary: boundary)
    }

}
