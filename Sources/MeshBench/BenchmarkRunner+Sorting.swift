import MeshTessellate
import SurfaceKit

extension BenchmarkRunner {
    /// W3: the depth order of the tilted steps-3 ripple (`depth`: projection, keys and sort;
    /// `depth-mesh`: the whole `.depth` sort with clipping and the reordered mesh), and, when asked
    /// for by name, the exact sort of the tilted steps-1 (`bsp`) and steps-3 (`bsp3`) ripples, and
    /// the latter as a frame of an animation (`bsp3-frames`: the mesh's edge pairing made beforehand);
    /// `bsp3-order` and `bsp3-frames-order` are those sorts' draw order alone
    /// (`PainterSorter.exactOrder`: projection and the exact order, no output mesh), the figure
    /// that compares with `depth` as `bsp3` compares with `depth-mesh`.
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
                    workload: .w3, variant: "depth", threads: threads, size: mesh.triangleCount, timing: depth, unit: "triangles"))
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
                    workload: .w3, variant: "depth-mesh", threads: threads, size: mesh.triangleCount, timing: depth,
                    unit: "triangles"))
        }
        // The exact sort runs only when asked for by name. It once ran away on this scene (a
        // sliver's tree that made no progress, 17 GB seen); its tree is now bounded by its pieces
        // and the budget of `exactSortFigure` bounds those (see Docs/performance.md).
        if variants.contains("bsp3") {
            // The exact sort of the steps-3 tessellation itself.
            figures.append(
                try exactSortFigure(variant: "bsp3", mesh: mesh, geometry: document.geometry, threads: threads, progress: progress))
        }
        if variants.contains("bsp3-frames") {
            // The same sort as one frame of an animation of this mesh: its edge pairing
            // (`SortTopology`) made once beforehand, as W1 refines the topology once.
            let topology = SortTopology(mesh: mesh)
            figures.append(
                try exactSortFigure(
                    variant: "bsp3-frames", mesh: mesh, geometry: document.geometry, threads: threads, topology: topology,
                    progress: progress))
        }
        for variant in ["bsp3-order", "bsp3-frames-order"] where variants.contains(variant) {
            progress("w3 \(variant)")
            let topology = variant == "bsp3-frames-order" ? SortTopology(mesh: mesh) : nil
            var order: [Int32]? = nil
            let seconds = try median(runs: 3) {
                order = try PainterSorter.exactOrder(mesh: mesh, geometry: document.geometry, topology: topology)
            }
            // The W3 scene needs no clipping and no split (`bsp3` adds no pieces).
            guard order?.count == mesh.triangleCount else {
                throw MeshError(.unsupported, path: "", "the W3 scene must have an exact order without splitting")
            }
            figures.append(
                BenchmarkFigure.measured(
                    workload: .w3, variant: variant, threads: threads, size: mesh.triangleCount, timing: seconds, unit: "triangles"))
        }
        if variants.contains("bsp") {
            let (_, coarse, _) = try BenchmarkInputs.rippleTessellation(steps: 1)
            figures.append(
                try exactSortFigure(variant: "bsp", mesh: coarse, geometry: document.geometry, threads: threads, progress: progress))
        }
        return figures
    }

    /// The whole exact sort of `mesh` (clipping, pool and output mesh included, as in
    /// `depth-mesh`), with a budget of 10× the input: a benchmark must not take the machine's
    /// memory with it, however much a future splitter choice splits. Past the budget the figure
    /// says so instead of ending the workload.
    func exactSortFigure(
        variant: String, mesh: TriangleMesh, geometry: LayerGeometry, threads: Int, topology: SortTopology? = nil,
        progress: (String) -> Void
    ) throws -> BenchmarkFigure {
        progress("w3 \(variant)")
        let budget = 10 * mesh.triangleCount
        var added = 0
        do {
            let seconds = try median(runs: 3) {
                added = try PainterSorter.sorted(
                    mesh: mesh, geometry: geometry, mode: .exact, space: .points, maximumTriangles: budget, topology: topology
                )
                .statistics.addedPieces
            }
            return BenchmarkFigure.measured(
                workload: .w3, variant: variant, threads: threads, size: mesh.triangleCount, timing: seconds, unit: "triangles",
                added: added)
        } catch let error as MeshError where error.kind == .limitExceeded {
            return BenchmarkFigure(
                workload: .w3, variant: variant, threads: threads, size: mesh.triangleCount, seconds: 0,
                unit: "triangles (failed: more than \(budget) pieces)")
        }
    }
}
