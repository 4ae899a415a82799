import Foundation
import Testing

// Tests of `meshgeo bench`'s options, run as a separate process on the smallest figure (W4's
// 101²-vertex solve, `--runs 1`). The figures' values are not checked: benchmarks are never
// timed tests. Their form is: a text line per figure, or one JSON object per line.

@Suite struct BenchCLITests {
    /// The active cores, from Foundation rather than from the tool.
    static let cores = ProcessInfo.processInfo.activeProcessorCount

    /// Every variant name the help lists, which is every one `bench` accepts.
    static let variants: [String] =
        ["build", "rays", "rays-compact", "depth", "depth-mesh", "bsp", "bsp3", "bsp3-frames", "bsp3-order", "bsp3-frames-order"]
        + ["n101", "n1001", "n101-frames", "n1001-frames", "fit1001", "frame", "auto", "auto-uniform", "auto-steps1", "refine3"]
        + ["", "-frames", "-points", "-points-frames"].flatMap { kind in (1...4).map { "steps\($0)\(kind)" } }

    /// `w4 n101                  2 threads    30603 unknowns   0.00123 s   24.88 M unknowns/s   (CPU 0.00240 s)`
    static func expectTextLine(_ line: String, threads: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let pattern =
            #"^w4 n101 {18}\#(threads) threads? +30603 unknowns +[0-9]+\.[0-9]{5} s   [0-9]+\.[0-9]+ [kM] unknowns/s   \(CPU [0-9]+\.[0-9]{5} s\)$"#
        #expect(line.range(of: pattern, options: .regularExpression) != nil, "\(line)", sourceLocation: sourceLocation)
    }

    @Test func anUnknownVariantIsAUsageErrorListingTheValidOnes() throws {
        let ws = try CLIWorkspace()
        let output = try ws.run(["bench", "--workload", "w4", "--variant", "n101", "--variant", "nope"])
        #expect(output.status == 64, "exit \(output.status): \(output.err)")
        #expect(output.stdout.isEmpty)
        #expect(output.err.contains("'nope'"))
        for variant in Self.variants { #expect(output.err.contains(variant), "\(variant) missing from: \(output.err)") }
    }

    @Test(arguments: ["0", "-1", "two", ""])
    func threadsMustBeAPositiveNumber(value: String) throws {
        let ws = try CLIWorkspace()
        let output = try ws.run(["bench", "--workload", "w4", "--variant", "n101", "--runs", "1", "--threads", value])
        #expect(output.status == 64, "\(value): exit \(output.status): \(output.err)")
        #expect(output.stdout.isEmpty)
    }

    /// Any positive count runs; the figure reports the threads the work could use, at most the
    /// active cores.
    @Test(arguments: [1, 3, 64])
    func anyPositiveThreadCountRuns(threads: Int) throws {
        let ws = try CLIWorkspace()
        let output = try ws.run(["bench", "--workload", "w4", "--variant", "n101", "--runs", "1", "--threads", "\(threads)"])
        #expect(output.status == 0, "exit \(output.status): \(output.err)")
        #expect(output.lines.count == 1, "\(output.out)")
        Self.expectTextLine(output.lines.first ?? "", threads: min(threads, Self.cores))
    }

    /// Without `--threads`: one thread, then all active cores.
    @Test func withoutThreadsOneThreadThenAllCoresRun() throws {
        let ws = try CLIWorkspace()
        let output = try ws.run(["bench", "--workload", "w4", "--variant", "n101", "--runs", "1", "--json"])
        #expect(output.status == 0, "exit \(output.status): \(output.err)")
        let objects = try output.lines.map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(objects.map { $0["threads"] as? Int } == (Self.cores > 1 ? [1, Self.cores] : [1]))
        for object in objects {
            #expect(Set(object.keys) == ["workload", "variant", "threads", "size", "seconds", "per_second", "unit", "cpu_seconds"])
            #expect(object["workload"] as? String == "w4" && object["variant"] as? String == "n101")
            #expect(object["size"] as? Int == 3 * 101 * 101 && object["unit"] as? String == "unknowns")
        }
    }
}
