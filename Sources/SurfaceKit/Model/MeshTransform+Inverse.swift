/// The inverse of a flat mesh.
public extension MeshTransform {
    /// For a flat mesh (every `to.z` is 0): the mesh that undoes it, with the roles of `from` and
    /// `to` swapped (Core Animation's private `inverseMesh`). Throws `.unsupported` naming the first
    /// vertex that is not flat.
    func inverted() throws -> MeshTransform {
        var result = self
        for (i, v) in vertices.enumerated() {
            guard v.to.z == 0 else {
                throw MeshError(.unsupported, path: "vertices[\(i)].to[2]", "the inverse needs a flat mesh (to.z = 0), found \(v.to.z)")
            }
            result.vertices[i] = MeshVertex(from: LayerPoint(v.to.x, v.to.y), to: Point3D(v.from.x, v.from.y, 0))
        }
        return result
    }
}
