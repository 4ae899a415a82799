import SurfaceKit

public extension PainterSorter {
    /// The exact back-to-front draw order of `mesh`'s triangles on a layer with `geometry`, when one
    /// exists without splitting: what a renderer needs, as `depthOrder(mesh:geometry:)` gives the
    /// centroid order, without building a reordered mesh.
    ///
    /// The result lists the indices of `mesh.triangles` in the order of
    /// `sorted(mesh:geometry:mode: .exact)`, whose triangles are then
    /// `order.map { mesh.triangles[Int($0)] }`. Returns `nil` when that sort has to make new
    /// triangles: a triangle with a corner at or behind the eye (clipped first), or a cycle or
    /// crossing that only splitting can draw right; `sorted(mesh:geometry:mode: .exact)` does both.
    /// `topology` is the mesh's edge pairing made beforehand (see `sorted`). It makes no BSP tree
    /// (so no triangle budget applies): where one would be needed it stops and returns `nil`.
    ///
    /// Throws `.unsupported` unless `mesh` is in points space, and `.indexOutOfRange` or
    /// `.incompatible` for a mesh that names vertices it does not have, as `sorted` does.
    static func exactOrder(mesh: TriangleMesh, geometry: LayerGeometry, topology: SortTopology? = nil) throws -> [Int32]? {
        guard mesh.space == .points else {
            throw MeshError(.unsupported, path: "", "the painter's sort needs a points-space mesh, not \(mesh.space.rawValue) space")
        }
        var rankedTried = false
        switch unclippedRankedOrder(mesh: mesh, geometry: geometry, topology: topology) {
        case .ordered(let order): return order
        case .notKept: rankedTried = true
        case .needsPool: break
        }
        let pool = try SortPool(clipping: mesh, geometry: geometry)
        // Clipping keeps a triangle, drops it, or cuts it at new vertices: with no new vertex and
        // as many triangles, every one was kept, in order.
        guard pool.points.count == mesh.vertexCount, pool.triangles.count == mesh.triangleCount else { return nil }
        var statistics = SortStatistics(
            inputTriangles: mesh.triangleCount, trianglesAfterClipping: mesh.triangleCount, outputTriangles: mesh.triangleCount,
            overlapClusters: 0, largestCluster: 0)
        guard
            case .ordered(let order) = wholeTriangleOrder(
                pool: pool, statistics: &statistics, topology: topology, countingClusters: false, tryingRanked: !rankedTried)
        else {
            return nil
        }
        return order
    }
}

extension PainterSorter {
    /// What the ranked path made of a mesh without a pool: its order, or that it cannot keep the
    /// rank order (the pool's general path decides), or that the pool must decide everything (a
    /// vertex at or behind the eye, a vertex index out of range, arrays that disagree, or fewer
    /// than two triangles).
    enum UnclippedRankedOrder {
        case ordered([Int32])
        case notKept
        case needsPool
    }

    /// The ranked path of `exactOrder(mesh:geometry:topology:)` straight from the mesh, without the
    /// sort pool: when no vertex is at or behind the eye, the pool keeps the triangles as they are
    /// and its screen positions are the projection of the positions, which this writes into
    /// scratch memory kept from sort to sort (the pool's fresh 15 MB array on W3 cost the kernel
    /// about a twelfth of the order in zeroed pages), with the same operations, so the same bits;
    /// and the screen signs' pass checks the vertex indices as it reads them instead of the pool's
    /// pass of its own. Anything else (`needsPool`) goes through the pool, which throws the same
    /// errors as before for a mesh it rejects; the order is the same either way.
    static func unclippedRankedOrder(mesh: TriangleMesh, geometry: LayerGeometry, topology: SortTopology?) -> UnclippedRankedOrder {
        let count = mesh.triangleCount, vertexCount = mesh.vertexCount
        guard count > 1, count < Int(Int32.max), mesh.from.count == vertexCount, mesh.normals.count == vertexCount,
            mesh.sourceFaces.count == count
        else { return .needsPool }
        let scratch = SortScratch(bytes: vertexCount * MemoryLayout<Point3D>.stride)
        defer { withExtendedLifetime(scratch) {} }
        let screen = scratch.buffer(of: Point3D.self, count: vertexCount)
        let anyBehind = mesh.positions.withUnsafeBufferPointer { SortPool.project($0, geometry: geometry, into: screen) }
        guard !anyBehind else { return .needsPool }
        let pairing = topology.flatMap { $0.matches(triangles: mesh.triangles, vertexCount: vertexCount) ? $0 : nil }
        var indexOutOfRange = false
        let ranked = mesh.triangles.withUnsafeBufferPointer { tris in
            DepthRankedOrder.order(
                checking: tris, screen: UnsafeBufferPointer(screen), limit: pairLimit(count: count, pairLimit: nil), topology: pairing,
                countingClusters: false, indexOutOfRange: &indexOutOfRange)
        }
        if let ranked { return .ordered(ranked.order) }
        return indexOutOfRange ? .needsPool : .notKept
    }

    /// The most overlapping pairs kept for `count` triangles: `pairLimit`, or 16 per triangle and
    /// at least 2²⁰; each crossing pair is two edges of the occlusion graph, whose offsets are Int32.
    static func pairLimit(count: Int, pairLimit: Int?) -> Int {
        min(pairLimit ?? max(1 << 20, 16 * count), (Int(Int32.max) - 2) / 2)
    }
}

extension PainterSorter {
    /// The exact order: split only where a cycle forces it.
    ///
    /// First the rank order by least screen depth (`DepthRankedOrder`): pairs whose depth ranges are
    /// apart need no test, since the ranks already draw the farther first; only pairs whose depth
    /// ranges overlap are tested, and when one of them cannot be kept by a topological order that
    /// otherwise follows the ranks, the general order below is taken.
    ///
    /// Pairs of triangles that overlap on screen are ordered by which is nearer over their overlap
    /// (`PairOcclusion`); a pair that crosses in 3D inside it is tied both ways. The graph's strongly
    /// connected components (cycles and crossing pairs) are the only triangles no order of whole
    /// triangles draws right: each is split by its own BSP tree and drawn as a whole. Everything
    /// then goes in a topological order of the graph, smallest index first among the free ones
    /// (`OcclusionGraph.order`).
    ///
    /// When more pairs overlap than a fixed multiple of the triangles (a soup piled on one spot), the
    /// pairs would take memory that grows faster than the input; the sort then falls back to one BSP
    /// tree per cluster of overlapping triangles, which the budget bounds.
    /// `pairLimit` (default: 16 per triangle, at least 2²⁰) is the most overlapping pairs kept.
    /// `topology` is used only when it pairs the pool's own triangles (nothing clipped).
    static func exactOrder(
        pool: inout SortPool, statistics: inout SortStatistics, budget: Int, pairLimit: Int? = nil, topology: SortTopology? = nil
    ) throws -> [Int32] {
        switch wholeTriangleOrder(pool: pool, statistics: &statistics, pairLimit: pairLimit, topology: topology) {
        case .ordered(let order):
            return order
        case .tooManyPairs:
            return try clusterOrder(pool: &pool, statistics: &statistics, budget: budget)
        case .cyclic(let graph, let component, let members):
            var drawn: [[Int32]] = []
            drawn.reserveCapacity(members.count)
            for group in members {
                statistics.splitGroups += 1
                statistics.largestSplitGroup = max(statistics.largestSplitGroup, group.count)
                let tree = try ScreenBSP(cluster: group, pool: &pool, budget: budget)
                drawn.append(tree.drawOrder())
            }
            return graph.order(component: component, members: members, drawn: drawn)
        }
    }

    /// How far whole triangles go: an order of them all, or the groups that only splitting draws
    /// right, or too many overlapping pairs to keep.
    enum WholeTriangleOrder {
        case ordered([Int32])
        /// The occlusion graph with its strongly connected components (`component` of each
        /// triangle, −1 for none) and their members: each group needs a BSP tree.
        case cyclic(OcclusionGraph, component: [Int32], members: [[Int32]])
        case tooManyPairs
    }

    /// The part of `exactOrder(pool:statistics:budget:pairLimit:topology:)` that orders whole
    /// triangles (the ranked path, else every overlapping pair and the graph's cycles), with its
    /// statistics; it splits nothing.
    /// Without `countingClusters` the ranked path leaves the statistics' clusters at 0.
    /// `tryingRanked: false` skips the ranked path (a caller that already found it cannot keep
    /// the rank order of these triangles and screen positions).
    static func wholeTriangleOrder(
        pool: SortPool, statistics: inout SortStatistics, pairLimit: Int? = nil, topology: SortTopology? = nil,
        countingClusters: Bool = true, tryingRanked: Bool = true
    ) -> WholeTriangleOrder {
        let count = pool.triangles.count
        let limit = Self.pairLimit(count: count, pairLimit: pairLimit)
        // First the rank order by least depth, which needs a test only where depth ranges overlap;
        // when it cannot be kept, every overlapping pair is ordered below.
        let pairing = topology.flatMap { $0.matches(triangles: pool.triangles, vertexCount: pool.screen.count) ? $0 : nil }
        if tryingRanked,
            let ranked = DepthRankedOrder.order(
                screen: pool.screen, triangles: pool.triangles, limit: limit, topology: pairing, countingClusters: countingClusters)
        {
            statistics.depthRanked = true
            statistics.overlapClusters = ranked.clusters
            statistics.largestCluster = ranked.largestCluster
            statistics.overlappingPairs = ranked.overlappingPairs
            return .ordered(ranked.order)
        }
        guard let occlusions = PairOcclusion.occlusions(screen: pool.screen, triangles: pool.triangles, limit: limit) else {
            return .tooManyPairs
        }
        statistics.overlapClusters = occlusions.clusters
        statistics.largestCluster = occlusions.largestCluster
        statistics.overlappingPairs = occlusions.overlappingPairs
        statistics.crossingPairs = occlusions.crossingPairs
        let graph = OcclusionGraph(count: count, back: occlusions.back, front: occlusions.front)
        let (component, members) = graph.cyclicComponents()
        guard !members.isEmpty else { return .ordered(graph.order(component: component, members: members, drawn: [])) }
        return .cyclic(graph, component: component, members: members)
    }

    /// The fallback: triangles that overlap nobody on screen keep their place; each cluster of
    /// overlapping ones is replaced, at the place of its first triangle, by its BSP order.
    static func clusterOrder(pool: inout SortPool, statistics: inout SortStatistics, budget: Int) throws -> [Int32] {
        let count = pool.triangles.count
        let roots = OverlapClusters.clusterRoots(screen: pool.screen, triangles: pool.triangles)
        // Members of each cluster, ascending, in one pass (roots are cluster minima).
        var clusterOf: [Int32: [Int32]] = [:]
        for t in 0..<count where roots[t] != Int32(t) {
            clusterOf[roots[t], default: [roots[t]]].append(Int32(t))
        }
        var order: [Int32] = []
        order.reserveCapacity(count)
        for t in 0..<count {
            let root = roots[t]
            if root != Int32(t) { continue }
            guard let members = clusterOf[root] else {
                order.append(root)
                continue
            }
            statistics.overlapClusters += 1
            statistics.largestCluster = max(statistics.largestCluster, members.count)
            statistics.splitGroups += 1
            statistics.largestSplitGroup = max(statistics.largestSplitGroup, members.count)
            let tree = try ScreenBSP(cluster: members, pool: &pool, budget: budget)
            order += tree.drawOrder()
        }
        return order
    }
}
