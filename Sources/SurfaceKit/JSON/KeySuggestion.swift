/// Suggestions for misspelt keys: "unknown key 'vertexes'; did you mean 'vertices'?".
enum KeySuggestion {
    /// The Levenshtein distance (insertions, deletions and substitutions of Unicode scalars)
    /// between `a` and `b`.
    ///
    /// Two rows of the dynamic-programming table: O(|a|·|b|) time, O(|b|) memory.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// The known key nearest to `key`, or `nil` when none is close enough to be a plausible typo.
    ///
    /// Close enough means at most about a third of the candidate's length away (at least 2), after
    /// ignoring case, so `vertexes` finds `vertices` but `foo` suggests nothing. Ties go to the
    /// earlier candidate, so the order of `known` decides.
    static func nearest(to key: String, in known: [String]) -> String? {
        let lowered = key.lowercased()
        var best: (key: String, distance: Int)?
        for candidate in known {
            let limit = max(2, candidate.unicodeScalars.count / 3)
            // A key much longer than every candidate cannot be close; skipping it keeps a
            // pathological multi-megabyte key from costing time.
            guard abs(lowered.unicodeScalars.count - candidate.unicodeScalars.count) <= limit else { continue }
            let d = distance(lowered, candidate.lowercased())
            if d <= limit, d < (best?.distance ?? Int.max) {
                best = (candidate, d)
            }
        }
        return best?.key
    }

    /// The message for an unknown key: a suggestion when one is close, otherwise the keys allowed.
    static func unknownKeyMessage(_ key: String, known: [String]) -> String {
        let quotedKey = JSONPath.quoted(key, quote: "'")
        if let suggestion = nearest(to: key, in: known) {
            return "unknown key \(quotedKey); did you mean '\(suggestion)'?"
        }
        let list = known.map { "'\($0)'" }.joined(separator: ", ")
        return "unknown key \(quotedKey); expected one of \(list)"
    }
}
