import Foundation

/// Writes results to standard output or to the file `-o` names, by what already stands there:
///
/// - nothing, a regular file, or a symbolic link (through any number of links) to either: the
///   bytes go to a temporary file in the directory of the final target, which is renamed over the
///   target only when complete. A failed or interrupted run never leaves a partial file or touches
///   an existing one, and a link stays a link (its target is what is replaced).
/// - a character device or a FIFO (`/dev/null`, `/dev/stdout`, a named pipe): written through,
///   never replaced.
/// - a directory, a block device, a socket, or a path whose directory does not exist: refused
///   (exit 73), and ``check(_:)`` refuses them before any work is done.
enum OutputFile {
    /// What writing to a path means.
    enum Destination: Equatable {
        case standardOutput
        /// Written through: a character device or a FIFO.
        case device(path: String)
        /// Replaced atomically: `target` is the path with every symbolic link followed.
        case file(target: String)
    }

    /// How many symbolic links are followed before the path is refused (as the kernel's ELOOP).
    static let maximumLinks = 40

    /// Decides what `-o path` means, without touching anything: exit 64 for an empty name,
    /// 73 for a destination that can never be written. Commands call it (through
    /// ``OutputOption``'s validation) before any work, and ``write(streaming:to:)`` again.
    static func destination(of path: String?) throws -> Destination {
        guard let path, path != "-" else { return .standardOutput }
        guard !path.isEmpty else {
            throw Failure(.usage, "-o needs a file name (it was empty); use '-' for standard output")
        }
        var current = path
        for _ in 0...maximumLinks {
            var info = stat()
            if lstat(current, &info) != 0 {
                let error = errno
                guard error == ENOENT else { throw Failure(.cannotCreate, file: path, "cannot be written: \(describe(error))") }
                return .file(target: try checkedParent(of: current, for: path))
            }
            switch info.st_mode & S_IFMT {
            case S_IFLNK:
                guard let link = readLink(current) else {
                    throw Failure(.cannotCreate, file: path, "cannot read the symbolic link: \(describe(errno))")
                }
                current = link.hasPrefix("/") ? link : directory(of: current) + "/" + link
            case S_IFREG:
                return .file(target: try checkedParent(of: current, for: path))
            case S_IFCHR, S_IFIFO:
                return .device(path: current)
            case S_IFDIR:
                throw Failure(.cannotCreate, file: path, "is a directory; name a file to write")
            default:
                throw Failure(.cannotCreate, file: path, "is not a regular file, character device or FIFO; name a file to write")
            }
        }
        throw Failure(.cannotCreate, file: path, "too many levels of symbolic links")
    }

    static func write(_ bytes: [UInt8], to path: String?) throws {
        try write(streaming: { sink in try sink(bytes) }, to: path)
    }

    /// Writes what `produce` passes to its sink, piece by piece as it comes, so the whole output
    /// need never be in memory. To a file, the pieces go to the temporary file and the rename
    /// happens only when `produce` has returned; if it or a write throws, or a signal ends the
    /// process, the temporary file is removed and the target is untouched.
    static func write(streaming produce: (_ sink: ([UInt8]) throws -> Void) throws -> Void, to path: String?) throws {
        switch try destination(of: path) {
        case .standardOutput:
            try produce { try StandardOutput.write($0) }
        case .device(let device):
            try writeThrough(produce, device: device, name: path ?? device)
        case .file(let target):
            try replaceAtomically(produce, target: target, name: path ?? target)
        }
    }

    private static func writeThrough(_ produce: (_ sink: ([UInt8]) throws -> Void) throws -> Void, device: String, name: String) throws {
        let fd = open(device, O_WRONLY | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            throw Failure(.cannotCreate, file: name, "cannot open for writing: \(describe(errno))")
        }
        var isOpen = true
        defer { if isOpen { close(fd) } }
        try produce { try writeAll($0, to: fd, name: name) }
        isOpen = false
        guard close(fd) == 0 else {
            throw Failure(.ioError, file: name, "cannot write: \(describe(errno))")
        }
    }

    private static func replaceAtomically(
        _ produce: (_ sink: ([UInt8]) throws -> Void) throws -> Void, target: String, name: String
    ) throws {
        let base = target.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? target
        let cleanup = TemporaryFileCleanup(template: directory(of: target) + "/." + base + ".XXXXXX")
        defer { cleanup.remove() }
        let fd = cleanup.create()
        guard fd >= 0 else {
            throw Failure(.cannotCreate, file: name, "cannot create the output file: \(describe(errno))")
        }
        var isOpen = true
        defer { if isOpen { close(fd) } }
        try produce { try writeAll($0, to: fd, name: name) }
        // mkstemp makes the file private: give it the mode of the file it replaces, or the usual
        // permissions under the umask for a new one.
        var existing = stat()
        if stat(target, &existing) == 0 {
            fchmod(fd, existing.st_mode & 0o7777)
        } else {
            let mask = umask(0)
            umask(mask)
            fchmod(fd, 0o666 & ~mask)
        }
        isOpen = false
        guard close(fd) == 0 else {
            throw Failure(.ioError, file: name, "cannot write: \(describe(errno))")
        }
        guard cleanup.rename(to: target) else {
            throw Failure(.cannotCreate, file: name, "cannot replace the output file: \(describe(errno))")
        }
    }

    static func writeAll(_ bytes: [UInt8], to fd: Int32, name: String) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(.ioError, file: name, "cannot write: \(describe(errno))")
            }
            offset += n
        }
    }

    /// The directory part of a path (`.` for a bare name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The directory a new file at `target` would go in, which must exist and be a directory.
    private static func checkedParent(of target: String, for name: String) throws -> String {
        let parent = directory(of: target)
        var info = stat()
        guard stat(parent, &info) == 0 else {
            let reason = errno == ENOENT ? "does not exist" : "cannot be used: \(describe(errno))"
            throw Failure(.cannotCreate, file: name, "cannot be written: its directory \(parent) \(reason)")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw Failure(.cannotCreate, file: name, "cannot be written: \(parent) is not a directory")
        }
        return target
    }

    private static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func describe(_ error: Int32) -> String {
        String(cString: strerror(error))
    }
}
