import Hummingbird
import MeshTessellate
import SurfaceKit

/// What of a sorted mesh in points space its answer's next update compares with: the counts, the
/// triangles, and the vertices the sort made (the tessellation's own vertices come first, each as
/// it is, so they are not kept here: the tessellation says which of them an edit moved). Kept
/// apart from the mesh, whose vertex arrays the sort shares with the kept tessellation, so that
/// the next edit updates those in place rather than copying them.
struct SortedAnswer: Sendable {
    let vertexCount: Int
    let inputVertexCount: Int
    let triangles: [SIMD3<Int32>]
    let splitPositions: [Point3D]
    let splitNormals: [Point3D]
    let splitFrom: [LayerPoint]

    init(_ mesh: TriangleMesh, inputVertexCount: Int) {
        vertexCount = mesh.vertexCount
        self.inputVertexCount = min(inputVertexCount, mesh.vertexCount)
        triangles = mesh.triangles
        splitPositions = Array(mesh.positions[self.inputVertexCount...])
        splitNormals = Array(mesh.normals[self.inputVertexCount...])
        splitFrom = Array(mesh.from[self.inputVertexCount...])
    }
}

/// Updating the binary answer of a sorted tessellation in place after an edit, without writing the
/// whole answer again: the answer of the exact sort, whose order (and split pieces) are made
/// afresh each time.
extension MeshEncoding {
    /// Rewrites, in `buffer` (the binary answer of `previous`), what differs in `mesh`'s, making the
    /// same finite check as ``binary(_:)`` on every value it writes, and returns the changed byte
    /// ranges (ascending, merged); `nil`, changing nothing, when the counts differ from
    /// `previous`'s, `buffer` is not `previous`'s answer in size, or the sorts did not start from
    /// tessellations of as many vertices.
    ///
    /// Both meshes are painter's sorts in points space of two tessellations that differ only in the
    /// vertices `changed` (a ``TessellationEdit``'s): the sort writes the input's vertices first,
    /// each as it is (position, normal and layer point), and the vertices it makes by splitting
    /// after them (`inputVertexCount` on). So among the input vertices only `changed` can differ;
    /// the split vertices and every triangle are compared one by one.
    static func patch(
        _ buffer: inout ByteBuffer, sorted mesh: TriangleMesh, previous: SortedAnswer, changed: [Int], inputVertexCount: Int
    ) throws -> [Range<Int>]? {
        let vertexCount = mesh.vertexCount, triangleCount = mesh.triangleCount
        let size = 8 + vertexCount * 8 * 4 + triangleCount * 12
        guard previous.vertexCount == vertexCount, previous.triangles.count == triangleCount, buffer.readableBytes == size,
            mesh.space == .points, previous.inputVertexCount == inputVertexCount, inputVertexCount <= vertexCount,
            changed.allSatisfy({ $0 < inputVertexCount })
        else { return nil }
        var vertices = changed
        for i in inputVertexCount..<vertexCount where !sameBits(mesh, previous, vertex: i) { vertices.append(i) }
        var fits = true
        var spans: [Range<Int>] = []
        buffer.withUnsafeMutableReadableBytes { raw in
            guard let base = raw.baseAddress else { return }
            let triangles = 8 + 32 * vertexCount
            fits = writeVertices(vertices, of: mesh, into: base, spans: &spans)
            var start = -1
            mesh.triangles.withUnsafeBufferPointer { new in
                previous.triangles.withUnsafeBufferPointer { old in
                    for k in 0..<triangleCount {
                        let t = new[k]
                        if t == old[k] {
                            if start >= 0 {
                                spans.append((triangles + 12 * start)..<(triangles + 12 * k))
                                start = -1
                            }
                            continue
                        }
                        if start < 0 { start = k }
                        let at = base + triangles + 12 * k
                        at.storeBytes(of: UInt32(bitPattern: t.x).littleEndian, as: UInt32.self)
                        at.storeBytes(of: UInt32(bitPattern: t.y).littleEndian, toByteOffset: 4, as: UInt32.self)
                        at.storeBytes(of: UInt32(bitPattern: t.z).littleEndian, toByteOffset: 8, as: UInt32.self)
                    }
                }
            }
            if start >= 0 { spans.append((triangles + 12 * start)..<(triangles + 12 * triangleCount)) }
        }
        guard fits else {
            try mesh.checkFinite(asFloat32: true)
            throw MeshError(.invalidValue, path: "", "a value is not a finite number as a 32-bit float; nothing was written")
        }
        return merged(spans)
    }

    /// Whether the sort's vertex `i` has the same bits in both (−0 and 0 differ, as their Float32s do).
    static func sameBits(_ a: TriangleMesh, _ b: SortedAnswer, vertex i: Int) -> Bool {
        let k = i - b.inputVertexCount
        let p = a.positions[i], q = b.splitPositions[k], n = a.normals[i], m = b.splitNormals[k], f = a.from[i], g = b.splitFrom[k]
        return (0..<3).allSatisfy { p[$0].bitPattern == q[$0].bitPattern && n[$0].bitPattern == m[$0].bitPattern }
            && (0..<2).allSatisfy { f[$0].bitPattern == g[$0].bitPattern }
    }
}
