import Foundation

/// Writes results to standard output, or atomically to a file: the bytes go to a temporary file
/// beside the target, which is renamed over it only when complete, so a failed run never leaves a
/// partial file or touches an existing one.
enum OutputFile {
    static func write(_ bytes: [UInt8], to path: String?) throws {
        try write(chunks: [bytes], to: path)
    }

    /// Writes the chunks one after another.
    static func write(chunks: [[UInt8]], to path: String?) throws {
        guard let path, path != "-" else {
            for bytes in chunks { try StandardOutput.write(bytes) }
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
        var ok = false
        defer {
            if !ok { unlink(temporary) }
        }
        for bytes in chunks {
            var offset = 0
            while offset < bytes.count {
                let n = bytes[offset...].withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
                if n < 0 {
                    if errno == EINTR { continue }
                    let reason = String(cString: strerror(errno))
                    close(fd)
                    throw Failure(.ioError, file: path, "cannot write: \(reason)")
                }
                offset += n
            }
        }
        // mkstemp makes the file private; give it the usual permissions under the umask.
        let mask = umask(0)
        umask(mask)
        fchmod(fd, 0o666 & ~mask)
        guard close(fd) == 0 else {
            throw Failure(.ioError, file: path, "cannot write: \(String(cString: strerror(errno)))")
        }
        guard rename(temporary, path) == 0 else {
            throw Failure(.cannotCreate, file: path, "cannot replace the output file: \(String(cString: strerror(errno)))")
        }
        ok = true
    }
}
