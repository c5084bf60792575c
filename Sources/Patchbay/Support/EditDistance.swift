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
    /// (No distance exceeds the longer's length, so a band that wide is the whole table.)
    package static func between(_ a: String, _ b: String) -> Int {
        let (a, b) = (Array(a.lowercased().unicodeScalars), Array(b.lowercased().unicodeScalars))
        return distance(a, b, atMost: max(a.count, b.count))!
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
        // Deletions that make them equal make the edit distance at most 4, and they
        // keep to a band of 2 around the diagonal: only those cells are computed.
        guard long.count - short.count <= 2,
              let distance = distance(word, name, atMost: min(4, max(1, long.count / 3))),
              deletionsMakeEqual(word, name, fromFirst: deletions(word.count), fromSecond: deletions(name.count))
        else { return nil }
        return distance
    }

    /// The edit distance of `a` and `b` when it is at most `bound`, else nil:
    /// only the cells within `bound` of the diagonal can lead to such a distance.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], atMost bound: Int) -> Int? {
        let (n, m) = (a.count, b.count)
        guard abs(n - m) <= bound else { return nil }
        let beyond = bound + 1
        var previous = (0...m).map { min($0, beyond) }, current = previous
        for i in stride(from: 1, through: n, by: 1) {
            for j in current.indices { current[j] = beyond }
            current[0] = min(i, beyond)
            for j in stride(from: max(1, i - bound), through: min(m, i + bound), by: 1) {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution, beyond)
            }
            swap(&previous, &current)
        }
        return previous[m] <= bound ? previous[m] : nil
    }

    /// Whether deleting at most `fromFirst` letters of `a` and `fromSecond`
    /// of `b` makes them equal: whether their longest common subsequence
    /// leaves no more than that of each. Such a subsequence keeps within
    /// the larger of the two of the diagonal, so only those cells are computed.
    static func deletionsMakeEqual(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], fromFirst: Int, fromSecond: Int) -> Bool {
        let (n, m) = (a.count, b.count)
        guard n - m <= fromFirst, m - n <= fromSecond else { return false }
        let band = max(fromFirst, fromSecond), unreachable = -(n + m + 1)
        var previous = (0...m).map { $0 <= band ? 0 : unreachable }, current = previous
        for i in stride(from: 1, through: n, by: 1) {
            for j in current.indices { current[j] = unreachable }
            if i <= band { current[0] = 0 }
            for j in stride(from: max(1, i - band), through: min(m, i + band), by: 1) {
                let kept = a[i - 1] == b[j - 1] ? previous[j - 1] + 1 : unreachable
                current[j] = max(previous[j], current[j - 1], kept)
            }
            swap(&previous, &current)
        }
        return n - previous[m] <= fromFirst && m - previous[m] <= fromSecond
    }

    /// The names of `ranked` nearest first, then by name, at most `limit`.
    static func nearest(_ ranked: [(name: String, distance: Int)], limit: Int) -> [String] {
        // A few are kept, in order, as each is seen: no sort of them all.
        var best: [(name: String, distance: Int)] = []
        for candidate in ranked {
            let place = best.firstIndex {
                candidate.distance != $0.distance ? candidate.distance < $0.distance : candidate.name < $0.name
            } ?? best.count
            guard place < limit else { continue }
            best.insert(candidate, at: place)
            if best.count > limit { best.removeLast() }
        }
        return best.map(\.name)
    }

    /// The candidates close enough to `word` to suggest, nearest first,
    /// compared one by one: for one word among a few names. For many words
    /// among the same names, prepare a ``SuggestionIndex`` once.
    package static func suggestions(for word: String, among candidates: some Sequence<String>, limit: Int = 3) -> [String] {
        guard let letters = folded(word) else { return [] }
        let ranked = Set(candidates).compactMap { candidate -> (name: String, distance: Int)? in
            guard candidate != word, let name = folded(candidate), let distance = rank(of: name, for: letters) else { return nil }
            return (candidate, distance)
        }
        return nearest(ranked, limit: limit)
    }
}
