import MeshTessellate
import SurfaceKit

extension BenchmarkRunner {
    /// W1: evaluation of an already refined plan at steps 1…4: whole samples (limit points with
    /// `from` and normals) into fresh arrays (`stepsN`) and into last frame's arrays
    /// (`stepsN-frames`); limit positions alone, what the peers' figures count, likewise
    /// (`stepsN-points`, `stepsN-points-frames`); a frame of an animation (`frame`); and the
    /// refinement of the topology at steps 3.
    func tessellation(threads: Int, progress: (String) -> Void) throws -> [BenchmarkFigure] {
        let document = BenchmarkInputs.ripple()
        let mesh = document.mesh
        let topology = try SurfaceTopology(faces: mesh.faces, vertexCount: mesh.vertices.count)
        let weights = topology.vertexWeights(faces: mesh.faces)
        let scale = document.geometry.pointScale
        var figures: [BenchmarkFigure] = []
        // Whole samples and positions alone, each into fresh arrays and into last frame's.
        let kinds = ["", "-frames", "-points", "-points-frames"]
        for steps in 1...4 where kinds.contains(where: { wants("steps\(steps)\($0)") }) {
            let plan = try SubdivisionPlan(topology: topology, steps: steps)
            // One evaluation into fresh arrays, as a one-off tessellation makes them, and frame
            // after frame into the same arrays, as an animation re-evaluates its plan.
            var samples = SurfaceSamples()
            var positions: [Point3D] = []
            // In the order of `kinds`.
            let bodies: [() throws -> Void] = [
                { _ = try plan.evaluate(vertices: mesh.vertices, weights: weights, pointScale: scale) },
                { try plan.evaluate(vertices: mesh.vertices, weights: weights, pointScale: scale, into: &samples) },
                { _ = try plan.positions(vertices: mesh.vertices, weights: weights) },
                { try plan.evaluatePositions(vertices: mesh.vertices, weights: weights, into: &positions) },
            ]
            for (kind, body) in zip(kinds, bodies) where wants("steps\(steps)\(kind)") {
                let variant = "steps\(steps)\(kind)"
                progress("w1 \(variant)")
                let seconds = try median(body)
                figures.append(
                    BenchmarkFigure.measured(
                        workload: .w1, variant: variant, threads: threads, size: plan.pointCount, timing: seconds, unit: "points"))
            }
        }
        figures += try animationFrame(threads: threads, progress: progress)
        figures += try automaticSteps(threads: threads, progress: progress)
        guard wants("refine3") else { return figures }
        progress("w1 refine3")
        var points = 0
        let refine = try median(runs: 3) {
            points = try SubdivisionPlan(topology: topology, steps: 3).pointCount
        }
        figures.append(
            BenchmarkFigure.measured(workload: .w1, variant: "refine3", threads: threads, size: points, timing: refine, unit: "points"))
        return figures
    }

    /// A frame of an animation (`frame`): the 50 × 50 ripple on the reference layer (tilted) at
    /// steps 3 with its waves travelling outwards, a period in ``framesPerPeriod`` frames. Its
    /// tessellator (plan and triangles) and the control vertices of the frames are made
    /// beforehand, as an animation makes the plan once and its own motion gives the vertices; each
    /// frame then evaluates the next frame's points-space positions and normals into last frame's
    /// arrays and takes the depth order of the 320,000 triangles, what a renderer needs to draw
    /// the frame. The size reported is the triangles.
    func animationFrame(threads: Int, progress: (String) -> Void) throws -> [BenchmarkFigure] {
        guard wants("frame") else { return [] }
        progress("w1 frame")
        let reference = BenchmarkInputs.ripple()
        let grid = try BenchmarkInputs.rippleGrid(faces: 50)
        let document = MeshDocument(mesh: grid, layer: reference.layer)
        let tessellator = try Tessellator(mesh: document.mesh, options: TessellationOptions(steps: .fixed(3)))
        let geometry = document.geometry
        let topology = try SurfaceTopology(faces: document.mesh.faces, vertexCount: document.mesh.vertices.count)
        let weights = topology.vertexWeights(faces: document.mesh.faces)
        let frames = try (0..<Self.framesPerPeriod).map {
            try BenchmarkInputs.rippleGrid(faces: 50, phase: 2 * Double.pi * Double($0) / Double(Self.framesPerPeriod)).vertices
        }
        var mesh = try tessellator.tessellate(document.mesh, geometry: geometry, space: .points)
        var step = 0
        var order: [Int32]? = nil
        let seconds = try median {
            step = (step + 1) % frames.count
            try tessellator.plan.evaluatePoints(
                vertices: frames[step], weights: weights, pointScale: geometry.pointScale, positions: &mesh.positions,
                normals: &mesh.normals)
            order = try PainterSorter.depthOrder(mesh: mesh, geometry: geometry)
        }
        guard order?.count == mesh.triangleCount else {
            throw MeshError(.unsupported, path: "", "the W1 frame must need no clipping")
        }
        return [
            BenchmarkFigure.measured(
                workload: .w1, variant: "frame", threads: threads, size: mesh.triangleCount, timing: seconds, unit: "triangles")
        ]
    }

    /// 60 frames a period: a second of animation at 60 frames a second per wave.
    static let framesPerPeriod = 60

    /// Automatic steps (issue 5's benchmark): the ripple on a 1000 × 1000 pt layer, depth scaled by
    /// the width, at τ = 0.5 pt (`auto`), against uniform tessellation making about as many
    /// triangles: steps 1 of a k × k ripple grid with 8k² close to the automatic count
    /// (`auto-uniform`), and steps 1 of the 100 × 100 ripple, the fewest uniform steps that meet τ
    /// (`auto-steps1`). Each is the whole one-call tessellation, topology work included.
    func automaticSteps(threads: Int, progress: (String) -> Void) throws -> [BenchmarkFigure] {
        var figures: [BenchmarkFigure] = []
        let document = try BenchmarkInputs.rippleLayer(faces: 100)
        let automatic = TessellationOptions(steps: .automatic, tolerance: 0.5)
        guard wants("auto") || wants("auto-uniform") || wants("auto-steps1") else { return figures }
        progress("w1 auto")
        var triangles = 0
        let seconds = try median {
            triangles = try Tessellator.tessellate(document, options: automatic, space: .points).triangleCount
        }
        if wants("auto") {
            figures.append(
                BenchmarkFigure.measured(
                    workload: .w1, variant: "auto", threads: threads, size: triangles, timing: seconds, unit: "triangles"))
        }
        let k = Swift.max(1, Int((Double(triangles) / 8).squareRoot().rounded()))
        for (variant, input) in [("auto-uniform", try BenchmarkInputs.rippleLayer(faces: k)), ("auto-steps1", document)]
        where wants(variant) {
            progress("w1 \(variant)")
            var count = 0
            let time = try median {
                count = try Tessellator.tessellate(input, options: TessellationOptions(steps: .fixed(1)), space: .points).triangleCount
            }
            figures.append(
                BenchmarkFigure.measured(workload: .w1, variant: variant, threads: threads, size: count, timing: time, unit: "triangles"))
        }
        return figures
    }
}
