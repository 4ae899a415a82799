import SurfaceKit

/// Orders a tessellation for drawing back to front in screen space (design §7): the painter's
/// sort that semi-transparent layers need.
public enum PainterSorter {}

public extension PainterSorter {
    /// Sorts the points-space `mesh` (as `Tessellator.tessellate(…, space: .points)` makes it) for
    /// drawing back to front on a layer with `geometry`, and returns it in `space`.
    ///
    /// The order is always the screen-space order; `space` only chooses how positions and normals
    /// are written (vertices are listed in the same order whatever the space). Geometry at or behind
    /// the eye (w ≤ `LayerGeometry.clipW`) is clipped exactly as `--space screen` clips it; cut and
    /// split vertices follow the input's vertices and are interpolated in points space, so a
    /// vertex's screen position is the projection of its points position. Triangles keep their
    /// winding and their control face. With `.none` and `.depth` no triangle is split.
    ///
    /// Throws `.unsupported` unless `mesh` is in points space, and `.limitExceeded`, stating the
    /// count, when the exact sort would make more than `maximumTriangles` triangles.
    static func sorted(
        mesh: TriangleMesh, geometry: LayerGeometry, mode: PainterSort, space: CoordinateSpace = .screen,
        maximumTriangles: Int = TessellationOptions.defaultMaximumTriangles
    ) throws -> (mesh: TriangleMesh, statistics: SortStatistics) {
        guard mesh.space == .points else {
            throw MeshError(.unsupported, path: "", "the painter's sort needs a points-space mesh, not \(mesh.space.rawValue) space")
        }
        var pool = try SortPool(clipping: mesh, geometry: geometry)
        let clippedCount = pool.triangles.count
        var statistics = SortStatistics(
            inputTriangles: mesh.triangleCount, clippedTriangles: clippedCount, outputTriangles: clippedCount,
            overlapClusters: 0, largestCluster: 0)
        let order: [Int32]
        switch mode {
        case .none:
            order = (0..<Int32(clippedCount)).map { $0 }
        case .depth:
            // Ascending screen z: +z is toward the viewer, so the farthest comes first.
            order = RadixSort.stableOrder(pool.centroidDepths())
        case .bsp:
            order = try exactOrder(pool: &pool, statistics: &statistics, budget: maximumTriangles)
        }
        statistics.outputTriangles = order.count
        return (pool.mesh(order: order, triangles: pool.triangles, faces: pool.sourceFaces, space: space), statistics)
    }
}

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
