import ArgumentParser
import Foundation
import MeshBench

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Time the fixed workloads (tessellation, hit-testing, painter's sort, fitting).",
        discussion: """
            Builds the reference inputs in memory (the 100 × 100 ripple and its relatives), runs each \
            figure once to warm up, then reports the median of several runs: one line per figure, or \
            one JSON object per line with --json. Measure release builds (swift build -c release). \
            --threads N limits the parallel work to N threads (at most the active cores; 1 keeps all work \
            on the calling thread); without --threads, both 1 and all cores are run.
            W1: limit points per second at steps 1–4 (evaluation of an already refined topology), into \
            fresh arrays and, as -frames, into the previous frame's arrays; positions alone (what the \
            peers count) as -points and -points-frames; and topology refinement at steps 3. W2: BVH build and 1,000,000 rays along −z on the steps-3 \
            ripple. W3: depth order and depth sort of the tilted steps-3 ripple; the exact sort of the steps-1 \
            (--variant bsp) and steps-3 (--variant bsp3; bsp3-frames with the mesh's edge pairing made beforehand, as for frames of an animation; bsp3-order and bsp3-frames-order their draw order alone, as depth is) ones runs only when asked for. \
            W4: the tensor-product solve on the 101² and 1001²-vertex grids (into fresh planes and, as \
            -frames, into the previous solve's), and the whole fit of the larger (unknowns counted for three coordinates, as the peers solve them; we solve five). \
            Each line also gives the median CPU seconds of the process, steadier than wall time on a \
            shared machine.
            """)

    enum Selection: String, ExpressibleByArgument, CaseIterable {
        case w1, w2, w3, w4, all
    }

    @Option(help: "Which workload: w1, w2, w3, w4 or all.")
    var workload: Selection = .all

    @Option(help: "Threads: any positive number, at most the active cores used (default: 1 and all cores).")
    var threads: Int?

    @Option(help: "Timed runs per figure (the median is reported).")
    var runs: Int = 5

    @Option(help: ArgumentHelp("Only this variant (repeatable): \(BenchmarkWorkload.allVariants.joined(separator: ", "))."))
    var variant: [String] = []

    @Flag(help: "One JSON object per line.")
    var json = false

    func validate() throws {
        if let threads, threads < 1 { throw ValidationError("--threads must be a positive number, got \(threads).") }
        if let unknown = variant.first(where: { !BenchmarkWorkload.allVariants.contains($0) }) {
            throw ValidationError(
                "unknown variant '\(unknown)'; valid variants: \(BenchmarkWorkload.allVariants.joined(separator: ", ")).")
        }
        guard (1...99).contains(runs) else { throw ValidationError("--runs must be between 1 and 99.") }
    }

    func run() throws {
        try reportingFailures {
            let workloads =
                workload == .all ? BenchmarkWorkload.allCases : BenchmarkWorkload.allCases.filter { $0.rawValue == workload.rawValue }
            let runner = BenchmarkRunner(runs: runs, variants: Set(variant))
            let progress = ProgressLine("meshgeo bench")
            defer { progress.finish() }
            for w in workloads {
                for t in threads.map({ [$0] }) ?? BenchmarkRunner.defaultThreadCounts {
                    let figures = try runner.run(w, threads: t) { name in
                        progress.stage("\(name), \(t) thread\(t == 1 ? "" : "s")")
                    }
                    var text = ""
                    for figure in figures { text += (json ? Bench.jsonLine(figure) : Bench.textLine(figure)) + "\n" }
                    try StandardOutput.write(Array(text.utf8))
                }
            }
        }
    }
}

extension Bench {
    /// `{"workload": "w1", "variant": "steps3", "threads": 1, "size": 641601, "seconds": 0.0064, "per_second": 1.0e8, "unit": "points"}`
    static func jsonLine(_ f: BenchmarkFigure) -> String {
        var line = "{\"workload\": \"\(f.workload.rawValue)\", \"variant\": \"\(f.variant)\", \"threads\": \(f.threads), "
        line += "\"size\": \(f.size), \"seconds\": \(f.seconds), \"per_second\": \(f.perSecond), \"unit\": \"\(f.unit)\""
        if let added = f.added { line += ", \"added\": \(added)" }
        if let cpu = f.cpuSeconds { line += ", \"cpu_seconds\": \(cpu)" }
        return line + "}"
    }

    /// `w1 steps3                 1 thread     641601 points    0.00640 s    100.25 M points/s`
    static func textLine(_ f: BenchmarkFigure) -> String {
        func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
        func left(_ s: String, _ n: Int) -> String { s.count >= n ? s : String(repeating: " ", count: n - s.count) + s }
        let rate = f.perSecond >= 1e6 ? String(format: "%.2f M", f.perSecond / 1e6) : String(format: "%.1f k", f.perSecond / 1e3)
        var line = pad("\(f.workload.rawValue) \(f.variant)", 25) + pad("\(f.threads) thread\(f.threads == 1 ? "" : "s")", 10)
        line += left("\(f.size)", 9) + " " + pad(f.unit, 10) + left(String(format: "%.5f s", f.seconds), 12)
        line += "   " + rate + " \(f.unit)/s"
        if let cpu = f.cpuSeconds { line += String(format: "   (CPU %.5f s)", cpu) }
        if let added = f.added { line += "   +\(added) pieces" }
        return line
    }
}
