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
    /// The kind key of each mask (see `init`), so a vertex's refinement rule can be read back
    /// without walking its ring again.
    var maskKeys: [Int32] = []

    init(level: TopologyLevel) {
        // Each vertex gets a mask key (−1: no mask; 0: corner; 1: valence-2 interior; 2n: interior
        // of valence n; 2k + 1: boundary with k faces) and its ring, in chunks on all cores.
        let count = level.vertexCount
        let chunkCount = Swift.max(1, Swift.min(ProcessInfoCores.count * 4, count / 8192))
        var parts = [(keys: [Int32], offsets: [Int32], ring: [Int32])](repeating: ([], [], []), count: chunkCount)
        parts.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let out = SharedMutableBuffer(base: base)
            parallelChunks(chunkCount, minimumChunk: 1) { chunks in
                for c in chunks {
                    let lo = count * c / chunkCount, hi = count * (c + 1) / chunkCount
                    var keys = [Int32](), offsets = [Int32](), ring = [Int32]()
                    keys.reserveCapacity(hi - lo)
                    offsets.reserveCapacity(hi - lo)
                    ring.reserveCapacity(9 * (hi - lo))
                    var scratch: [Int32] = []
                    for v in lo..<hi {
                        let key = LimitStencilTable.ring(of: v, level: level, scratch: &scratch)
                        keys.append(key)
                        ring.append(contentsOf: scratch)
                        offsets.append(Int32(ring.count))
                    }
                    out.base[c] = (keys, offsets, ring)
                }
            }
        }
        let distinct = Set(parts.flatMap { $0.keys.filter { $0 >= 0 } }).sorted()
        maskKeys = distinct
        var idOfKey: [Int32: Int32] = [:]
        for (id, key) in distinct.enumerated() {
            idOfKey[key] = Int32(id)
            switch key {
            case 0: masks.append(.corner())
            case 1: masks.append(.smoothValenceTwo())
            case let k where k % 2 == 0: masks.append(.smooth(valence: Int(k / 2)))
            default: masks.append(.boundary(faces: Int(key / 2)))
            }
        }
        offsets.reserveCapacity(count + 1)
        maskIDs.reserveCapacity(count)
        ring.reserveCapacity(parts.reduce(0) { $0 + $1.ring.count })
        for part in parts {
            let shift = Int32(ring.count)
            offsets.append(contentsOf: part.offsets.lazy.map { $0 + shift })
            ring.append(contentsOf: part.ring)
            maskIDs.append(contentsOf: part.keys.lazy.map { idOfKey[$0] ?? -1 })
        }
        for m in masks {
            maskStarts.append(Int32(maskWeights.count))
            maskWeights += m.position + m.tangent1 + m.tangent2
        }
    }

    /// Fills `scratch` with v's ring and returns its mask key; for a vertex without a mask, the
    /// ring is its faces' (next, previous) corner pairs.
    static func ring(of v: Int, level: TopologyLevel, scratch: inout [Int32]) -> Int32 {
        let faceCount = Int(level.vertexFaceOffsets[v + 1] - level.vertexFaceOffsets[v])
        let edgeRange = Int(level.vertexEdgeOffsets[v])..<Int(level.vertexEdgeOffsets[v + 1])
        var boundaryEdges = 0
        for slot in edgeRange where level.isBoundary(edge: Int(level.vertexEdges[slot])) { boundaryEdges += 1 }
        scratch.removeAll(keepingCapacity: true)
        if let walk = level.orderedRing(v, into: &scratch), walk.faceCount == faceCount {
            if faceCount == 1 { return 0 }
            if !walk.isBoundary, boundaryEdges == 0, edgeRange.count == faceCount {
                return faceCount == 2 ? 1 : Int32(2 * faceCount)
            }
            if walk.isBoundary, boundaryEdges == 2 { return Int32(2 * faceCount + 1) }
        }
        scratch.removeAll(keepingCapacity: true)
        for slot in Int(level.vertexFaceOffsets[v])..<Int(level.vertexFaceOffsets[v + 1]) {
            let f = Int(level.vertexFaces[slot])
            let k = level.corner(of: Int32(v), inFace: f)
            scratch.append(level.faceVertices[4 * f + (k + 1) % 4])
            scratch.append(level.faceVertices[4 * f + (k + 3) % 4])
        }
        return -1
    }
}

/// A point of the limit surface in homogeneous form with its two tangents.
struct HomogeneousFrame {
    var position: Homogeneous
    var tangent1: Homogeneous
    var tangent2: Homogeneous
}

extension LimitStencilTable {
    /// The refinement rule of vertex v, as ``TopologyLevel/vertexRule(_:scratch:)`` would find it,
    /// read from the table (a boundary vertex's ring starts and ends with its boundary neighbours).
    func vertexRule(_ v: Int) -> TopologyLevel.VertexRule {
        let id = Int(maskIDs[v])
        guard id >= 0 else { return .corner }
        let key = maskKeys[id]
        switch key {
        case 0: return .corner
        case 1: return .smooth(valence: 2)
        case let k where k % 2 == 0: return .smooth(valence: Int(k / 2))
        default: return .crease(ring[Int(offsets[v])], ring[Int(offsets[v + 1]) - 1])
        }
    }

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
