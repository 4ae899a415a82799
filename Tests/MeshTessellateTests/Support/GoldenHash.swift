import MeshTessellate
import SurfaceKit

/// FNV-1a over 64 bits, fed the exact bit patterns of what it hashes: two outputs hash alike only
/// when every Double, index and count is the same, so a golden value pins an output bit for bit.
struct GoldenHash {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ word: UInt64) {
        var word = word
        for _ in 0..<8 {
            value ^= word & 0xff
            value &*= 0x0000_0100_0000_01b3
            word >>= 8
        }
    }

    mutating func add(_ number: Double) { add(number.bitPattern) }
    mutating func add(_ number: Int) { add(UInt64(bitPattern: Int64(number))) }
    mutating func add(_ number: Int32) { add(UInt64(UInt32(bitPattern: number))) }
    mutating func add(_ flag: Bool) { add(flag ? 1 : 0 as UInt64) }
    mutating func add(_ text: String) {
        add(text.utf8.count)
        for byte in text.utf8 { add(UInt64(byte)) }
    }

    mutating func add(_ v: SIMD3<Double>) {
        add(v.x)
        add(v.y)
        add(v.z)
    }

    mutating func add(_ list: [Int32]) {
        add(list.count)
        for i in list { add(i) }
    }

    /// Every array of the mesh, with its length, and its space.
    mutating func add(_ mesh: TriangleMesh) {
        add(mesh.space.rawValue)
        add(mesh.positions.count)
        for p in mesh.positions { add(p) }
        add(mesh.from.count)
        for p in mesh.from {
            add(p.x)
            add(p.y)
        }
        add(mesh.normals.count)
        for n in mesh.normals { add(n) }
        add(mesh.triangles.count)
        for t in mesh.triangles {
            add(t.x)
            add(t.y)
            add(t.z)
        }
        add(mesh.sourceFaces)
    }

    static func of(_ body: (inout GoldenHash) throws -> Void) rethrows -> UInt64 {
        var hash = GoldenHash()
        try body(&hash)
        return hash.value
    }
}
