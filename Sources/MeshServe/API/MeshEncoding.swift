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

    static func binary(_ mesh: TriangleMesh) -> [UInt8] {
        let vertexCount = mesh.vertexCount, triangleCount = mesh.triangleCount
        let floats = vertexCount * 8
        var out = [UInt8](repeating: 0, count: 8 + floats * 4 + triangleCount * 12)
        out.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: UInt32(truncatingIfNeeded: vertexCount).littleEndian, toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: UInt32(truncatingIfNeeded: triangleCount).littleEndian, toByteOffset: 4, as: UInt32.self)
            var offset = 8
            func put(_ value: Double) {
                raw.storeBytes(of: Float(value).bitPattern.littleEndian, toByteOffset: offset, as: UInt32.self)
                offset += 4
            }
            for p in mesh.positions { put(p.x); put(p.y); put(p.z) }
            for n in mesh.normals { put(n.x); put(n.y); put(n.z) }
            for f in mesh.from { put(f.x); put(f.y) }
            for t in mesh.triangles {
                for k in 0..<3 {
                    raw.storeBytes(of: UInt32(bitPattern: t[k]).littleEndian, toByteOffset: offset, as: UInt32.self)
                    offset += 4
                }
            }
        }
        return out
    }
}
