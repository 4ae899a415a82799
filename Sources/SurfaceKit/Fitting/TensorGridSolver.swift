import Dispatch

/// The fitting system of a ``RegularGrid`` solved as a tensor product.
///
/// On the grid every limit mask factors into one curve mask per direction: an interior vertex's
/// (16 v + 4 Σ e + Σ d) / 36 is (1, 4, 1)/6 along the row times (1, 4, 1)/6 along the column; a
/// boundary vertex's (e₀ + 4 v + e₂)/6 along its boundary is (1, 4, 1)/6 one way times the pinned
/// row (1) the other way; a corner is pinned both ways. So S = A_R ⊗ A_C with A_m the m × m curve
/// operator (pinned ends, (1, 4, 1)/6 inside), and S Q = B is A_R Q A_Cᵀ = B for Q and B laid out
/// as grids: one tridiagonal solve along every row, then one along every column. S does not
/// depend on the weights (they enter only the right-hand side), so this holds for any weights.
struct TensorGridSolver: Sendable {
    let grid: RegularGrid

    /// The limit operator of an open uniform cubic B-spline curve with m ≥ 2 control points and
    /// interpolated ends: rows 0 and m − 1 are the identity, row k the curve's limit mask
    /// (P₍ₖ₋₁₎ + 4 Pₖ + P₍ₖ₊₁₎) / 6.
    static func curveOperator(points m: Int) -> TridiagonalMatrix {
        var sub = [Double](repeating: 1.0 / 6, count: m - 1)
        var sup = sub
        var diagonal = [Double](repeating: 4.0 / 6, count: m)
        diagonal[0] = 1
        diagonal[m - 1] = 1
        sup[0] = 0
        sub[m - 2] = 0
        return TridiagonalMatrix(sub: sub, diagonal: diagonal, sup: sup)
    }

    /// S · x for x in grid order (vertex (r, c) at r·(C + 1) + c): the curve mask along each row,
    /// then along each column.
    func apply(_ x: [Double]) -> [Double] {
        let nr = grid.vertexRows, nc = grid.vertexColumns
        var t = x
        for r in 0..<nr {
            let row = r * nc
            for c in 1..<(nc - 1) {
                t[row + c] = (x[row + c - 1] + 4 * x[row + c] + x[row + c + 1]) / 6
            }
        }
        var y = t
        for r in 1..<(nr - 1) {
            let row = r * nc
            for c in 0..<nc {
                y[row + c] = (t[row - nc + c] + 4 * t[row + c] + t[row + nc + c]) / 6
            }
        }
        return y
    }

    /// Solves S Q = B in place on the five planes; returns LAPACK's reciprocal condition estimate
    /// of S (the product of the two directions' estimates: 1-norms multiply over Kronecker
    /// products).
    ///
    /// Each direction's curve operator is factored by LAPACK (`dgttrf`, `dgtcon`); the factors are
    /// then swept over the grid: along each row eight rows at a time, lane by lane, and along each
    /// column over whole row segments, so every step is vector arithmetic on memory that is
    /// already in cache. (`dgtsv` itself, called on the same layout, is several times slower:
    /// its forward sweep strides across the right-hand sides and its backward sweep is a serial
    /// chain of divisions per right-hand side.)
    func solve(_ planes: inout FitPlanes, minimumReciprocalCondition: Double) throws -> Double {
        let (along, across, rcond) = try factors(minimumReciprocalCondition: minimumReciprocalCondition)
        planes.values.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            sweep(source: UnsafePointer(base), destination: base, along: along, across: across)
        }
        return rcond
    }

    /// Solves S Q = B for the planes `rightHandSides` and returns the solutions as new planes,
    /// leaving `rightHandSides` as it was (what a caller that keeps B, or the benchmark, needs).
    /// The copy costs nothing extra: the first sweep reads B and writes its results straight into
    /// the new planes, whose memory is advised as huge pages (fresh 4 KiB pages cost more to fault
    /// in than the solve costs to compute).
    func solved(_ rightHandSides: FitPlanes, minimumReciprocalCondition: Double) throws -> (planes: FitPlanes, reciprocalCondition: Double)
    {
        let (along, across, rcond) = try factors(minimumReciprocalCondition: minimumReciprocalCondition)
        return (fresh(rightHandSides, along: along, across: across), rcond)
    }

    /// The solution for `rightHandSides` in new planes advised as huge pages.
    private func fresh(_ rightHandSides: FitPlanes, along: TridiagonalLU, across: TridiagonalLU) -> FitPlanes {
        let values = [Double](unsafeUninitializedCapacity: rightHandSides.values.count) { out, initialized in
            adviseHugePages(UnsafeMutableRawBufferPointer(out))
            rightHandSides.values.withUnsafeBufferPointer { source in
                if let from = source.baseAddress, let to = out.baseAddress {
                    sweep(source: from, destination: to, along: along, across: across)
                }
            }
            initialized = rightHandSides.values.count
        }
        return FitPlanes(count: rightHandSides.count, values: values)
    }

    /// Solves S Q = B for the planes `rightHandSides` into the memory of `solution`, a previous
    /// solution of the same size (a fit repeated frame after frame), leaving `rightHandSides` as
    /// it was; returns the reciprocal condition estimate. The same sweeps as ``solved(_:minimumReciprocalCondition:)``,
    /// so the same values, without faulting in fresh pages: those are zeroed by the kernel and
    /// take about as long as the solve on a 1001² grid (40 MB). `solution` is replaced by new
    /// planes when its size differs or its storage is shared.
    func solve(_ rightHandSides: FitPlanes, into solution: inout FitPlanes, minimumReciprocalCondition: Double) throws -> Double {
        let (along, across, rcond) = try factors(minimumReciprocalCondition: minimumReciprocalCondition)
        guard solution.count == rightHandSides.count, solution.values.count == rightHandSides.values.count else {
            solution = fresh(rightHandSides, along: along, across: across)
            return rcond
        }
        rightHandSides.values.withUnsafeBufferPointer { source in
            // Unique storage after this call's copy-on-write check, so never the source's.
            solution.values.withUnsafeMutableBufferPointer { out in
                if let from = source.baseAddress, let to = out.baseAddress {
                    sweep(source: from, destination: to, along: along, across: across)
                }
            }
        }
        return rcond
    }

    /// Both directions' LU factors and the reciprocal condition estimate of S; throws when S is
    /// singular or too ill-conditioned.
    private func factors(minimumReciprocalCondition: Double) throws -> (TridiagonalLU, TridiagonalLU, Double) {
        let alongFactors = TridiagonalLU.factor(TensorGridSolver.curveOperator(points: grid.vertexColumns))
        let acrossFactors = TridiagonalLU.factor(TensorGridSolver.curveOperator(points: grid.vertexRows))
        guard let along = alongFactors.lu, let across = acrossFactors.lu else {
            throw SurfaceFit.singularSystem(
                reciprocalCondition: 0, threshold: minimumReciprocalCondition,
                zeroPivot: alongFactors.zeroPivot ?? acrossFactors.zeroPivot)
        }
        let rcond = along.reciprocalCondition * across.reciprocalCondition
        guard rcond >= minimumReciprocalCondition else {
            throw SurfaceFit.singularSystem(reciprocalCondition: rcond, threshold: minimumReciprocalCondition)
        }
        return (along, across, rcond)
    }

    /// The two sweeps: B is read from `source` and the solution written to `destination` (which
    /// may be the same memory; every value is read before its slot is written).
    private func sweep(
        source: UnsafePointer<Double>, destination: UnsafeMutablePointer<Double>, along: TridiagonalLU, across: TridiagonalLU
    ) {
        let nr = grid.vertexRows, nc = grid.vertexColumns
        let planeCount = FitPlanes.componentCount
        let input = UncheckedSendable(source), output = UncheckedSendable(destination)
        // Along each row: the planes are 5·(R + 1) rows of C + 1 values; take them eight at a
        // time into lanes, solve, put them in place.
        let rowCount = planeCount * nr
        let blocks = (rowCount + 7) / 8
        TensorGridSolver.inChunks(blocks, work: rowCount * nc) { lo, hi in
            let lanes = UnsafeMutablePointer<SIMD8<Double>>.allocate(capacity: nc)
            defer { lanes.deallocate() }
            for block in lo..<hi {
                let first = 8 * block, count = Swift.min(8, rowCount - first)
                let rows = input.value + first * nc
                if count == 8 {
                    for c in 0..<nc {
                        let r = rows + c
                        lanes[c] = SIMD8(r[0], r[nc], r[2 * nc], r[3 * nc], r[4 * nc], r[5 * nc], r[6 * nc], r[7 * nc])
                    }
                } else {
                    for c in 0..<nc {
                        var v = SIMD8<Double>()
                        for k in 0..<count { v[k] = rows[k * nc + c] }
                        lanes[c] = v
                    }
                }
                along.solveLanes(lanes)
                let out = output.value + first * nc
                for c in 0..<nc {
                    let v = lanes[c], r = out + c
                    for k in 0..<count { r[k * nc] = v[k] }
                }
            }
        }
        // Along each column: per plane, sweep over the rows in segments of columns narrow
        // enough that a segment's R + 1 rows stay in cache between the two sweeps: 32 columns
        // are 256 KB of a 1001² grid, well inside a core's L2 (widths 256, 128, 64, 32 and 16
        // measured on a 1001² grid: 32 was fastest, 256 took 1.2 times as long).
        let segment = 32
        let segments = (nc + segment - 1) / segment
        TensorGridSolver.inChunks(planeCount * segments, work: rowCount * nc) { lo, hi in
            for task in lo..<hi {
                let plane = task / segments, c0 = (task % segments) * segment
                across.solveRows(output.value + plane * nr * nc + c0, width: Swift.min(segment, nc - c0), stride: nc)
            }
        }
    }

    /// Runs `body` on disjoint ranges of `0..<count`, on all cores when `work` (values touched)
    /// is large enough to pay for the threads.
    static func inChunks(_ count: Int, work: Int, _ body: @Sendable (Int, Int) -> Void) {
        let chunks = Swift.min(ProcessInfoCores.count, count, Swift.max(1, work / 65_536))
        guard chunks > 1 else {
            body(0, count)
            return
        }
        DispatchQueue.concurrentPerform(iterations: chunks) { k in
            body(count * k / chunks, count * (k + 1) / chunks)
        }
    }
}
