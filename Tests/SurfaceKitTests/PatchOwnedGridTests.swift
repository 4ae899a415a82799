import TestSupport
import Testing

@testable import SurfaceKit

// Two shortcuts of the patch kernels that must not change a written bit: a patch leaves out the
// edge rows and columns of its grid holding no point it writes (``PatchKernel/ownedGrid(owns:n:)``),
// and a patch whose 16 points are each one control vertex of weight 1 copies them instead of
// weighing them (``RegularPatchTable/isPlain``). The first is checked against the output slots
// the plan keeps (built from the sub-quads' corners), the second against the weighed sums of the
// full evaluation's gather; the positions and normals they give against the full evaluation's
// bits are PointsOnlyBitsTests'.

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
        var copied = [SIMD4<Double>](repeating: .zero, count: 16)
        var weighed = [SIMD4<Double>](repeating: .zero, count: 16)
        var weighedFrom = [SIMD2<Double>](repeating: .zero, count: 16)
        data.withUnsafeBufferPointer { src in
            table.withTerms { indices, weights in
                for k in table.faces.indices {
                    copied.withUnsafeMutableBufferPointer { out in
                        table.gatherPositions(k, data: src, indices: indices, weights: weights, into: out.baseAddress!)
                    }
                    weighed.withUnsafeMutableBufferPointer { to in
                        weighedFrom.withUnsafeMutableBufferPointer { from in
                            let points = RegularPatchTable.Points(to: to.baseAddress!, from: from.baseAddress!)
                            table.gather(k, data: src, indices: indices, weights: weights, into: points)
                        }
                    }
                    let same = (0..<16).allSatisfy { p in (0..<4).allSatisfy { copied[p][$0].bitPattern == weighed[p][$0].bitPattern } }
                    #expect(same, "patch \(k)")
                }
            }
        }
    }
}
