import ArgumentParser
import Foundation
import SurfaceKit

/// Runs a command body, turning failures into one line on stderr and the right exit code.
func reportingFailures(file: String = "", _ body: () throws -> Void) throws {
    do {
        try body()
    } catch let failure as Failure {
        StandardError.write(failure.line)
        throw ExitCode(failure.code.rawValue)
    } catch let error as MeshError {
        StandardError.write(Failure(error, file: file).line)
        throw ExitCode(Failure.Code.dataError.rawValue)
    }
}

enum StandardError {
    /// Writes one line. A standard error that cannot be written (closed, a full disk,
    /// `2>/dev/full`) is ignored: the exit code still tells the outcome.
    static func write(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Foundation.write(STDERR_FILENO, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            offset += n
        }
    }
}

enum StandardOutput {
    static func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Foundation.write(1, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(.ioError, file: "<stdout>", "cannot write: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
    }
}
