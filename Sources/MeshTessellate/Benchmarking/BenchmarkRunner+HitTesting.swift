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
                tester = try HitTester(mesh: mesh, geometry: geometry, grid: grid, surface: nil)
            }
            figures.append(
                BenchmarkFigure.measured(
                    workload: .w2, variant: "build", threads: threads, size: mesh.triangleCount, seconds: build, unit: "triangles"))
        }
        guard wants("rays") else { return figures }
        let built = try tester ?? HitTester(mesh: mesh, geometry: geometry, grid: grid, surface: nil)
        progress("w2 rays")
        let rays = BenchmarkInputs.downwardRays(count: 1_000_000)
        var hits = 0
        let seconds = median(runs: 3) {
            hits = built.intersect(rays).reduce(0) { $0 + ($1 == nil ? 0 : 1) }
        }
        // Every ray lies over the unit square, which the ripple covers: a miss would be a bug.
        figures.append(
            BenchmarkFigure.measured(
                workload: .w2, variant: "rays", threads: threads, size: rays.count, seconds: seconds,
                unit: hits == rays.count ? "rays" : "rays (\(rays.count - hits) missed)"))
        return figures
    }
}
