import Foundation

/// A progress line on standard error for long work: `meshgeo tessellate: evaluating the surface
/// (3.2 s)`, redrawn in place with a carriage return and cleared when the work ends.
///
/// It is drawn only when standard error is a terminal, so pipes, files and scripts see nothing,
/// and only once the work has run for ``delay`` seconds, so quick commands never flash a line.
/// A background thread redraws it at most every quarter second (the elapsed time keeps moving
/// while a library call runs); ``stage(_:)`` and ``update(completed:of:)`` change what it says.
///
///     let progress = ProgressLine("meshgeo fit")
///     defer { progress.finish() }
///     progress.stage("solving")
///
/// `finish()` must run before anything else is written to standard error (errors, `--verbose`
/// reports); a `defer` inside the `reportingFailures` body does that.
final class ProgressLine: @unchecked Sendable {
    /// Seconds of work before the line first appears: 1, or `MESHGEO_PROGRESS_DELAY` when set
    /// (tests use 0).
    static let delay: TimeInterval = {
        if let text = ProcessInfo.processInfo.environment["MESHGEO_PROGRESS_DELAY"], let value = Double(text), value >= 0 {
            return value
        }
        return 1
    }()

    /// Whether progress is drawn at all: standard error is a terminal.
    static var isEnabled: Bool { isatty(STDERR_FILENO) != 0 }

    private let title: String
    private let start = Date()
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var message = ""
    private var finished = false
    private var drawn = false

    /// Starts a progress line titled `title` (usually `meshgeo COMMAND`). Does nothing, and starts
    /// no thread, unless standard error is a terminal.
    init(_ title: String, enabled: Bool = ProgressLine.isEnabled) {
        self.title = title
        guard enabled else {
            finished = true
            return
        }
        let thread = Thread { [self] in redrawLoop() }
        thread.stackSize = 1 << 16
        thread.start()
    }

    /// Names the current stage: `refining the topology`, `writing ripple.obj`.
    func stage(_ name: String) {
        set(name)
    }

    /// Counts finished items of a known total: `3/12 workloads`.
    func update(completed: Int, of total: Int, _ unit: String = "") {
        set(unit.isEmpty ? "\(completed)/\(total)" : "\(completed)/\(total) \(unit)")
    }

    /// Runs `body` with the line cleared and held off, for output to the same terminal (a result
    /// line on standard output, a warning); the next redraw brings the line back.
    func clearedWhile<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        defer { condition.unlock() }
        if drawn, !finished {
            Self.writeToStandardError("\r\u{1B}[K")
            drawn = false
        }
        return try body()
    }

    /// Clears the line (when one was drawn) and stops redrawing. Safe to call more than once.
    func finish() {
        condition.lock()
        defer { condition.unlock() }
        guard !finished else { return }
        finished = true
        if drawn { Self.writeToStandardError("\r\u{1B}[K") }
        condition.signal()
    }

    private func set(_ text: String) {
        condition.lock()
        message = text
        condition.unlock()
    }

    private func redrawLoop() {
        condition.lock()
        defer { condition.unlock() }
        var next = start.addingTimeInterval(Self.delay)
        while !finished {
            if Date() >= next {
                let elapsed = Date().timeIntervalSince(start)
                let seconds = (elapsed * 10).rounded(.down) / 10
                let line = message.isEmpty ? "\(title) (\(seconds) s)" : "\(title): \(message) (\(seconds) s)"
                Self.writeToStandardError("\r\u{1B}[K" + line)
                drawn = true
                next = Date().addingTimeInterval(0.25)
            }
            _ = condition.wait(until: next)
        }
    }

    private static func writeToStandardError(_ text: String) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let n = write(STDERR_FILENO, base + offset, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
                offset += n
            }
        }
    }
}
