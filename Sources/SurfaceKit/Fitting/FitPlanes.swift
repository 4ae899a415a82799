/// The five right-hand sides of a fit, and then its five solutions, as planes: component k
/// (from.x, from.y, to.x, to.y, to.z) of vertex i is `values[k · count + i]`. That is LAPACK's
/// column-major `count × 5` matrix, and for a grid each plane is the grid's values row by row.
struct FitPlanes: Sendable {
    static let componentCount = 5
    let count: Int
    var values: [Double]

    init(count: Int, values: [Double]) {
        self.count = count
        self.values = values
    }

    /// Row i of S Q = b asks that the limit point (S Q)ᵢ / (S W)ᵢ be the target Tᵢ; multiplied
    /// by its weight sum (S W)ᵢ the row becomes linear in Q = W·P: bᵢ = Tᵢ · (S W)ᵢ.
    init(targets: [MeshVertex], rowWeights: [Double]) {
        count = targets.count
        let n = count
        // Every value is written below; the memory is advised as huge pages first (40 MB for a
        // 1001² grid, where faulting in 4 KiB pages costs more than the solve).
        values = [Double](unsafeUninitializedCapacity: FitPlanes.componentCount * n) { out, initialized in
            adviseHugePages(UnsafeMutableRawBufferPointer(out))
            targets.withUnsafeBufferPointer { t in
                rowWeights.withUnsafeBufferPointer { w in
                    for i in 0..<n {
                        let s = w[i], v = t[i]
                        out[i] = v.from.x * s
                        out[n + i] = v.from.y * s
                        out[2 * n + i] = v.to.x * s
                        out[3 * n + i] = v.to.y * s
                        out[4 * n + i] = v.to.z * s
                    }
                }
            }
            initialized = FitPlanes.componentCount * n
        }
    }

    /// The control points P = Q / W of the solved planes. Throws if one is not finite, which only
    /// a system too ill-conditioned for its condition estimate to have caught could cause.
    /// `vertexAt` names the mesh's vertex of each row when the planes are in another order (a
    /// renumbered grid), for the error's path.
    func controlVertices(weights: [Double], vertexAt: [Int]? = nil) throws -> [MeshVertex] {
        let n = count
        var bad: Int?
        let result = values.withUnsafeBufferPointer { q in
            weights.withUnsafeBufferPointer { w in
                [MeshVertex](unsafeUninitializedCapacity: n) { out, initialized in
                    for i in 0..<n {
                        let r = w[i]
                        let v = MeshVertex(
                            from: LayerPoint(q[i] / r, q[n + i] / r),
                            to: Point3D(q[2 * n + i] / r, q[3 * n + i] / r, q[4 * n + i] / r))
                        if bad == nil, !(v.from.x.isFinite && v.from.y.isFinite && v.to.x.isFinite && v.to.y.isFinite && v.to.z.isFinite) {
                            bad = i
                        }
                        out.initializeElement(at: i, to: v)
                    }
                    initialized = n
                }
            }
        }
        if let row = bad {
            let i = vertexAt?[row] ?? row
            throw MeshError(
                .invalidValue, path: "vertices[\(i)]",
                "the fitted control point is not a finite number; the fitting system is singular to working precision")
        }
        return result
    }
}
