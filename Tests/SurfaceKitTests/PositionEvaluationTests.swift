import TestSupport
import Testing

@testable import SurfaceKit

// Limit positions alone (SubdivisionPlan+Positions): the expected points come from the rational
// bicubic B-spline written out in Support/BSpline.swift over the grid extended by mirrored
// phantom points, and, on meshes the patches do not cover, from the full evaluation's `to`.

@Suite struct PositionEvaluationTests {
    @Test(arguments: [1, 2, 3, 4])
    func gridPositionsAreTheRationalBicubicPatches(steps: Int) throws {
        let rows = 4, columns = 3
        let (vertices, faces) = jitteredGrid(rows: rows, columns: columns, seed: 5)
        let topology = try SurfaceTopology(faces: faces, vertexCount: vertices.count)
        let weights = topology.vertexWeights(faces: faces)
        let plan = try SubdivisionPlan(topology: topology, steps: steps)
        let positions = try plan.positions(vertices: vertices, weights: weights)
        #expect(positions.count == plan.pointCount)
        let n = plan.resolution
        var worst = 0.0, checked = Set<Int>()
        for r in 0..<rows {
            for c in 0..<columns {
                let patch = mirroredGridPatch(vertices: vertices, weights: weights, rows: rows, columns: columns, row: r, column: c)
                let face = r * columns + c
                for j in 0..<n {
                    for i in 0..<n {
                        // The four corners of sub-quad (i, j) are the grid points (i, j), (i + 1, j),
                        // (i + 1, j + 1) and (i, j + 1) of the face: every point of the face's grid.
                        let q = plan.quad(face * n * n + j * n + i)
                        let corners = [(i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1)]
                        for (k, (a, b)) in corners.enumerated() {
                            let want = patch.evaluate(u: Double(a) / Double(n), v: Double(b) / Double(n), pointScale: SIMD3(1, 1, 1))
                            worst = Swift.max(worst, Vec.maxDiff(positions[Int(q[k])], want.to))
                            checked.insert(Int(q[k]))
                        }
                    }
                }
            }
        }
        #expect(checked.count == plan.pointCount)
        #expect(worst < 1e-12, "largest difference \(worst)")
    }

    /// Frames into the same array: whatever it held (NaN here) is overwritten with each frame's
    /// surface, however the vertices moved.
    @Test func framesIntoTheSameArrayAreEachFramesSurface() throws {
        let rows = 3, columns = 5
        let (vertices, faces) = jitteredGrid(rows: rows, columns: columns, seed: 8)
        let topology = try SurfaceTopology(faces: faces, vertexCount: vertices.count)
        let weights = topology.vertexWeights(faces: faces)
        let plan = try SubdivisionPlan(topology: topology, steps: 2)
        var positions = Array(repeating: Point3D(.nan, .nan, .nan), count: plan.pointCount)
        var rng = SplitMix64(seed: 17)
        for frame in 0..<3 {
            let moved = vertices.map { v in
                MeshVertex(from: v.from, to: v.to + SIMD3(0.1 * Double(frame), 0, rng.uniform(-0.3...0.3)))
            }
            try plan.evaluatePositions(vertices: moved, weights: weights, into: &positions)
            // The patch of the middle face at its centre, (u, v) = (½, ½): grid point (2, 2) of a
            // steps-2 face, corner 2 of its sub-quad (1, 1).
            let face = 1 * columns + 2
            let patch = mirroredGridPatch(vertices: moved, weights: weights, rows: rows, columns: columns, row: 1, column: 2)
            let want = patch.evaluate(u: 0.5, v: 0.5, pointScale: SIMD3(1, 1, 1)).to
            let q = plan.quad(face * 16 + 1 * 4 + 1)
            #expect(Vec.maxDiff(positions[Int(q[2])], want) < 1e-12, "frame \(frame)")
            #expect(positions.allSatisfy { !$0.x.isNaN && !$0.y.isNaN && !$0.z.isNaN }, "frame \(frame)")
        }
    }

    /// A mesh with an extraordinary vertex needs stencil tables, and steps 0 is the control mesh:
    /// the positions are the full evaluation's points either way.
    @Test(arguments: [0, 1, 2])
    func meshesBeyondThePatchesGiveTheFullEvaluationsPoints(steps: Int) throws {
        let (vertices, faces) = fan(sectors: 5, size: 2, seed: 9)
        let topology = try SurfaceTopology(faces: faces, vertexCount: vertices.count)
        let weights = topology.vertexWeights(faces: faces)
        let plan = try SubdivisionPlan(topology: topology, steps: steps)
        let full = try plan.evaluate(vertices: vertices, weights: weights, pointScale: SIMD3(1, 1, 1)).points.to
        var positions = [Point3D(1, 2, 3)]
        try plan.evaluatePositions(vertices: vertices, weights: weights, into: &positions)
        #expect(positions == full)
        // Every refinement and limit rule is a convex combination (positive masks, positive
        // weights), so every limit point lies in the control points' hull: between the lowest
        // and the highest z.
        let zs = vertices.map(\.to.z)
        #expect(positions.allSatisfy { $0.z >= (zs.min() ?? 0) - 1e-12 && $0.z <= (zs.max() ?? 0) + 1e-12 })
    }

    @Test func wrongCountsAreRefused() throws {
        let (vertices, faces) = jitteredGrid(rows: 2, columns: 2, seed: 1)
        let topology = try SurfaceTopology(faces: faces, vertexCount: vertices.count)
        let weights = topology.vertexWeights(faces: faces)
        let plan = try SubdivisionPlan(topology: topology, steps: 1)
        #expect(throws: MeshError.self) { try plan.positions(vertices: Array(vertices.dropLast()), weights: weights) }
        #expect(throws: MeshError.self) { try plan.positions(vertices: vertices, weights: Array(weights.dropFirst())) }
    }
}
