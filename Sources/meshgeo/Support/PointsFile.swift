import Foundation

/// Reading a file of screen points: one `x y` pair a line (spaces or tabs between), blank lines
/// skipped. Line ends may be LF or CRLF (a carriage return before the newline is dropped), so
/// line numbers in messages are those an editor shows. A malformed line is a data error (exit 65)
/// naming the line, quoted with its control characters escaped and long lines cut short.
enum PointsFile {
    /// The most characters of a bad line quoted in a message.
    static let quotedLength = 60

    static func read(_ path: String) throws -> [SIMD2<Double>] {
        let name = InputFile.displayName(path)
        let bytes = try InputFile.read(path)
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            throw Failure(.dataError, file: name, "the file is UTF-16; points files must be UTF-8 (or ASCII) text")
        }
        return try parse(bytes, name: name)
    }

    static func parse(_ bytes: [UInt8], name: String) throws -> [SIMD2<Double>] {
        var result: [SIMD2<Double>] = []
        var number = 0
        // Split on newline bytes, not on Characters: in a Swift String "\r\n" is one Character,
        // so splitting text at "\n" would never split a CRLF file.
        for var line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            let fields = line.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") })
            if fields.isEmpty { continue }
            guard fields.count == 2, let x = Double(ascii: fields[0]), let y = Double(ascii: fields[1]), x.isFinite, y.isFinite
            else {
                let text = String(decoding: line, as: UTF8.self)
                let shown = text.count > quotedLength ? String(text.prefix(quotedLength)) + "…" : text
                throw Failure(
                    .dataError, file: name,
                    "line \(number): expected two finite numbers 'x y', got '\(Failure.escapingControlCharacters(shown))'")
            }
            result.append(SIMD2(x, y))
        }
        return result
    }
}

extension Double {
    /// A number from ASCII bytes, as `Double(String)` reads it.
    fileprivate init?(ascii bytes: ArraySlice<UInt8>) {
        self.init(String(decoding: bytes, as: UTF8.self))
    }
}
