/// What a painter's sort did: counts for `--verbose`, `info` and benchmarks.
public struct SortStatistics: Hashable, Sendable {
    /// Triangles given to the sort.
    public var inputTriangles: Int
    /// Triangles after clipping at w ≤ clipW (before any splitting): the input's, less those wholly
    /// at or behind the eye, with those cut by the clip plane replaced by their pieces.
    public var trianglesAfterClipping: Int
    /// Triangles in the result.
    public var outputTriangles: Int
    /// Clusters of two or more triangles connected by overlap on screen.
    public var overlapClusters: Int
    /// Triangles in the largest such cluster.
    public var largestCluster: Int
    /// Pairs of triangles whose screen images overlap (`exact` only; 0 when the sort fell back to one
    /// BSP tree per cluster because too many pairs overlap). When `depthRanked`, only the pairs whose
    /// depth ranges overlap are counted: the others were never tested.
    public var overlappingPairs = 0
    /// Whether the `exact` order is the rank order by least depth, which needed a test only of pairs
    /// whose depth ranges overlap (none of them was the wrong way round, so nothing was split);
    /// `overlapClusters` and `largestCluster` then count clusters among those pairs.
    public var depthRanked = false
    /// Overlapping pairs whose depth order changes inside the overlap: they cross in 3D.
    public var crossingPairs = 0
    /// Groups of triangles that no order of whole triangles draws right (cycles of overlap and
    /// crossing pairs), each split by its own BSP tree.
    public var splitGroups = 0
    /// Triangles in the largest such group.
    public var largestSplitGroup = 0

    /// Pieces added by BSP splitting: output minus clipped triangles.
    public var addedPieces: Int { outputTriangles - trianglesAfterClipping }

    public init(inputTriangles: Int, trianglesAfterClipping: Int, outputTriangles: Int, overlapClusters: Int, largestCluster: Int) {
        self.inputTriangles = inputTriangles
        self.trianglesAfterClipping = trianglesAfterClipping
        self.outputTriangles = outputTriangles
        self.overlapClusters = overlapClusters
        self.largestCluster = largestCluster
    }
}

public extension SortStatistics {
    /// The triangles after clipping, under a name that read as the triangles clipped.
    @available(*, deprecated, renamed: "trianglesAfterClipping")
    var clippedTriangles: Int {
        get { trianglesAfterClipping }
        set { trianglesAfterClipping = newValue }
    }

    @available(*, deprecated, renamed: "init(inputTriangles:trianglesAfterClipping:outputTriangles:overlapClusters:largestCluster:)")
    init(inputTriangles: Int, clippedTriangles: Int, outputTriangles: Int, overlapClusters: Int, largestCluster: Int) {
        self.init(
            inputTriangles: inputTriangles, trianglesAfterClipping: clippedTriangles, outputTriangles: outputTriangles,
            overlapClusters: overlapClusters, largestCluster: largestCluster)
    }
}
