import SurfaceKit

public extension TriangleMesh {
    /// The mesh as binary little-endian PLY: a `vertex` element with float `x y z` (in ``space``),
    /// `nx ny nz` and `u v`, where u = from.x and v = 1 − from.y (v points up, as in OBJ and the
    /// tools that read PLY texture coordinates), then a `face` element with a `uchar`-counted list
    /// of three `int` indices per triangle, in draw order.
    func plyBytes() -> [UInt8] {
        let header = """
            ply
            format binary_little_endian 1.0
            comment meshgeo: \(space.rawValue) space
            element vertex \(vertexCount)
            property float x
            property float y
            property float z
            property float nx
            property float ny
            property float nz
            property float u
            property float v
            element face \(triangleCount)
            property list uchar int vertex_indices
            end_header

            """
        var out = Array(header.utf8)
        out.reserveCapacity(out.count + vertexCount * 32 + triangleCount * 13)
        for i in 0..<vertexCount {
            let p = positions[i], n = normals[i], t = from[i]
            out.appendFloats(p.x, p.y, p.z)
            out.appendFloats(n.x, n.y, n.z)
            out.appendFloats(t.x, 1 - t.y)
        }
        for t in triangles {
            out.append(3)
            for k in 0..<3 { out.appendLittleEndian(UInt32(bitPattern: t[k])) }
        }
        return out
    }
}
