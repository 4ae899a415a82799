/// Limit positions and tangents for every vertex of a refined level.
///
/// Each vertex stores its ordered ring; the weights are shared by all vertices of the same kind and
/// valence (a regular grid needs two or three masks in all), which keeps the table small.
struct LimitStencilTable: Sendable {
    var offsets: [Int32] = [0]
    var ring: [Int32] = []
    /// Index into `masks`, or −1 for a non-manifold (or isolated) vertex: its ring then holds
    /// (next, previous) pairs, one per face, and its normal is the mean of the faces' corner normals.
    var maskIDs: [Int32] = []
    var masks: [LimitMask] = []

    init(level: TopologyLevel) {
        var maskIndex: [Int: Int32] = [:]
        func mask(_ key: Int, _ make: () -> LimitMask) -> Int32 {
            if let id = maskIndex[key] { return id }
            let id = Int32(masks.count)
            masks.append(make())
            maskIndex[key] = id
            return id
        }
        offsets.reserveCapacity(level.vertexCount + 1)
        ring.reserveCapacity(9 * level.vertexCount)
        maskIDs.reserveCapacity(level.vertexCount)
        var scratch: [Int32] = []
        for v in 0..<level.vertexCount {
            let faceCount = Int(level.vertexFaceOffsets[v + 1] - level.vertexFaceOffsets[v])
            let boundaryEdges = (Int(level.vertexEdgeOffsets[v])..<Int(level.vertexEdgeOffsets[v + 1]))
                .reduce(0) { $0 + (level.isBoundary(edge: Int(level.vertexEdges[$1])) ? 1 : 0) }
            let edgeCount = Int(level.vertexEdgeOffsets[v + 1] - level.vertexEdgeOffsets[v])
            scratch.removeAll(keepingCapacity: true)
            let walk = level.orderedRing(v, into: &scratch)
            var id: Int32 = -1
            if let walk, walk.faceCount == faceCount {
                if faceCount == 1 {
                    id = mask(0) { .corner() }
                } else if !walk.isBoundary, boundaryEdges == 0, edgeCount == faceCount {
                    id = faceCount == 2
                        ? mask(1) { .smoothValenceTwo() }
                        : mask(2 * faceCount) { .smooth(valence: faceCount) }
                } else if walk.isBoundary, boundaryEdges == 2 {
                    id = mask(2 * faceCount + 1) { .boundary(faces: faceCount) }
                }
            }
            if id >= 0 {
                ring.append(contentsOf: scratch)
            } else {
                for slot in Int(level.vertexFaceOffsets[v])..<Int(level.vertexFaceOffsets[v + 1]) {
                    let f = Int(level.vertexFaces[slot])
                    let k = level.corner(of: Int32(v), inFace: f)
                    ring.append(level.faceVertices[4 * f + (k + 1) % 4])
                    ring.append(level.faceVertices[4 * f + (k + 3) % 4])
                }
            }
            maskIDs.append(id)
            offsets.append(Int32(ring.count))
        }
    }
}

/// A point of the limit surface in homogeneous form with its two tangents.
struct HomogeneousFrame {
    var position: Homogeneous
    var tangent1: Homogeneous
    var tangent2: Homogeneous
}

extension LimitStencilTable {
    @inline(__always)
    func frame(at v: Int, data: UnsafeBufferPointer<Homogeneous>) -> (HomogeneousFrame, isPairs: Bool) {
        let lo = Int(offsets[v]), hi = Int(offsets[v + 1])
        let id = Int(maskIDs[v])
        let center = data[v]
        guard id >= 0 else {
            return (HomogeneousFrame(position: center, tangent1: .zero, tangent2: .zero), true)
        }
        let m = masks[id]
        var p = m.position[0] * center
        var t1 = m.tangent1[0] * center
        var t2 = m.tangent2[0] * center
        for k in lo..<hi {
            let d = data[Int(ring[k])]
            let j = k - lo + 1
            p += m.position[j] * d
            t1 += m.tangent1[j] * d
            t2 += m.tangent2[j] * d
        }
        return (HomogeneousFrame(position: p, tangent1: t1, tangent2: t2), false)
    }
}
