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
    /// The masks flattened for evaluation: mask m's weights start at `maskStarts[m]` as
    /// position (ring + 1 values), then tangent 1, then tangent 2.
    var maskWeights: [Double] = []
    var maskStarts: [Int32] = []

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
        for m in masks {
            maskStarts.append(Int32(maskWeights.count))
            maskWeights += m.position + m.tangent1 + m.tangent2
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
    /// Raw views of the table for the evaluation loop (no reference counting per vertex).
    struct View {
        let offsets: UnsafeBufferPointer<Int32>
        let ring: UnsafeBufferPointer<Int32>
        let maskIDs: UnsafeBufferPointer<Int32>
        let maskWeights: UnsafeBufferPointer<Double>
        let maskStarts: UnsafeBufferPointer<Int32>

        /// The homogeneous limit frame at vertex v, or `nil` for a vertex without a mask
        /// (non-manifold or isolated; its ring holds (next, previous) pairs instead).
        @inline(__always)
        func frame(at v: Int, data: UnsafeBufferPointer<Homogeneous>) -> HomogeneousFrame? {
            let id = Int(maskIDs[v])
            guard id >= 0 else { return nil }
            let lo = Int(offsets[v]), hi = Int(offsets[v + 1])
            let size = hi - lo + 1
            let w = Int(maskStarts[id])
            let center = data[v]
            var p = maskWeights[w] * center
            var t1 = maskWeights[w + size] * center
            var t2 = maskWeights[w + 2 * size] * center
            for k in lo..<hi {
                let d = data[Int(ring[k])]
                let j = w + k - lo + 1
                p += maskWeights[j] * d
                t1 += maskWeights[j + size] * d
                t2 += maskWeights[j + 2 * size] * d
            }
            return HomogeneousFrame(position: p, tangent1: t1, tangent2: t2)
        }
    }

    func withView<R>(_ body: (View) -> R) -> R {
        offsets.withUnsafeBufferPointer { o in
            ring.withUnsafeBufferPointer { r in
                maskIDs.withUnsafeBufferPointer { ids in
                    maskWeights.withUnsafeBufferPointer { w in
                        maskStarts.withUnsafeBufferPointer { s in
                            body(View(offsets: o, ring: r, maskIDs: ids, maskWeights: w, maskStarts: s))
                        }
                    }
                }
            }
        }
    }
}
