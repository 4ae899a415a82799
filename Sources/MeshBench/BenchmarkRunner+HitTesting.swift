import MeshTessellate
import SurfaceKit

extension BenchmarkRunner {
    /// W2: BVH build over the steps-3 ripple, and 1,000,000 rays along −z.
    func hitTesting(threads: Int, progress: (String) -> Void) throws -> [BenchmarkFigure] {
        let (tessellator, mesh, document) = try BenchmarkInputs.rippleTessellation(steps: 3)
        let plan = tessellator.plan
        let grid = TessellationGrid(
            controlFaces: plan.controlFaceCount, resolution: plan.resolution,
            trianglesPerQuad: tessellator.diagonal.trianglesPerQuad)
        let geometry = LayerGeometry(size: document.layer.size, depthScale: 1, anchor: document.layer.anchor, transform: .identity)
        var figures: [BenchmarkFigure] = []
        var tester: HitTester?
        if wants("build") {
            progress("w2 build")
            let build = try median(runs: 3) {
                tester = try HitTester(mesh: mesh, geometry: geometry, grid: grid)
            }
            figures.append(
                BenchmarkFigure.measured(
                    workload: .w2, variant: "build", threads: threads, size: mesh.triangleCount, timing: build, unit: "triangles"))
        }
        guard wants("rays") || wants("rays-compact") else { return figures }
        let built = try tester ?? HitTester(mesh: mesh, geometry: geometry, grid: grid)
        let rays = BenchmarkInputs.downwardRays(count: 1_000_000)
        // Every ray lies over the unit square, which the ripple covers: a miss would be a bug. The
        // answers are counted after the timed runs, on the last run's: the figure is the batch
        // call, not a check that reads its answers again on one thread. Each run lets go of the
        // previous run's answers before it asks for its own, as a caller that uses and drops
        // each batch's answers does; that release is inside the timed closure.
        func hitCount<Answer>(_ answers: [Answer?]) -> Int { answers.reduce(0) { $0 + ($1 == nil ? 0 : 1) } }
        func figure(_ variant: String, hits: Int, timing: BenchmarkTiming) -> BenchmarkFigure {
            BenchmarkFigure.measured(
                workload: .w2, variant: variant, threads: threads, size: rays.count, timing: timing,
                unit: hits == rays.count ? "rays" : "rays (\(rays.count - hits) missed)")
        }
        if wants("rays") {
            // The full record of every hit (position, layer point, normals, face): 224 bytes a ray.
            progress("w2 rays")
            var answers: [RayHit?] = []
            let seconds = median(runs: 3) {
                answers = []
                answers = built.intersect(rays)
            }
            figures.append(figure("rays", hits: hitCount(answers), timing: seconds))
        }
        if wants("rays-compact") {
            // Only the nearest triangle, t and barycentric (u, v): 32 bytes a ray. This is what
            // Embree's and Open3D's figures (Docs/performance.md) store per ray, so it is the one
            // to compare with theirs.
            progress("w2 rays-compact")
            var answers: [TriangleHit?] = []
            let seconds = median(runs: 3) {
                answers = []
                answers = built.firstHits(rays)
            }
            figures.append(figure("rays-compact", hits: hitCount(answers), timing: seconds))
        }
        return figures
    }
}
