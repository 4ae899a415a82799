/// What a painter's sort did: counts for `--verbose`, `info` and benchmarks.
public struct SortStatistics: Hashable, Sendable {
    /// Triangles given to the sort.
    public var inputTriangles: Int
    /// Triangles after clipping at w ≤ clipW (before any splitting).
    public var clippedTriangles: Int
    /// Triangles in the result.
    public var outputTriangles: Int
    /// Clusters of two or more triangles that overlap on screen (each sorted by its own BSP tree).
    public var overlapClusters: Int
    /// Triangles in the largest such cluster.
    public var largestCluster: Int

    /// Pieces added by BSP splitting: output minus clipped triangles.
    public var addedPieces: Int { outputTriangles - clippedTriangles }

    public init(inputTriangles: Int, clippedTriangles: Int, outputTriangles: Int, overlapClusters: Int, largestCluster: Int) {
        self.inputTriangles = inputTriangles
        self.clippedTriangles = clippedTriangles
        self.outputTriangles = outputTriangles
        self.overlapClusters = overlapClusters
        self.largestCluster = largestCluster
    }
}
