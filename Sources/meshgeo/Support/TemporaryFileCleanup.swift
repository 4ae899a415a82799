import Foundation

/// The temporary file of an atomic write: created by `mkstemp`, renamed over the target when
/// complete, and otherwise removed, also when SIGINT, SIGTERM, SIGHUP or SIGPIPE ends the process
/// while it exists (a handler removes it, then the signal takes its usual course, so the exit
/// status is the conventional one: killed by that signal, 128 + its number in a shell).
///
/// A signal the process ignores (`nohup` ignores SIGHUP) stays ignored. One temporary file
/// exists at a time: meshgeo writes one output per run.
final class TemporaryFileCleanup {
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGPIPE]

    /// The path, in C memory the signal handler can read without the Swift runtime.
    private let path: UnsafeMutablePointer<CChar>
    private var previous: [(Int32, sighandler_t?)] = []
    private var exists = false

    init(template: String) {
        let bytes = Array(template.utf8CString)
        path = .allocate(capacity: bytes.count)
        path.initialize(from: bytes, count: bytes.count)
    }

    deinit {
        remove()
        path.deallocate()
    }

    /// Creates the file (its name completes the template) and arms the handlers; the open
    /// descriptor, or −1 with `errno` set.
    func create() -> Int32 {
        // Registered before the name is filled in, so that no moment exists in which the file is
        // on disk but unknown to the handler.
        temporaryPathToRemove = path
        for signal in Self.signals {
            let old = Foundation.signal(signal, removeTemporaryFileOnSignal)
            if Self.isIgnored(old) { Foundation.signal(signal, old) }
            previous.append((signal, old))
        }
        let fd = mkstemp(path)
        if fd >= 0 {
            exists = true
        } else {
            let error = errno
            disarm()
            errno = error
        }
        return fd
    }

    /// Renames the complete file over `target`; false with `errno` set when that fails (the file
    /// is then removed by ``remove()``).
    func rename(to target: String) -> Bool {
        guard Foundation.rename(path, target) == 0 else { return false }
        exists = false
        disarm()
        return true
    }

    /// Removes the file unless it was renamed; safe to call more than once.
    func remove() {
        if exists {
            unlink(path)
            exists = false
        }
        disarm()
    }

    private func disarm() {
        temporaryPathToRemove = nil
        for (signal, old) in previous { Foundation.signal(signal, old) }
        previous = []
    }

    private static func isIgnored(_ handler: sighandler_t?) -> Bool {
        guard let handler else { return false }
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}

/// The temporary file a signal handler removes; only its C string is read there.
nonisolated(unsafe) private var temporaryPathToRemove: UnsafeMutablePointer<CChar>?

/// Removes the temporary file, then lets the signal end the process as it would have: the
/// default action restored and the signal raised again (it is delivered when the handler
/// returns). Only async-signal-safe calls: unlink, signal, raise.
private let removeTemporaryFileOnSignal: @convention(c) (Int32) -> Void = { signal in
    if let path = temporaryPathToRemove { unlink(path) }
    Foundation.signal(signal, SIG_DFL)
    raise(signal)
}
