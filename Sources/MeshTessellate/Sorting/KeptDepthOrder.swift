import SurfaceKit

/// The `.depth` draw order of a tessellation, kept so that after an edit (``TessellationEdit``)
/// only the triangles with a moved corner are placed again: they are taken out, sorted among
/// themselves and merged back, O(n) instead of a sort of every triangle.
///
/// Why it is ``PainterSorter/depthOrder(mesh:geometry:)`` exactly: that order is the ascending
/// order of each triangle's key `(z_a + z_b + z_c) / 3`, equal keys in triangle order, which is a
/// strict total order on (key, index). A triangle none of whose corners moved keeps its key bit for
/// bit (its corners' screen depths are computed by the same function from the same positions), so
/// the triangles that did not change stay in that order among themselves; the changed ones, sorted
/// by (key, index) and merged by the same comparison, land where a full sort puts them.
public struct KeptDepthOrder: Sendable {
    /// Triangle indices, farthest first.
    public private(set) var order: [Int32]
    /// The key of each triangle and the screen depth of each vertex.
    var keys: [Double]
    var depths: [Double]
    let geometry: LayerGeometry

    /// The order of `mesh` (points space) on a layer with `geometry`; `nil` where
    /// ``PainterSorter/depthOrder(mesh:geometry:)`` would return `nil` or some depth is not a
    /// number (a corner at or behind the eye, which clipping handles: sort in full there).
    public init?(mesh: TriangleMesh, geometry: LayerGeometry) throws {
        var depths = [Double](repeating: 0, count: mesh.vertexCount)
        _ = depths.withUnsafeMutableBufferPointer { PainterSorter.screenDepths(of: mesh.positions, geometry: geometry, into: $0) }
        guard !depths.contains(where: \.isNaN), let order = try PainterSorter.depthOrder(mesh: mesh, geometry: geometry) else {
            return nil
        }
        self.order = order
        self.depths = depths
        self.geometry = geometry
        keys = mesh.triangles.map { (depths[Int($0.x)] + depths[Int($0.y)] + depths[Int($0.z)]) / 3 }
    }

    /// Follows `edit` of the tessellation, now `mesh`, on a layer with `geometry`. Returns false,
    /// with the order no longer usable, when the geometry is not the one the order was made for or
    /// a moved corner's depth is not a number; then make it anew.
    public mutating func update(mesh: TriangleMesh, edit: TessellationEdit, geometry: LayerGeometry) -> Bool {
        guard geometry == self.geometry, mesh.triangleCount == keys.count, mesh.vertexCount == depths.count else { return false }
        if !edit.vertices.isEmpty {
            var moved = [Double](repeating: 0, count: edit.vertices.count)
            let positions = edit.vertices.map { mesh.positions[$0] }
            _ = moved.withUnsafeMutableBufferPointer { PainterSorter.screenDepths(of: positions, geometry: geometry, into: $0) }
            guard !moved.contains(where: \.isNaN) else { return false }
            for (k, v) in edit.vertices.enumerated() { depths[v] = moved[k] }
        }
        guard !edit.triangles.isEmpty else { return true }
        var isChanged = [Bool](repeating: false, count: keys.count)
        for t in edit.triangles {
            let c = mesh.triangles[t]
            keys[t] = (depths[Int(c.x)] + depths[Int(c.y)] + depths[Int(c.z)]) / 3
            isChanged[t] = true
        }
        let keys = self.keys
        func before(_ a: Int32, _ b: Int32) -> Bool {
            let ka = keys[Int(a)], kb = keys[Int(b)]
            return ka < kb || (ka == kb && a < b)
        }
        let changed = edit.triangles.map { Int32($0) }.sorted(by: before)
        // The others in their order, then each changed one inserted where (key, index) puts it,
        // found by bisection: a few key reads per changed triangle instead of one per triangle.
        var rest = [Int32]()
        rest.reserveCapacity(order.count)
        for t in order where !isChanged[Int(t)] { rest.append(t) }
        var merged = [Int32]()
        merged.reserveCapacity(order.count)
        var copied = 0
        for c in changed {
            var lo = copied, hi = rest.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if before(rest[mid], c) { lo = mid + 1 } else { hi = mid }
            }
            merged.append(contentsOf: rest[copied..<lo])
            merged.append(c)
            copied = lo
        }
        merged.append(contentsOf: rest[copied...])
        order = merged
        return true
    }
}
