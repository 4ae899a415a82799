import Foundation

/// Writes results to standard output, or atomically to a file: the bytes go to a temporary file
/// beside the target, which is renamed over it only when complete, so a failed run never leaves a
/// partial file or touches an existing one.
enum OutputFile {
    static func write(_ bytes: [UInt8], to path: String?) throws {
        try write(streaming: { sink in try sink(bytes) }, to: path)
    }

    /// Writes what `produce` passes to its sink, piece by piece as it comes, so the whole output
    /// need never be in memory. To a file, the pieces go to the temporary file and the rename
    /// happens only when `produce` has returned; if it or a write throws, the temporary file is
    /// removed and the target is untouched.
    static func write(streaming produce: (_ sink: ([UInt8]) throws -> Void) throws -> Void, to path: String?) throws {
        guard let path, path != "-" else {
            try produce { try StandardOutput.write($0) }
            return
        }
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        var template = Array((directory + "/.\(url.lastPathComponent).XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard fd >= 0 else {
            throw Failure(.cannotCreate, file: path, "cannot create the output file: \(String(cString: strerror(errno)))")
        }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var isOpen = true, ok = false
        defer {
            if isOpen { close(fd) }
            if !ok { unlink(temporary) }
        }
        try produce { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = bytes[offset...].withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw Failure(.ioError, file: path, "cannot write: \(String(cString: strerror(errno)))")
                }
                offset += n
            }
        }
        // mkstemp makes the file private; give it the usual permissions under the umask.
        let mask = umask(0)
        umask(mask)
        fchmod(fd, 0o666 & ~mask)
        isOpen = false
        guard close(fd) == 0 else {
            throw Failure(.ioError, file: path, "cannot write: \(String(cString: strerror(errno)))")
        }
        guard rename(temporary, path) == 0 else {
            throw Failure(.cannotCreate, file: path, "cannot replace the output file: \(String(cString: strerror(errno)))")
        }
        ok = true
    }
}
