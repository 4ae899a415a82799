import MeshTessellate
import SurfaceKit
import Testing

// The hierarchy of a tessellation, whose leaves name runs of the tessellation's own triangles (a
// part of one row of sub-quads), against a loop over every triangle written in the test: for both
// triangle counts a sub-quad can have (two, four around the centre) and for every face resolution
// from one sub-quad to 8 × 8, with a ray aimed at the centre of every triangle, so a triangle the
// leaves left out or named twice, or a box that does not hold its leaf, changes an answer.

@Suite struct HitGridLeafTests {
    /// Rays from random points above and below the mesh to the centre of each triangle, and along
    /// −z and +z through it; the rest random (see `HitBatchTests.rays`).
    static func raysAtEveryTriangle(_ mesh: TriangleMesh, seed: UInt64) -> [Ray] {
        var rng = HitSupport.Random(seed: seed)
        var rays: [Ray] = []
        for (k, tri) in mesh.triangles.enumerated() {
            let a = mesh.positions[Int(tri.x)], b = mesh.positions[Int(tri.y)], c = mesh.positions[Int(tri.z)]
            let centre = (a + b + c) / 3
            switch k % 3 {
            case 0:
                rays.append(Ray(origin: centre + SIMD3(0, 0, 500), direction: SIMD3(0, 0, -1)))
            case 1:
                rays.append(Ray(origin: centre - SIMD3(0, 0, 500), direction: SIMD3(0, 0, 2)))
            default:
                let from = centre + SIMD3(rng.uniform(-80...80), rng.uniform(-80...80), rng.uniform(-300...300))
                rays.append(Ray(origin: from, direction: centre - from))
            }
        }
        return rays
    }

    @Test(arguments: [DiagonalPolicy.shortest, .center], [0, 1, 2, 3])
    func everyTriangleIsReachedAsTheBruteForceFindsIt(diagonal: DiagonalPolicy, steps: Int) throws {
        var (grid, _) = try HitSupport.grid(rows: 3, columns: 4, seed: 7, depth: 0.4)
        grid.subdivisionSteps = .fixed(steps)
        let document = MeshDocument(mesh: grid, layer: LayerProperties(size: SIMD2(300, 200)))
        let tester = try HitTester(document: document, options: TessellationOptions(steps: .fixed(steps), diagonal: diagonal))
        let mesh = tester.mesh
        let bounds = try #require(mesh.bounds)
        var rays = Self.raysAtEveryTriangle(mesh, seed: UInt64(steps + 1))
        rays += HitBatchTests.rays(count: 400, through: mesh.positions, around: bounds, seed: UInt64(40 + steps))
        let batch = tester.firstHits(rays)
        var hits = 0
        var mismatches = 0
        for (k, ray) in rays.enumerated() {
            let expected = HitBatchTests.bruteFirstHit(mesh, ray)
            if batch[k] != expected || tester.firstHit(ray) != expected { mismatches += 1 }
            if expected != nil { hits += 1 }
        }
        #expect(mismatches == 0, "\(mismatches) of \(rays.count) rays answered otherwise than the brute force")
        // The rays at the triangles hit something nearly every time (the mesh has no holes).
        #expect(hits >= mesh.triangleCount)
    }
}
