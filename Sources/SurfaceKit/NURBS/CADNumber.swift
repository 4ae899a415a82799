/// Numbers and names as STEP and IGES files write them.
enum CADNumber {
    /// The shortest decimal that reads back to the same Double (Swift's `description`), in the form
    /// both formats require: a decimal point always and an upper-case exponent (`1.0E-05`, `-2.5`).
    /// Callers pass finite values only.
    static func real(_ value: Double) -> String {
        let text = value.description
        guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else {
            return text.contains(".") ? text : text + ".0"
        }
        var mantissa = String(text[..<e])
        if !mantissa.contains(".") { mantissa += ".0" }
        return mantissa + "E" + text[text.index(after: e)...]
    }

    /// A name reduced to printable ASCII (other characters become `_`), at most `limit` characters.
    static func asciiName(_ name: String, limit: Int = 64) -> String {
        let cleaned = String(name.unicodeScalars.prefix(limit).map { $0.value >= 32 && $0.value < 127 ? Character($0) : "_" })
        return cleaned.isEmpty ? "surface" : cleaned
    }

    /// Distinct knots and their multiplicities, from a full knot vector.
    static func knotsWithMultiplicities(_ knots: [Double]) -> (values: [Double], multiplicities: [Int]) {
        var values: [Double] = [], multiplicities: [Int] = []
        for k in knots {
            if let last = values.last, last == k {
                multiplicities[multiplicities.count - 1] += 1
            } else {
                values.append(k)
                multiplicities.append(1)
            }
        }
        return (values, multiplicities)
    }
}

/// What a CAD file says about where its numbers come from.
public struct CADFileInfo: Hashable, Sendable {
    /// The model's name (the mesh file's name without its extension, say).
    public var name: String
    /// The file's own name as written into its header.
    public var fileName: String

    public init(name: String, fileName: String) {
        self.name = name
        self.fileName = fileName
    }

    /// The time stamp both writers use. Files carry no creation time so that the same mesh always
    /// gives the same bytes.
    static let timestamp = "1970-01-01T00:00:00"
}
