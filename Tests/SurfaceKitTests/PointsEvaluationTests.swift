import TestSupport
import Testing

@testable import SurfaceKit

// Points-space positions and normals alone (SubdivisionPlan+Points), what a frame of an animation
// draws: the expected values come from the rational bicubic B-spline written out in
// Support/BSpline.swift over the grid extended by mirrored phantom points (weights from 0.5 to 2,
// so the surface is truly rational), and, on a mesh the patches do not cover, from the stencil
// path.

@Suite struct PointsEvaluationTests {
    @Test(arguments: [1, 2, 3, 4])
    func pointsAndNormalsAreTheRationalBicubicPatchesInPointsSpace(steps: Int) throws {
        let rows = 3, columns = 4
        let (vertices, faces) = jitteredGrid(rows: rows, columns: columns, seed: 23)
        let topology = try SurfaceTopology(faces: faces, vertexCount: vertices.count)
        let weights = topology.vertexWeights(faces: faces)
        let plan = try SubdivisionPlan(topology: topology, steps: steps)
        let scale = SIMD3(320.0, 240.0, 100.0)
        var positions: [Point3D] = [], normals: [Point3D] = []
        try plan.evaluatePoints(vertices: vertices, weights: weights, pointScale: scale, positions: &positions, normals: &normals)
        #expect(positions.count == plan.pointCount && normals.count == plan.pointCount)
        let n = plan.resolution
        var worst = 0.0, checked = Set<Int>()
        for r in 0..<rows {
            for c in 0..<columns {
                let patch = mirroredGridPatch(vertices: vertices, weights: weights, rows: rows, columns: columns, row: r, column: c)
                for j in 0..<n {
                    for i in 0..<n {
                        let q = plan.quad((r * columns + c) * n * n + j * n + i)
                        for (k, (a, b)) in [(i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1)].enumerated() {
                            let want = patch.evaluate(u: Double(a) / Double(n), v: Double(b) / Double(n), pointScale: scale)
                            let index = Int(q[k])
                            // Positions in points space, compared relative to the layer's size.
                            worst = Swift.max(
                                worst, Vec.maxDiff(positions[index] / scale, want.to), Vec.maxDiff(normals[index], want.normal))
                            checked.insert(index)
                        }
                    }
                }
            }
        }
        #expect(checked.count == plan.pointCount)
        #expect(worst < 1e-12, "largest difference \(worst)")
    }

    /// The same points as the full evaluation's `to` scaled to points space afterwards, and the
    /// same normals, bit for bit (the documented promise a renderer mixing the two relies on).
    @Test func pointsAreTheFullEvaluationsScaledToPointsSpaceBitForBit() throws {
        let (vertices, faces) = jitteredGrid(rows: 4, columns: 3, seed: 29)
        let topology = try SurfaceTopology(faces: faces, vertexCount: vertices.count)
        let weights = topology.vertexWeights(faces: faces)
        let plan = try SubdivisionPlan(topology: topology, steps: 3)
        let scale = SIMD3(333.0, 217.0, 51.0)
        var positions: [Point3D] = [], normals: [Point3D] = []
        try plan.evaluatePoints(vertices: vertices, weights: weights, pointScale: scale, positions: &positions, normals: &normals)
        let full = try plan.evaluate(vertices: vertices, weights: weights, pointScale: scale).points
        #expect(positions == full.to.map { $0 * scale })
        #expect(normals == full.normals)
    }

    /// Frames into the same arrays: whatever they held (NaN here) is overwritten with each frame's
    /// surface (the stencil path's, refined from scratch), however the vertices moved.
    @Test func framesIntoTheSameArraysAreEachFramesSurface() throws {
        let (vertices, faces) = jitteredGrid(rows: 3, columns: 5, seed: 37)
        let topology = try SurfaceTopology(faces: faces, vertexCount: vertices.count)
        let weights = topology.vertexWeights(faces: faces)
        let plan = try SubdivisionPlan(topology: topology, steps: 2)
        let scale = SIMD3(200.0, 120.0, 60.0)
        let nan = Point3D(.nan, .nan, .nan)
        var positions = Array(repeating: nan, count: plan.pointCount), normals = positions
        var rng = SplitMix64(seed: 43)
        for frame in 0..<3 {
            let moved = vertices.map { v in
                MeshVertex(from: v.from, to: v.to + SIMD3(0.05 * Double(frame), 0, rng.uniform(-0.3...0.3)))
            }
            try plan.evaluatePoints(vertices: moved, weights: weights, pointScale: scale, positions: &positions, normals: &normals)
            let reference = try plan.evaluate(
                vertices: moved, weights: weights, pointScale: scale, includeCenters: false, tensorPatches: false
            ).points
            var worst = 0.0
            for i in 0..<plan.pointCount {
                worst = Swift.max(
                    worst, Vec.maxDiff(positions[i] / scale, reference.to[i]), Vec.maxDiff(normals[i], reference.normals[i]))
            }
            #expect(worst < 1e-12, "frame \(frame): largest difference \(worst)")
        }
        #expect(throws: MeshError.self) {
            try plan.evaluatePoints(
                vertices: Array(vertices.dropLast()), weights: weights, pointScale: scale, positions: &positions, normals: &normals)
        }
    }

    /// A plan that needs stencil tables (an extraordinary vertex), and arrays of another size,
    /// still get the plan's surface.
    @Test func aPlanWithStencilsOrArraysOfAnotherSizeGetThePlansSurface() throws {
        let (vertices, faces) = fan(sectors: 5, size: 2, seed: 3)
        let topology = try SurfaceTopology(faces: faces, vertexCount: vertices.count)
        let weights = topology.vertexWeights(faces: faces)
        let plan = try SubdivisionPlan(topology: topology, steps: 2)
        let scale = SIMD3(100.0, 100.0, 50.0)
        var positions: [Point3D] = [.zero], normals: [Point3D] = []
        try plan.evaluatePoints(vertices: vertices, weights: weights, pointScale: scale, positions: &positions, normals: &normals)
        let reference = try plan.evaluate(
            vertices: vertices, weights: weights, pointScale: scale, includeCenters: false, tensorPatches: false
        ).points
        #expect(positions.count == plan.pointCount && normals.count == plan.pointCount)
        var worst = 0.0
        for i in 0..<plan.pointCount {
            worst = Swift.max(worst, Vec.maxDiff(positions[i] / scale, reference.to[i]), Vec.maxDiff(normals[i], reference.normals[i]))
        }
        #expect(worst < 1e-12, "largest difference \(worst)")
    }
}
