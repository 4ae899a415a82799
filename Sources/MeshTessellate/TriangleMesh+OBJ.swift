import SurfaceKit

public extension TriangleMesh {
    /// The mesh as Wavefront OBJ text: `v x y z` (in ``space``), `vt u v` with u = from.x and
    /// v = 1 − from.y (OBJ's v points up), `vn x y z`, and `f a/a/a b/b/b c/c/c` triangles with
    /// 1-based indices, in draw order. Numbers are written in the shortest form that reads back to
    /// the same Double.
    func objBytes() -> [UInt8] {
        var bytes = [UInt8]()
        writeOBJ { bytes += $0 }
        return bytes
    }

    /// Streams the text of ``objBytes()`` to `write` in consecutive pieces, in order. Pieces are
    /// formatted a group at a time on all cores (a few megabytes each), and each group is handed
    /// to `write` before the next is formatted, so the text never is in memory whole; the pieces
    /// passed to `write` are not kept. Stops at the first error `write` throws.
    func writeOBJ(_ write: ([UInt8]) throws -> Void) rethrows {
        try writeOBJ(itemsPerPiece: TriangleMesh.objItemsPerPiece, piecesPerGroup: TriangleMesh.objPiecesPerGroup, write)
    }
}

extension TriangleMesh {
    /// Vertices (or triangles) per piece of streamed OBJ text: at most 208 bytes a vertex (three
    /// lines, eight numbers of at most 24 characters), so a piece is at most 1.7 MB.
    static let objItemsPerPiece = 8192
    /// Pieces formatted at once: four a core keeps every core busy to the end of a group, and two
    /// cores hold about 11 MB.
    static var objPiecesPerGroup: Int { 4 * max(1, ProcessInfoCores.count) }

    /// ``writeOBJ(_:)`` with the sizes given: tests use small ones to cross many groups.
    func writeOBJ(itemsPerPiece: Int, piecesPerGroup: Int, _ write: ([UInt8]) throws -> Void) rethrows {
        try write(Array("# meshgeo: \(vertexCount) vertices, \(triangleCount) triangles, \(space.rawValue) space\n".utf8))
        try TriangleMesh.streamText(
            count: vertexCount, itemsPerPiece: itemsPerPiece, piecesPerGroup: piecesPerGroup, bytesPerItem: 8 + 8 * 25,
            write
        ) { i, out in
            let p = positions[i], t = from[i], n = normals[i]
            TriangleMesh.line(&out, "v ", p.x, p.y, p.z)
            TriangleMesh.line(&out, "vt ", t.x, 1 - t.y)
            TriangleMesh.line(&out, "vn ", n.x, n.y, n.z)
        }
        try TriangleMesh.streamText(
            count: triangleCount, itemsPerPiece: itemsPerPiece, piecesPerGroup: piecesPerGroup, bytesPerItem: 2 + 3 * 34,
            write
        ) { i, out in
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

    /// Formats `count` items in pieces of `itemsPerPiece`, a group of `piecesPerGroup` pieces at a
    /// time on all cores, and hands each group's pieces to `write` in order before formatting the
    /// next group. The group's buffers are reused (capacity for `bytesPerItem` bytes an item, the
    /// most an item writes), so memory stays at one group however many items there are.
    static func streamText(
        count: Int, itemsPerPiece: Int, piecesPerGroup: Int, bytesPerItem: Int, _ write: ([UInt8]) throws -> Void,
        _ format: (Int, inout [UInt8]) -> Void
    ) rethrows {
        guard count > 0 else { return }
        let perPiece = max(1, itemsPerPiece), perGroup = max(1, piecesPerGroup)
        let pieceCount = (count + perPiece - 1) / perPiece
        var pieces = [[UInt8]](repeating: [], count: min(perGroup, pieceCount))
        var firstPiece = 0
        while firstPiece < pieceCount {
            let inGroup = min(perGroup, pieceCount - firstPiece)
            withoutActuallyEscaping(format) { format in
                pieces.withUnsafeMutableBufferPointer { buffer in
                    guard let base = buffer.baseAddress else { return }
                    let out = SharedMutableBuffer(base: base)
                    parallelChunks(inGroup, minimumChunk: 1) { range in
                        for c in range {
                            let lo = (firstPiece + c) * perPiece, hi = min(count, lo + perPiece)
                            var bytes = out.base[c]
                            out.base[c] = []
                            bytes.removeAll(keepingCapacity: true)
                            bytes.reserveCapacity((hi - lo) * bytesPerItem)
                            for i in lo..<hi { format(i, &bytes) }
                            out.base[c] = bytes
                        }
                    }
                }
            }
            for c in 0..<inGroup { try write(pieces[c]) }
            firstPiece += inGroup
        }
    }
}
