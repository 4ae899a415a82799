import MeshTessellate
import SurfaceKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs the workloads of `meshgeo bench`: a warm-up run, then the median of `runs` timed runs of
/// each figure.
package struct BenchmarkRunner: Sendable {
    /// Timed runs per figure (the median is reported).
    package var runs: Int
    /// Untimed runs before them.
    package var warmups: Int
    /// Variants to run (`steps3`, `rays`, …); empty runs them all.
    package var variants: Set<String>

    /// The thread counts measured when none is asked for: one, then all active cores (only one on
    /// a one-core machine).
    package static var defaultThreadCounts: [Int] {
        ParallelLimit.activeCores > 1 ? [1, ParallelLimit.activeCores] : [1]
    }

    package init(runs: Int = 5, warmups: Int = 1, variants: Set<String> = []) {
        self.runs = runs
        self.warmups = warmups
        self.variants = variants
    }

    /// Every figure of `workload` with the libraries' parallel work limited to `threads` threads
    /// (a scoped limit: nothing outside this call sees it); `progress` hears each variant's name
    /// first. The figures report the threads the work could use, at most the active cores.
    package func run(_ workload: BenchmarkWorkload, threads: Int, progress: (String) -> Void = { _ in }) throws -> [BenchmarkFigure] {
        try ParallelLimit.withThreads(threads) {
            let threads = ParallelLimit.threads
            switch workload {
            case .w1: return try tessellation(threads: threads, progress: progress)
            case .w2: return try hitTesting(threads: threads, progress: progress)
            case .w3: return try sorting(threads: threads, progress: progress)
            case .w4: return try fitting(threads: threads, progress: progress)
            }
        }
    }
}

extension BenchmarkRunner {
    /// Whether `variant` was asked for.
    func wants(_ variant: String) -> Bool { variants.isEmpty || variants.contains(variant) }

    /// The median wall-clock and CPU seconds of `body` over the runs, after the warm-ups (on a
    /// shared machine, CPU time of a one-thread run is steadier than wall time).
    func median(runs count: Int? = nil, _ body: () throws -> Void) rethrows -> BenchmarkTiming {
        for _ in 0..<warmups { try body() }
        let clock = ContinuousClock()
        var times: [Double] = [], cpu: [Double] = []
        for _ in 0..<Swift.max(1, count ?? runs) {
            let cpuStart = BenchmarkRunner.processCPUSeconds()
            let start = clock.now
            try body()
            let d = clock.now - start
            cpu.append(BenchmarkRunner.processCPUSeconds() - cpuStart)
            times.append(Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18)
        }
        return BenchmarkTiming(seconds: BenchmarkRunner.middle(times), cpuSeconds: BenchmarkRunner.middle(cpu))
    }

    static func middle(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let m = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2
    }

    /// CPU seconds (user and system, all threads) this process has used. Linux is the platform
    /// this is built and measured on; the Darwin branch is the same POSIX clock (macOS 10.12 and
    /// later), and anywhere else the CPU column reads 0.
    static func processCPUSeconds() -> Double {
        #if canImport(Glibc) || canImport(Darwin)
            var t = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
            return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
        #else
            return 0
        #endif
    }
}
