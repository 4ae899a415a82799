import TestSupport
import Testing

@testable import SurfaceKit

// The points-only paths (positions alone; points-space positions and normals) have kernels of
// their own, apart from the full evaluation's. Their promise is the full evaluation's bits: each
// position is the full sample's `to` (times the point scale), each normal the full sample's
// normal. Checked at every step count, with weights far from 1 (a truly rational surface), and on
// a surface collapsed in places so that its normals degenerate to +z.

@Suite struct PointsOnlyBitsTests {
    /// A jittered grid with vertex weights from 0.25 to 4.
    static func weightedGrid(seed: UInt64) -> (Grid, [Double]) {
        let (vertices, faces) = jitteredGrid(rows: 5, columns: 4, seed: seed)
        var rng = SplitMix64(seed: seed &+ 1)
        let weights = vertices.map { _ in Double.pow(2, rng.uniform(-2...2)) }
        return (Grid(vertices: vertices, faces: faces), weights)
    }

    struct Grid {
        var vertices: [MeshVertex]
        var faces: [MeshFace]
    }

    static func expectFullEvaluationsBits(_ inputs: Grid, weights: [Double], steps: Int, _ comment: Comment) throws {
        let topology = try SurfaceTopology(faces: inputs.faces, vertexCount: inputs.vertices.count)
        let plan = try SubdivisionPlan(topology: topology, steps: steps)
        let scale = SIMD3(640.0, 480.0, 300.0)
        let full = try plan.evaluate(vertices: inputs.vertices, weights: weights, pointScale: scale).points
        // Into fresh arrays and into arrays of the right size holding NaN.
        var positions: [Point3D] = [], normals: [Point3D] = []
        try plan.evaluatePoints(vertices: inputs.vertices, weights: weights, pointScale: scale, positions: &positions, normals: &normals)
        #expect(positions == full.to.map { $0 * scale }, comment)
        #expect(normals == full.normals, comment)
        var unit = Array(repeating: Point3D(.nan, .nan, .nan), count: plan.pointCount)
        try plan.evaluatePositions(vertices: inputs.vertices, weights: weights, into: &unit)
        #expect(unit == full.to, comment)
        #expect(try plan.positions(vertices: inputs.vertices, weights: weights) == full.to, comment)
    }

    @Test(arguments: [1, 2, 3, 4])
    func pointsAndPositionsAreTheFullEvaluationsBits(steps: Int) throws {
        let (inputs, weights) = Self.weightedGrid(seed: 41)
        try Self.expectFullEvaluationsBits(inputs, weights: weights, steps: steps, "steps \(steps)")
    }

    @Test func degenerateNormalsBecomePlusZAsInTheFullEvaluation() throws {
        // Every control point of the left half at one spot: the patches there collapse to a
        // point (zero tangents, so a zero normal), next to ordinary ones.
        var (inputs, weights) = Self.weightedGrid(seed: 43)
        for i in inputs.vertices.indices where inputs.vertices[i].from.x < 0.5 {
            inputs.vertices[i].to = SIMD3(0.25, 0.5, 0)
        }
        weights = weights.map { _ in 1 }
        let topology = try SurfaceTopology(faces: inputs.faces, vertexCount: inputs.vertices.count)
        let plan = try SubdivisionPlan(topology: topology, steps: 3)
        let full = try plan.evaluate(vertices: inputs.vertices, weights: weights, pointScale: SIMD3(1, 1, 1)).points
        #expect(full.normals.filter { $0 == Point3D(0, 0, 1) }.count > 10)
        try Self.expectFullEvaluationsBits(inputs, weights: weights, steps: 3, "collapsed half")
    }
}
