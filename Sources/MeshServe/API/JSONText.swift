/// Writing JSON text by hand: strings escaped, numbers in the shortest form that reads back to the
/// same Double (as the command line writes them).
enum JSONText {
    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A finite Double; −0 is written as 0. Callers pass only finite values (the library never
    /// produces others); a non-finite one is written as `null` so the output stays JSON.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        return (value == 0 ? 0.0 : value).description
    }
}
