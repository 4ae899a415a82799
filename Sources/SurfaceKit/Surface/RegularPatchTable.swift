/// The control faces whose limit surface is a bicubic B-spline patch, with the 4 × 4 control points
/// of each: the tensor-product fast path of evaluation.
///
/// A face whose four corners are regular — interior with four faces, boundary (crease) with two,
/// or a corner of one face only — is exactly the uniform rational bicubic B-spline of its 4 × 4
/// neighbourhood (Docs/surface.md). Where the face lies on a boundary, the missing row is the mirror
/// `2·P₀ − P₁` of the two rows inside: the end-interpolating B-spline, whose refinement rules are
/// the crease rule `(a + 6v + b) / 8` and the corner rule (the vertex stays), as edge-and-corner
/// boundaries ask. So each of the 16 points is a combination of at most four control vertices.
/// Faces at an extraordinary vertex, non-manifold or isolated vertices stay on the stencil tables.
struct RegularPatchTable: Sendable {
    /// Control faces with a regular patch, ascending.
    var faces: [Int32] = []
    /// Per patch, 16 points (row-major in (v, u), both from −1 to 2) of `termsPerPoint` terms each.
    var indices: [Int32] = []
    var weights: [Double] = []
    /// Per patch, which of its grid points it writes (the others belong to a neighbouring patch
    /// with a smaller face index, so every shared point is computed once, by one thread): bits
    /// 0–3 the inner points of edges 0–3, bits 4–7 corners 0–3.
    var owns: [UInt8] = []
    /// Per patch, whether each of its 16 points is one control vertex with weight 1 and no other
    /// term (every patch away from the boundary): its gather copies values instead of weighing
    /// and summing them (see ``gatherPositions(_:data:indices:weights:into:)``).
    var isPlain: [Bool] = []
    /// Whether the patches cover every face and every control vertex belongs to a face: then
    /// evaluation needs no stencil table at all.
    var coversEverything = false

    static let termsPerPoint = 4

    init(level: TopologyLevel) {
        let faceCount = level.faceCount
        var scratch: [Int32] = []
        // Each vertex's kind: 4 = regular interior, 2 = crease with two faces, 1 = corner of one
        // face; 0 = anything else (extraordinary, non-manifold, isolated).
        var kind = [UInt8](repeating: 0, count: level.vertexCount)
        for v in 0..<level.vertexCount {
            let faces = Int(level.vertexFaceOffsets[v + 1] - level.vertexFaceOffsets[v])
            switch level.vertexRule(v, scratch: &scratch) {
            case .smooth(let n) where n == 4: kind[v] = 4
            case .crease where faces == 2: kind[v] = 2
            case .corner where faces == 1: kind[v] = 1
            default: kind[v] = 0
            }
        }
        var isFast = [Bool](repeating: false, count: faceCount)
        var points = [PatchPoint](repeating: PatchPoint(), count: 16)
        for f in 0..<faceCount {
            guard RegularPatchTable.patch(face: f, level: level, kind: kind, into: &points) else { continue }
            isFast[f] = true
            faces.append(Int32(f))
            isPlain.append(points.allSatisfy { $0.weights == SIMD4(1, 0, 0, 0) })
            for p in points {
                for t in 0..<RegularPatchTable.termsPerPoint {
                    indices.append(p.indices[t])
                    weights.append(p.weights[t])
                }
            }
        }
        // Ownership: the smallest fast face touching a point writes it.
        for f32 in faces {
            let f = Int(f32)
            var bits: UInt8 = 0
            for k in 0..<4 {
                let e = Int(level.faceEdges[4 * f + k])
                let g = Int(level.edgeFaces[2 * e]) == f ? Int(level.edgeFaces[2 * e + 1]) : Int(level.edgeFaces[2 * e])
                if g < 0 || !isFast[g] || g > f { bits |= 1 << k }
                let v = Int(level.faceVertices[4 * f + k])
                var smallest = f
                for slot in Int(level.vertexFaceOffsets[v])..<Int(level.vertexFaceOffsets[v + 1]) {
                    let h = Int(level.vertexFaces[slot])
                    if isFast[h], h < smallest { smallest = h }
                }
                if smallest == f { bits |= 1 << (4 + k) }
            }
            owns.append(bits)
        }
        let isolated = (0..<level.vertexCount).contains { level.vertexFaceOffsets[$0 + 1] == level.vertexFaceOffsets[$0] }
        coversEverything = faces.count == faceCount && !isolated
    }

    /// One of the 16 points: up to four weighted control vertices.
    struct PatchPoint {
        var indices = SIMD4<Int32>(repeating: 0)
        var weights = SIMD4<Double>(repeating: 0)

        init() {}
        init(_ v: Int32) { indices[0] = v; weights[0] = 1 }

        /// `2·self − other`, the mirror of `other` through `self`.
        func mirrored(through other: PatchPoint) -> PatchPoint? {
            var result = PatchPoint()
            var n = 0
            func add(_ i: Int32, _ w: Double) -> Bool {
                for k in 0..<n where result.indices[k] == i {
                    result.weights[k] += w
                    return true
                }
                guard n < 4 else { return false }
                result.indices[n] = i
                result.weights[n] = w
                n += 1
                return true
            }
            for k in 0..<4 where weights[k] != 0 { guard add(indices[k], 2 * weights[k]) else { return nil } }
            for k in 0..<4 where other.weights[k] != 0 { guard add(other.indices[k], -other.weights[k]) else { return nil } }
            return result
        }
    }

    /// Fills `p` with the 16 points of face f's patch, slot `4·(v + 1) + (u + 1)`; false when the
    /// face is not regular.
    static func patch(face f: Int, level: TopologyLevel, kind: [UInt8], into p: inout [PatchPoint]) -> Bool {
        let c = (0..<4).map { level.faceVertices[4 * f + $0] }
        let e = (0..<4).map { Int(level.faceEdges[4 * f + $0]) }
        let boundary = e.map { level.isBoundary(edge: $0) }
        // Corner k is preceded by edge k−1 and followed by edge k; its kind must match how many of
        // those two are boundaries (none: interior regular, one: crease, two: corner).
        for k in 0..<4 {
            let onBoundary = (boundary[k] ? 1 : 0) + (boundary[(k + 3) % 4] ? 1 : 0)
            let want: UInt8 = onBoundary == 0 ? 4 : (onBoundary == 1 ? 2 : 1)
            guard kind[Int(c[k])] == want else { return false }
        }
        func slot(_ u: Int, _ v: Int) -> Int { 4 * (v + 1) + (u + 1) }
        p[slot(0, 0)] = PatchPoint(c[0])
        p[slot(1, 0)] = PatchPoint(c[1])
        p[slot(1, 1)] = PatchPoint(c[2])
        p[slot(0, 1)] = PatchPoint(c[3])
        // The face across edge k and its two far corners, next to corner k and to corner k+1.
        func across(_ k: Int) -> (face: Int, nearK: Int32, nearK1: Int32)? {
            let edge = e[k]
            let g = Int(level.edgeFaces[2 * edge]) == f ? Int(level.edgeFaces[2 * edge + 1]) : Int(level.edgeFaces[2 * edge])
            guard g >= 0, g != f else { return nil }
            // In g the edge runs c[k+1] → c[k]: corner j = c[k+1], j+1 = c[k].
            let j = level.corner(of: c[(k + 1) % 4], inFace: g)
            guard level.faceVertices[4 * g + j] == c[(k + 1) % 4], level.faceVertices[4 * g + (j + 1) % 4] == c[k] else { return nil }
            return (g, level.faceVertices[4 * g + (j + 2) % 4], level.faceVertices[4 * g + (j + 3) % 4])
        }
        // (u, v) of the points beyond each edge: next to corner k, next to corner k+1, and the
        // inner points they mirror.
        let beyond: [((Int, Int), (Int, Int), (Int, Int), (Int, Int))] = [
            ((0, -1), (1, -1), (0, 1), (1, 1)), // edge 0: v = 0 side
            ((2, 0), (2, 1), (0, 0), (0, 1)), // edge 1: u = 1 side
            ((1, 2), (0, 2), (1, 0), (0, 0)), // edge 2: v = 1 side
            ((-1, 1), (-1, 0), (1, 1), (1, 0)), // edge 3: u = 0 side
        ]
        // The inner point a beyond point mirrors through is its neighbour on the face's edge.
        let onEdge: [((Int, Int), (Int, Int))] = [((0, 0), (1, 0)), ((1, 0), (1, 1)), ((1, 1), (0, 1)), ((0, 1), (0, 0))]
        var neighbour = [Int](repeating: -1, count: 4)
        for k in 0..<4 {
            let (a, b, ia, ib) = beyond[k]
            if boundary[k] {
                guard let ma = p[slot(onEdge[k].0.0, onEdge[k].0.1)].mirrored(through: p[slot(ia.0, ia.1)]),
                    let mb = p[slot(onEdge[k].1.0, onEdge[k].1.1)].mirrored(through: p[slot(ib.0, ib.1)])
                else { return false }
                p[slot(a.0, a.1)] = ma
                p[slot(b.0, b.1)] = mb
            } else {
                guard let g = across(k) else { return false }
                neighbour[k] = g.face
                p[slot(a.0, a.1)] = PatchPoint(g.nearK)
                p[slot(b.0, b.1)] = PatchPoint(g.nearK1)
            }
        }
        // Diagonal points, at corner k between edge k−1 and edge k.
        let diagonal: [(Int, Int)] = [(-1, -1), (2, -1), (2, 2), (-1, 2)]
        for k in 0..<4 {
            let before = (k + 3) % 4
            let (du, dv) = diagonal[k]
            if !boundary[k], !boundary[before] {
                // Interior regular corner: the fourth face around it, across from f.
                let g = neighbour[k]
                guard g >= 0 else { return false }
                // The point beyond edge k next to corner k, and the one beyond edge k−1 next to corner k.
                let farK = p[slot(beyond[k].0.0, beyond[k].0.1)].indices[0]
                let farBefore = p[slot(beyond[before].1.0, beyond[before].1.1)].indices[0]
                let corner = c[k]
                // Walk from g across its edge (corner, farK) to the diagonal face.
                let i = level.corner(of: corner, inFace: g)
                guard level.faceVertices[4 * g + i] == corner else { return false }
                let ge = Int(level.faceEdges[4 * g + i])
                guard level.otherVertex(ofEdge: ge, corner) == farK else { return false }
                let d = Int(level.edgeFaces[2 * ge]) == g ? Int(level.edgeFaces[2 * ge + 1]) : Int(level.edgeFaces[2 * ge])
                guard d >= 0, d != f, d != g else { return false }
                let m = level.corner(of: corner, inFace: d)
                guard level.faceVertices[4 * d + m] == corner, level.faceVertices[4 * d + (m + 3) % 4] == farK,
                    level.faceVertices[4 * d + (m + 1) % 4] == farBefore
                else { return false }
                p[slot(du, dv)] = PatchPoint(level.faceVertices[4 * d + (m + 2) % 4])
            } else if boundary[k] {
                // Beyond edge k the row is mirrored: mirror the diagonal's neighbour along edge k−1's row.
                let (nu, nv) = (du, dv == -1 ? 0 : 1), (iu, iv) = (du, dv == -1 ? 1 : 0)
                let isVEdge = k == 0 || k == 2
                let (su, sv) = isVEdge ? (nu, nv) : (du == -1 ? 0 : 1, dv)
                let (tu, tv) = isVEdge ? (iu, iv) : (du == -1 ? 1 : 0, dv)
                guard let q = p[slot(su, sv)].mirrored(through: p[slot(tu, tv)]) else { return false }
                p[slot(du, dv)] = q
            } else {
                let isVEdge = before == 0 || before == 2
                let (su, sv) = isVEdge ? (du, dv == -1 ? 0 : 1) : (du == -1 ? 0 : 1, dv)
                let (tu, tv) = isVEdge ? (du, dv == -1 ? 1 : 0) : (du == -1 ? 1 : 0, dv)
                guard let q = p[slot(su, sv)].mirrored(through: p[slot(tu, tv)]) else { return false }
                p[slot(du, dv)] = q
            }
        }
        return true
    }
}
