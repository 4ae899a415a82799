import Foundation
import TestSupport
import Testing

@testable import SurfaceKit

// Tests of the tensor-product fast path (RegularPatchTable, SubdivisionPlan+TensorEvaluation):
// faces whose corners are all regular are evaluated as rational bicubic B-spline patches straight
// from their control points. The expected values come from the B-spline basis written out in
// Support/BSpline.swift, with the boundary's phantom points formed here as 2·P₀ − P₁, and from the
// stencil path (refinement tables and limit masks), which must agree up to rounding.

/// Largest difference relative to the size of the values compared (1 for unit-sized data).
private func relativeDifference(_ a: SurfaceSamples, _ b: SurfaceSamples) -> Double {
    var worst = 0.0
    for i in 0..<a.count {
        let scale = Swift.max(1, Vec.length(a.to[i]))
        worst = Swift.max(worst, Vec.maxDiff(a.to[i], b.to[i]) / scale)
        worst = Swift.max(worst, Vec.maxDiff(a.from[i], b.from[i]))
        worst = Swift.max(worst, Vec.maxDiff(a.normals[i], b.normals[i]))
    }
    return worst
}

@Suite struct FastPathTests {
    @Test(arguments: [1, 2, 3, 4])
    func gridPointsAreTheRationalBicubicPatchesWithMirroredBoundaries(steps: Int) throws {
        let rows = 3, columns = 4
        let (vertices, faces) = jitteredGrid(rows: rows, columns: columns, seed: 11)
        let topology = try SurfaceTopology(faces: faces, vertexCount: vertices.count)
        let weights = topology.vertexWeights(faces: faces)
        let plan = try SubdivisionPlan(topology: topology, steps: steps)
        #expect(plan.usesTensorPatchesOnly)
        let scale = SIMD3(320.0, 240.0, 100.0)
        let points = try plan.evaluate(vertices: vertices, weights: weights, pointScale: scale).points

        let n = plan.resolution
        var worst = 0.0
        for r in 0..<rows {
            for c in 0..<columns {
                let patch = mirroredGridPatch(vertices: vertices, weights: weights, rows: rows, columns: columns, row: r, column: c)
                let face = r * columns + c
                for j in 0..<n {
                    for i in 0..<n {
                        // Corner 0 of sub-quad (i, j) is the grid point (i, j) of the face.
                        let q = plan.quad(face * n * n + j * n + i)
                        let want = patch.evaluate(u: Double(i) / Double(n), v: Double(j) / Double(n), pointScale: scale)
                        let k = Int(q[0])
                        worst = Swift.max(
                            worst, Vec.maxDiff(points.to[k], want.to), Vec.maxDiff(points.from[k], want.from),
                            Vec.maxDiff(points.normals[k], want.normal))
                    }
                }
            }
        }
        #expect(worst < 1e-12, "largest difference \(worst)")
    }

    @Test(arguments: [1, 2, 3])
    func fastPathEqualsStencilPathOnAGridWithCentres(steps: Int) throws {
        let (vertices, faces) = jitteredGrid(rows: 4, columns: 3, seed: 23)
        let topology = try SurfaceTopology(faces: faces, vertexCount: vertices.count)
        let weights = topology.vertexWeights(faces: faces)
        let plan = try SubdivisionPlan(topology: topology, steps: steps)
        let scale = SIMD3(100.0, 50.0, 30.0)
        let fast = try plan.evaluate(vertices: vertices, weights: weights, pointScale: scale, includeCenters: true, tensorPatches: true)
        let slow = try plan.evaluate(vertices: vertices, weights: weights, pointScale: scale, includeCenters: true, tensorPatches: false)
        #expect(fast.points.count == plan.pointCount)
        #expect(relativeDifference(fast.points, slow.points) < 1e-12)
        let fc = try #require(fast.centers), sc = try #require(slow.centers)
        #expect(fc.count == plan.quadCount)
        #expect(relativeDifference(fc, sc) < 1e-12)
    }

    @Test(arguments: [3, 5, 6])
    func regularFacesOfAMeshWithAnExtraordinaryVertexMatchTheStencilPath(valence: Int) throws {
        let (vertices, faces) = fan(sectors: valence, size: 3, seed: UInt64(40 + valence))
        let topology = try SurfaceTopology(faces: faces, vertexCount: vertices.count)
        let weights = topology.vertexWeights(faces: faces)
        let table = RegularPatchTable(level: topology.level)
        // Faces at the centre (corner 0 of each sector's first face) are not patches; every other
        // face is, boundary and corner faces included.
        let centre = faces[0].indices[0]
        let expected = faces.indices.filter { f in !(0..<4).contains { faces[f].indices[$0] == centre } }
        #expect(table.faces.map(Int.init) == expected)
        #expect(!table.coversEverything)
        for steps in 1...3 {
            let plan = try SubdivisionPlan(topology: topology, steps: steps)
            let scale = SIMD3(200.0, 200.0, 50.0)
            let stencil = try plan.evaluate(
                vertices: vertices, weights: weights, pointScale: scale, includeCenters: false, tensorPatches: false)
            // Write the patches' points over a copy of the stencil results, and mark what they wrote.
            var patched = stencil.points
            var marked = stencil.points
            for i in 0..<marked.count { marked.to[i] = SIMD3(.nan, .nan, .nan) }
            let data = zip(vertices, weights).map { Homogeneous(vertex: $0, weight: $1) }
            data.withUnsafeBufferPointer { src in
                plan.writeRegularPatchPoints(data: src, pointScale: scale, into: &patched)
                plan.writeRegularPatchPoints(data: src, pointScale: scale, into: &marked)
            }
            let written = marked.to.filter { !$0.x.isNaN }.count
            // Each regular face writes its own (2ⁿ − 1)² inner points at least.
            let inner = ((1 << steps) - 1) * ((1 << steps) - 1)
            #expect(written >= expected.count * inner)
            #expect(relativeDifference(patched, stencil.points) < 1e-12)
        }
    }

    @Test func everyGridPointIsWrittenByExactlyOnePatch() throws {
        let (vertices, faces) = jitteredGrid(rows: 3, columns: 5, seed: 5)
        let topology = try SurfaceTopology(faces: faces, vertexCount: vertices.count)
        let table = RegularPatchTable(level: topology.level)
        #expect(table.coversEverything)
        for steps in 1...3 {
            let n = 1 << steps
            // Owned points: inner (n−1)², owned edges n−1 each, owned corners 1 each.
            var owned = 0
            for bits in table.owns {
                owned += (n - 1) * (n - 1)
                for k in 0..<4 where bits & (1 << k) != 0 { owned += n - 1 }
                for k in 0..<4 where bits & (1 << (4 + k)) != 0 { owned += 1 }
            }
            // A refined grid of R × C faces has (R·n + 1)(C·n + 1) points.
            #expect(owned == (3 * n + 1) * (5 * n + 1))
        }
    }
    @Test(arguments: [1, 2, 3, 4])
    func everyPointOfAFullGridIsWrittenWithTheStencilPathsValue(steps: Int) throws {
        // Boundaries and corners on every side, so edge and corner points of every kind are shared.
        let (vertices, faces) = jitteredGrid(rows: 3, columns: 4, seed: 31)
        let topology = try SurfaceTopology(faces: faces, vertexCount: vertices.count)
        let weights = topology.vertexWeights(faces: faces)
        let plan = try SubdivisionPlan(topology: topology, steps: steps)
        let scale = SIMD3(150.0, 90.0, 40.0)
        let stencil = try plan.evaluate(
            vertices: vertices, weights: weights, pointScale: scale, includeCenters: false, tensorPatches: false)
        // NaN everywhere first: a point no patch writes stays NaN.
        let nan = Double.nan
        var patched = SurfaceSamples(
            from: Array(repeating: SIMD2(nan, nan), count: plan.pointCount),
            to: Array(repeating: SIMD3(nan, nan, nan), count: plan.pointCount),
            normals: Array(repeating: SIMD3(nan, nan, nan), count: plan.pointCount))
        let data = zip(vertices, weights).map { Homogeneous(vertex: $0, weight: $1) }
        data.withUnsafeBufferPointer { src in
            plan.writeRegularPatchPoints(data: src, pointScale: scale, into: &patched)
        }
        let unwritten = (0..<plan.pointCount).filter { i in
            patched.to[i].x.isNaN || patched.from[i].x.isNaN || patched.normals[i].x.isNaN
        }
        #expect(unwritten.isEmpty, "points no patch wrote: \(unwritten.prefix(10))")
        #expect(relativeDifference(patched, stencil.points) < 1e-12)
    }

    /// Frames of an animation: each evaluation into the previous frame's arrays gives that
    /// frame's surface (the stencil path's, refined from scratch), and nothing of the previous
    /// frame survives, however the vertices moved.
    @Test func framesEvaluatedIntoTheSameSamplesAreEachFramesSurface() throws {
        let (vertices, faces) = jitteredGrid(rows: 3, columns: 4, seed: 41)
        let topology = try SurfaceTopology(faces: faces, vertexCount: vertices.count)
        let weights = topology.vertexWeights(faces: faces)
        let plan = try SubdivisionPlan(topology: topology, steps: 3)
        let scale = SIMD3(200.0, 120.0, 60.0)
        let nan = Double.nan
        var samples = SurfaceSamples(
            from: Array(repeating: SIMD2(nan, nan), count: plan.pointCount),
            to: Array(repeating: SIMD3(nan, nan, nan), count: plan.pointCount),
            normals: Array(repeating: SIMD3(nan, nan, nan), count: plan.pointCount))
        var rng = SplitMix64(seed: 7)
        for frame in 0..<3 {
            let moved = vertices.map { v in
                MeshVertex(from: v.from, to: v.to + SIMD3(0, 0, Double(frame) * rng.uniform(-0.3...0.3)))
            }
            try plan.evaluate(vertices: moved, weights: weights, pointScale: scale, into: &samples)
            let reference = try plan.evaluate(
                vertices: moved, weights: weights, pointScale: scale, includeCenters: false, tensorPatches: false)
            #expect(samples.count == plan.pointCount)
            #expect(relativeDifference(samples, reference.points) < 1e-12, "frame \(frame)")
        }
        // Wrong counts are refused as the one-off evaluation refuses them.
        #expect(throws: MeshError.self) {
            try plan.evaluate(vertices: Array(vertices.dropLast()), weights: weights, pointScale: scale, into: &samples)
        }
    }

    /// A plan that needs stencil tables (an extraordinary vertex), or samples of another size,
    /// still get the plan's surface.
    @Test func framesOfAPlanWithStencilsOrOfAnotherSizeAreTheOneOffEvaluation() throws {
        let (vertices, faces) = fan(sectors: 5, size: 2, seed: 3)
        let topology = try SurfaceTopology(faces: faces, vertexCount: vertices.count)
        let weights = topology.vertexWeights(faces: faces)
        let plan = try SubdivisionPlan(topology: topology, steps: 2)
        let scale = SIMD3(100.0, 100.0, 50.0)
        var samples = SurfaceSamples(from: [.zero], to: [.zero], normals: [.zero])
        try plan.evaluate(vertices: vertices, weights: weights, pointScale: scale, into: &samples)
        let reference = try plan.evaluate(
            vertices: vertices, weights: weights, pointScale: scale, includeCenters: false, tensorPatches: false)
        #expect(samples.count == plan.pointCount)
        #expect(relativeDifference(samples, reference.points) < 1e-12)
    }
}
