/// A parsed JSON value that keeps what a strict reader needs: object keys in source order and each
/// number's source text beside its `Double`.
///
/// The source text lets error messages quote the number as written (`1e30 is out of range`) rather
/// than as it reads back (`1e+30`).
enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

/// A JSON number: its value and the text it was written as.
struct JSONNumber: Hashable, Sendable {
    /// The nearest `Double`; `±infinity` when the text is too large for a `Double`.
    var value: Double
    /// The number exactly as it appeared in the source.
    var text: String

    init(value: Double, text: String) {
        self.value = value
        self.text = text
    }

    /// Whether the number as written is a whole number (`2`, `2.0`, `30e-1`).
    ///
    /// Judged on the text, not the `Double`: `4.000…0001` with more digits than a `Double` holds
    /// reads as exactly 4.0, but is not an integer. Expects JSON number syntax, as the parser
    /// guarantees; linear in the text.
    var isIntegral: Bool {
        // A whole number always reads as a whole Double, so a fractional Double settles it; and
        // plain digits need no further look.
        if value.rounded(.towardZero) != value { return false }
        let utf8 = text.utf8
        if !utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            return true
        }
        var integerDigits = 0
        var exponent = 0
        var exponentSign = 1
        var inFraction = false, inExponent = false
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "."): inFraction = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"): inExponent = true
            case UInt8(ascii: "-") where inExponent: exponentSign = -1
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if inExponent {
                    // Saturate: past a billion the answer no longer depends on the exact exponent,
                    // and a thousand-digit exponent must not overflow.
                    exponent = Swift.min(exponent * 10 + Int(byte - UInt8(ascii: "0")), 1_000_000_000)
                } else if !inFraction {
                    integerDigits += 1
                }
            default: break
            }
        }
        // Digits at or after this position (counted from the first mantissa digit) are fractional.
        let pointPosition = integerDigits + exponentSign * exponent
        var position = 0
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "e"), UInt8(ascii: "E"): return true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if position >= pointPosition && byte != UInt8(ascii: "0") { return false }
                position += 1
            default: break
            }
        }
        return true
    }
}

/// A JSON object: its members in source order, with distinct keys (the parser rejects duplicates).
struct JSONObject: Hashable, Sendable {
    /// One `"key": value` pair.
    struct Member: Hashable, Sendable {
        var key: String
        var value: JSONValue
    }

    var members: [Member]

    init(members: [Member] = []) {
        self.members = members
    }

    /// The value for `key`, or `nil` when the object has no such key.
    ///
    /// Linear in the member count, which is fine for mesh.json's objects of at most five keys.
    subscript(key: String) -> JSONValue? {
        members.first { $0.key == key }?.value
    }
}

extension JSONValue {
    /// What kind of value this is, for messages such as "expected a number, found a string".
    var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A JSON path such as `faces[12].indices[2]`, kept as components and rendered only for a message.
struct JSONPath: Hashable, Sendable {
    /// One step into a value: an object key or an array index.
    enum Component: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    var components: [Component]

    init(_ components: [Component] = []) {
        self.components = components
    }

    /// The path as mesh.json errors print it: `layer.light.diffuse`, `faces[3].w[0]`, and keys that
    /// are not plain identifiers quoted in brackets (`layer["my key"]`) so the path stays one line.
    var description: String {
        var text = ""
        for component in components {
            switch component {
            case .index(let i):
                text += "[\(i)]"
            case .key(let key) where JSONPath.isPlain(key):
                if !text.isEmpty { text += "." }
                text += key
            case .key(let key):
                text += "[" + JSONPath.quoted(key) + "]"
            }
        }
        return text
    }

    /// Whether `key` can be printed bare in a path: a short identifier. Longer keys are quoted
    /// (and so cut short), keeping a message to one readable line whatever the input.
    static func isPlain(_ key: String) -> Bool {
        key.utf8.count <= 64 && isIdentifier(key)
    }

    /// Whether `key` is ASCII letters, digits and `_`, not starting with a digit.
    static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            return false
        }
        return key.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "_")
        }
    }

    /// `text` quoted for a message (a JSON string literal by default, `'…'` with `quote: "'"`):
    /// escaped so it stays on one line, and cut short (with `…`) so a huge key cannot make a huge
    /// message.
    static func quoted(_ text: String, quote: Unicode.Scalar = "\"", limit: Int = 64) -> String {
        var result = String(quote)
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit {
                result += "…"
                break
            }
            count += 1
            switch scalar {
            case quote: result += "\\" + String(quote)
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\u" + JSONPath.hex4(scalar.value)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + String(quote)
    }

    /// Four lowercase hex digits, zero-padded.
    static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
