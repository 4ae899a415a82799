/// The whole fit of a mesh whose faces form an R × C grid in two passes over bands of grid rows
/// that run in parallel: the vertex weights (on a mesh in the grid's own row-major order, with the
/// checks of its faces and weights folded in), then the right-hand sides, the tensor solve and the
/// new vertices together (``GridFitSweep``, which also checks the targets' numbers).
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
    /// (``RegularGrid``), checking the faces, weights and numbers on the way. `sharing` (by
    /// default chosen from the threads) changes only which pieces run in parallel.
    static func rowMajor(
        _ mesh: MeshTransform, minimumReciprocalCondition: Double, sharing: GridFitSweep.PlaneSharing? = nil
    ) throws -> Outcome {
        guard let grid = RegularGrid.proposed(vertexCount: mesh.vertices.count, faces: mesh.faces) else { return .notThisGrid }
        let fit = GridFit(grid: grid, vertexAt: nil)
        guard let weights = fit.rowMajorWeights(faces: mesh.faces) else { return .notThisGrid }
        guard let weights else { return .invalidNumbers }
        return try fit.solve(mesh.vertices, weights: weights, minimumReciprocalCondition: minimumReciprocalCondition, sharing: sharing)
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
            adviseHugePages(UnsafeMutableRawBufferPointer(out))
            guard let base = out.baseAddress else { return }
            let into = SharedMutableBuffer(base: base)
            let verdicts = faces.withUnsafeBufferPointer { faceBuffer -> [(Bool, Bool)] in
                guard let facesBase = faceBuffer.baseAddress else { return [] }
                let f = UncheckedSendable(facesBase)
                return parallelParts(bands) { b in
                    // Verdicts folded once at the end of the band, no branch per face: the
                    // differences from the grid's corners stay 0; w − w stays 0 while every weight
                    // is finite (NaN otherwise); and a finite w is positive exactly when neither
                    // its bits nor its bits less one have the sign bit set (−0 and negatives set
                    // it in the first, +0 in the second).
                    var missed = SIMD4<Int>(), finite = SIMD4<Double>(), signs = SIMD4<UInt64>()
                    let corners = SIMD4(0, 1, nc + 1, nc)
                    @inline(__always) func check(_ face: MeshFace, _ topLeft: Int) {
                        missed |= face.indices &- (corners &+ topLeft)
                        finite += face.weights - face.weights
                        let bits = unsafeBitCast(face.weights, to: SIMD4<UInt64>.self)
                        signs |= bits | (bits &- 1)
                    }
                    for r in rowsOfBand(b) {
                        // The faces of row r (below vertex row r): pattern and weights, checked in
                        // the same loop that averages the weights, so that reading the faces from
                        // memory never pauses for the arithmetic.
                        let below = f.value + r * columns
                        let out = into.base + r * nc
                        if r > 0, r < grid.rows {
                            // Four faces around each inner vertex, added in face order.
                            let above = below - columns
                            check(below[0], r * nc)
                            out[0] = (above[0].weights[3] + below[0].weights[0]) / 2
                            for c in 1..<columns {
                                let face = below[c]
                                check(face, r * nc + c)
                                out[c] = (above[c - 1].weights[2] + above[c].weights[3] + below[c - 1].weights[1] + face.weights[0]) / 4
                            }
                            out[columns] = (above[columns - 1].weights[2] + below[columns - 1].weights[1]) / 2
                            continue
                        }
                        if r < grid.rows {
                            for c in 0..<columns { check(below[c], r * nc + c) }
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
                            out[c] = sum / count
                        }
                    }
                    return (missed == .zero, finite == .zero && signs & (1 << 63) == .zero)
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
    /// grid order, in one pass over bands of rows (``GridFitSweep``).
    private func solve(
        _ targets: [MeshVertex], weights: [Double], minimumReciprocalCondition: Double, sharing: GridFitSweep.PlaneSharing? = nil
    ) throws -> Outcome {
        let sweep: TensorSweep, rcond: Double
        do {
            (sweep, rcond) = try TensorGridSolver(grid: grid).sweep(minimumReciprocalCondition: minimumReciprocalCondition)
        } catch {
            // The numbers first, as the checks of a mesh that is not a grid come before its solve.
            if !targets.allSatisfy(GridFitSweep.isFinite) { return .invalidNumbers }
            throw error
        }
        let n = targets.count
        var verdict = GridFitSweep.Verdict()
        let vertices = [MeshVertex](unsafeUninitializedCapacity: n) { out, initialized in
            adviseHugePages(UnsafeMutableRawBufferPointer(out))
            guard let into = out.baseAddress else { return }
            targets.withUnsafeBufferPointer { t in
                weights.withUnsafeBufferPointer { w in
                    guard let tb = t.baseAddress, let wb = w.baseAddress else { return }
                    func run(_ map: UnsafePointer<Int>?) {
                        verdict = GridFitSweep(sweep: sweep).run(targets: tb, weights: wb, vertexAt: map, output: into, sharing: sharing)
                    }
                    if let vertexAt {
                        vertexAt.withUnsafeBufferPointer { run($0.baseAddress) }
                    } else {
                        run(nil)
                    }
                }
            }
            initialized = n
        }
        guard verdict.targetsFinite else { return .invalidNumbers }
        if let g = verdict.firstNonFinite {
            throw MeshError(
                .invalidValue, path: "vertices[\(vertexAt?[g] ?? g)]",
                "the fitted control point is not a finite number; the fitting system is singular to working precision")
        }
        return .fitted(vertices: vertices, reciprocalCondition: rcond)
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
