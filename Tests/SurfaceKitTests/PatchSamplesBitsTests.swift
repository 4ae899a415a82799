import TestSupport
import Testing

@testable import SurfaceKit

// The tensor-product evaluation of full samples (limit points, layer points and unit normals) is
// one kernel with loops specialised for whether `from` is written and whether positions are
// scaled. Whatever its loops, every value it writes must be the documented formula to the bit:
// per grid point (u, v) = (i / n, j / n) of a patch, the four control rows along u (value and
// u-derivative, B-spline weights ×6 and ×2), those along v (value and v-derivative), then
// P = P̃ / W, T = (T̃ − P·dW) times the point scale, n = Tu × Tv over |Tu × Tv| (+z when
// degenerate) and `from` = F̃ / W. The expected values are that formula written out point by
// point below, from the patch's control values, on a grid with non-unit weights and a boundary
// (mirrored control points), written where the patch that owns the point writes it.

@Suite struct PatchSamplesBitsTests {
    struct Sample {
        var from: LayerPoint
        var to: Point3D
        var normal: Point3D
    }

    /// The uniform cubic B-spline weights at t, times 6, and their derivatives, times 2.
    static func weights(_ t: Double) -> (value: SIMD4<Double>, derivative: SIMD4<Double>) {
        let s = 1 - t, t2 = t * t, t3 = t2 * t
        return (
            SIMD4(s * s * s, 3 * t3 - 6 * t2 + 4, -3 * t3 + 3 * t2 + 3 * t + 1, t3),
            SIMD4(-s * s, 3 * t2 - 4 * t, -3 * t2 + 2 * t + 1, t2)
        )
    }

    /// The formula at one point of a patch with homogeneous control values `to` (W·x, W·y, W·z, W)
    /// and `from` (W·u, W·v), row-major in (v, u).
    static func sample(
        to: [SIMD4<Double>], from: [SIMD2<Double>], u: Double, v: Double, scale: SIMD3<Double>, positionScale: SIMD3<Double>?
    ) -> Sample {
        let (bu, du) = weights(u), (bv, dv) = weights(v)
        var rows: [SIMD4<Double>] = [], derivatives: [SIMD4<Double>] = [], layers: [SIMD2<Double>] = []
        for r in 0..<4 {
            let c = Array(to[(4 * r)..<(4 * r + 4)]), f = Array(from[(4 * r)..<(4 * r + 4)])
            rows.append(bu.x * c[0] + bu.y * c[1] + bu.z * c[2] + bu.w * c[3])
            derivatives.append(du.x * c[0] + du.y * c[1] + du.z * c[2] + du.w * c[3])
            layers.append(bu.x * f[0] + bu.y * f[1] + bu.z * f[2] + bu.w * f[3])
        }
        let position = bv.x * rows[0] + bv.y * rows[1] + bv.z * rows[2] + bv.w * rows[3]
        let alongU = bv.x * derivatives[0] + bv.y * derivatives[1] + bv.z * derivatives[2] + bv.w * derivatives[3]
        let alongV = dv.x * rows[0] + dv.y * rows[1] + dv.z * rows[2] + dv.w * rows[3]
        let layer = bv.x * layers[0] + bv.y * layers[1] + bv.z * layers[2] + bv.w * layers[3]
        let w = position.w
        let p = SIMD3(position.x, position.y, position.z) / w
        let tu = (SIMD3(alongU.x, alongU.y, alongU.z) - p * alongU.w) * scale
        let tv = (SIMD3(alongV.x, alongV.y, alongV.z) - p * alongV.w) * scale
        let n = SIMD3(tu.y * tv.z - tu.z * tv.y, tu.z * tv.x - tu.x * tv.z, tu.x * tv.y - tu.y * tv.x)
        let l = ((n.x * n.x + n.y * n.y) + n.z * n.z).squareRoot()
        let normal = l > 0 && l.isFinite ? n / l : SIMD3(0, 0, 1)
        return Sample(from: layer / w, to: positionScale.map { p * $0 } ?? p, normal: normal)
    }

    /// Whether patch `owns` writes grid point (i, j) of its (n + 1)² grid: inner points always;
    /// bits 0–3 the inner points of edges 0–3 (v = 0, u = 1, v = 1, u = 0), bits 4–7 the corners
    /// (0, 0), (1, 0), (1, 1), (0, 1).
    static func writes(_ owns: UInt8, i: Int, j: Int, n: Int) -> Bool {
        let inner = (1..<n)
        switch (i, j) {
        case (0, 0): return owns & 16 != 0
        case (n, 0): return owns & 32 != 0
        case (n, n): return owns & 64 != 0
        case (0, n): return owns & 128 != 0
        case (_, 0): return owns & 1 != 0
        case (n, _): return owns & 2 != 0
        case (_, n): return owns & 4 != 0
        case (0, _): return owns & 8 != 0
        default: return inner.contains(i) && inner.contains(j)
        }
    }

    /// The expected sample at every evaluated point, each from the patch that writes it.
    static func expected(
        plan: SubdivisionPlan, vertices: [MeshVertex], weights: [Double], scale: SIMD3<Double>, positionScale: SIMD3<Double>?
    ) throws -> [Sample?] {
        let table = try #require(plan.storage.patches)
        let data = try plan.homogeneousData(vertices: vertices, weights: weights)
        let n = plan.resolution
        var result = [Sample?](repeating: nil, count: plan.pointCount)
        var twice = 0
        for k in table.faces.indices {
            var to: [SIMD4<Double>] = [], from: [SIMD2<Double>] = []
            data.withUnsafeBufferPointer { src in
                table.withTerms { indices, termWeights in
                    RegularPatchTable.withPointStorage { points in
                        table.gather(k, data: src, indices: indices, weights: termWeights, into: points)
                        to = (0..<16).map { points.to[$0] }
                        from = (0..<16).map { points.from[$0] }
                    }
                }
            }
            let face = Int(table.faces[k])
            for j in 0...n {
                for i in 0...n where writes(table.owns[k], i: i, j: j, n: n) {
                    // Grid point (i, j) is corner 0 of sub-quad (j, i), or corner 1, 3 or 2 of
                    // the last column's, last row's or last sub-quad.
                    let q = plan.quad(face * n * n + Swift.min(j, n - 1) * n + Swift.min(i, n - 1))
                    let corner = i < n ? (j < n ? 0 : 3) : (j < n ? 1 : 2)
                    let slot = Int(q[corner])
                    if result[slot] != nil { twice += 1 }
                    result[slot] = sample(
                        to: to, from: from, u: Double(i) / Double(n), v: Double(j) / Double(n), scale: scale,
                        positionScale: positionScale)
                }
            }
        }
        #expect(twice == 0, "points written by two patches")
        return result
    }

    static func sameBits<V: SIMD>(_ a: V, _ b: V) -> Bool where V.Scalar == Double {
        a.indices.allSatisfy { a[$0].bitPattern == b[$0].bitPattern }
    }

    static let scale = SIMD3(333.0, 217.0, 51.0)

    /// The kernel's four specialisations (with and without `from`, with and without a point
    /// scale on the positions) against the formula.
    @Test(arguments: [1, 3], [false, true])
    func samplesAreTheFormulaToTheBit(steps: Int, scaled: Bool) throws {
        let (vertices, faces) = jitteredGrid(rows: 3, columns: 4, seed: 41)
        let topology = try SurfaceTopology(faces: faces, vertexCount: vertices.count)
        let weights = topology.vertexWeights(faces: faces)
        #expect(weights.contains { $0 != 1 })
        let plan = try SubdivisionPlan(topology: topology, steps: steps)
        #expect(plan.usesTensorPatchesOnly)
        let positionScale: SIMD3<Double>? = scaled ? Self.scale : nil
        let want = try Self.expected(plan: plan, vertices: vertices, weights: weights, scale: Self.scale, positionScale: positionScale)
        #expect(want.allSatisfy { $0 != nil }, "every point has an owner")
        let data = try plan.homogeneousData(vertices: vertices, weights: weights)
        for withFrom in [false, true] {
            let count = plan.pointCount
            var from = [LayerPoint](repeating: SIMD2(-7, -7), count: count)
            var to = [Point3D](repeating: .zero, count: count), normals = [Point3D](repeating: .zero, count: count)
            data.withUnsafeBufferPointer { src in
                from.withUnsafeMutableBufferPointer { f in
                    to.withUnsafeMutableBufferPointer { t in
                        normals.withUnsafeMutableBufferPointer { nb in
                            guard let fb = f.baseAddress, let tb = t.baseAddress, let nbb = nb.baseAddress else { return }
                            let output = SampleOutput(from: withFrom ? fb : nil, to: tb, normals: nbb, positionScale: positionScale)
                            plan.writeRegularPatchSamples(data: src, pointScale: Self.scale, into: output)
                        }
                    }
                }
            }
            var wrong = 0
            for (index, sample) in want.enumerated() {
                guard let sample else { continue }
                let layerRight = withFrom ? Self.sameBits(from[index], sample.from) : from[index] == SIMD2(-7, -7)
                if !layerRight || !Self.sameBits(to[index], sample.to) || !Self.sameBits(normals[index], sample.normal) {
                    wrong += 1
                }
            }
            #expect(wrong == 0, "steps \(steps), from \(withFrom), scaled \(scaled): \(wrong) points differ")
        }
    }

    /// The public evaluations that use the kernel: the full samples (`from`, unscaled positions)
    /// and the points-space positions and normals of a frame.
    @Test func publicEvaluationsAreTheFormulaToTheBit() throws {
        let (vertices, faces) = jitteredGrid(rows: 4, columns: 3, seed: 43)
        let topology = try SurfaceTopology(faces: faces, vertexCount: vertices.count)
        let weights = topology.vertexWeights(faces: faces)
        let plan = try SubdivisionPlan(topology: topology, steps: 2)
        let full = try plan.evaluate(vertices: vertices, weights: weights, pointScale: Self.scale).points
        let unscaled = try Self.expected(plan: plan, vertices: vertices, weights: weights, scale: Self.scale, positionScale: nil)
        #expect(unscaled.count == full.count)
        for (index, sample) in unscaled.enumerated() {
            let want = try #require(sample)
            #expect(
                Self.sameBits(full.from[index], want.from) && Self.sameBits(full.to[index], want.to)
                    && Self.sameBits(full.normals[index], want.normal), "point \(index)")
        }
        var positions: [Point3D] = [], normals: [Point3D] = []
        try plan.evaluatePoints(vertices: vertices, weights: weights, pointScale: Self.scale, positions: &positions, normals: &normals)
        let scaled = try Self.expected(plan: plan, vertices: vertices, weights: weights, scale: Self.scale, positionScale: Self.scale)
        for (index, sample) in scaled.enumerated() {
            let want = try #require(sample)
            #expect(Self.sameBits(positions[index], want.to) && Self.sameBits(normals[index], want.normal), "point \(index)")
        }
    }
}
