public extension MeshTransform {
    /// Checks every number, index and weight, then the topology (``SurfaceTopology``). Throws the
    /// first problem, naming its path.
    func validate() throws {
        for (i, v) in vertices.enumerated() {
            try Self.checkVertex(v, path: "vertices[\(i)]")
        }
        for (f, face) in faces.enumerated() {
            try Self.checkFace(face, path: "faces[\(f)]", vertexCount: vertices.count)
        }
        _ = try SurfaceTopology(faces: faces, vertexCount: vertices.count)
    }
}

extension MeshTransform {
    static func checkVertex(_ v: MeshVertex, path: String) throws {
        for k in 0..<2 where !v.from[k].isFinite {
            throw MeshError(.invalidValue, path: "\(path).from[\(k)]", "\(v.from[k]) is not a finite number")
        }
        for k in 0..<3 where !v.to[k].isFinite {
            throw MeshError(.invalidValue, path: "\(path).to[\(k)]", "\(v.to[k]) is not a finite number")
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
