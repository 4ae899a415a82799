/// The milliseconds a request spent in each stage, for the `Server-Timing` header: `compute` (the
/// whole time after the body arrived) first, so a reader that takes the first duration gets the
/// total, then each stage in the order it ran (`read`, `mesh`, `plan`, `evaluate`, `sort`, `check`,
/// `encode`, …). Stages that did not run are left out.
struct ServerTiming: Sendable {
    private(set) var stages: [(name: String, milliseconds: Double)] = []
    private var last: ContinuousClock.Instant
    let start: ContinuousClock.Instant

    init(start: ContinuousClock.Instant = .now) {
        self.start = start
        last = start
    }

    /// Ends the stage `name` now: it took the time since the previous stage ended.
    mutating func lap(_ name: String) {
        let now = ContinuousClock.now
        let milliseconds = ServerTiming.milliseconds(now - last)
        last = now
        if let index = stages.firstIndex(where: { $0.name == name }) {
            stages[index].milliseconds += milliseconds
        } else {
            stages.append((name, milliseconds))
        }
    }

    /// The header's value, durations with three decimals (microseconds).
    var header: String {
        let total = ServerTiming.milliseconds(ContinuousClock.now - start)
        let parts = [("compute", total)] + stages.map { ($0.name, $0.milliseconds) }
        return parts.map { "\($0.0);dur=\(ServerTiming.decimal($0.1))" }.joined(separator: ", ")
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) * 1e-15
    }

    /// `value` with three decimals, without Foundation's formatter.
    static func decimal(_ value: Double) -> String {
        let micro = Int((max(0, value) * 1000).rounded())
        let fraction = String(micro % 1000)
        return "\(micro / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
