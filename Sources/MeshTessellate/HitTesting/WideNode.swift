/// The layout of a node of the 4-wide hierarchy ``TriangleBVH`` walks: 128 bytes (two cache
/// lines, the nodes being aligned to 64) holding the boxes of up to four children as
/// single-precision lanes, one vector a bound, so one ray is tested against all four at once,
/// and for each child either a node index (`count == 0`) or a run of `count` triangles of the
/// BVH's leaf order (or, with no leaf order, of the mesh's triangles) starting at `child`. An unused lane has an empty box (+∞ … −∞), which no ray
/// the walk accepts can enter, and `count == 0`.
///
/// Each box is the binary build's (``BVHNode``): its triangles' double-precision box rounded
/// outward to single precision and two float steps further, so it contains them.
enum WideNode {
    /// Where the fields lie (bytes from the node's start): minimum x, maximum x, then y, then z,
    /// four floats each, then the four children and the four counts as 32-bit integers.
    enum Offset {
        static let minX = 0, maxX = 16, minY = 32, maxY = 48, minZ = 64, maxZ = 80
        static let child = 96, count = 112
    }

    /// Bytes a node takes.
    static let size = 128

    /// The alignment of node 0 (each node is then exactly two cache lines).
    static let alignment = 64

    /// Makes every lane of the node at `node` unused.
    static func clear(_ node: UnsafeMutableRawPointer) {
        let empty = SIMD4<Float>(repeating: .infinity)
        for offset in [Offset.minX, Offset.minY, Offset.minZ] {
            node.storeBytes(of: empty, toByteOffset: offset, as: SIMD4<Float>.self)
            node.storeBytes(of: -empty, toByteOffset: offset + 16, as: SIMD4<Float>.self)
        }
        node.storeBytes(of: SIMD4<Int32>(repeating: 0), toByteOffset: Offset.child, as: SIMD4<Int32>.self)
        node.storeBytes(of: SIMD4<Int32>(repeating: 0), toByteOffset: Offset.count, as: SIMD4<Int32>.self)
    }

    /// Puts `box`'s bounds in `lane` of the node at `node`, with `child` and `count` naming
    /// what lies below.
    @inline(__always)
    static func set(_ node: UnsafeMutableRawPointer, lane: Int, box: BVHNode, child: Int32, count: Int32) {
        let k = 4 * lane
        node.storeBytes(of: box.minX, toByteOffset: Offset.minX + k, as: Float.self)
        node.storeBytes(of: box.maxX, toByteOffset: Offset.maxX + k, as: Float.self)
        node.storeBytes(of: box.minY, toByteOffset: Offset.minY + k, as: Float.self)
        node.storeBytes(of: box.maxY, toByteOffset: Offset.maxY + k, as: Float.self)
        node.storeBytes(of: box.minZ, toByteOffset: Offset.minZ + k, as: Float.self)
        node.storeBytes(of: box.maxZ, toByteOffset: Offset.maxZ + k, as: Float.self)
        node.storeBytes(of: child, toByteOffset: Offset.child + k, as: Int32.self)
        node.storeBytes(of: count, toByteOffset: Offset.count + k, as: Int32.self)
    }
}
