import SurfaceKit

/// A failure the command line reports as one line on stderr with a sysexits code.
struct Failure: Error {
    /// sysexits(3) codes used by meshgeo.
    enum Code: Int32 {
        case usage = 64
        case dataError = 65
        case noInput = 66
        case cannotCreate = 73
        case ioError = 74
    }

    var code: Code
    /// Where: a file name, or empty.
    var file: String
    var message: String

    init(_ code: Code, file: String = "", _ message: String) {
        self.code = code
        self.file = file
        self.message = message
    }

    /// A mesh error from a file: exit 65, with the JSON path.
    init(_ error: MeshError, file: String) {
        self.init(.dataError, file: file, error.description)
    }

    var line: String {
        file.isEmpty ? "meshgeo: error: \(message)" : "meshgeo: error: \(file): \(message)"
    }
}
