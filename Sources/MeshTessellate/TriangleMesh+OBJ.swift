import SurfaceKit

public extension TriangleMesh {
    /// The mesh as Wavefront OBJ text: `v x y z` (in ``space``), `vt u v` with u = from.x and
    /// v = 1 − from.y (OBJ's v points up), `vn x y z`, and `f a/a/a b/b/b c/c/c` triangles with
    /// 1-based indices, in draw order. Numbers are written in the shortest form that reads back to
    /// the same Double.
    func objBytes() -> [UInt8] {
        let chunks = objChunks()
        var bytes = [UInt8]()
        bytes.reserveCapacity(chunks.reduce(0) { $0 + $1.count })
        for chunk in chunks { bytes.append(contentsOf: chunk) }
        return bytes
    }

    /// The same text as ``objBytes()`` in consecutive pieces, formatted on all cores; write them in
    /// order (this saves joining a large file in memory).
    func objChunks() -> [[UInt8]] {
        let header = Array("# meshgeo: \(vertexCount) vertices, \(triangleCount) triangles, \(space.rawValue) space\n".utf8)
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
                let index = Int(t[k]) + 1
                out.append(UInt8(ascii: " "))
                out.appendDecimal(index)
                out.append(UInt8(ascii: "/"))
                out.appendDecimal(index)
                out.append(UInt8(ascii: "/"))
                out.appendDecimal(index)
            }
            out.append(UInt8(ascii: "\n"))
        }
        return [header] + vertexText + faceText
    }
}

extension TriangleMesh {
    @inline(__always)
    static func line(_ out: inout [UInt8], _ tag: StaticString, _ a: Double, _ b: Double) {
        tag.withUTF8Buffer { out.append(contentsOf: $0) }
        out.appendShortest(a)
        out.append(UInt8(ascii: " "))
        out.appendShortest(b)
        out.append(UInt8(ascii: "\n"))
    }

    @inline(__always)
    static func line(_ out: inout [UInt8], _ tag: StaticString, _ a: Double, _ b: Double, _ c: Double) {
        line(&out, tag, a, b)
        out.removeLast()
        out.append(UInt8(ascii: " "))
        out.appendShortest(c)
        out.append(UInt8(ascii: "\n"))
    }

    /// Formats items in contiguous chunks on all cores; chunks come back in order.
    static func chunkedText(count: Int, _ write: (Int, inout [UInt8]) -> Void) -> [[UInt8]] {
        let chunkCount = max(1, min(64, count / 4096))
        var chunks = [[UInt8]](repeating: [], count: chunkCount)
        withoutActuallyEscaping(write) { write in
            chunks.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                let out = SharedMutableBuffer(base: base)
                parallelChunks(chunkCount, minimumChunk: 1) { range in
                    for c in range {
                        var bytes = [UInt8]()
                        let lo = count * c / chunkCount, hi = count * (c + 1) / chunkCount
                        bytes.reserveCapacity((hi - lo) * 64)
                        for i in lo..<hi { write(i, &bytes) }
                        out.base[c] = bytes
                    }
                }
            }
        }
        return chunks
    }
}
