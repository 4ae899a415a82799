/// Adding, removing and replacing vertices and faces (`CAMutableMeshTransform`'s operations).
///
/// Each edit checks what it touches (numbers, indices, weights). Topology is checked as a whole by
/// ``MeshTransform/validate()`` and whenever the surface is built, since a single edit can only be
/// judged together with the faces added after it.
public extension MeshTransform {
    /// Appends a vertex; its index is the old vertex count.
    mutating func addVertex(_ vertex: MeshVertex) throws {
        try Self.checkVertex(vertex, index: vertices.count)
        vertices.append(vertex)
    }

    /// Replaces the vertex at `index`.
    mutating func replaceVertex(at index: Int, with vertex: MeshVertex) throws {
        guard vertices.indices.contains(index) else {
            throw MeshError(.indexOutOfRange, path: "vertices[\(index)]", "\(index) is out of range (\(vertices.count) vertices)")
        }
        try Self.checkVertex(vertex, index: index)
        vertices[index] = vertex
    }

    /// Removes the vertex at `index` and renumbers the faces' indices above it, as Core Animation
    /// does. Removing a vertex that a face still uses is an error naming that face.
    mutating func removeVertex(at index: Int) throws {
        guard vertices.indices.contains(index) else {
            throw MeshError(.indexOutOfRange, path: "vertices[\(index)]", "\(index) is out of range (\(vertices.count) vertices)")
        }
        if let f = faces.firstIndex(where: { face in (0..<4).contains { face.indices[$0] == index } }) {
            throw MeshError(.invalidValue, path: "vertices[\(index)]", "vertex \(index) is still used by faces[\(f)]")
        }
        vertices.remove(at: index)
        for f in faces.indices {
            for k in 0..<4 where faces[f].indices[k] > index {
                faces[f].indices[k] -= 1
            }
        }
    }

    /// Appends a face.
    mutating func addFace(_ face: MeshFace) throws {
        try Self.checkFace(face, index: faces.count, vertexCount: vertices.count)
        faces.append(face)
    }

    /// Replaces the face at `index`.
    mutating func replaceFace(at index: Int, with face: MeshFace) throws {
        guard faces.indices.contains(index) else {
            throw MeshError(.indexOutOfRange, path: "faces[\(index)]", "\(index) is out of range (\(faces.count) faces)")
        }
        try Self.checkFace(face, index: index, vertexCount: vertices.count)
        faces[index] = face
    }

    /// Removes the face at `index`; its vertices stay.
    mutating func removeFace(at index: Int) throws {
        guard faces.indices.contains(index) else {
            throw MeshError(.indexOutOfRange, path: "faces[\(index)]", "\(index) is out of range (\(faces.count) faces)")
        }
        faces.remove(at: index)
    }

    /// Replaces every vertex by `transform(vertex, index)` (`mapVerticesUsingBlock:`).
    mutating func mapVertices(_ transform: (MeshVertex, Int) throws -> MeshVertex) throws {
        var result = vertices
        for i in result.indices {
            let v = try transform(result[i], i)
            try Self.checkVertex(v, index: i)
            result[i] = v
        }
        vertices = result
    }

    /// The mesh with every vertex mapped.
    func mappingVertices(_ transform: (MeshVertex, Int) throws -> MeshVertex) throws -> MeshTransform {
        var copy = self
        try copy.mapVertices(transform)
        return copy
    }
}
