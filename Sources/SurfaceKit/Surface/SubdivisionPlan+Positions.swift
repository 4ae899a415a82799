/// Limit positions alone: the `to` points of ``SubdivisionPlan/evaluate(vertices:weights:pointScale:includeCenters:)``
/// without the layer coordinates and the normals.
///
/// Hit-testing, bounds, depth keys and a renderer that lights by face need only where the surface
/// is. A full sample is 80 bytes as stored (`from`, `to`, normal) and its normal needs both tangents,
/// a cross product and a square root; a position is 32 bytes and one 4-term combination of
/// homogeneous values along each direction, then one division. This is also what the NURBS and
/// B-spline libraries call evaluating the limit surface (scipy's tensor-product evaluation,
/// OpenSubdiv's limit points), so `meshgeo bench`'s `stepsN-points` compares like with like.
public extension SubdivisionPlan {
    /// The limit positions at the refined vertices (one per ``pointCount``), in unit coordinates.
    /// Each equals the `to` of the full evaluation's sample. Throws `.incompatible` when the counts
    /// do not match the plan.
    func positions(vertices: [MeshVertex], weights: [Double]) throws -> [Point3D] {
        var result: [Point3D] = []
        try evaluatePositions(vertices: vertices, weights: weights, into: &result)
        return result
    }

    /// ``positions(vertices:weights:)`` into `positions`, reusing its storage when it already holds
    /// ``pointCount`` points (an animation re-evaluating the same plan frame after frame).
    func evaluatePositions(vertices: [MeshVertex], weights: [Double], into positions: inout [Point3D]) throws {
        guard steps > 0, usesTensorPatchesOnly else {
            // Stencil tables (or the control mesh itself at steps 0): the full samples' points.
            positions = try evaluate(vertices: vertices, weights: weights, pointScale: SIMD3(repeating: 1)).points.to
            return
        }
        let data = try homogeneousData(vertices: vertices, weights: weights)
        if positions.count != pointCount {
            // Every point belongs to exactly one patch, which writes it: no need to clear first.
            positions = [Point3D](unsafeUninitializedCapacity: pointCount) { buffer, initialized in
                adviseHugePages(UnsafeMutableRawBufferPointer(buffer))
                initialized = pointCount
            }
        }
        data.withUnsafeBufferPointer { src in
            positions.withUnsafeMutableBufferPointer { out in
                guard let base = out.baseAddress else { return }
                writeRegularPatchPositions(data: src, into: SharedMutableBuffer(base: base))
            }
        }
    }
}

extension SubdivisionPlan {
    /// Writes the grid points each regular patch owns (positions only) into `output`.
    func writeRegularPatchPositions(data: UnsafeBufferPointer<Homogeneous>, into output: SharedMutableBuffer<Point3D>) {
        guard steps > 0 else { return }
        let n = resolution
        let basis = PatchBasis(parameters: (0...n).map { Double($0) / Double(n) }).values
        basis.withUnsafeBufferPointer { basis in
            let size = (n + 1) * (n + 1)
            forRegularPatchGrids { table, range, indices, weights, slots in
                PositionKernel.withScratch(columns: n + 1) { kernel in
                    for k in range {
                        table.gatherPositions(k, data: data, indices: indices, weights: weights, into: kernel.control)
                        let grid = PatchKernel.ownedGrid(owns: table.owns[k], n: n)
                        kernel.evaluate(basis: basis, grid: grid, slots: slots + k * size, output: output.base)
                    }
                }
            }
        }
    }
}

/// One patch's positions: the four control rows along u at every grid column, then per grid point
/// the four row values along v and the division by W. Homogeneous `to` values (W·x, W·y, W·z, W)
/// travel in four lanes.
struct PositionKernel {
    /// The patch's 16 homogeneous `to` values, row-major in (v, u).
    let control: UnsafeMutablePointer<SIMD4<Double>>
    /// Along-u values per grid column, the four control rows.
    let rows: UnsafeMutablePointer<SIMD4<Double>>

    static func withScratch(columns: Int, _ body: (PositionKernel) -> Void) {
        withUnsafeTemporaryAllocation(of: SIMD4<Double>.self, capacity: 16) { control in
            withUnsafeTemporaryAllocation(of: SIMD4<Double>.self, capacity: 4 * columns) { rows in
                guard let c = control.baseAddress, let r = rows.baseAddress else { return }
                body(PositionKernel(control: c, rows: r))
            }
        }
    }

    /// Evaluates the patch at every (u, v) of the basis table (the same parameters both ways) and
    /// writes the points whose slot is not −1. `slots` is the output slot of each grid point,
    /// row-major, read in place from the plan's table (the patch's own row of it) rather than
    /// copied into scratch for each patch, which would add a pass over every slot per patch.
    /// Only the rows and columns of `grid` hold points the patch writes.
    @inline(__always)
    func evaluate(
        basis: UnsafeBufferPointer<SIMD4<Double>>, grid: PatchKernel.OwnedGrid, slots: UnsafePointer<Int32>,
        output: UnsafeMutablePointer<Point3D>
    ) {
        let columns = basis.count
        for i in grid.columns {
            let b = basis[i]
            for r in 0..<4 {
                let c = control + 4 * r
                rows[4 * i + r] = b.x * c[0] + b.y * c[1] + b.z * c[2] + b.w * c[3]
            }
        }
        for j in grid.rows {
            let b = basis[j]
            let rowSlots = slots + j * columns
            for i in grid.columns {
                let slot = Int(rowSlots[i])
                if slot < 0 { continue }
                let c = rows + 4 * i
                let p = b.x * c[0] + b.y * c[1] + b.z * c[2] + b.w * c[3]
                output[slot] = SIMD3(p.x, p.y, p.z) / p.w
            }
        }
    }
}

extension RegularPatchTable {
    /// Gathers patch k's homogeneous `to` values (W·x, W·y, W·z, W) into `control`.
    ///
    /// A plain patch (``isPlain``) copies each point's control vertex: its sum is the one term
    /// 1 · value, and multiplying by 1 is exact in IEEE arithmetic (every value, signed zeros
    /// and NaN included, comes back unchanged), so the copy has the bits of the weighed sum.
    @inline(__always)
    func gatherPositions(
        _ k: Int, data: UnsafeBufferPointer<Homogeneous>, indices: UnsafeBufferPointer<Int32>,
        weights: UnsafeBufferPointer<Double>, into control: UnsafeMutablePointer<SIMD4<Double>>
    ) {
        if isPlain[k] {
            let first = RegularPatchTable.termsPerPoint * 16 * k
            for point in 0..<16 {
                let value = data[Int(indices[first + RegularPatchTable.termsPerPoint * point])]
                control[point] = SIMD4(value[2], value[3], value[4], value[5])
            }
            return
        }
        for point in 0..<16 {
            let sum = controlValue(k, point, data: data, indices: indices, weights: weights)
            control[point] = SIMD4(sum[2], sum[3], sum[4], sum[5])
        }
    }
}
