import SurfaceKit

extension BenchmarkRunner {
    /// W4: the tensor-product solve on the 101² and 1001²-vertex ripple grids (right-hand sides
    /// ready, as the peers' solvers get them) into fresh planes and, as -frames, into the
    /// previous solve's, and the whole fit of the larger one. Unknowns are
    /// counted for three coordinates, as the peers solve them; the fit solves five (from and to).
    func fitting(threads: Int, progress: (String) -> Void) throws -> [BenchmarkFigure] {
        var figures: [BenchmarkFigure] = []
        for faces in [100, 1000]
        where wants("n\(faces + 1)") || wants("n\(faces + 1)-frames") || (faces == 1000 && wants("fit1001")) {
            let mesh = try BenchmarkInputs.rippleGrid(faces: faces)
            guard let solve = TensorSolveBenchmark(mesh: mesh) else { continue }
            let unknowns = 3 * solve.unknownsPerCoordinate
            if wants("n\(faces + 1)") {
                progress("w4 n\(faces + 1)")
                let seconds = try median(runs: faces > 100 ? 5 : 21) { try solve.run() }
                figures.append(
                    BenchmarkFigure.measured(
                        workload: .w4, variant: "n\(faces + 1)", threads: threads, size: unknowns, seconds: seconds, unit: "unknowns"))
            }
            if wants("n\(faces + 1)-frames") {
                // Into the previous solve's planes, as a fit redone every frame would be.
                progress("w4 n\(faces + 1)-frames")
                var solution = solve.solution()
                let seconds = try median(runs: faces > 100 ? 5 : 21) { try solve.run(into: &solution) }
                figures.append(
                    BenchmarkFigure.measured(
                        workload: .w4, variant: "n\(faces + 1)-frames", threads: threads, size: unknowns, seconds: seconds,
                        unit: "unknowns"))
            }
            if faces == 1000, wants("fit1001") {
                progress("w4 fit1001")
                let seconds = try median(runs: 3) { _ = try SurfaceFit().fit(mesh) }
                figures.append(
                    BenchmarkFigure.measured(
                        workload: .w4, variant: "fit1001", threads: threads, size: unknowns, seconds: seconds, unit: "unknowns"))
            }
        }
        return figures
    }
}
