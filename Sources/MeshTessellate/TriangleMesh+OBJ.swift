import SurfaceKit

public extension TriangleMesh {
    /// The mesh as Wavefront OBJ text: `v x y z` (in ``space``), `vt u v` with u = from.x and
    /// v = 1 − from.y (OBJ's v points up), `vn x y z`, and `f a/a/a b/b/b c/c/c` triangles with
    /// 1-based indices, in draw order. Numbers are written in the shortest form that reads back to
    /// the same Double.
    func objBytes() -> [UInt8] {
        var header = Array("# meshgeo: \(vertexCount) vertices, \(triangleCount) triangles, \(space.rawValue) space\n".utf8)
        let vertexText = TriangleMesh.chunkedText(count: vertexCount) { i, out in
            let p = positions[i], t = from[i], n = normals[i]
            TriangleMesh.line(&out, "v ", p.x, p.y, p.z)
            TriangleMesh.line(&out, "vt ", t.x, 1 - t.y)
            TriangleMesh.line(&out, "vn ", n.x, n.y, n.z)
        }
        let faceText = TriangleMesh.chunkedText(count: triangleCount) { i, out in
            let t = triangles[i]
            out.append(UInt8(ascii: "f"))
            for k in 0..<3 {
                let index = String(Int(t[k]) + 1).utf8
                out.append(UInt8(ascii: " "))
                out.append(contentsOf: index)
                out.append(UInt8(ascii: "/"))
                out.append(contentsOf: index)
                out.append(UInt8(ascii: "/"))
                out.append(contentsOf: index)
            }
            out.append(UInt8(ascii: "\n"))
        }
        header.reserveCapacity(header.count + vertexText.reduce(0) { $0 + $1.count } + faceText.reduce(0) { $0 + $1.count })
        for chunk in vertexText { header.append(contentsOf: chunk) }
        for chunk in faceText { header.append(contentsOf: chunk) }
        return header
    }
}

extension TriangleMesh {
    static func line(_ out: inout [UInt8], _ tag: StaticString, _ values: Double...) {
        tag.withUTF8Buffer { out.append(contentsOf: $0) }
        for (k, v) in values.enumerated() {
            if k > 0 { out.append(UInt8(ascii: " ")) }
            // Swift's description is the shortest text that reads back to the same Double.
            out.append(contentsOf: (v == 0 ? 0.0 : v).description.utf8)
        }
        out.append(UInt8(ascii: "\n"))
    }

    /// Formats items in contiguous chunks on all cores; chunks come back in order.
    static func chunkedText(count: Int, _ write: (Int, inout [UInt8]) -> Void) -> [[UInt8]] {
        let chunkCount = max(1, min(64, count / 4096))
        var chunks = [[UInt8]](repeating: [], count: chunkCount)
        withoutActuallyEscaping(write) { write in
        let writer = UncheckedWriter(write)
        chunks.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let out = UncheckedPointer(base: base)
            DispatchQueueShim.parallelFor(chunkCount) { c in
                var bytes = [UInt8]()
                let lo = count * c / chunkCount, hi = count * (c + 1) / chunkCount
                bytes.reserveCapacity((hi - lo) * 64)
                for i in lo..<hi { writer.write(i, &bytes) }
                out.base[c] = bytes
            }
        }
        }
        return chunks
    }
}
