/// A node of a ``TriangleBVH`` in 32 bytes: a box in single precision, rounded outward from the
/// double-precision box of its triangles so it always contains them, and either two children
/// (`count == 0`; they are nodes `first` and `first + 1`) or a run of `count` triangles starting at
/// `first` in the BVH's leaf order.
struct BVHNode: Sendable {
    var minX = Float.infinity, minY = Float.infinity, minZ = Float.infinity
    var maxX = -Float.infinity, maxY = -Float.infinity, maxZ = -Float.infinity
    var first: Int32 = 0
    var count: Int32 = 0

    @inline(__always) var isLeaf: Bool { count > 0 }

    /// The box `lo…hi`, each bound rounded outward to single precision (and one step further, so
    /// the box stays conservative whatever rounding the slab test adds).
    @inline(__always)
    mutating func setBox(lo: SIMD3<Double>, hi: SIMD3<Double>) {
        minX = BVHNode.down(lo.x); minY = BVHNode.down(lo.y); minZ = BVHNode.down(lo.z)
        maxX = BVHNode.up(hi.x); maxY = BVHNode.up(hi.y); maxZ = BVHNode.up(hi.z)
    }

    @inline(__always)
    static func down(_ x: Double) -> Float {
        let f = Float(x)
        if f.isFinite { return f.nextDown.nextDown }
        return f == .infinity && x.isFinite ? .greatestFiniteMagnitude : f
    }

    @inline(__always)
    static func up(_ x: Double) -> Float {
        let f = Float(x)
        if f.isFinite { return f.nextUp.nextUp }
        return f == -.infinity && x.isFinite ? -.greatestFiniteMagnitude : f
    }

    /// Grows the box to contain `b`'s box.
    @inline(__always)
    mutating func include(_ b: BVHNode) {
        minX = Swift.min(minX, b.minX); minY = Swift.min(minY, b.minY); minZ = Swift.min(minZ, b.minZ)
        maxX = Swift.max(maxX, b.maxX); maxY = Swift.max(maxY, b.maxY); maxZ = Swift.max(maxZ, b.maxZ)
    }

    /// The byte offsets of the bounds in a node: minimum x, y, z, then maximum x, y, z.
    static let boundOffsets: SIMD8<Int> = {
        let paths: [KeyPath<BVHNode, Float>] = [\.minX, \.minY, \.minZ, \.maxX, \.maxY, \.maxZ]
        var offsets = SIMD8<Int>(repeating: 0)
        for (k, path) in paths.enumerated() { offsets[k] = MemoryLayout<BVHNode>.offset(of: path) ?? 0 }
        return offsets
    }()

    /// The lower and upper corners in double precision.
    var lower: SIMD3<Double> { SIMD3(Double(minX), Double(minY), Double(minZ)) }
    var upper: SIMD3<Double> { SIMD3(Double(maxX), Double(maxY), Double(maxZ)) }

    /// The entry parameter of the ray into the box within `tmin…tmax`, or +∞ when it misses. The
    /// test runs in double precision on the (exactly widened) single-precision bounds.
    @inline(__always)
    func entry(origin o: SIMD3<Double>, inverse inv: SIMD3<Double>, tmin: Double, tmax: Double) -> Double {
        let tx1 = (Double(minX) - o.x) * inv.x, tx2 = (Double(maxX) - o.x) * inv.x
        let ty1 = (Double(minY) - o.y) * inv.y, ty2 = (Double(maxY) - o.y) * inv.y
        let tz1 = (Double(minZ) - o.z) * inv.z, tz2 = (Double(maxZ) - o.z) * inv.z
        let near = Swift.max(Swift.max(Swift.min(tx1, tx2), Swift.min(ty1, ty2)), Swift.max(Swift.min(tz1, tz2), tmin))
        let far = Swift.min(Swift.min(Swift.max(tx1, tx2), Swift.max(ty1, ty2)), Swift.min(Swift.max(tz1, tz2), tmax))
        return near <= far ? near : .infinity
    }
}
