import MeshTessellate
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
            func measure(_ variant: String, runs: Int, _ body: () throws -> Void) throws {
                guard wants(variant) else { return }
                progress("w4 \(variant)")
                let seconds = try median(runs: runs, body)
                figures.append(
                    BenchmarkFigure.measured(
                        workload: .w4, variant: variant, threads: threads, size: unknowns, timing: seconds, unit: "unknowns"))
            }
            let runs = faces > 100 ? 5 : 21
            try measure("n\(faces + 1)", runs: runs) { try solve.run() }
            if wants("n\(faces + 1)-frames") {
                // Into the previous solve's planes, as a fit redone every frame would be.
                var solution = solve.solution()
                try measure("n\(faces + 1)-frames", runs: runs) { try solve.run(into: &solution) }
            }
            if faces == 1000 { try measure("fit1001", runs: 3) { _ = try SurfaceFit().fit(mesh) } }
        }
        return figures
    }
}
