import TestSupport
import Testing

@testable import SurfaceKit

// Two shortcuts of the patch kernels that must not change a written bit: a patch leaves out the
// edge rows and columns of its grid holding no point it writes (``PatchKernel/ownedGrid(owns:n:)``),
// and a patch whose 16 points are each one control vertex of weight 1 copies them instead of
// weighing them (``RegularPatchTable/isPlain``). The first is checked against the output slots
// the plan keeps (built from the sub-quads' corners), the second against the weighed sums written
// out here; the points-only paths against the full evaluation's bits are PointsOnlyBitsTests'.

@Suite struct PatchOwnedGridTests {
    @Test(arguments: [1, 2, 3])
    func theOwnedGridHoldsExactlyTheRowsAndColumnsWithWrittenPoints(steps: Int) throws {
        for (rows, columns) in [(1, 1), (1, 4), (3, 5), (6, 4)] {
            let (vertices, faces) = jitteredGrid(rows: rows, columns: columns, seed: UInt64(7 * rows + columns))
            let topology = try SurfaceTopology(faces: faces, vertexCount: vertices.count)
            let plan = try SubdivisionPlan(topology: topology, steps: steps)
            let table = try #require(plan.storage.patches)
            let slots = plan.storage.regularPatchSlots
            let n = plan.resolution, side = n + 1
            for k in table.faces.indices {
                let grid = PatchKernel.ownedGrid(owns: table.owns[k], n: n)
                // The rows and columns where a slot of the patch is not −1, found by looking.
                let written = (0..<(side * side)).filter { slots[k * side * side + $0] >= 0 }
                let wantRows = Set(written.map { $0 / side }), wantColumns = Set(written.map { $0 % side })
                #expect(Set(grid.rows) == wantRows, "\(rows)×\(columns) patch \(k)")
                #expect(Set(grid.columns) == wantColumns, "\(rows)×\(columns) patch \(k)")
            }
        }
    }

    @Test func plainPatchesAreThoseAwayFromTheBoundaryAndGatherTheWeighedSumsBits() throws {
        let rows = 5, columns = 6
        let (vertices, faces) = jitteredGrid(rows: rows, columns: columns, seed: 61)
        let topology = try SurfaceTopology(faces: faces, vertexCount: vertices.count)
        let table = RegularPatchTable(level: topology.level)
        #expect(table.coversEverything)
        // A face's 4 × 4 neighbourhood lies inside the grid exactly when the face does not touch
        // the boundary; otherwise some of its points are mirrored (two weighted terms).
        for (k, face) in table.faces.enumerated() {
            let r = Int(face) / columns, c = Int(face) % columns
            let interior = r > 0 && r < rows - 1 && c > 0 && c < columns - 1
            #expect(table.isPlain[k] == interior, "face \(face)")
        }
        // Control values with signed zeros and weights far from 1, so that copying and weighing
        // could only agree bit for bit if multiplying by 1 changes nothing.
        var rng = SplitMix64(seed: 62)
        let data: [Homogeneous] = vertices.indices.map { i in
            let w = Double.pow(2, rng.uniform(-3...3))
            let z = i % 3 == 0 ? -0.0 : rng.uniform(-1...1)
            return SIMD8(w * rng.uniform(0...1), w * rng.uniform(0...1), -0.0, w * rng.uniform(-1...1), w * z, w, 0, 0)
        }
        // The weighed sum of each point, written out: the first term, then every other term
        // whose weight is not 0, in order.
        func weighed(_ k: Int, _ point: Int) -> SIMD8<Double> {
            let first = RegularPatchTable.termsPerPoint * (16 * k + point)
            var sum = table.weights[first] * data[Int(table.indices[first])]
            for t in (first + 1)..<(first + RegularPatchTable.termsPerPoint) where table.weights[t] != 0 {
                sum += table.weights[t] * data[Int(table.indices[t])]
            }
            return sum
        }
        func sameBits(_ a: some SIMD<Double>, _ b: some SIMD<Double>) -> Bool {
            a.indices.allSatisfy { a[$0].bitPattern == b[$0].bitPattern }
        }
        var positions = [SIMD4<Double>](repeating: .zero, count: 16)
        var to = [SIMD4<Double>](repeating: .zero, count: 16)
        var from = [SIMD2<Double>](repeating: .zero, count: 16)
        data.withUnsafeBufferPointer { src in
            table.withTerms { indices, weights in
                for k in table.faces.indices {
                    positions.withUnsafeMutableBufferPointer { out in
                        table.gatherPositions(k, data: src, indices: indices, weights: weights, into: out.baseAddress!)
                    }
                    to.withUnsafeMutableBufferPointer { t in
                        from.withUnsafeMutableBufferPointer { f in
                            let points = RegularPatchTable.Points(to: t.baseAddress!, from: f.baseAddress!)
                            table.gather(k, data: src, indices: indices, weights: weights, into: points)
                        }
                    }
                    for point in 0..<16 {
                        let want = weighed(k, point)
                        let wantTo = SIMD4(want[2], want[3], want[4], want[5]), wantFrom = SIMD2(want[0], want[1])
                        #expect(sameBits(positions[point], wantTo), "patch \(k) point \(point)")
                        #expect(sameBits(to[point], wantTo) && sameBits(from[point], wantFrom), "patch \(k) point \(point)")
                    }
                }
            }
        }
    }
}
