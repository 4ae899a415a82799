import Foundation
import SurfaceKit

/// The top level of a request body: a JSON object whose members are kept as their raw bytes, so
/// that `mesh` reaches the library's strict mesh.json reader exactly as sent (keys this server
/// does not know itself, such as a layer's lights, are the reader's to accept or refuse), while the
/// small options are decoded here.
struct RequestBody {
    /// The raw text of each member's value, by key.
    var members: [String: ArraySlice<UInt8>]

    /// Splits `bytes` into top-level members. Only the structure is checked here (strings,
    /// brackets, commas); each value is parsed fully by whoever reads it.
    init(_ bytes: [UInt8]) throws(APIError) {
        var scanner = Scanner(bytes: bytes)
        members = try scanner.topLevelMembers()
    }

    /// The mesh document under `key`, read by the library: a bad mesh is 422 naming its path.
    func document(_ key: String = "mesh") throws(APIError) -> MeshDocument {
        guard let raw = members[key] else { throw APIError(.badRequest, path: key, "missing '\(key)': the mesh.json object") }
        do {
            // The same numeric range as the command line: inside it every result is finite.
            let document = try MeshDocument(json: Array(raw))
            try document.checkNumericRange()
            return document
        } catch let error as MeshError {
            throw APIError(error)
        } catch {
            throw APIError(.unprocessableContent, path: "", "\(error)")
        }
    }

    /// The raw text of a member with surrounding space removed, or `nil` when absent or `null`.
    func raw(_ key: String) -> String? {
        guard let raw = members[key] else { return nil }
        let text = String(decoding: raw, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text == "null" ? nil : text
    }

    func string(_ key: String) throws(APIError) -> String? {
        guard let text = raw(key) else { return nil }
        guard text.hasPrefix("\""),
            let value = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) as? String
        else { throw APIError(.badRequest, path: key, "'\(key)' must be a string") }
        return value
    }

    func number(_ key: String) throws(APIError) -> Double? {
        guard let text = raw(key) else { return nil }
        // JSON's number characters only: Swift's Double(_:) would also read hexadecimal (0x10, 0x1p3).
        let jsonNumber = text.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || "-+.eE".unicodeScalars.contains($0) }
        guard jsonNumber, let first = text.unicodeScalars.first, first == "-" || ("0"..."9").contains(first), let value = Double(text)
        else {
            throw APIError(.badRequest, path: key, "'\(key)' must be a number")
        }
        guard value.isFinite else { throw APIError(.badRequest, path: key, "'\(key)' must be a finite number") }
        return value
    }

    func bool(_ key: String) throws(APIError) -> Bool? {
        switch raw(key) {
        case nil: return nil
        case "true": return true
        case "false": return false
        default: throw APIError(.badRequest, path: key, "'\(key)' must be true or false")
        }
    }

    /// An array of `[x, y]` pairs of finite numbers, at most `limit` of them.
    func points(_ key: String, limit: Int) throws(APIError) -> [SIMD2<Double>] {
        guard let text = raw(key) else { throw APIError(.badRequest, path: key, "missing '\(key)': an array of [x, y] pairs") }
        // Booleans would pass as numbers through Foundation's reader; they are refused by name.
        guard !text.contains("true"), !text.contains("false"), !text.contains("null"),
            let array = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: []) as? [Any]
        else { throw APIError(.badRequest, path: key, "'\(key)' must be an array of [x, y] pairs of numbers") }
        guard array.count <= limit else {
            throw APIError(.contentTooLarge, path: key, "\(array.count) points is over the limit of \(limit) a request")
        }
        var result: [SIMD2<Double>] = []
        result.reserveCapacity(array.count)
        for (i, element) in array.enumerated() {
            guard let pair = element as? [Any], pair.count == 2, let x = pair[0] as? NSNumber, let y = pair[1] as? NSNumber,
                x.doubleValue.isFinite, y.doubleValue.isFinite
            else { throw APIError(.badRequest, path: "\(key)[\(i)]", "expected [x, y], two finite numbers") }
            result.append(SIMD2(x.doubleValue, y.doubleValue))
        }
        return result
    }

    /// One of a string enumeration's raw values, with the choices named in the error.
    func choice<T: RawRepresentable & CaseIterable>(_ key: String, _: T.Type) throws(APIError) -> T? where T.RawValue == String {
        guard let text = try string(key) else { return nil }
        guard let value = T(rawValue: text) else {
            let names = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw APIError(.badRequest, path: key, "'\(text)' is not one of \(names)")
        }
        return value
    }
}

extension RequestBody {
    /// A byte scanner for the top level of a JSON object.
    struct Scanner {
        let bytes: [UInt8]
        var offset = 0

        /// JSON nesting deeper than this is refused here (the mesh reader has its own limit).
        static let maximumDepth = 512

        mutating func topLevelMembers() throws(APIError) -> [String: ArraySlice<UInt8>] {
            skipSpace()
            guard offset < bytes.count else { throw APIError(.badRequest, "the body is empty: expected a JSON object") }
            guard bytes[offset] == UInt8(ascii: "{") else { throw APIError(.badRequest, "the body must be a JSON object") }
            offset += 1
            var members: [String: ArraySlice<UInt8>] = [:]
            skipSpace()
            if peek() == UInt8(ascii: "}") {
                offset += 1
                return try finish(members)
            }
            while true {
                skipSpace()
                guard peek() == UInt8(ascii: "\"") else { throw syntax("expected a key in quotes") }
                let keyStart = offset
                try skipString()
                let key = String(decoding: bytes[(keyStart + 1)..<(offset - 1)], as: UTF8.self)
                skipSpace()
                guard peek() == UInt8(ascii: ":") else { throw syntax("expected ':' after the key '\(key)'") }
                offset += 1
                skipSpace()
                let valueStart = offset
                try skipValue()
                guard members[key] == nil else { throw APIError(.badRequest, path: key, "the key '\(key)' appears twice") }
                members[key] = bytes[valueStart..<offset]
                skipSpace()
                guard let next = peek() else { throw syntax("the object is not closed") }
                offset += 1
                if next == UInt8(ascii: "}") { return try finish(members) }
                guard next == UInt8(ascii: ",") else { throw syntax("expected ',' or '}'") }
            }
        }

        mutating func finish(_ members: [String: ArraySlice<UInt8>]) throws(APIError) -> [String: ArraySlice<UInt8>] {
            skipSpace()
            guard offset == bytes.count else { throw syntax("unexpected text after the object") }
            return members
        }

        func peek() -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

        func syntax(_ message: String) -> APIError {
            APIError(.badRequest, "malformed JSON at byte \(offset): \(message)")
        }

        mutating func skipSpace() {
            while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
        }

        /// Skips a string starting at its opening quote, escapes included.
        mutating func skipString() throws(APIError) {
            offset += 1
            while offset < bytes.count {
                let byte = bytes[offset]
                offset += 1
                if byte == UInt8(ascii: "\\") {
                    offset += 1
                } else if byte == UInt8(ascii: "\"") {
                    return
                }
            }
            throw syntax("a string is not closed")
        }

        /// Skips one value: a string, or anything up to the matching bracket or the next
        /// separator at depth 0.
        mutating func skipValue() throws(APIError) {
            var depth = 0
            let start = offset
            while offset < bytes.count {
                let byte = bytes[offset]
                switch byte {
                case UInt8(ascii: "\""):
                    try skipString()
                    if depth == 0 { return }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    guard depth <= Scanner.maximumDepth else { throw syntax("nested deeper than \(Scanner.maximumDepth)") }
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if depth == 0 {
                        guard offset > start else { throw syntax("expected a value") }
                        return
                    }
                    depth -= 1
                    if depth == 0 {
                        offset += 1
                        return
                    }
                case UInt8(ascii: ","):
                    if depth == 0 {
                        guard offset > start else { throw syntax("expected a value") }
                        return
                    }
                default:
                    break
                }
                offset += 1
            }
            throw syntax("the body ends inside a value")
        }
    }
}
