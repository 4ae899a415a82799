/// How the triangles of a tessellation are laid out: per control face, `resolution` × `resolution`
/// sub-quads row by row, `trianglesPerQuad` consecutive triangles each (``Tessellator``'s order).
/// The BVH uses it as a ready-made hierarchy, exact hit-testing to find a triangle's sub-quad.
package struct TessellationGrid: Hashable, Sendable {
    var controlFaces: Int
    var resolution: Int
    var trianglesPerQuad: Int

    package init(controlFaces: Int, resolution: Int, trianglesPerQuad: Int) {
        self.controlFaces = controlFaces
        self.resolution = resolution
        self.trianglesPerQuad = trianglesPerQuad
    }

    var quadsPerFace: Int { resolution * resolution }
    var triangleCount: Int { controlFaces * quadsPerFace * trianglesPerQuad }
}
