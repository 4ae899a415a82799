#if canImport(Glibc)
    import Glibc
#endif

/// The tensor-product fast path: faces whose patch is a bicubic B-spline (see ``RegularPatchTable``)
/// are evaluated straight from their 16 control points, without refining anything.
///
/// Each patch is evaluated separably on its (2ⁿ + 1)² grid: first the four rows of control points
/// along u at every grid column (value and u-derivative), then, per grid row, the four row
/// results along v. Homogeneous `to` values (W·x, W·y, W·z, W) travel in four lanes and `from`
/// (W·u, W·v) in two, and the division by W comes last, as in the stencil path, so the points and
/// normals are the same up to rounding.
extension SubdivisionPlan {
    /// Uniform cubic B-spline basis values and derivatives at t, for the points −1, 0, 1, 2, times
    /// 6 and 2. The factors cancel in P = P̃ / W and do not change a normal's direction, and
    /// without them the weights are exact at the dyadic parameters a tessellation uses, so a
    /// flat or affine mesh comes out as exactly as the stencil path gives it.
    @inline(__always)
    static func cubicBasis(_ t: Double) -> (value: SIMD4<Double>, derivative: SIMD4<Double>) {
        let s = 1 - t, t2 = t * t, t3 = t2 * t
        let value = SIMD4(s * s * s, 3 * t3 - 6 * t2 + 4, -3 * t3 + 3 * t2 + 3 * t + 1, t3)
        let derivative = SIMD4(-s * s, 3 * t2 - 4 * t, -3 * t2 + 2 * t + 1, t2)
        return (value, derivative)
    }

    /// Whether evaluation can skip the stencil tables altogether.
    var usesTensorPatchesOnly: Bool { storage.patches?.coversEverything ?? false }

    /// Writes the grid points each regular patch owns into `points` (which must hold
    /// ``pointCount`` samples), from the control values `data`.
    func writeRegularPatchPoints(data: UnsafeBufferPointer<Homogeneous>, pointScale: SIMD3<Double>, into points: inout SurfaceSamples) {
        points.withOutput { output in
            writeRegularPatchSamples(data: data, pointScale: pointScale, into: output)
        }
    }

    /// Writes the grid points each regular patch owns into `output`, whose arrays hold
    /// ``pointCount`` samples (the layer points only when `output` has them).
    func writeRegularPatchSamples(data: UnsafeBufferPointer<Homogeneous>, pointScale: SIMD3<Double>, into output: SampleOutput) {
        guard steps > 0 else { return }
        let n = resolution
        let basis = PatchBasis(parameters: (0...n).map { Double($0) / Double(n) })
        let size = (n + 1) * (n + 1)
        forRegularPatchGrids { table, range, indices, weights, slots in
            PatchKernel.withScratch(columns: n + 1) { kernel in
                for k in range {
                    table.gather(k, data: data, indices: indices, weights: weights, into: kernel.control)
                    kernel.slots.update(from: slots + k * size, count: size)
                    let grid = PatchKernel.ownedGrid(owns: table.owns[k], n: n)
                    kernel.evaluate(uBasis: basis, vBasis: basis, grid: grid, scale: pointScale, output: output)
                }
            }
        }
    }

    /// Runs `body` over chunks of the regular patches, on all cores when there are enough points
    /// (`pointsPerPatch` a patch) to pay for it, with raw views of the patch terms and of the
    /// sub-quads' corners. Chunks are disjoint, and so are the points their patches own.
    func forRegularPatchChunks(
        pointsPerPatch: Int,
        _ body: (RegularPatchTable, Range<Int>, UnsafeBufferPointer<Int32>, UnsafeBufferPointer<Double>, UnsafePointer<Int32>) -> Void
    ) {
        guard let table = storage.patches, !table.faces.isEmpty else { return }
        storage.quads.withUnsafeBufferPointer { quadBuffer in
            guard let quadCorners = quadBuffer.baseAddress else { return }
            table.withTerms { indices, weights in
                parallelChunks(table.faces.count, minimumChunk: Swift.max(1, 4096 / Swift.max(1, pointsPerPatch))) { range in
                    body(table, range, indices, weights, quadCorners)
                }
            }
        }
    }

    /// ``forRegularPatchChunks(pointsPerPatch:_:)`` for the (2ⁿ + 1)² grid points of every patch,
    /// with the patches' output slots (``Storage/regularPatchSlots``: patch k's at k · (2ⁿ + 1)²)
    /// instead of the sub-quads' corners.
    func forRegularPatchGrids(
        _ body: (RegularPatchTable, Range<Int>, UnsafeBufferPointer<Int32>, UnsafeBufferPointer<Double>, UnsafePointer<Int32>) -> Void
    ) {
        let n = resolution
        let slots = storage.regularPatchSlots
        slots.withUnsafeBufferPointer { slotBuffer in
            guard let slotBase = slotBuffer.baseAddress else { return }
            forRegularPatchChunks(pointsPerPatch: (n + 1) * (n + 1)) { table, range, indices, weights, _ in
                body(table, range, indices, weights, slotBase)
            }
        }
    }

    /// The sub-quad centres of every face from its patch (all faces must have one).
    func regularPatchCenters(data: UnsafeBufferPointer<Homogeneous>, pointScale: SIMD3<Double>) -> SurfaceSamples {
        guard steps > 0, storage.patches != nil else { return SurfaceSamples() }
        let n = resolution
        let basis = PatchBasis(parameters: (0..<n).map { (Double($0) + 0.5) / Double(n) })
        let count = quadCount
        // Every centre is written (each sub-quad lies in one face, and every face has a patch).
        var result = SurfaceSamples.uninitialized(count: count)
        result.withOutput { output in
            forRegularPatchChunks(pointsPerPatch: n * n) { table, range, indices, weights, _ in
                PatchKernel.withScratch(columns: n) { kernel in
                    for k in range {
                        table.gather(k, data: data, indices: indices, weights: weights, into: kernel.control)
                        let base = Int(table.faces[k]) * n * n
                        for s in 0..<(n * n) { kernel.slots[s] = Int32(base + s) }
                        kernel.evaluate(uBasis: basis, vBasis: basis, scale: pointScale, output: output)
                    }
                }
            }
        }
        return result
    }
}

/// Cubic B-spline basis values and derivatives at a list of parameters.
struct PatchBasis {
    var values: [SIMD4<Double>]
    var derivatives: [SIMD4<Double>]

    init(parameters: [Double]) {
        values = []
        derivatives = []
        for t in parameters {
            let (v, d) = SubdivisionPlan.cubicBasis(t)
            values.append(v)
            derivatives.append(d)
        }
    }

    var count: Int { values.count }
}

extension SurfaceSamples {
    /// `count` samples whose memory is not initialised: the caller writes every one before
    /// reading any. Large arrays are advised to the kernel as huge-page candidates first: they
    /// are fresh memory written once, and at 4 KiB a page, faulting them in costs more than
    /// computing the points (see ``adviseHugePages(_:)``).
    static func uninitialized(count: Int) -> SurfaceSamples {
        func array<T>(of _: T.Type) -> [T] {
            [T](unsafeUninitializedCapacity: count) { buffer, initialized in
                adviseHugePages(UnsafeMutableRawBufferPointer(buffer))
                initialized = count
            }
        }
        return SurfaceSamples(from: array(of: LayerPoint.self), to: array(of: Point3D.self), normals: array(of: Point3D.self))
    }
}

/// Asks the kernel (Linux) to back the whole pages inside `buffer` with transparent huge pages,
/// where the system allows it for advised memory. Only advice: the contents are unchanged and any
/// refusal is ignored. Buffers under 4 MiB are left alone (they hold no whole 2 MiB page to speak
/// of). Every page advised lies inside `buffer`, so no other allocation's memory is touched.
package func adviseHugePages(_ buffer: UnsafeMutableRawBufferPointer) {
    #if canImport(Glibc)
        guard buffer.count >= 4 << 20, let base = buffer.baseAddress else { return }
        let page = UInt(4096)
        let start = (UInt(bitPattern: base) + page - 1) & ~(page - 1)
        let end = UInt(bitPattern: base + buffer.count) & ~(page - 1)
        guard end > start, let first = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(first, Int(end - start), MADV_HUGEPAGE)
    #endif
}

/// Raw output arrays that parallel patches write disjoint slots of.
struct SampleOutput: @unchecked Sendable {
    /// `nil`: the layer points are neither computed nor written.
    let from: UnsafeMutablePointer<LayerPoint>?
    let to: UnsafeMutablePointer<Point3D>
    let normals: UnsafeMutablePointer<Point3D>
    /// `nil`: positions in unit coordinates; otherwise each position is multiplied by this (the
    /// point scale) as it is written, the same product a caller would take afterwards.
    var positionScale: SIMD3<Double>? = nil
}

extension SurfaceSamples {
    mutating func withOutput(_ body: (SampleOutput) -> Void) {
        from.withUnsafeMutableBufferPointer { f in
            to.withUnsafeMutableBufferPointer { t in
                normals.withUnsafeMutableBufferPointer { nb in
                    guard let fb = f.baseAddress, let tb = t.baseAddress, let nbb = nb.baseAddress else { return }
                    body(SampleOutput(from: fb, to: tb, normals: nbb))
                }
            }
        }
    }
}

/// Scratch space and the loops of one patch evaluation. Values travel as homogeneous `to`
/// (W·x, W·y, W·z, W) in four lanes and `from` (W·u, W·v) in two.
struct PatchKernel {
    /// The patch's 16 control values.
    let control: RegularPatchTable.Points
    /// Output slot per grid point, row-major; −1 skips the point.
    let slots: UnsafeMutablePointer<Int32>
    /// Along-u results per grid column: the four control rows' values, then their u-derivatives.
    let rowsTo: UnsafeMutablePointer<SIMD4<Double>>
    /// Along-u `from` values per grid column, four control rows.
    let rowsFrom: UnsafeMutablePointer<SIMD2<Double>>

    static func withScratch(columns: Int, _ body: (PatchKernel) -> Void) {
        RegularPatchTable.withPointStorage { control in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: columns * columns) { slots in
                withUnsafeTemporaryAllocation(of: SIMD4<Double>.self, capacity: 8 * columns) { rowsTo in
                    withUnsafeTemporaryAllocation(of: SIMD2<Double>.self, capacity: 4 * columns) { rowsFrom in
                        guard let s = slots.baseAddress, let t = rowsTo.baseAddress, let f = rowsFrom.baseAddress else { return }
                        body(PatchKernel(control: control, slots: s, rowsTo: t, rowsFrom: f))
                    }
                }
            }
        }
    }

    /// Evaluates the patch at every (u, v) of the two basis tables (equally many) and writes the
    /// points whose slot is not −1. Only the rows and columns of `grid` (every one when `nil`)
    /// hold points the patch writes.
    @inline(__always)
    func evaluate(uBasis: PatchBasis, vBasis: PatchBasis, grid: OwnedGrid? = nil, scale: SIMD3<Double>, output: SampleOutput) {
        let columns = uBasis.count
        let to = control.to, from = control.from
        let grid = grid ?? OwnedGrid(rows: 0..<vBasis.count, columns: 0..<columns)
        uBasis.values.withUnsafeBufferPointer { ub in
            uBasis.derivatives.withUnsafeBufferPointer { ud in
                // Along u: each control row r at every column the patch writes, value and derivative.
                for i in grid.columns {
                    let b = ub[i], d = ud[i]
                    for r in 0..<4 {
                        let t0 = to[4 * r], t1 = to[4 * r + 1], t2 = to[4 * r + 2], t3 = to[4 * r + 3]
                        rowsTo[8 * i + r] = b.x * t0 + b.y * t1 + b.z * t2 + b.w * t3
                        rowsTo[8 * i + 4 + r] = d.x * t0 + d.y * t1 + d.z * t2 + d.w * t3
                        rowsFrom[4 * i + r] = b.x * from[4 * r] + b.y * from[4 * r + 1] + b.z * from[4 * r + 2] + b.w * from[4 * r + 3]
                    }
                }
            }
        }
        vBasis.values.withUnsafeBufferPointer { vb in
            vBasis.derivatives.withUnsafeBufferPointer { vd in
                for j in grid.rows {
                    let b = vb[j], d = vd[j]
                    let rowSlots = slots + j * columns
                    for i in grid.columns {
                        let slot = Int(rowSlots[i])
                        if slot < 0 { continue }
                        let c = rowsTo + 8 * i, f = rowsFrom + 4 * i
                        let position = b.x * c[0] + b.y * c[1] + b.z * c[2] + b.w * c[3]
                        let du = b.x * c[4] + b.y * c[5] + b.z * c[6] + b.w * c[7]
                        let dv = d.x * c[0] + d.y * c[1] + d.z * c[2] + d.w * c[3]
                        let w = position.w
                        let p = SIMD3(position.x, position.y, position.z) / w
                        // Tangents of the rational surface, (T̃ − P·dW) / W, in points space; the
                        // common 1/W does not change the normal's direction, so it is left out.
                        let tu = (SIMD3(du.x, du.y, du.z) - p * du.w) * scale
                        let tv = (SIMD3(dv.x, dv.y, dv.z) - p * dv.w) * scale
                        let n = SIMD3(tu.y * tv.z - tu.z * tv.y, tu.z * tv.x - tu.x * tv.z, tu.x * tv.y - tu.y * tv.x)
                        let l = (n * n).sum().squareRoot()
                        output.to[slot] = output.positionScale.map { p * $0 } ?? p
                        // As `normalized()`: a degenerate normal becomes +z.
                        output.normals[slot] = l > 0 && l.isFinite ? n / l : Point3D(0, 0, 1)
                        if let from = output.from { from[slot] = (b.x * f[0] + b.y * f[1] + b.z * f[2] + b.w * f[3]) / w }
                    }
                }
            }
        }
    }

    /// The rows and columns of a patch's (n + 1)² grid that hold points it writes.
    struct OwnedGrid {
        var rows: Range<Int>
        var columns: Range<Int>
    }

    /// The rows and columns holding the points a patch writes, from its `owns` bits as
    /// ``gridSlots(face:owns:n:quads:into:)`` reads them: row 0 (v = 0) holds edge 0 and corners
    /// 0 and 1, row n edge 2 and corners 2 and 3, column 0 (u = 0) edge 3 and corners 0 and 3,
    /// column n edge 1 and corners 1 and 2. An edge row or column none of whose points the patch
    /// owns has slot −1 everywhere, so leaving it out (its values along u included) changes no
    /// point written; the inner rows and columns always hold owned points.
    @inline(__always)
    static func ownedGrid(owns: UInt8, n: Int) -> OwnedGrid {
        let firstRow = owns & (1 | 16 | 32) == 0 ? 1 : 0, lastRow = owns & (4 | 64 | 128) == 0 ? n - 1 : n
        let firstColumn = owns & (8 | 16 | 128) == 0 ? 1 : 0, lastColumn = owns & (2 | 32 | 64) == 0 ? n - 1 : n
        return OwnedGrid(rows: firstRow..<(lastRow + 1), columns: firstColumn..<(lastColumn + 1))
    }

    /// Fills `slots` (row-major, (n + 1)² entries) with the output slot of every grid point of
    /// face f from the sub-quads' corners, −1 for the edge and corner points another patch writes
    /// (bits 0–3 of `owns`: inner points of edges 0–3; bits 4–7: corners 0–3).
    @inline(__always)
    static func gridSlots(face f: Int, owns: UInt8, n: Int, quads: UnsafePointer<Int32>, into slots: UnsafeMutablePointer<Int32>) {
        let stride = n + 1, base = 4 * f * n * n
        // Corner 0 of sub-quad (j, i); the last column takes corner 1 of its row's last sub-quad,
        // the last row corner 3 of the last row's sub-quads, and the far corner is corner 2.
        for j in 0..<n {
            let row = slots + j * stride, q = quads + base + 4 * j * n
            for i in 0..<n { row[i] = q[4 * i] }
            row[n] = q[4 * (n - 1) + 1]
        }
        let last = slots + n * stride, q = quads + base + 4 * (n - 1) * n
        for i in 0..<n { last[i] = q[4 * i + 3] }
        last[n] = q[4 * (n - 1) + 2]
        // Edge 0 is the row v = 0, edge 1 the column u = 1, edge 2 the row v = 1, edge 3 the
        // column u = 0; corners 0–3 are (0, 0), (1, 0), (1, 1), (0, 1).
        if owns & 1 == 0 { for i in 1..<n { slots[i] = -1 } }
        if owns & 2 == 0 { for j in 1..<n { slots[j * stride + n] = -1 } }
        if owns & 4 == 0 { for i in 1..<n { last[i] = -1 } }
        if owns & 8 == 0 { for j in 1..<n { slots[j * stride] = -1 } }
        if owns & 16 == 0 { slots[0] = -1 }
        if owns & 32 == 0 { slots[n] = -1 }
        if owns & 64 == 0 { last[n] = -1 }
        if owns & 128 == 0 { last[0] = -1 }
    }
}

extension RegularPatchTable {
    /// The 16 control values of one patch, split into `to` lanes (W·x, W·y, W·z, W) and `from`
    /// lanes (W·u, W·v).
    struct Points {
        var to: UnsafeMutablePointer<SIMD4<Double>>
        var from: UnsafeMutablePointer<SIMD2<Double>>
    }

    /// Runs `body` with room for one patch's control values, reused patch after patch.
    static func withPointStorage(_ body: (Points) -> Void) {
        withUnsafeTemporaryAllocation(of: SIMD4<Double>.self, capacity: 16) { to in
            withUnsafeTemporaryAllocation(of: SIMD2<Double>.self, capacity: 16) { from in
                guard let t = to.baseAddress, let f = from.baseAddress else { return }
                body(Points(to: t, from: f))
            }
        }
    }

    /// Gathers patch k's control values from `data` into `points`; a plain patch (``isPlain``)
    /// copies them, with the bits of the weighed sums, as in
    /// ``gatherPositions(_:data:indices:weights:into:)``.
    @inline(__always)
    func gather(
        _ k: Int, data: UnsafeBufferPointer<Homogeneous>, indices: UnsafeBufferPointer<Int32>,
        weights: UnsafeBufferPointer<Double>, into points: Points
    ) {
        if isPlain[k] {
            let first = RegularPatchTable.termsPerPoint * 16 * k
            for point in 0..<16 {
                let value = data[Int(indices[first + RegularPatchTable.termsPerPoint * point])]
                points.to[point] = SIMD4(value[2], value[3], value[4], value[5])
                points.from[point] = SIMD2(value[0], value[1])
            }
            return
        }
        for point in 0..<16 {
            let sum = controlValue(k, point, data: data, indices: indices, weights: weights)
            points.to[point] = SIMD4(sum[2], sum[3], sum[4], sum[5])
            points.from[point] = SIMD2(sum[0], sum[1])
        }
    }

    /// Control point `point` (0..<16, row-major in (v, u)) of patch k, from its terms. Most points
    /// are one control vertex (weight 1) and the mirrored ones two: the unused terms have weight 0
    /// and are skipped.
    @inline(__always)
    func controlValue(
        _ k: Int, _ point: Int, data: UnsafeBufferPointer<Homogeneous>, indices: UnsafeBufferPointer<Int32>,
        weights: UnsafeBufferPointer<Double>
    ) -> Homogeneous {
        let first = RegularPatchTable.termsPerPoint * (16 * k + point)
        var sum = weights[first] * data[Int(indices[first])]
        for slot in (first + 1)..<(first + RegularPatchTable.termsPerPoint) where weights[slot] != 0 {
            sum += weights[slot] * data[Int(indices[slot])]
        }
        return sum
    }

    /// Raw views of the patch terms for the evaluation loop.
    func withTerms<R>(_ body: (UnsafeBufferPointer<Int32>, UnsafeBufferPointer<Double>) -> R) -> R {
        indices.withUnsafeBufferPointer { i in weights.withUnsafeBufferPointer { w in body(i, w) } }
    }
}
