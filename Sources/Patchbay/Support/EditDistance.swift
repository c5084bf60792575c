/// "Did you mean ...?" suggestions, as swift-argument-parser offers: the one
/// rule of what is close enough to suggest, and the nearest first.
///
/// A name is suggested for a word, compared case-insensitively, when one
/// begins or ends with the other (`prod` for `production`, `store` for
/// `file-store`), or when they differ by a few letters: deleting at most two
/// letters from each (one from a word or name of more than
/// ``deepestDeletionLength`` letters) makes them equal, and at most a third of
/// their letters differ (one edit is always allowed). That covers a letter
/// missing, extra or wrong, two neighbours swapped, and two such slips in a
/// longer name (`NoteStorage` for `NoteStore`). Nearest first by edit
/// distance, then by name. Names longer than ``longestComparedName`` bytes are
/// never suggested nor looked up.
///
/// The rule is written so that an index can find every name it accepts
/// (``SuggestionIndex``, for many words among the same names); a word among a
/// few names is simply compared with each (``suggestions(for:among:limit:)``).
package enum EditDistance {
    /// The Levenshtein distance between two strings, compared case-insensitively.
    package static func between(_ a: String, _ b: String) -> Int {
        between(Array(a.lowercased().unicodeScalars), Array(b.lowercased().unicodeScalars))
    }

    /// The Levenshtein distance between two runs of scalars, compared as they are.
    static func between(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
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

    /// Up to this many letters, two may be deleted from a word or a name;
    /// beyond, one: an index holds every way of deleting them, which grows
    /// as the square of the length.
    static let deepestDeletionLength = 24

    /// How many letters may be deleted from a word or name of `length` letters.
    static func deletions(_ length: Int) -> Int { length <= deepestDeletionLength ? 2 : 1 }

    /// The word or name as compared: lower-cased scalars; nil when too long to compare.
    static func folded(_ text: String) -> [Unicode.Scalar]? {
        guard text.utf8.count <= longestComparedName else { return nil }
        return Array(text.lowercased().unicodeScalars)
    }

    /// The distance that ranks `name` among the suggestions for `word` (both
    /// ``folded(_:)``), or nil when the rule does not suggest it.
    static func rank(of name: [Unicode.Scalar], for word: [Unicode.Scalar]) -> Int? {
        guard !word.isEmpty else { return nil }
        let (short, long) = word.count <= name.count ? (word, name) : (name, word)
        if long.starts(with: short) || long.reversed().starts(with: short.reversed()) { return long.count - short.count }
        // Deleting letters leaves a common subsequence: one long enough for both sides' allowance.
        guard long.count - short.count <= 2 else { return nil }
        let common = longestCommonSubsequence(word, name)
        guard word.count - common <= deletions(word.count), name.count - common <= deletions(name.count) else {
            return nil
        }
        let distance = between(word, name)
        return distance <= max(1, max(word.count, name.count) / 3) ? distance : nil
    }

    /// The length of the longest common subsequence of two runs of scalars.
    private static func longestCommonSubsequence(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        var previous = [Int](repeating: 0, count: b.count + 1)
        var current = previous
        for i in a.indices {
            for j in b.indices {
                current[j + 1] = a[i] == b[j] ? previous[j] + 1 : max(previous[j + 1], current[j])
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// The names of `ranked` nearest first, then by name, at most `limit`.
    static func nearest(_ ranked: [(name: String, distance: Int)], limit: Int) -> [String] {
        ranked.sorted { $0.distance != $1.distance ? $0.distance < $1.distance : $0.name < $1.name }
            .prefix(limit).map(\.name)
    }

    /// The candidates close enough to `word` to suggest, nearest first,
    /// compared one by one: for one word among a few names. For many words
    /// among the same names, prepare a ``SuggestionIndex`` once.
    package static func suggestions(for word: String, among candidates: some Sequence<String>, limit: Int = 3) -> [String] {
        guard let letters = folded(word) else { return [] }
        var ranked: [(name: String, distance: Int)] = []
        for candidate in Set(candidates) where candidate != word {
            if let name = folded(candidate), let distance = rank(of: name, for: letters) {
                ranked.append((candidate, distance))
            }
        }
        return nearest(ranked, limit: limit)
    }
}
