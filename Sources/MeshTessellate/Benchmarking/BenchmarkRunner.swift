import SurfaceKit
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the §13 workloads: a warm-up run, then the median of `runs` timed runs of each figure.
public struct BenchmarkRunner: Sendable {
    /// Timed runs per figure (the median is reported).
    public var runs: Int
    /// Untimed runs before them.
    public var warmups: Int
    /// Variants to run (`steps3`, `rays`, …); empty runs them all.
    public var variants: Set<String>

    public init(runs: Int = 5, warmups: Int = 1, variants: Set<String> = []) {
        self.runs = runs
        self.warmups = warmups
        self.variants = variants
    }

    /// Whether `variant` was asked for.
    func wants(_ variant: String) -> Bool { variants.isEmpty || variants.contains(variant) }

    /// The median wall-clock seconds of `body` over the runs, after the warm-ups; the median CPU
    /// seconds of the process go to `lastCPUSeconds` (on a shared machine, CPU time of a
    /// one-thread run is steadier than wall time).
    public func median(runs count: Int? = nil, _ body: () throws -> Void) rethrows -> Double {
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
        BenchmarkRunner.lastCPU.store(BenchmarkRunner.middle(cpu).bitPattern, ordering: .relaxed)
        return BenchmarkRunner.middle(times)
    }

    static func middle(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let m = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2
    }

    /// CPU seconds (user and system, all threads) this process has used.
    static func processCPUSeconds() -> Double {
        #if canImport(Glibc)
            var t = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
            return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
        #else
            return 0
        #endif
    }

    static let lastCPU = Atomic<UInt64>(0)
    /// The median CPU seconds of the last ``median(runs:_:)``.
    static var lastCPUSeconds: Double { Double(bitPattern: lastCPU.load(ordering: .relaxed)) }

    /// Runs `body` with the library's parallel helpers limited to `threads` threads; with one
    /// thread, all work stays on the calling thread (no Dispatch workers at all).
    public static func withThreads<R>(_ threads: Int, _ body: () throws -> R) rethrows -> R {
        let previous = ProcessInfoCores.threadLimit.exchange(Swift.max(0, threads), ordering: .relaxed)
        defer { ProcessInfoCores.threadLimit.store(previous, ordering: .relaxed) }
        return try body()
    }

    /// Every figure of `workload` at `threads` threads; `progress` hears each variant's name first.
    public func run(_ workload: BenchmarkWorkload, threads: Int, progress: (String) -> Void = { _ in }) throws -> [BenchmarkFigure] {
        try BenchmarkRunner.withThreads(threads) {
            switch workload {
            case .w1: try tessellation(threads: threads, progress: progress)
            case .w2: try hitTesting(threads: threads, progress: progress)
            case .w3: try sorting(threads: threads, progress: progress)
            case .w4: try fitting(threads: threads, progress: progress)
            }
        }
    }
}

extension BenchmarkFigure {
    /// A figure with the CPU seconds of the measurement just made.
    static func measured(
        workload: BenchmarkWorkload, variant: String, threads: Int, size: Int, seconds: Double, unit: String, added: Int? = nil
    ) -> BenchmarkFigure {
        var figure = BenchmarkFigure(
            workload: workload, variant: variant, threads: threads, size: size, seconds: seconds, unit: unit, added: added)
        figure.cpuSeconds = BenchmarkRunner.lastCPUSeconds
        return figure
    }
}
