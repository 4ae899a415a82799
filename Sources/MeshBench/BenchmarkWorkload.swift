/// The four fixed workloads of `meshgeo bench` (see Docs/performance.md), built in memory.
/// Benchmarks only: nothing here is timed in tests.
package enum BenchmarkWorkload: String, CaseIterable, Sendable {
    /// Tessellation: limit points per second at steps 1…4, and topology refinement alone.
    case w1
    /// Hit-testing: BVH build and rays per second on the steps-3 ripple.
    case w2
    /// Painter's sort: depth sort of the steps-3 ripple tilted −45°, and the exact sort.
    case w3
    /// Fitting: the interpolation solve on 101² and 1001² vertices.
    case w4

    /// The names `--variant` accepts for this workload, in the order the figures are printed.
    package var variants: [String] {
        switch self {
        case .w1:
            let kinds = ["", "-frames", "-points", "-points-frames"]
            return kinds.flatMap { kind in (1...4).map { "steps\($0)\(kind)" } } + [
                "frame", "auto", "auto-uniform", "auto-steps1", "refine3",
            ]
        case .w2: return ["build", "rays", "rays-compact"]
        case .w3: return ["depth", "depth-mesh", "bsp3", "bsp3-frames", "bsp3-order", "bsp3-frames-order", "bsp"]
        case .w4: return ["n101", "n101-frames", "n1001", "n1001-frames", "fit1001"]
        }
    }

    /// Every variant name of every workload.
    package static var allVariants: [String] { allCases.flatMap(\.variants) }
}
