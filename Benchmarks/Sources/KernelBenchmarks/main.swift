import Benchmark
import MeshTessellate
import SurfaceKit

// The inner kernels of the workloads of `meshgeo bench` (Docs/performance.md), through the
// libraries' public API, on the same inputs (Inputs.swift). Benchmarks only; run from this folder
// with `swift run -c release KernelBenchmarks` (add `--filter steps3` to run one).

let ripple = Inputs.ripple()
let mesh = ripple.mesh
let topology = try SurfaceTopology(faces: mesh.faces, vertexCount: mesh.vertices.count)
let weights = topology.vertexWeights(faces: mesh.faces)
let scale = ripple.geometry.pointScale

// W1: evaluation of an already refined plan (limit points with from and normals).
for steps in 1...4 {
    let plan = try SubdivisionPlan(topology: topology, steps: steps)
    benchmark("w1 evaluate steps\(steps) (\(plan.pointCount) points)") {
        _ = try plan.evaluate(vertices: mesh.vertices, weights: weights, pointScale: scale)
    }
    // Limit positions alone, what the peers' W1 figures count.
    var positions: [Point3D] = []
    benchmark("w1 positions steps\(steps) (\(plan.pointCount) points)") {
        try plan.evaluatePositions(vertices: mesh.vertices, weights: weights, into: &positions)
    }
}

// W1: topology refinement alone.
benchmark("w1 refine steps3") {
    _ = try SubdivisionPlan(topology: topology, steps: 3)
}

// W2: 10,000 single rays through the steps-3 ripple (the full million is `meshgeo bench`'s).
let steps3 = try Inputs.rippleTessellation(steps: 3)
let flat = LayerGeometry(size: ripple.layer.size, depthScale: 1, anchor: ripple.layer.anchor, transform: .identity)
let tester = try HitTester(mesh: steps3, geometry: flat)
let rays = Inputs.downwardRays(count: 10_000)
benchmark("w2 intersect 10k rays, one at a time") {
    var hits = 0
    for ray in rays where tester.intersect(ray) != nil { hits += 1 }
    precondition(hits == rays.count)
}

// W3: the depth sort of the tilted steps-3 ripple.
benchmark("w3 depth sort (\(steps3.triangleCount) triangles)") {
    _ = try PainterSorter.sorted(mesh: steps3, geometry: ripple.geometry, mode: .depth, space: .points)
}

// W4: the fit of the 101²-vertex ripple grid.
let grid = try Inputs.rippleGrid(faces: 100)
benchmark("w4 fit 101x101") {
    _ = try SurfaceFit().fit(grid)
}

Benchmark.main()
