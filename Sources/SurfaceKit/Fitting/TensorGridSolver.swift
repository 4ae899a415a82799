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
    /// The curve operators are factored once each and swept over the grid by ``TensorSweep``:
    /// every value is read once and written once, rows eight at a time along the row and all
    /// columns at once down the columns. (`dgtsv` itself, called on the same layout, is several
    /// times slower: its forward sweep strides across the right-hand sides and its backward sweep
    /// is a serial chain of divisions per right-hand side.)
    func solve(_ planes: inout FitPlanes, minimumReciprocalCondition: Double) throws -> Double {
        let (sweep, rcond) = try sweep(minimumReciprocalCondition: minimumReciprocalCondition)
        planes.values.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            sweep.solve(planes: FitPlanes.componentCount, source: UnsafePointer(base), destination: base)
        }
        return rcond
    }

    /// Solves S Q = B for the planes `rightHandSides` and returns the solutions as new planes,
    /// leaving `rightHandSides` as it was (what a caller that keeps B, or the benchmark, needs).
    /// The copy costs nothing extra: the sweep reads B and writes its results straight into the
    /// new planes, whose memory is advised as huge pages (fresh 4 KiB pages cost more to fault in
    /// than the solve costs to compute).
    func solved(_ rightHandSides: FitPlanes, minimumReciprocalCondition: Double) throws -> (planes: FitPlanes, reciprocalCondition: Double)
    {
        let (sweep, rcond) = try sweep(minimumReciprocalCondition: minimumReciprocalCondition)
        return (fresh(rightHandSides, sweep: sweep), rcond)
    }

    /// The solution for `rightHandSides` in new planes advised as huge pages.
    private func fresh(_ rightHandSides: FitPlanes, sweep: TensorSweep) -> FitPlanes {
        let values = [Double](unsafeUninitializedCapacity: rightHandSides.values.count) { out, initialized in
            adviseHugePages(UnsafeMutableRawBufferPointer(out))
            rightHandSides.values.withUnsafeBufferPointer { source in
                if let from = source.baseAddress, let to = out.baseAddress {
                    sweep.solve(planes: FitPlanes.componentCount, source: from, destination: to)
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
        let (sweep, rcond) = try sweep(minimumReciprocalCondition: minimumReciprocalCondition)
        guard solution.count == rightHandSides.count, solution.values.count == rightHandSides.values.count else {
            solution = fresh(rightHandSides, sweep: sweep)
            return rcond
        }
        rightHandSides.values.withUnsafeBufferPointer { source in
            // Unique storage after this call's copy-on-write check, so never the source's.
            solution.values.withUnsafeMutableBufferPointer { out in
                if let from = source.baseAddress, let to = out.baseAddress {
                    sweep.solve(planes: FitPlanes.componentCount, source: from, destination: to)
                }
            }
        }
        return rcond
    }

    /// The sweep over both directions' factors and the reciprocal condition estimate of S (from
    /// LAPACK's `dgttrf` and `dgtcon`); throws when S is singular or too ill-conditioned.
    func sweep(minimumReciprocalCondition: Double) throws -> (TensorSweep, Double) {
        let alongMatrix = TensorGridSolver.curveOperator(points: grid.vertexColumns)
        let acrossMatrix = TensorGridSolver.curveOperator(points: grid.vertexRows)
        let alongLAPACK = TridiagonalLU.factor(alongMatrix), acrossLAPACK = TridiagonalLU.factor(acrossMatrix)
        guard let alongLU = alongLAPACK.lu, let acrossLU = acrossLAPACK.lu,
            let along = DominantTridiagonalFactors(alongMatrix), let across = DominantTridiagonalFactors(acrossMatrix)
        else {
            throw SurfaceFit.singularSystem(
                reciprocalCondition: 0, threshold: minimumReciprocalCondition,
                zeroPivot: alongLAPACK.zeroPivot ?? acrossLAPACK.zeroPivot)
        }
        let rcond = alongLU.reciprocalCondition * acrossLU.reciprocalCondition
        guard rcond >= minimumReciprocalCondition else {
            throw SurfaceFit.singularSystem(reciprocalCondition: rcond, threshold: minimumReciprocalCondition)
        }
        return (TensorSweep(rows: grid.vertexRows, columns: grid.vertexColumns, along: along, across: across), rcond)
    }
}
