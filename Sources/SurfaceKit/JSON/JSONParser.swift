/// A strict JSON (RFC 8259) parser over UTF-8 bytes.
///
/// Hand-written recursive descent, linear in the input, that never traps: nesting deeper than
/// `maxDepth` is an error rather than a stack overflow, and every other malformed input (a
/// trailing comma, a duplicate key, a bad escape, a raw control character in a string, invalid
/// UTF-8, text after the value) is a ``MeshError`` of kind `.syntax` whose message starts with
/// `line L, column C:`. Duplicate keys also carry the key's JSON path (`layer.size`) as the error's
/// path; other syntax errors have an empty path. NaN and Infinity literals are `.invalidValue`
/// errors with the path of the number they stand for, as any non-finite number is.
///
/// Numbers are read with `Double(String)`, so any number of digits is fine; one too large for a
/// `Double` becomes `±infinity` here and is rejected by the reader that knows its path.
struct JSONParser {
    /// Deep enough for any sensible document (mesh.json needs 4), shallow enough for any stack.
    static let defaultMaxDepth = 64

    private let bytes: [UInt8]
    private let maxDepth: Int
    private var position = 0
    private var depth = 0
    /// Where the parser is, kept so a duplicate key can be reported by its path.
    private var path: [JSONPath.Component] = []

    private init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// Parses one JSON value filling the whole input (a UTF-8 byte order mark at the start is
    /// allowed and skipped, as RFC 8259 permits).
    static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws -> JSONValue {
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
        if let encoding = utf16Or32Encoding(of: bytes) {
            throw parser.error("the text is \(encoding), not UTF-8; save it as UTF-8 (mesh.json is UTF-8 text)", at: 0)
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            parser.position = 3
        }
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        if parser.position < bytes.count {
            throw parser.error("unexpected \(parser.describeByte(at: parser.position)) after the JSON value")
        }
        return value
    }

    /// The name of the encoding when the bytes are recognisably UTF-16 or UTF-32: by a byte order
    /// mark, or by the zero bytes around the first two characters when those are what a JSON
    /// text starts with (`{`, `[`, a quote, whitespace), so the message can say so rather than
    /// name an unexpected byte. Other binary data is left to the parser's usual message.
    static func utf16Or32Encoding(of bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return "UTF-32 (big-endian byte order mark 00 00 FE FF)" }
        if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return "UTF-32 (little-endian byte order mark FF FE 00 00)" }
        if bytes.starts(with: [0xFE, 0xFF]) { return "UTF-16 (big-endian byte order mark FE FF)" }
        if bytes.starts(with: [0xFF, 0xFE]) { return "UTF-16 (little-endian byte order mark FF FE)" }
        guard bytes.count >= 8 else { return nil }
        func opening(_ byte: UInt8) -> Bool { Array("{[\" \t\r\n".utf8).contains(byte) }
        let b = Array(bytes.prefix(8))
        if b[0] == 0, b[1] == 0, b[2] == 0, opening(b[3]), b[4] == 0, b[5] == 0, b[6] == 0, b[7] != 0 { return "UTF-32 (big-endian)" }
        if opening(b[0]), b[1] == 0, b[2] == 0, b[3] == 0, b[4] != 0, b[5] == 0, b[6] == 0, b[7] == 0 { return "UTF-32 (little-endian)" }
        if b[0] == 0, opening(b[1]), b[2] == 0, b[3] != 0, b[4] == 0, b[6] == 0 { return "UTF-16 (big-endian)" }
        if opening(b[0]), b[1] == 0, b[2] != 0, b[3] == 0, b[5] == 0, b[7] == 0 { return "UTF-16 (little-endian)" }
        return nil
    }
}

private extension JSONParser {
    // MARK: Values

    mutating func parseValue() throws -> JSONValue {
        guard let byte = peek() else {
            throw error("unexpected end of input; expected a JSON value")
        }
        switch byte {
        case UInt8(ascii: "{"):
            return try parseObject()
        case UInt8(ascii: "["):
            return try parseArray()
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "t"):
            try parseLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try parseLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try parseLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try parseNumber())
        case UInt8(ascii: "N") where matches("NaN"):
            throw nonFinite("NaN")
        case UInt8(ascii: "I") where matches("Infinity"):
            throw nonFinite("Infinity")
        case UInt8(ascii: "+"):
            throw error("a number may not start with '+'")
        case UInt8(ascii: "."):
            throw error("a number must have a digit before the decimal point")
        default:
            throw error("unexpected \(describeByte(at: position)); expected a JSON value")
        }
    }

    mutating func parseObject() throws -> JSONValue {
        try enterContainer()
        position += 1 // "{"
        skipWhitespace()
        var members: [JSONObject.Member] = []
        if peek() == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return .object(JSONObject(members: members))
        }
        // Small objects (every object in mesh.json) check duplicates by scanning; a set is built
        // only when an object grows, which keeps the whole parse linear.
        var seen: Set<String>?
        members.reserveCapacity(2)
        while true {
            skipWhitespace()
            guard let byte = peek() else {
                throw error("unexpected end of input; expected a key in double quotes")
            }
            guard byte == UInt8(ascii: "\"") else {
                if byte == UInt8(ascii: "}") && !members.isEmpty {
                    throw error("trailing comma before '}'")
                }
                throw error("unexpected \(describeByte(at: position)); expected a key in double quotes")
            }
            let keyStart = position
            let key = try parseString()
            if members.count >= 8 && seen == nil {
                seen = Set(members.map(\.key))
            }
            let isDuplicate = seen.map { $0.contains(key) } ?? members.contains { $0.key == key }
            if isDuplicate {
                path.append(.key(key))
                throw error("duplicate key \(JSONPath.quoted(key, quote: "'"))", at: keyStart, withPath: true)
            }
            seen?.insert(key)
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else {
                throw error(
                    peek() == nil
                        ? "unexpected end of input; expected ':' after the key"
                        : "unexpected \(describeByte(at: position)); expected ':' after the key")
            }
            position += 1
            skipWhitespace()
            path.append(.key(key))
            let value = try parseValue()
            path.removeLast()
            members.append(JSONObject.Member(key: key, value: value))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                position += 1
            case UInt8(ascii: "}"):
                position += 1
                depth -= 1
                return .object(JSONObject(members: members))
            case nil:
                throw error("unexpected end of input; expected ',' or '}'")
            default:
                throw error("unexpected \(describeByte(at: position)); expected ',' or '}'")
            }
        }
    }

    mutating func parseArray() throws -> JSONValue {
        try enterContainer()
        position += 1 // "["
        skipWhitespace()
        var elements: [JSONValue] = []
        if peek() == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return .array(elements)
        }
        // Most arrays in mesh.json hold 2 to 4 numbers; one allocation instead of three.
        elements.reserveCapacity(4)
        path.append(.index(0))
        while true {
            path[path.count - 1] = .index(elements.count)
            skipWhitespace()
            if peek() == UInt8(ascii: "]") && !elements.isEmpty {
                throw error("trailing comma before ']'")
            }
            elements.append(try parseValue())
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                position += 1
            case UInt8(ascii: "]"):
                position += 1
                depth -= 1
                path.removeLast()
                return .array(elements)
            case nil:
                throw error("unexpected end of input; expected ',' or ']'")
            default:
                throw error("unexpected \(describeByte(at: position)); expected ',' or ']'")
            }
        }
    }

    /// Counts one more level of nesting, failing before the recursion could exhaust the stack.
    mutating func enterContainer() throws {
        depth += 1
        if depth > maxDepth {
            throw error("nesting is deeper than \(maxDepth) levels")
        }
    }

    mutating func parseLiteral(_ literal: String) throws {
        guard matches(literal) else {
            // A literal cut short by the end of the file reads better as a truncation.
            let rest = bytes.count - position
            if rest < literal.utf8.count, bytes[position...].elementsEqual(literal.utf8.prefix(rest)) {
                throw error("unexpected end of input in '\(literal)'", at: bytes.count)
            }
            throw error("unexpected \(describeByte(at: position)); expected a JSON value")
        }
        position += literal.utf8.count
    }

    /// Whether the input continues with `literal` at the current position.
    func matches(_ literal: String) -> Bool {
        var index = position
        for byte in literal.utf8 {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
        }
        return true
    }

    // MARK: Numbers

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    ///
    /// Most numbers are converted exactly on the way (Clinger's fast path: a mantissa of at most
    /// 2⁵³ times or divided by a power of ten up to 10²², each exact in a `Double`, so the one
    /// rounding is the correct one); the rest go to `Double(String)`, which is correctly rounded
    /// too, so both give the nearest `Double`.
    mutating func parseNumber() throws -> JSONNumber {
        let start = position
        var negative = false
        if peek() == UInt8(ascii: "-") {
            negative = true
            position += 1
            if matches("Infinity") {
                throw nonFinite("-Infinity", at: start)
            }
        }
        var digits = DigitAccumulator()
        switch peek() {
        case UInt8(ascii: "0"):
            position += 1
            if let next = peek(), isDigit(next) {
                throw error("a number may not have leading zeros")
            }
        case let byte? where isDigit(byte):
            accumulateDigits(into: &digits)
        default:
            throw error(atEnd ? "unexpected end of input in a number" : "expected a digit in the number")
        }
        var fractionDigits = 0
        if peek() == UInt8(ascii: ".") {
            position += 1
            guard let byte = peek(), isDigit(byte) else {
                throw error(atEnd ? "unexpected end of input in a number" : "expected a digit after the decimal point")
            }
            let fractionStart = position
            accumulateDigits(into: &digits)
            fractionDigits = position - fractionStart
        }
        var exponent = 0
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            position += 1
            var exponentSign = 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") {
                exponentSign = peek() == UInt8(ascii: "-") ? -1 : 1
                position += 1
            }
            guard let byte = peek(), isDigit(byte) else {
                throw error(atEnd ? "unexpected end of input in a number" : "expected a digit in the exponent")
            }
            while let byte = peek(), isDigit(byte) {
                // Saturating: only the fast-path test below reads it, and it only needs to know
                // the exponent is large.
                exponent = Swift.min(exponent * 10 + Int(byte - UInt8(ascii: "0")), 1_000_000)
                position += 1
            }
            exponent *= exponentSign
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        let decimalExponent = exponent - Swift.min(fractionDigits, 1_000_000)
        if !digits.overflowed, digits.mantissa <= 1 << 53, abs(decimalExponent) <= 22 {
            let mantissa = Double(digits.mantissa)
            let scale = JSONParser.powersOfTen[abs(decimalExponent)]
            let magnitude = decimalExponent < 0 ? mantissa / scale : mantissa * scale
            return JSONNumber(value: negative ? -magnitude : magnitude, text: text)
        }
        // The grammar above is a subset of what Double(String) accepts, so this cannot fail; the
        // guard keeps the parser trap-free all the same.
        guard let value = Double(text) else {
            throw error("invalid number", at: start)
        }
        return JSONNumber(value: value, text: text)
    }

    /// Reads a run of digits, appending them to `digits`.
    mutating func accumulateDigits(into digits: inout DigitAccumulator) {
        while position < bytes.count, isDigit(bytes[position]) {
            digits.append(bytes[position] - UInt8(ascii: "0"))
            position += 1
        }
    }

    /// Whether the input has run out, to tell a truncated file from a malformed one.
    var atEnd: Bool { position >= bytes.count }

    func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    // MARK: Strings

    /// A string starting at the current `"`; escapes decoded, UTF-8 validated.
    mutating func parseString() throws -> String {
        let start = position
        position += 1 // opening quote
        let contentStart = position
        // Fast path: no escapes, so the bytes are the string.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let content = bytes[contentStart..<position]
                position += 1
                return try makeString(content, startingAt: start)
            }
            if byte == UInt8(ascii: "\\") {
                var buffer = Array(bytes[contentStart..<position])
                return try parseEscapedString(into: &buffer, startingAt: start)
            }
            if byte < 0x20 {
                throw controlCharacterError(byte)
            }
            position += 1
        }
        throw error("unterminated string", at: start)
    }

    /// The rest of a string once an escape has been seen, collected into `buffer`.
    mutating func parseEscapedString(into buffer: inout [UInt8], startingAt start: Int) throws -> String {
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return try makeString(buffer[...], startingAt: start)
            }
            if byte < 0x20 {
                throw controlCharacterError(byte)
            }
            if byte != UInt8(ascii: "\\") {
                buffer.append(byte)
                position += 1
                continue
            }
            let escapeStart = position
            position += 1
            guard let escaped = peek() else { break }
            position += 1
            switch escaped {
            case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "/"): buffer.append(UInt8(ascii: "/"))
            case UInt8(ascii: "b"): buffer.append(0x08)
            case UInt8(ascii: "f"): buffer.append(0x0C)
            case UInt8(ascii: "n"): buffer.append(0x0A)
            case UInt8(ascii: "r"): buffer.append(0x0D)
            case UInt8(ascii: "t"): buffer.append(0x09)
            case UInt8(ascii: "u"):
                let scalar = try parseUnicodeEscape(escapeStart: escapeStart)
                UTF8.encode(scalar) { buffer.append($0) }
            default:
                throw error("invalid escape \(describeEscape(at: escapeStart)) in a string", at: escapeStart)
            }
        }
        throw error("unterminated string", at: start)
    }

    /// The scalar of `\uXXXX` (just after the `u`), joining a surrogate pair written as two escapes.
    mutating func parseUnicodeEscape(escapeStart: Int) throws -> Unicode.Scalar {
        let first = try parseHex4(escapeStart: escapeStart)
        switch first {
        case 0xD800...0xDBFF:
            guard matches("\\u") else {
                throw error("unpaired surrogate \\u\(JSONPath.hex4(first)) in a string", at: escapeStart)
            }
            let secondStart = position
            position += 2
            let second = try parseHex4(escapeStart: secondStart)
            guard (0xDC00...0xDFFF).contains(second) else {
                throw error("unpaired surrogate \\u\(JSONPath.hex4(first)) in a string", at: escapeStart)
            }
            let value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            guard let scalar = Unicode.Scalar(value) else {
                throw error("invalid escape in a string", at: escapeStart)
            }
            return scalar
        case 0xDC00...0xDFFF:
            throw error("unpaired surrogate \\u\(JSONPath.hex4(first)) in a string", at: escapeStart)
        default:
            guard let scalar = Unicode.Scalar(first) else {
                throw error("invalid escape in a string", at: escapeStart)
            }
            return scalar
        }
    }

    mutating func parseHex4(escapeStart: Int) throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek() else {
                throw error("unterminated \\u escape in a string", at: escapeStart)
            }
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A")) + 10
            default:
                throw error("invalid \\u escape in a string (expected four hex digits)", at: escapeStart)
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    func makeString(_ content: ArraySlice<UInt8>, startingAt start: Int) throws -> String {
        // ASCII needs no validation, and mesh.json keys are ASCII: take the cheap road.
        if content.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: content, as: UTF8.self)
        }
        guard let string = String(validating: content, as: UTF8.self) else {
            throw error("string is not valid UTF-8", at: start)
        }
        return string
    }

    // MARK: Positions and errors

    func peek() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                position += 1
            default:
                return
            }
        }
    }

    /// A syntax error at `offset` (default: the current position), with its line and column.
    ///
    /// Line and column are counted only here, when an error is reported, so parsing pays nothing
    /// for them. Columns count Unicode scalars, not bytes.
    func error(_ message: String, at offset: Int? = nil, withPath: Bool = false) -> MeshError {
        let end = min(offset ?? position, bytes.count)
        var line = 1, column = 1
        for byte in bytes[..<end] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        let pathText = withPath ? JSONPath(path).description : ""
        return MeshError(.syntax, path: pathText, "line \(line), column \(column): \(message)")
    }

    /// A NaN or Infinity literal: not JSON, but clearly meant as a number, so it is reported like
    /// any other non-finite number, by the path of the value it stands for (and its position).
    func nonFinite(_ literal: String, at offset: Int? = nil) -> MeshError {
        let located = error("\(literal) is not allowed (JSON numbers must be finite)", at: offset, withPath: true)
        return MeshError(.invalidValue, path: located.path, located.message)
    }

    /// The byte at `offset` for a message: `'x'` for printable ASCII, `byte 0xNN` otherwise.
    func describeByte(at offset: Int) -> String {
        guard offset < bytes.count else { return "end of input" }
        let byte = bytes[offset]
        if byte >= 0x20 && byte < 0x7F {
            return "'\(Character(Unicode.Scalar(byte)))'"
        }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    func controlCharacterError(_ byte: UInt8) -> MeshError {
        error("control character U+\(JSONPath.hex4(UInt32(byte)).uppercased()) in a string must be escaped")
    }

    /// `\x` for the escape at `offset`, as written.
    func describeEscape(at offset: Int) -> String {
        guard offset + 1 < bytes.count else { return "'\\'" }
        let byte = bytes[offset + 1]
        if byte >= 0x20 && byte < 0x7F {
            return "'\\\(Character(Unicode.Scalar(byte)))'"
        }
        return "'\\' followed by byte 0x\(String(byte, radix: 16, uppercase: true))"
    }
}

extension JSONParser {
    /// 10⁰ … 10²², every one exactly representable as a `Double`.
    static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// The decimal digits of a number as an integer, while they fit in 64 bits.
    struct DigitAccumulator {
        var mantissa: UInt64 = 0
        /// Set once a digit no longer fits; the number then takes the slow, general path.
        var overflowed = false

        mutating func append(_ digit: UInt8) {
            guard !overflowed else { return }
            let (times10, o1) = mantissa.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(digit))
            if o1 || o2 {
                overflowed = true
            } else {
                mantissa = sum
            }
        }
    }
}
