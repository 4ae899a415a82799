public extension SurfaceTopology {
    /// The first way `faces` (on `vertexCount` vertices) differ from the faces this topology was
    /// built from, or `nil` when they are the same corner by corner: what decides whether tables
    /// built from this topology apply to a mesh. A comparison of the stored corners, linear in
    /// the faces and allocating nothing, so it can run on every frame of an animation.
    func difference(faces: [MeshFace], vertexCount: Int) -> MeshError? {
        guard vertexCount == level.vertexCount else {
            return MeshError(
                .incompatible, path: "vertices",
                "\(vertexCount) vertices, but this topology was built for \(level.vertexCount)")
        }
        guard faces.count == level.faceCount else {
            return MeshError(.incompatible, path: "faces", "\(faces.count) faces, but this topology was built for \(level.faceCount)")
        }
        let mismatch = level.faceVertices.withUnsafeBufferPointer { stored -> Int? in
            for (f, face) in faces.enumerated() {
                for k in 0..<4 where Int(stored[4 * f + k]) != face.indices[k] { return f }
            }
            return nil
        }
        guard let f = mismatch else { return nil }
        return MeshError(
            .incompatible, path: "faces[\(f)].indices",
            "these are not the faces this topology was built for (face \(f) differs); build it again for this mesh")
    }
}
