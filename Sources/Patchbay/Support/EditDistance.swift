/// "Did you mean ...?" suggestions by edit distance, as swift-argument-parser offers.
package enum EditDistance {
    /// The Levenshtein distance between two strings, compared case-insensitively.
    package static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased().unicodeScalars), b = Array(b.lowercased().unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// Names longer than this, in bytes, are never compared: the distance costs
    /// the product of the lengths, a manifest is untrusted input, and no typo is
    /// that long.
    static let longestComparedName = 128

    /// The candidates close enough to `word` to suggest, nearest first.
    ///
    /// A candidate qualifies when at most a third of its letters differ (at
    /// least one edit is always allowed), or when one name contains the other.
    /// Names longer than `longestComparedName` get no suggestions.
    package static func suggestions(for word: String, among candidates: some Sequence<String>, limit: Int = 3) -> [String] {
        guard word.utf8.count <= longestComparedName else { return [] }
        let lowered = word.lowercased()
        var scored: [(name: String, distance: Int)] = []
        for candidate in Set(candidates) where candidate != word && candidate.utf8.count <= longestComparedName {
            let distance = between(word, candidate)
            let allowed = max(1, max(word.count, candidate.count) / 3)
            let lowerCandidate = candidate.lowercased()
            let contains = !lowered.isEmpty && (lowerCandidate.contains(lowered) || lowered.contains(lowerCandidate))
            if distance <= allowed || contains {
                scored.append((candidate, distance))
            }
        }
        scored.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.name < $1.name }
        return scored.prefix(limit).map(\.name)
    }
}
