public extension MeshTransform {
    /// Checks every number, index and weight, then the topology (``SurfaceTopology``). Throws the
    /// first problem, naming its path.
    func validate() throws {
        for (i, v) in vertices.enumerated() {
            try Self.checkVertex(v, index: i)
        }
        // Indices are checked by the topology; weights here, after it, so an index error comes first.
        _ = try SurfaceTopology(faces: faces, vertexCount: vertices.count)
        for (f, face) in faces.enumerated() {
            try Self.checkWeights(face, index: f)
        }
    }
}

extension MeshTransform {
    /// Checks a vertex's numbers; the path text is only made for an error (this runs per vertex).
    @inline(__always)
    static func checkVertex(_ v: MeshVertex, index: Int) throws {
        guard v.from.x.isFinite, v.from.y.isFinite, v.to.x.isFinite, v.to.y.isFinite, v.to.z.isFinite else {
            try checkVertex(v, path: "vertices[\(index)]")
            return
        }
    }

    static func checkVertex(_ v: MeshVertex, path: String) throws {
        for k in 0..<2 where !v.from[k].isFinite {
            throw MeshError(.invalidValue, path: "\(path).from[\(k)]", "\(v.from[k]) is not a finite number")
        }
        for k in 0..<3 where !v.to[k].isFinite {
            throw MeshError(.invalidValue, path: "\(path).to[\(k)]", "\(v.to[k]) is not a finite number")
        }
    }

    /// Checks a face's indices and weights; the path text is only made for an error.
    @inline(__always)
    static func checkFace(_ face: MeshFace, index: Int, vertexCount: Int) throws {
        let i = face.indices
        let inRange = (0..<4).allSatisfy { i[$0] >= 0 && i[$0] < vertexCount }
        let distinct = i[0] != i[1] && i[0] != i[2] && i[0] != i[3] && i[1] != i[2] && i[1] != i[3] && i[2] != i[3]
        guard inRange, distinct else {
            try checkFace(face, path: "faces[\(index)]", vertexCount: vertexCount)
            return
        }
        try checkWeights(face, index: index)
    }

    @inline(__always)
    static func checkWeights(_ face: MeshFace, index: Int) throws {
        let w = face.weights
        guard (0..<4).allSatisfy({ w[$0].isFinite && w[$0] > 0 }) else {
            try checkFace(face, path: "faces[\(index)]", vertexCount: Int.max)
            return
        }
    }

    static func checkFace(_ face: MeshFace, path: String, vertexCount: Int) throws {
        for k in 0..<4 {
            let index = face.indices[k]
            guard index >= 0, index < vertexCount else {
                throw MeshError(
                    .indexOutOfRange, path: "\(path).indices[\(k)]",
                    "\(index) is out of range (\(vertexCount) vertices)")
            }
            for j in 0..<k where face.indices[j] == index {
                throw MeshError(
                    .topology, path: "\(path).indices[\(k)]",
                    "vertex \(index) appears twice in the face (a face needs four distinct vertices)")
            }
        }
        for k in 0..<4 {
            let w = face.weights[k]
            guard w.isFinite, w > 0 else {
                throw MeshError(.invalidValue, path: "\(path).w[\(k)]", "weight \(w) must be finite and greater than 0")
            }
        }
    }
}
