/// What automatic steps chose for one tessellation, and how close it came to the surface.
public struct AdaptiveReport: Hashable, Sendable {
    /// The tolerance τ in points.
    public var tolerance: Double
    /// The fewest and most segments along any side of a control face.
    public var smallestRate: Int
    public var largestRate: Int
    /// Faces that touch an extraordinary or non-manifold vertex (tessellated on dyadic grids).
    public var irregularFaces: Int
    public var triangleCount: Int
    public var vertexCount: Int
    /// The largest distance, in points, between a triangle and the surface point at the same
    /// parameters, over the points where it was measured (each triangle's centroid and edge midpoints
    /// on B-spline faces; the next level's points on irregular faces).
    public var worstDeviation: Double
    /// Passes made: a face that failed the measurement was made denser and the mesh rebuilt.
    public var rounds: Int
    /// The uniform steps whose 2ⁿ reaches the largest rate: what uniform tessellation would need
    /// everywhere to match the densest face.
    public var equivalentUniformSteps: Int
}
