import Hummingbird
import MeshTessellate
import SurfaceKit

/// The two forms of a tessellation response.
///
/// JSON: `{"space", "vertexCount", "triangleCount", "positions": [x,y,z,…], "normals": […],
/// "from": [u,v,…], "indices": [a,b,c,…], "faces": [k,…]}` with every number exact (shortest
/// round-trip text). Binary (`"format": "binary"`, what the page asks for): a little-endian
/// header of two UInt32 (vertex count, triangle count), then Float32 positions (3 a vertex), normals
/// (3), from (2), and UInt32 indices (3 a triangle): arrays a browser wraps without parsing.
enum MeshEncoding {
    static func json(_ mesh: TriangleMesh) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(mesh.vertexCount * 120 + mesh.triangleCount * 30)
        func append(_ text: String) { out.append(contentsOf: text.utf8) }
        append("{\"space\":\"\(mesh.space.rawValue)\",\"vertexCount\":\(mesh.vertexCount),\"triangleCount\":\(mesh.triangleCount)")
        append(",\"positions\":[")
        for (i, p) in mesh.positions.enumerated() {
            append("\(i == 0 ? "" : ",")\(JSONText.number(p.x)),\(JSONText.number(p.y)),\(JSONText.number(p.z))")
        }
        append("],\"normals\":[")
        for (i, n) in mesh.normals.enumerated() {
            append("\(i == 0 ? "" : ",")\(JSONText.number(n.x)),\(JSONText.number(n.y)),\(JSONText.number(n.z))")
        }
        append("],\"from\":[")
        for (i, f) in mesh.from.enumerated() {
            append("\(i == 0 ? "" : ",")\(JSONText.number(f.x)),\(JSONText.number(f.y))")
        }
        append("],\"indices\":[")
        for (i, t) in mesh.triangles.enumerated() {
            append("\(i == 0 ? "" : ",")\(t.x),\(t.y),\(t.z)")
        }
        append("],\"faces\":[")
        for (i, f) in mesh.sourceFaces.enumerated() {
            append("\(i == 0 ? "" : ",")\(f)")
        }
        append("]}\n")
        return out
    }

    /// The binary form, written straight into the buffer the response sends (no second copy).
    ///
    /// It also makes the writers' last check (``TriangleMesh/checkFinite(asFloat32:)``) as it
    /// converts: every value it narrows to a `Float` is compared with the largest finite `Float`,
    /// which is that check's test, so only a mesh that would fail it is checked again, for the
    /// message naming the first bad vertex.
    static func binary(_ mesh: TriangleMesh) throws -> ByteBuffer {
        let vertexCount = mesh.vertexCount, triangleCount = mesh.triangleCount
        let size = 8 + vertexCount * 8 * 4 + triangleCount * 12
        var buffer = ByteBufferAllocator().buffer(capacity: size)
        var fits = true
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: size) { raw in
            guard let base = raw.baseAddress, raw.count >= size else { return 0 }
            base.storeBytes(of: UInt32(truncatingIfNeeded: vertexCount).littleEndian, as: UInt32.self)
            base.storeBytes(of: UInt32(truncatingIfNeeded: triangleCount).littleEndian, toByteOffset: 4, as: UInt32.self)
            var out = base + 8
            fits = MeshEncoding.narrow(mesh.positions[...], lanes: 3, to: &out) && fits
            fits = MeshEncoding.narrow(mesh.normals[...], lanes: 3, to: &out) && fits
            fits = MeshEncoding.narrow(mesh.from[...], lanes: 2, to: &out) && fits
            mesh.triangles.withUnsafeBufferPointer { triangles in
                for t in triangles {
                    out.storeBytes(of: UInt32(bitPattern: t.x).littleEndian, as: UInt32.self)
                    out.storeBytes(of: UInt32(bitPattern: t.y).littleEndian, toByteOffset: 4, as: UInt32.self)
                    out.storeBytes(of: UInt32(bitPattern: t.z).littleEndian, toByteOffset: 8, as: UInt32.self)
                    out += 12
                }
            }
            return size
        }
        guard fits else {
            try mesh.checkFinite(asFloat32: true)
            throw MeshError(.invalidValue, path: "", "a value is not a finite number as a 32-bit float; nothing was written")
        }
        return buffer
    }

    /// The largest finite `Float`, as the finite check compares it.
    static let float32Limit = Double(Float.greatestFiniteMagnitude)

    /// Writes the first `lanes` components of each vector as little-endian `Float`s from `out`
    /// on, advancing it; false when some component is beyond ``float32Limit`` (or NaN).
    static func narrow<Vector: SIMD>(_ values: ArraySlice<Vector>, lanes: Int, to out: inout UnsafeMutableRawPointer) -> Bool
    where Vector.Scalar == Double {
        var fits = true
        values.withUnsafeBufferPointer { vectors in
            for v in vectors {
                for k in 0..<lanes {
                    let value = v[k]
                    fits = fits && abs(value) <= float32Limit
                    out.storeBytes(of: Float(value).bitPattern.littleEndian, toByteOffset: 4 * k, as: UInt32.self)
                }
                out += 4 * lanes
            }
        }
        return fits
    }
}
