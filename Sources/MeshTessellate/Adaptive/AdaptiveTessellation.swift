/// Triangles from automatic steps, with what was chosen.
public struct AdaptiveTessellation: Sendable {
    public var mesh: TriangleMesh
    public var report: AdaptiveReport
    /// When asked for (`keepParameters`): the (u, v) of each triangle's corners in its source face
    /// (`mesh.sourceFaces`), three a triangle, in the order of the triangle's vertices.
    public var parameters: [SIMD2<Double>]?
}
