/// The Catmull–Clark rules with edge-and-corner boundaries, written as weights over the vertices of
/// one level: the single definition of the scheme that stencil tables, and anything else that needs
/// a refined point, are built from.
///
/// - face point: the mean of the face's corners;
/// - edge point: interior `(a + b + F₀ + F₁) / 4`, boundary (a crease) `(a + b) / 2`;
/// - vertex point: smooth valence n `((n − 2)/n) v + (1/n²) Σ neighbours + (1/n²) Σ face points`;
///   boundary `(a + 6v + b) / 8` with a, b its boundary neighbours; a corner (one face) or a
///   non-manifold vertex stays where it is.
extension TopologyLevel {
    enum VertexRule: Sendable, Equatable {
        /// Interior, manifold: the smooth rule over `valence` faces.
        case smooth(valence: Int)
        /// On a boundary between two boundary neighbours.
        case crease(Int32, Int32)
        /// Interpolated: one face only, non-manifold, or no face at all.
        case corner
    }

    func vertexRule(_ v: Int, scratch: inout [Int32]) -> VertexRule {
        let faceRange = Int(vertexFaceOffsets[v])..<Int(vertexFaceOffsets[v + 1])
        let edgeRange = Int(vertexEdgeOffsets[v])..<Int(vertexEdgeOffsets[v + 1])
        if faceRange.count < 2 { return .corner }
        // The boundary neighbours (the first two; more makes the vertex non-manifold).
        var boundaryCount = 0
        var a: Int32 = -1, b: Int32 = -1
        for slot in edgeRange {
            let e = Int(vertexEdges[slot])
            guard isBoundary(edge: e) else { continue }
            if boundaryCount == 0 {
                a = otherVertex(ofEdge: e, Int32(v))
            } else if boundaryCount == 1 {
                b = otherVertex(ofEdge: e, Int32(v))
            }
            boundaryCount += 1
        }
        scratch.removeAll(keepingCapacity: true)
        guard let ring = orderedRing(v, into: &scratch), ring.faceCount == faceRange.count else { return .corner }
        if boundaryCount == 0 {
            return edgeRange.count == faceRange.count ? .smooth(valence: faceRange.count) : .corner
        }
        guard boundaryCount == 2, ring.isBoundary else { return .corner }
        return .crease(a, b)
    }

    func addFacePoint(_ f: Int, scale: Double, into row: inout SparseRow) {
        for k in 0..<4 { row.add(faceVertices[4 * f + k], scale / 4) }
    }

    func addEdgePoint(_ e: Int, scale: Double, into row: inout SparseRow) {
        let a = edgeVertices[2 * e], b = edgeVertices[2 * e + 1]
        if isBoundary(edge: e) {
            row.add(a, scale / 2)
            row.add(b, scale / 2)
        } else {
            row.add(a, scale / 4)
            row.add(b, scale / 4)
            addFacePoint(Int(edgeFaces[2 * e]), scale: scale / 4, into: &row)
            addFacePoint(Int(edgeFaces[2 * e + 1]), scale: scale / 4, into: &row)
        }
    }

    func addVertexPoint(_ v: Int, rule: VertexRule, scale: Double, into row: inout SparseRow) {
        switch rule {
        case .corner:
            row.add(Int32(v), scale)
        case let .crease(a, b):
            row.add(Int32(v), scale * 6 / 8)
            row.add(a, scale / 8)
            row.add(b, scale / 8)
        case let .smooth(n):
            let nn = Double(n * n)
            row.add(Int32(v), scale * Double(n - 2) / Double(n))
            for slot in Int(vertexEdgeOffsets[v])..<Int(vertexEdgeOffsets[v + 1]) {
                row.add(otherVertex(ofEdge: Int(vertexEdges[slot]), Int32(v)), scale / nn)
            }
            for slot in Int(vertexFaceOffsets[v])..<Int(vertexFaceOffsets[v + 1]) {
                addFacePoint(Int(vertexFaces[slot]), scale: scale / nn, into: &row)
            }
        }
    }
}
