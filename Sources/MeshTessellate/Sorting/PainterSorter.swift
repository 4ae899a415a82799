import SurfaceKit

/// Orders a tessellation for drawing back to front in screen space: the painter's sort that
/// semi-transparent layers need (Docs/painters-sort.md).
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
    /// `topology` (`.exact` only) is the edge pairing of `mesh`'s triangles made beforehand, for
    /// sorting one mesh under many geometries (frames of an animation): it saves the exact sort
    /// about 20% of its time on a folded ripple of 1.28 million triangles, and never changes the
    /// result (see `SortTopology`).
    ///
    /// Throws `.unsupported` unless `mesh` is in points space, and `.limitExceeded`, stating the
    /// count, when the exact sort would make more than `maximumTriangles` triangles.
    static func sorted(
        mesh: TriangleMesh, geometry: LayerGeometry, mode: PainterSorter.Mode, space: CoordinateSpace = .screen,
        maximumTriangles: Int = TessellationOptions.defaultMaximumTriangles, topology: SortTopology? = nil
    ) throws -> (mesh: TriangleMesh, statistics: SortStatistics) {
        guard mesh.space == .points else {
            throw MeshError(.unsupported, path: "", "the painter's sort needs a points-space mesh, not \(mesh.space.rawValue) space")
        }
        var pool = try SortPool(clipping: mesh, geometry: geometry)
        let clippedCount = pool.triangles.count
        var statistics = SortStatistics(
            inputTriangles: mesh.triangleCount, trianglesAfterClipping: clippedCount, outputTriangles: clippedCount,
            overlapClusters: 0, largestCluster: 0)
        let order: [Int32]
        switch mode {
        case .none:
            order = (0..<Int32(clippedCount)).map { $0 }
        case .depth:
            // Ascending screen z: +z is toward the viewer, so the farthest comes first.
            order = try depthOrder(pool: pool)
        case .exact:
            order = try exactOrder(pool: &pool, statistics: &statistics, budget: maximumTriangles, topology: topology)
        }
        statistics.outputTriangles = order.count
        return (pool.mesh(order: order, triangles: pool.triangles, faces: pool.sourceFaces, space: space), statistics)
    }
}
