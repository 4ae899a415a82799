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

    /// `meshgeo: error: FILE: message`, always one line: control characters in the file name or
    /// the message (a newline, a carriage return, an escape from a hostile file) are written as
    /// escapes (`\n`, `\r`, `\t`, `\u{1B}`), never raw.
    var line: String {
        let text = file.isEmpty ? message : "\(file): \(message)"
        return "meshgeo: error: " + Failure.escapingControlCharacters(text)
    }

    /// `text` with every control character (C0, DEL and C1) written as an escape.
    static func escapingControlCharacters(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where isControl(scalar): result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
