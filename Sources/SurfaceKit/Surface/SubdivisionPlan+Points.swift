/// Points-space positions and normals alone: what a frame of an animation draws and depth-sorts,
/// without the layer coordinates.
///
/// A renderer that re-evaluates the same plan frame after frame needs the surface in points space
/// (the painter's sort and the rasteriser work there) and the normals for lighting, but not `from`.
/// Leaving it out saves two divisions a point and a third of the output, and writing the positions
/// already scaled saves the pass that would scale them afterwards.
public extension SubdivisionPlan {
    /// Writes each surface point in points space (the full evaluation's `to` times `pointScale`,
    /// the same bits as multiplying afterwards) into `positions` and its unit normal (as the full
    /// evaluation's, points space) into `normals`, one per ``pointCount``, reusing each array's
    /// storage when it already holds ``pointCount`` points and nothing else shares it. Throws
    /// `.incompatible` when the counts do not match the plan.
    func evaluatePoints(
        vertices: [MeshVertex], weights: [Double], pointScale: SIMD3<Double>, positions: inout [Point3D], normals: inout [Point3D]
    ) throws {
        guard steps > 0, usesTensorPatchesOnly else {
            // Stencil tables (or the control mesh itself at steps 0): the full samples.
            let points = try evaluate(vertices: vertices, weights: weights, pointScale: pointScale).points
            positions = points.to.map { $0 * pointScale }
            normals = points.normals
            return
        }
        let data = try homogeneousData(vertices: vertices, weights: weights)
        // Every point belongs to exactly one patch, which writes it: no need to clear first.
        if positions.count != pointCount { positions = uninitializedArray(count: pointCount) }
        if normals.count != pointCount { normals = uninitializedArray(count: pointCount) }
        data.withUnsafeBufferPointer { src in
            positions.withUnsafeMutableBufferPointer { p in
                normals.withUnsafeMutableBufferPointer { n in
                    guard let p = p.baseAddress, let n = n.baseAddress else { return }
                    writeRegularPatchPoints(data: src, pointScale: pointScale, positions: p, normals: n)
                }
            }
        }
    }
}

extension SubdivisionPlan {
    /// Writes the points-space position and unit normal of every grid point each regular patch
    /// owns into `positions` and `normals` (``pointCount`` each).
    func writeRegularPatchPoints(
        data: UnsafeBufferPointer<Homogeneous>, pointScale: SIMD3<Double>, positions: UnsafeMutablePointer<Point3D>,
        normals: UnsafeMutablePointer<Point3D>
    ) {
        guard steps > 0 else { return }
        let n = resolution
        let basis = PatchBasis(parameters: (0...n).map { Double($0) / Double(n) })
        let size = (n + 1) * (n + 1)
        forRegularPatchGrids { table, range, indices, weights, slots in
            PatchKernel.withScratch(columns: n + 1) { kernel in
                for k in range {
                    table.gatherPositions(k, data: data, indices: indices, weights: weights, into: kernel.control.to)
                    let grid = PatchKernel.ownedGrid(owns: table.owns[k], n: n)
                    kernel.evaluatePoints(
                        basis: basis, grid: grid, slots: slots + k * size, scale: pointScale, positions: positions, normals: normals)
                }
            }
        }
    }
}

extension PatchKernel {
    /// ``evaluate(uBasis:vBasis:scale:output:)`` for the points-only evaluation, with the same
    /// basis both ways: the same operations in the same order for the position (times `scale`)
    /// and the normal, without the layer coordinates (neither their rows along u nor their
    /// division) and without asking per point which outputs are wanted. Only the rows and
    /// columns of `grid` hold points the patch writes. `slots` are the patch's output slots,
    /// read in place from the plan's table as ``PositionKernel/evaluate(basis:grid:slots:output:)``
    /// reads them.
    @inline(__always)
    func evaluatePoints(
        basis: PatchBasis, grid: OwnedGrid, slots: UnsafePointer<Int32>, scale: SIMD3<Double>,
        positions: UnsafeMutablePointer<Point3D>, normals: UnsafeMutablePointer<Point3D>
    ) {
        let columns = basis.count
        let to = control.to
        basis.values.withUnsafeBufferPointer { vb in
            basis.derivatives.withUnsafeBufferPointer { vd in
                // Along u: each control row r at every column the patch writes, value and derivative.
                for i in grid.columns {
                    let b = vb[i], d = vd[i]
                    for r in 0..<4 {
                        let t0 = to[4 * r], t1 = to[4 * r + 1], t2 = to[4 * r + 2], t3 = to[4 * r + 3]
                        rowsTo[8 * i + r] = b.x * t0 + b.y * t1 + b.z * t2 + b.w * t3
                        rowsTo[8 * i + 4 + r] = d.x * t0 + d.y * t1 + d.z * t2 + d.w * t3
                    }
                }
                for j in grid.rows {
                    let b = vb[j], d = vd[j]
                    let rowSlots = slots + j * columns
                    for i in grid.columns {
                        let slot = Int(rowSlots[i])
                        if slot < 0 { continue }
                        let c = rowsTo + 8 * i
                        let position = b.x * c[0] + b.y * c[1] + b.z * c[2] + b.w * c[3]
                        let du = b.x * c[4] + b.y * c[5] + b.z * c[6] + b.w * c[7]
                        let dv = d.x * c[0] + d.y * c[1] + d.z * c[2] + d.w * c[3]
                        let p = SIMD3(position.x, position.y, position.z) / position.w
                        let tu = (SIMD3(du.x, du.y, du.z) - p * du.w) * scale
                        let tv = (SIMD3(dv.x, dv.y, dv.z) - p * dv.w) * scale
                        let n = SIMD3(tu.y * tv.z - tu.z * tv.y, tu.z * tv.x - tu.x * tv.z, tu.x * tv.y - tu.y * tv.x)
                        let l = (n * n).sum().squareRoot()
                        positions[slot] = p * scale
                        normals[slot] = l > 0 && l.isFinite ? n / l : Point3D(0, 0, 1)
                    }
                }
            }
        }
    }
}

/// `count` elements whose memory is not initialised, advised as huge-page candidates (see
/// ``adviseHugePages(_:)``): the caller writes every one before reading any.
func uninitializedArray<T>(count: Int) -> [T] {
    [T](unsafeUninitializedCapacity: count) { buffer, initialized in
        adviseHugePages(UnsafeMutableRawBufferPointer(buffer))
        initialized = count
    }
}
