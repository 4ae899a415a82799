/// A sparse matrix in compressed rows: output point i is Σ weights[k] · input[indices[k]] over
/// k in offsets[i]..<offsets[i+1]. Refining vertex data is one product with such a table per level.
struct StencilTable: Sendable {
    var offsets: [Int32] = [0]
    var indices: [Int32] = []
    var weights: [Double] = []

    var rowCount: Int { offsets.count - 1 }

    mutating func append(_ row: SparseRow) {
        indices.append(contentsOf: row.indices)
        weights.append(contentsOf: row.weights)
        offsets.append(Int32(indices.count))
    }

    /// `output = self · input`, rows computed in parallel.
    func apply(_ input: [Homogeneous]) -> [Homogeneous] {
        let n = rowCount
        guard n > 0 else { return [] }
        return [Homogeneous](unsafeUninitializedCapacity: n) { out, initialized in
            guard let base = out.baseAddress else { return }
            let outBase = SharedMutableBuffer(base: base)
            input.withUnsafeBufferPointer { src in
                offsets.withUnsafeBufferPointer { off in
                    indices.withUnsafeBufferPointer { idx in
                        weights.withUnsafeBufferPointer { w in
                            parallelChunks(n) { range in
                                for i in range {
                                    var sum = Homogeneous()
                                    for k in Int(off[i])..<Int(off[i + 1]) {
                                        sum += w[k] * src[Int(idx[k])]
                                    }
                                    (outBase.base + i).initialize(to: sum)
                                }
                            }
                        }
                    }
                }
            }
            initialized = n
        }
    }
}

extension TopologyLevel {
    /// The stencils that compute the next level's vertices from this level's, in the child order of
    /// ``refined()``: vertex points, edge points, face points.
    func refinementStencils() -> StencilTable {
        var table = StencilTable()
        table.offsets.reserveCapacity(vertexCount + edgeCount + faceCount + 1)
        table.indices.reserveCapacity(9 * vertexCount + 6 * edgeCount + 4 * faceCount)
        table.weights.reserveCapacity(9 * vertexCount + 6 * edgeCount + 4 * faceCount)
        var row = SparseRow()
        var scratch: [Int32] = []
        for v in 0..<vertexCount {
            row.removeAll()
            addVertexPoint(v, rule: vertexRule(v, scratch: &scratch), scale: 1, into: &row)
            table.append(row)
        }
        for e in 0..<edgeCount {
            row.removeAll()
            addEdgePoint(e, scale: 1, into: &row)
            table.append(row)
        }
        for f in 0..<faceCount {
            row.removeAll()
            addFacePoint(f, scale: 1, into: &row)
            table.append(row)
        }
        return table
    }
}
