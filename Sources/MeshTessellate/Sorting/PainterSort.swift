/// How triangles are ordered for drawing back to front (design §7).
public enum PainterSort: String, CaseIterable, Hashable, Sendable {
    /// Tessellation order.
    case none
    /// By centroid screen depth, farthest first, stable: what Core Animation does. Wrong where
    /// triangles intersect or overlap in a cycle. `PainterSorter.depthOrder(mesh:geometry:)` gives
    /// this order alone, as indices of the input's triangles.
    case depth
    /// Exact: triangles that overlap on screen are ordered by which is in front over their
    /// overlap, and only groups that no order of whole triangles draws right (cycles, triangles
    /// crossing in 3D) are split, by a BSP tree each, so the last piece drawn at every screen point
    /// is the nearest surface.
    case bsp
}
