import SurfaceKit

extension BenchmarkRunner {
    /// W3: the depth order of the tilted steps-3 ripple (`depth`: projection, keys and sort;
    /// `depth-mesh`: the whole `.depth` sort with clipping and the reordered mesh), and, when asked
    /// for by name, the exact sort of the tilted steps-1 (`bsp`) and steps-3 (`bsp3`) ripples.
    func sorting(threads: Int, progress: (String) -> Void) throws -> [BenchmarkFigure] {
        var figures: [BenchmarkFigure] = []
        let (_, mesh, document) = try BenchmarkInputs.rippleTessellation(steps: 3)
        if wants("depth") {
            // The draw order alone (`PainterSorter.depthOrder`): projection of the vertices, centroid
            // keys and the stable sort, what a renderer needs and what numpy's argsort compares to.
            progress("w3 depth")
            var order: [Int32]? = nil
            let depth = try median {
                order = try PainterSorter.depthOrder(mesh: mesh, geometry: document.geometry)
            }
            guard order?.count == mesh.triangleCount else {
                throw MeshError(.unsupported, path: "", "the W3 scene must need no clipping")
            }
            figures.append(
                BenchmarkFigure.measured(
                    workload: .w3, variant: "depth", threads: threads, size: mesh.triangleCount, seconds: depth, unit: "triangles"))
        }
        if wants("depth-mesh") {
            // The whole `sorted(mode: .depth)`: clipping and projection into the sort pool, keys,
            // the sort and the reordered output mesh.
            progress("w3 depth-mesh")
            let depth = try median {
                _ = try PainterSorter.sorted(mesh: mesh, geometry: document.geometry, mode: .depth, space: .points)
            }
            figures.append(
                BenchmarkFigure.measured(
                    workload: .w3, variant: "depth-mesh", threads: threads, size: mesh.triangleCount, seconds: depth,
                    unit: "triangles"))
        }
        // The exact sort runs only when asked for by name. It once ran away on this scene (a
        // sliver's tree that made no progress, 17 GB seen); its tree is now bounded by its pieces
        // and the budget below bounds those (see Docs/performance.md).
        if variants.contains("bsp3") {
            // The exact sort of the steps-3 tessellation itself (clipping, pool and output mesh
            // included, as in `depth-mesh`), with the same budget rule.
            progress("w3 bsp3")
            let budget = 10 * mesh.triangleCount
            var added = 0
            let seconds = try median(runs: 3) {
                added = try PainterSorter.sorted(
                    mesh: mesh, geometry: document.geometry, mode: .bsp, space: .points, maximumTriangles: budget
                ).statistics.addedPieces
            }
            figures.append(
                BenchmarkFigure.measured(
                    workload: .w3, variant: "bsp3", threads: threads, size: mesh.triangleCount, seconds: seconds, unit: "triangles",
                    added: added))
        }
        guard variants.contains("bsp") else { return figures }
        let (_, coarse, _) = try BenchmarkInputs.rippleTessellation(steps: 1)
        progress("w3 bsp")
        // A budget of 10× the input: a benchmark must not take the machine's memory with it,
        // however much a future splitter choice splits.
        let budget = 10 * coarse.triangleCount
        var added = 0
        do {
            let bsp = try median(runs: 3) {
                added = try PainterSorter.sorted(
                    mesh: coarse, geometry: document.geometry, mode: .bsp, space: .points, maximumTriangles: budget
                ).statistics.addedPieces
            }
            figures.append(
                BenchmarkFigure.measured(
                    workload: .w3, variant: "bsp", threads: threads, size: coarse.triangleCount, seconds: bsp, unit: "triangles",
                    added: added))
        } catch let error as MeshError where error.kind == .limitExceeded {
            figures.append(
                BenchmarkFigure(
                    workload: .w3, variant: "bsp", threads: threads, size: coarse.triangleCount, seconds: 0,
                    unit: "triangles (failed: more than \(budget) pieces)"))
        }
        return figures
    }
}
