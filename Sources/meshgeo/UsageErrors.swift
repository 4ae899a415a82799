import ArgumentParser
import Foundation

/// Usage errors as one line on standard error, `meshgeo: error: …`, with exit 64; help and
/// `--version` as swift-argument-parser prints them.
enum UsageErrors {
    /// A subcommand name this far (in edits) from a mistyped word is offered as "did you mean";
    /// two catches a swapped, missing or doubled letter (tesselate, tessellatte, fitt).
    static let suggestionDistance = 2

    /// The message for a first argument that is neither an option nor a subcommand (or for the
    /// word after `help`).
    static func unknownSubcommand(_ arguments: [String], known: [String]) -> String? {
        let candidate = arguments.first == "help" ? arguments.dropFirst().first : arguments.first
        guard let word = candidate, !word.hasPrefix("-"), !known.contains(word) else { return nil }
        let shown = Printable.quoted(word)
        if let match = suggestion(for: word, among: known) {
            return "unknown subcommand \(shown); did you mean '\(match)'? (see 'meshgeo --help')"
        }
        return "unknown subcommand \(shown) (see 'meshgeo --help' for the list)"
    }

    /// The closest name within ``suggestionDistance`` edits, or one the word begins (at least
    /// three letters); ties go to the earlier name.
    static func suggestion(for word: String, among names: [String]) -> String? {
        let lower = word.lowercased()
        if lower.count >= 3, let prefixed = names.first(where: { $0.hasPrefix(lower) }) { return prefixed }
        var best: (name: String, distance: Int)?
        for name in names {
            let d = editDistance(Array(lower), Array(name))
            if d <= suggestionDistance, d < (best?.distance ?? Int.max) { best = (name, d) }
        }
        return best?.name
    }

    /// Levenshtein distance: insertions, deletions and substitutions of one character each.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    static func exit(_ message: String) -> Never {
        StandardError.write("meshgeo: error: \(message)")
        Foundation.exit(Failure.Code.usage.rawValue)
    }

    /// Help and `--version` print as usual (exit 0); any other parse or validation error is one
    /// line with the exit code swift-argument-parser gives it (64 for usage).
    static func exit(_ error: Error, subcommand: String?) -> Never {
        if let code = error as? ExitCode { Foundation.exit(code.rawValue) }
        let code = MeshGeo.exitCode(for: error)
        guard !code.isSuccess else { MeshGeo.exit(withError: error) }
        var text = MeshGeo.message(for: error)
            .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            .joined(separator: " ")
        // An `ExitCode` thrown by a `validate()` that has already written its own line arrives
        // wrapped by the parser, with no message: exit with its code and write nothing more.
        if text.isEmpty { Foundation.exit(code.rawValue) }
        // The parser's sentences end in a full stop; the pointer to the help follows instead.
        if text.hasSuffix(".") { text.removeLast() }
        // The pointer to the help only for bad usage; any other failure is reported as it is.
        let help = subcommand.map { "meshgeo \($0) --help" } ?? "meshgeo --help"
        let pointer = code.rawValue == Failure.Code.usage.rawValue ? " (see '\(help)')" : ""
        StandardError.write("meshgeo: error: \(text)\(pointer)")
        Foundation.exit(code.rawValue)
    }
}

/// A user's word shown in a message: quoted, with control characters escaped so nothing typed
/// can move the terminal's cursor or break the one-line rule.
enum Printable {
    static func quoted(_ word: String) -> String {
        var out = "'"
        for scalar in word.unicodeScalars {
            if scalar.properties.generalCategory == .control {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "'"
    }
}
