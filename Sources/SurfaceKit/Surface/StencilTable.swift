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

extension StencilTable {
    /// Rows `0..<count` built by `build(i, &row)`, in chunks on all cores, joined in order.
    static func build(rows count: Int, _ build: (Int, inout SparseRow, inout [Int32]) -> Void) -> StencilTable {
        let chunkCount = Swift.max(1, Swift.min(ProcessInfoCores.count * 4, count / 8192))
        var parts = [StencilTable](repeating: StencilTable(), count: chunkCount)
        parts.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let out = SharedMutableBuffer(base: base)
            parallelChunks(chunkCount, minimumChunk: 1) { chunks in
                for c in chunks {
                    var part = StencilTable()
                    var row = SparseRow()
                    var scratch: [Int32] = []
                    let lo = count * c / chunkCount, hi = count * (c + 1) / chunkCount
                    part.offsets.reserveCapacity(hi - lo + 1)
                    part.indices.reserveCapacity(9 * (hi - lo))
                    part.weights.reserveCapacity(9 * (hi - lo))
                    for i in lo..<hi {
                        row.removeAll()
                        build(i, &row, &scratch)
                        part.append(row)
                    }
                    out.base[c] = part
                }
            }
        }
        var table = StencilTable()
        table.offsets.reserveCapacity(count + 1)
        table.indices.reserveCapacity(parts.reduce(0) { $0 + $1.indices.count })
        table.weights.reserveCapacity(table.indices.capacity)
        for part in parts {
            let shift = Int32(table.indices.count)
            table.offsets.append(contentsOf: part.offsets.dropFirst().lazy.map { $0 + shift })
            table.indices.append(contentsOf: part.indices)
            table.weights.append(contentsOf: part.weights)
        }
        return table
    }
}

extension TopologyLevel {
    /// The stencils that compute the next level's vertices from this level's, in the child order of
    /// ``refined()``: vertex points, edge points, face points.
    func refinementStencils() -> StencilTable {
        let nv = vertexCount, ne = edgeCount
        return StencilTable.build(rows: nv + ne + faceCount) { i, row, scratch in
            if i < nv {
                addVertexPoint(i, rule: vertexRule(i, scratch: &scratch), scale: 1, into: &row)
            } else if i < nv + ne {
                addEdgePoint(i - nv, scale: 1, into: &row)
            } else {
                addFacePoint(i - nv - ne, scale: 1, into: &row)
            }
        }
    }
}
