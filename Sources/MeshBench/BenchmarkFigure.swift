/// One measured figure: a median time and the throughput it gives.
package struct BenchmarkFigure: Hashable, Sendable {
    package var workload: BenchmarkWorkload
    package var variant: String
    /// The threads the parallel work could use.
    package var threads: Int
    /// Items per run (points, rays, triangles, unknowns).
    package var size: Int
    /// Median seconds per run.
    package var seconds: Double
    package var unit: String
    /// Pieces the exact sort added, for `w3 bsp`.
    package var added: Int?
    /// Median CPU seconds of the process per run (all threads, user and system).
    package var cpuSeconds: Double?

    package init(
        workload: BenchmarkWorkload, variant: String, threads: Int, size: Int, seconds: Double, unit: String, added: Int? = nil,
        cpuSeconds: Double? = nil
    ) {
        self.workload = workload
        self.variant = variant
        self.threads = threads
        self.size = size
        self.seconds = seconds
        self.unit = unit
        self.added = added
        self.cpuSeconds = cpuSeconds
    }

    /// Items per second (0 when the time is too short to measure).
    package var perSecond: Double { seconds > 0 ? Double(size) / seconds : 0 }
}

/// The medians of one measurement: wall-clock and CPU seconds per run.
package struct BenchmarkTiming: Hashable, Sendable {
    /// Median wall-clock seconds.
    package var seconds: Double
    /// Median CPU seconds of the process (user and system, all threads).
    package var cpuSeconds: Double
}

extension BenchmarkFigure {
    /// A figure from a measurement just made, with its CPU seconds.
    static func measured(
        workload: BenchmarkWorkload, variant: String, threads: Int, size: Int, timing: BenchmarkTiming, unit: String,
        added: Int? = nil
    ) -> BenchmarkFigure {
        BenchmarkFigure(
            workload: workload, variant: variant, threads: threads, size: size, seconds: timing.seconds, unit: unit, added: added,
            cpuSeconds: timing.cpuSeconds)
    }
}
