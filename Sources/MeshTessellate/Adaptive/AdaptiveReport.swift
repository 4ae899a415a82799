/// What automatic steps chose for one tessellation, and how close it came to the surface.
public struct AdaptiveReport: Hashable, Sendable {
    /// The tolerance τ in points.
    public var tolerance: Double
    /// The fewest and most segments along any side of a control face (whole faces, and the largest
    /// patch pieces of faces at irregular vertices; deeper pieces only close in on the vertex).
    public var smallestRate: Int
    public var largestRate: Int
    /// Faces that touch an irregular vertex (cut by feature-adaptive isolation).
    public var irregularFaces: Int
    public var triangleCount: Int
    public var vertexCount: Int
    /// The largest distance, in points, between a triangle and the surface point at the same
    /// parameters: measured at each patch triangle's centroid and edge midpoints, and the proven
    /// bound of each corner square at an irregular vertex.
    public var worstDeviation: Double
    /// Passes made: a face that failed the measurement was made denser and the mesh rebuilt.
    public var rounds: Int
    /// The uniform steps whose 2ⁿ reaches the largest rate: what uniform tessellation would need
    /// everywhere to match the densest face.
    public var equivalentUniformSteps: Int
    /// Irregular vertices isolated, the most levels any took, and the largest bound of a corner
    /// square (each bound is proven, not measured, and within the tolerance).
    public var isolatedVertices: Int = 0
    public var deepestIsolation: Int = 0
    public var largestCornerBound: Double = 0
}
