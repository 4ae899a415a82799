/// A node of a ``TriangleBVH``: a box and either two children (`count == 0`; they are nodes
/// `first` and `first + 1`) or a run of `count` triangles starting at `first` in the BVH's order.
struct BVHNode: Sendable {
    var minX = Double.infinity, minY = Double.infinity, minZ = Double.infinity
    var maxX = -Double.infinity, maxY = -Double.infinity, maxZ = -Double.infinity
    var first: Int32 = 0
    var count: Int32 = 0

    @inline(__always) var isLeaf: Bool { count > 0 }

    @inline(__always)
    mutating func include(_ p: SIMD3<Double>) {
        minX = Swift.min(minX, p.x); minY = Swift.min(minY, p.y); minZ = Swift.min(minZ, p.z)
        maxX = Swift.max(maxX, p.x); maxY = Swift.max(maxY, p.y); maxZ = Swift.max(maxZ, p.z)
    }

    @inline(__always)
    mutating func include(_ b: BVHNode) {
        minX = Swift.min(minX, b.minX); minY = Swift.min(minY, b.minY); minZ = Swift.min(minZ, b.minZ)
        maxX = Swift.max(maxX, b.maxX); maxY = Swift.max(maxY, b.maxY); maxZ = Swift.max(maxZ, b.maxZ)
    }

    /// The entry parameter of the ray into the box within `tmin…tmax`, or +∞ when it misses.
    @inline(__always)
    func entry(origin o: SIMD3<Double>, inverse inv: SIMD3<Double>, tmin: Double, tmax: Double) -> Double {
        let tx1 = (minX - o.x) * inv.x, tx2 = (maxX - o.x) * inv.x
        let ty1 = (minY - o.y) * inv.y, ty2 = (maxY - o.y) * inv.y
        let tz1 = (minZ - o.z) * inv.z, tz2 = (maxZ - o.z) * inv.z
        let near = Swift.max(Swift.max(Swift.min(tx1, tx2), Swift.min(ty1, ty2)), Swift.max(Swift.min(tz1, tz2), tmin))
        let far = Swift.min(Swift.min(Swift.max(tx1, tx2), Swift.max(ty1, ty2)), Swift.min(Swift.max(tz1, tz2), tmax))
        return near <= far ? near : .infinity
    }
}
