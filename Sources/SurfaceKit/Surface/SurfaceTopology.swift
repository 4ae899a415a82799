/// The validated connectivity of a control mesh: what the surface's shape depends on besides the
/// vertex positions and weights.
///
/// Building it checks the topology: an edge may be used by at most two faces, and two faces that
/// share an edge must run along it in opposite directions (consistent orientation). Closed meshes,
/// holes, several pieces and faces that share only a vertex are all valid.
public struct SurfaceTopology: Sendable {
    let level: TopologyLevel

    /// Throws a ``MeshError`` of kind `.topology` naming the faces involved, or `.indexOutOfRange`
    /// for an index that names no vertex.
    public init(faces: [MeshFace], vertexCount: Int) throws {
        // Indices are stored as Int32, and refinement adds a vertex per edge and face.
        guard vertexCount >= 0, vertexCount <= Int(Int32.max) / 4, faces.count <= Int(Int32.max) / 16 else {
            throw MeshError(.limitExceeded, path: "", "\(vertexCount) vertices and \(faces.count) faces are more than a surface can index")
        }
        var faceVertices = [Int32]()
        faceVertices.reserveCapacity(4 * faces.count)
        for (f, face) in faces.enumerated() {
            try MeshTransform.checkFace(MeshFace(indices: face.indices), index: f, vertexCount: vertexCount)
            for k in 0..<4 { faceVertices.append(Int32(truncatingIfNeeded: face.indices[k])) }
        }
        var edgeIndex: [UInt64: Int32] = [:]
        edgeIndex.reserveCapacity(2 * faces.count + 4)
        var edgeVertices = [Int32](), edgeFaces = [Int32](), faceEdges = [Int32]()
        edgeVertices.reserveCapacity(4 * faces.count)
        edgeFaces.reserveCapacity(4 * faces.count)
        faceEdges.reserveCapacity(4 * faces.count)
        for f in 0..<faces.count {
            for k in 0..<4 {
                let a = faceVertices[4 * f + k], b = faceVertices[4 * f + (k + 1) % 4]
                let key = UInt64(UInt32(min(a, b))) << 32 | UInt64(UInt32(max(a, b)))
                if let e = edgeIndex[key] {
                    let ei = Int(e)
                    let first = Int(edgeFaces[2 * ei])
                    if edgeFaces[2 * ei + 1] >= 0 {
                        let second = Int(edgeFaces[2 * ei + 1])
                        throw MeshError(
                            .topology, path: "faces[\(f)]",
                            "edge \(a)–\(b) is used by faces \(first), \(second) and \(f); an edge may belong to at most two faces")
                    }
                    // The first face stored the edge as it ran there: (edgeVertices[2e] → [2e+1]).
                    if edgeVertices[2 * ei] == a {
                        throw MeshError(
                            .topology, path: "faces[\(f)]",
                            "faces \(first) and \(f) both run along edge \(a)→\(b) in the same direction (inconsistent orientation)")
                    }
                    edgeFaces[2 * ei + 1] = Int32(f)
                    faceEdges.append(e)
                } else {
                    let e = Int32(edgeVertices.count / 2)
                    edgeIndex[key] = e
                    edgeVertices.append(a)
                    edgeVertices.append(b)
                    edgeFaces.append(Int32(f))
                    edgeFaces.append(-1)
                    faceEdges.append(e)
                }
            }
        }
        var level = TopologyLevel(
            vertexCount: vertexCount, faceVertices: faceVertices, faceEdges: faceEdges,
            edgeVertices: edgeVertices, edgeFaces: edgeFaces)
        level.buildVertexAdjacency()
        self.level = level
    }

    init(level: TopologyLevel) {
        self.level = level
    }

    public var vertexCount: Int { level.vertexCount }
    public var faceCount: Int { level.faceCount }
    public var edgeCount: Int { level.edgeCount }

    /// Edges used by one face only.
    public var boundaryEdgeCount: Int {
        (0..<level.edgeCount).reduce(0) { $0 + (level.isBoundary(edge: $1) ? 1 : 0) }
    }

    /// How the surface treats each control vertex.
    public enum VertexKind: Hashable, Sendable {
        /// Interior and manifold, with this many faces (4 is regular).
        case interior(valence: Int)
        /// On a boundary, with this many faces (2 is regular).
        case boundary(faces: Int)
        /// Interpolated: a corner of one face, a non-manifold vertex, or a vertex with no face.
        case corner
    }

    /// The kind of every control vertex.
    public var vertexKinds: [VertexKind] {
        var scratch: [Int32] = []
        return (0..<level.vertexCount).map { v in
            switch level.vertexRule(v, scratch: &scratch) {
            case .smooth(let n): .interior(valence: n)
            case .crease: .boundary(faces: Int(level.vertexFaceOffsets[v + 1] - level.vertexFaceOffsets[v]))
            case .corner: .corner
            }
        }
    }

    /// Each vertex's weight: the mean of the weights its faces give it (1 for a vertex no face uses).
    public func vertexWeights(faces: [MeshFace]) -> [Double] {
        var sum = [Double](repeating: 0, count: level.vertexCount)
        var count = [Int32](repeating: 0, count: level.vertexCount)
        for face in faces {
            for k in 0..<4 {
                let v = face.indices[k]
                guard v >= 0, v < sum.count else { continue }
                sum[v] += face.weights[k]
                count[v] += 1
            }
        }
        for v in 0..<sum.count {
            sum[v] = count[v] > 0 ? sum[v] / Double(count[v]) : 1
        }
        return sum
    }
}
