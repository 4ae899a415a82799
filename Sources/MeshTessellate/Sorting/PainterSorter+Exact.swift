import SurfaceKit

extension PainterSorter {
    /// The exact order: triangles that overlap nobody on screen keep their place; each cluster of
    /// overlapping ones is replaced, at the place of its first triangle, by its BSP order.
    static func exactOrder(pool: inout SortPool, statistics: inout SortStatistics, budget: Int) throws -> [Int32] {
        let count = pool.triangles.count
        let roots = ScreenOverlap.clusterRoots(screen: pool.screen, triangles: pool.triangles)
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
            let tree = try ScreenBSP(cluster: members, pool: &pool, budget: budget)
            order += tree.drawOrder()
        }
        return order
    }
}
