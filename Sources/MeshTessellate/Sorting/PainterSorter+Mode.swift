public extension PainterSorter {
    /// How triangles are ordered for drawing back to front.
    enum Mode: String, CaseIterable, Hashable, Sendable {
        /// Tessellation order.
        case none
        /// By centroid screen depth, farthest first, stable: what Core Animation does. Wrong where
        /// triangles intersect or overlap in a cycle. `PainterSorter.depthOrder(mesh:geometry:)` gives
        /// this order alone, as indices of the input's triangles.
        case depth
        /// Exact: triangles that overlap on screen are ordered by which is in front over their
        /// overlap, and only groups that no order of whole triangles draws right (cycles, triangles
        /// crossing in 3D) are split, by a BSP tree each, so the last piece drawn at every screen point
        /// is the nearest surface. `PainterSorter.exactOrder(mesh:geometry:)` gives this order alone
        /// when nothing has to be split.
        case exact

        /// The mode named `rawValue`; "bsp", the exact mode's former name, still reads as `.exact`
        /// (so `--sort bsp` keeps working).
        public init?(rawValue: String) {
            switch rawValue {
            case "none": self = .none
            case "depth": self = .depth
            case "exact", "bsp": self = .exact
            default: return nil
            }
        }

        /// The exact mode under its former name, which named it after its fallback.
        @available(*, deprecated, renamed: "exact")
        public static var bsp: Self { .exact }
    }
}

/// The draw-order modes under their former name.
@available(*, deprecated, renamed: "PainterSorter.Mode")
public typealias PainterSort = PainterSorter.Mode
