/// Letters that look like ASCII ones and are not: when "did you mean" suggests a name that differs from
/// the one written only by such letters, the suggestion looks identical to what was written, and the
/// message says which character it is, as rustc's lexer does: "'ѕ' (Cyrillic Small Letter Dze, U+0455)
/// looks like 's' (Latin Small Letter S), but it is not".
///
/// A small, bounded table of the letters most often mistaken (Cyrillic and Greek capitals and small
/// letters that share a Latin shape, and the fullwidth forms of the ASCII range), not Unicode's whole
/// confusables list: it is read only when a suggestion is made.
enum LookAlikes {
    /// Each look-alike's ASCII letter.
    private static let table: [Unicode.Scalar: Unicode.Scalar] = {
        var table: [Unicode.Scalar: Unicode.Scalar] = [:]
        let pairs: [(String, String)] = [
            // Cyrillic
            ("\u{430}\u{435}\u{43E}\u{440}\u{441}\u{443}\u{445}\u{455}\u{456}\u{458}\u{4BB}\u{501}\u{51B}\u{51D}\u{4CF}",
             "aeopcyxsijhdqwl"),
            ("\u{410}\u{412}\u{415}\u{41A}\u{41C}\u{41D}\u{41E}\u{420}\u{421}\u{422}\u{425}\u{405}\u{406}\u{408}\u{4AE}\u{50C}\u{51C}",
             "ABEKMHOPCTXSIJYGW"),
            // Greek
            ("\u{3BF}\u{3B1}\u{3BD}\u{3C1}\u{3B9}\u{3C5}", "oavpiu"),
            ("\u{391}\u{392}\u{395}\u{396}\u{397}\u{399}\u{39A}\u{39C}\u{39D}\u{39F}\u{3A1}\u{3A4}\u{3A5}\u{3A7}",
             "ABEZHIKMNOPTYX"),
            // Others often met: dotless i, the Kelvin sign, Latin small capital letters.
            ("\u{131}\u{212A}\u{1D00}\u{1D04}\u{1D0F}\u{1D1C}\u{1D20}\u{1D21}\u{1D22}", "iKacouvwz"),
        ]
        for (from, to) in pairs {
            assert(from.unicodeScalars.count == to.unicodeScalars.count)
            for (a, b) in zip(from.unicodeScalars, to.unicodeScalars) { table[a] = b }
        }
        // Fullwidth forms of '!' to '~' (U+FF01...U+FF5E).
        for value in UInt32(0xFF01)...0xFF5E { table[Unicode.Scalar(value)!] = Unicode.Scalar(value - 0xFEE0)! }
        return table
    }()

    /// The sentence naming the first look-alike of `written` where `meant` has its ASCII letter, when the
    /// two differ only by look-alikes (and how many others there are); nil otherwise.
    static func note(written: String, meant: String) -> String? {
        let written = Array(written.unicodeScalars), meant = Array(meant.unicodeScalars)
        guard written.count == meant.count, written.count <= 1_024 else { return nil }
        var found: [(Unicode.Scalar, Unicode.Scalar)] = []
        for (a, b) in zip(written, meant) where a != b {
            guard table[a] == b else { return nil }
            found.append((a, b))
        }
        guard let (first, ascii) = found.first else { return nil }
        let others = found.count - 1
        return "'\(first)' (\(describe(first))) looks like '\(ascii)' (\(describe(ascii))), but it is not"
            + (others == 0 ? "" : "; nor \(others == 1 ? "is one other" : "are \(others) others") in the name")
    }

    /// "Cyrillic Small Letter Dze, U+0455"; "Latin Small Letter S" for an ASCII letter.
    static func describe(_ scalar: Unicode.Scalar) -> String {
        let name = (scalar.properties.name ?? "").split(separator: " ")
            .map { $0.prefix(1) + $0.dropFirst().lowercased() }.joined(separator: " ")
        return scalar.isASCII ? name : name + String(format: ", U+%04X", scalar.value)
    }
}
