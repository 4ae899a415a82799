/// The whole fit of a mesh whose faces form an R × C grid: weights, right-hand sides, the tensor
/// solve and the new vertices, each stage over bands of grid rows that run in parallel, and on a
/// mesh in the grid's own row-major order with the checks of its numbers and faces folded into
/// those passes.
///
/// One path serves both numberings: `vertexAt` (grid position → the mesh's vertex) is `nil` for a
/// row-major grid and the map ``GridNumbering`` found otherwise; the grid is solved in grid order
/// and each control point is written at its own vertex.
struct GridFit {
    let grid: RegularGrid
    let vertexAt: [Int]?

    /// What a fit of the grid found.
    enum Outcome {
        case fitted(vertices: [MeshVertex], reciprocalCondition: Double)
        /// The faces are not the row-major grid (only from ``rowMajor(_:minimumReciprocalCondition:)``).
        case notThisGrid
        /// A vertex number is not finite or a weight is not finite and positive: the caller's
        /// checks, run in order, name the first.
        case invalidNumbers
    }

    /// Values a band of the passes aims at: enough to pay for handing it to a thread.
    static let bandValues = 1 << 15

    /// The fit of `mesh` when its faces are exactly the row-major grid of its first face
    /// (``RegularGrid``), checking the faces, weights and numbers on the way.
    static func rowMajor(_ mesh: MeshTransform, minimumReciprocalCondition: Double) throws -> Outcome {
        guard let grid = RegularGrid.proposed(vertexCount: mesh.vertices.count, faces: mesh.faces) else { return .notThisGrid }
        let fit = GridFit(grid: grid, vertexAt: nil)
        guard let weights = fit.rowMajorWeights(faces: mesh.faces) else { return .notThisGrid }
        guard let weights else { return .invalidNumbers }
        return try fit.solve(mesh.vertices, weights: weights, minimumReciprocalCondition: minimumReciprocalCondition)
    }

    /// The fit of `mesh`, whose numbers are already checked, with the weights of its vertices in
    /// the mesh's order.
    func fit(_ mesh: MeshTransform, vertexWeights: [Double], minimumReciprocalCondition: Double) throws -> Outcome {
        let weights = vertexAt.map { map in map.map { vertexWeights[$0] } } ?? vertexWeights
        return try solve(mesh.vertices, weights: weights, minimumReciprocalCondition: minimumReciprocalCondition)
    }

    /// Bands of grid rows for the passes: a fixed function of the grid's size.
    private var bands: Int {
        Swift.max(1, Swift.min(grid.vertexRows, grid.vertexRows * grid.vertexColumns / GridFit.bandValues))
    }

    private func rowsOfBand(_ b: Int) -> Range<Int> {
        (grid.vertexRows * b / bands)..<(grid.vertexRows * (b + 1) / bands)
    }

    /// The vertex weights in grid order of a row-major grid, each the mean of its faces' corner
    /// weights, gathered from the (up to) four faces around each vertex in face order, the order
    /// ``SurfaceFit/vertexWeights(faces:vertexCount:)`` adds them in, so the sums are the same.
    /// `nil` when a face is not the grid's; `.some(nil)` when a weight is not finite and positive.
    private func rowMajorWeights(faces: [MeshFace]) -> [Double]?? {
        let nr = grid.vertexRows, nc = grid.vertexColumns, columns = grid.columns
        var pattern = true, numbers = true
        let weights = [Double](unsafeUninitializedCapacity: nr * nc) { out, initialized in
            guard let base = out.baseAddress else { return }
            let into = SharedMutableBuffer(base: base)
            let verdicts = faces.withUnsafeBufferPointer { faceBuffer -> [(Bool, Bool)] in
                guard let facesBase = faceBuffer.baseAddress else { return [] }
                let f = UncheckedSendable(facesBase)
                return parallelParts(bands) { b in
                    var pattern = true, numbers = true
                    for r in rowsOfBand(b) {
                        // The faces of row r (below vertex row r): pattern and weights.
                        if r < grid.rows {
                            for c in 0..<columns {
                                let face = f.value[r * columns + c]
                                let tl = r * nc + c
                                pattern = pattern && face.indices == SIMD4(tl, tl + 1, tl + nc + 1, tl + nc)
                                let w = face.weights
                                numbers = numbers && w.x.isFinite && w.y.isFinite && w.z.isFinite && w.w.isFinite
                                numbers = numbers && w.x > 0 && w.y > 0 && w.z > 0 && w.w > 0
                            }
                        }
                        for c in 0..<nc {
                            var sum = 0.0, count = 0.0
                            if r > 0 {
                                if c > 0 {
                                    sum += f.value[(r - 1) * columns + c - 1].weights[2]
                                    count += 1
                                }
                                if c < columns {
                                    sum += f.value[(r - 1) * columns + c].weights[3]
                                    count += 1
                                }
                            }
                            if r < grid.rows {
                                if c > 0 {
                                    sum += f.value[r * columns + c - 1].weights[1]
                                    count += 1
                                }
                                if c < columns {
                                    sum += f.value[r * columns + c].weights[0]
                                    count += 1
                                }
                            }
                            into.base[r * nc + c] = sum / count
                        }
                    }
                    return (pattern, numbers)
                }
            }
            for (p, n) in verdicts {
                pattern = pattern && p
                numbers = numbers && n
            }
            initialized = nr * nc
        }
        guard pattern else { return nil }
        return numbers ? .some(weights) : .some(nil)
    }

    /// Right-hand sides, solve and control points, for targets in the mesh's order and weights in
    /// grid order.
    private func solve(_ targets: [MeshVertex], weights: [Double], minimumReciprocalCondition: Double) throws -> Outcome {
        // The numbers first, as the checks of a mesh that is not a grid come before its solve.
        guard var planes = rightHandSides(targets, weights: weights) else { return .invalidNumbers }
        let (sweep, rcond) = try TensorGridSolver(grid: grid).sweep(minimumReciprocalCondition: minimumReciprocalCondition)
        planes.values.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            sweep.solve(planes: FitPlanes.componentCount, source: UnsafePointer(base), destination: base)
        }
        return .fitted(vertices: try controlVertices(planes, weights: weights, count: targets.count), reciprocalCondition: rcond)
    }

    /// B = T · (S W) in five planes (``FitPlanes``), S W computed band by band: the curve mask
    /// along each row, then down the columns, the same expressions as
    /// ``TensorGridSolver/apply(_:)``. `nil` when a target number is not finite.
    private func rightHandSides(_ targets: [MeshVertex], weights: [Double]) -> FitPlanes? {
        let nr = grid.vertexRows, nc = grid.vertexColumns, n = nr * nc
        var finite = true
        let values = [Double](unsafeUninitializedCapacity: FitPlanes.componentCount * n) { out, initialized in
            adviseHugePages(UnsafeMutableRawBufferPointer(out))
            guard let base = out.baseAddress else { return }
            let into = SharedMutableBuffer(base: base)
            let verdicts = targets.withUnsafeBufferPointer { t in
                weights.withUnsafeBufferPointer { w in
                    guard let tb = t.baseAddress, let wb = w.baseAddress else { return [Bool]() }
                    let target = UncheckedSendable(tb), weight = UncheckedSendable(wb)
                    return parallelParts(bands) { b in
                        var finite = true
                        // The row-direction mask of weight rows r − 1, r, r + 1, rolled down the band.
                        let around = UnsafeMutablePointer<Double>.allocate(capacity: 3 * nc)
                        defer { around.deallocate() }
                        var above = around, here = around + nc, below = around + 2 * nc
                        func alongRow(_ r: Int, into t: UnsafeMutablePointer<Double>) {
                            let x = weight.value + r * nc
                            t[0] = x[0]
                            t[nc - 1] = x[nc - 1]
                            for c in 1..<(nc - 1) { t[c] = (x[c - 1] + 4 * x[c] + x[c + 1]) / 6 }
                        }
                        let band = rowsOfBand(b)
                        for r in band {
                            if r == band.lowerBound {
                                if r > 0 { alongRow(r - 1, into: above) }
                                alongRow(r, into: here)
                            } else {
                                (above, here, below) = (here, below, above)
                            }
                            if r + 1 < nr { alongRow(r + 1, into: below) }
                            let interior = r > 0 && r + 1 < nr
                            for c in 0..<nc {
                                let g = r * nc + c
                                let s = interior ? (above[c] + 4 * here[c] + below[c]) / 6 : here[c]
                                let v = target.value[vertexAt?[g] ?? g]
                                finite =
                                    finite && v.from.x.isFinite && v.from.y.isFinite && v.to.x.isFinite && v.to.y.isFinite
                                    && v.to.z.isFinite
                                into.base[g] = v.from.x * s
                                into.base[n + g] = v.from.y * s
                                into.base[2 * n + g] = v.to.x * s
                                into.base[3 * n + g] = v.to.y * s
                                into.base[4 * n + g] = v.to.z * s
                            }
                        }
                        return finite
                    }
                }
            }
            finite = !verdicts.contains(false)
            initialized = FitPlanes.componentCount * n
        }
        return finite ? FitPlanes(count: n, values: values) : nil
    }

    /// P = Q / W at each vertex, written at the vertex's own index. Throws when one is not finite
    /// (only a system too ill-conditioned for its estimate to have caught could cause it).
    private func controlVertices(_ planes: FitPlanes, weights: [Double], count n: Int) throws -> [MeshVertex] {
        let nc = grid.vertexColumns
        var firstBad: Int?
        let result = [MeshVertex](unsafeUninitializedCapacity: n) { out, initialized in
            adviseHugePages(UnsafeMutableRawBufferPointer(out))
            guard let base = out.baseAddress else { return }
            let into = SharedMutableBuffer(base: base)
            let bad = planes.values.withUnsafeBufferPointer { q in
                weights.withUnsafeBufferPointer { w in
                    guard let qb = q.baseAddress, let wb = w.baseAddress else { return [Int?]() }
                    let solution = UncheckedSendable(qb), weight = UncheckedSendable(wb)
                    return parallelParts(bands) { b -> Int? in
                        var bad: Int?
                        let q = solution.value
                        for g in (rowsOfBand(b).lowerBound * nc)..<(rowsOfBand(b).upperBound * nc) {
                            let r = weight.value[g]
                            let v = MeshVertex(
                                from: LayerPoint(q[g] / r, q[n + g] / r),
                                to: Point3D(q[2 * n + g] / r, q[3 * n + g] / r, q[4 * n + g] / r))
                            if bad == nil,
                                !(v.from.x.isFinite && v.from.y.isFinite && v.to.x.isFinite && v.to.y.isFinite && v.to.z.isFinite)
                            {
                                bad = g
                            }
                            (into.base + (vertexAt?[g] ?? g)).initialize(to: v)
                        }
                        return bad
                    }
                }
            }
            firstBad = bad.lazy.compactMap { $0 }.first
            initialized = n
        }
        if let g = firstBad {
            throw MeshError(
                .invalidValue, path: "vertices[\(vertexAt?[g] ?? g)]",
                "the fitted control point is not a finite number; the fitting system is singular to working precision")
        }
        return result
    }
}

extension RegularGrid {
    /// The grid a row-major mesh would be, read from its first face and its counts alone (the faces
    /// are checked by the fit's first pass).
    static func proposed(vertexCount: Int, faces: [MeshFace]) -> RegularGrid? {
        guard let first = faces.first, first.indices[0] == 0, first.indices[1] == 1 else { return nil }
        let stride = first.indices[3]
        let columns = stride - 1
        guard columns >= 1, faces.count % columns == 0 else { return nil }
        let rows = faces.count / columns
        let (vertices, overflow) = (rows + 1).multipliedReportingOverflow(by: stride)
        guard !overflow, vertices == vertexCount else { return nil }
        return RegularGrid(rows: rows, columns: columns)
    }
}
