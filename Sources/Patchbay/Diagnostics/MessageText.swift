/// How text read from a manifest (a name, a key, a value) is written into a message, so that a message
/// cannot mislead: one escaping, in which every character that prints as itself stands for itself and
/// nothing else does, and a length a reader can take in.
///
/// - A backslash is written `\\`, so that `\n` can only be an escape: a name holding a line break and one
///   holding a backslash and an `n` print differently (`a\nb`, `a\\nb`).
/// - A control character, a bidirectional override or a character that prints as nothing (zero-width
///   space, joiner, soft hyphen, byte order mark) is written as its escape (`\n`, `\t`, `\u{202E}`):
///   none can reorder what follows it on the line, hide a character, or drive a terminal.
/// - A name longer than ``longest`` characters is cut, with how long it was: a 1 MB factory name quoted
///   in full made a 1 MB line.
///
/// Look-alike letters (a Cyrillic `ѕ` in `file-ѕtore`) print as themselves; ``LookAlikes`` names them
/// when a suggestion differs only by them.
enum MessageText {
    /// The most characters of a name a message quotes.
    static let longest = 80

    /// `text`, escaped as above, cut after ``longest`` characters.
    static func name(_ text: String) -> String {
        var count = 0
        var plain = true
        for scalar in text.unicodeScalars {
            count += 1
            if scalar == "\\" || scalar.isInvisibleInMessages { plain = false }
            if count > longest { break }
        }
        if plain, count <= longest { return text }  // nearly every name
        var written = ""
        var scalars = text.unicodeScalars.makeIterator()
        for _ in 0..<longest {
            guard let scalar = scalars.next() else { return written }
            written += escaped(scalar)
        }
        guard scalars.next() != nil else { return written }
        return written + "... (\(text.unicodeScalars.count) characters)"
    }

    /// `a, b or c`: the values a message offers, the last after "or".
    static func choices(_ names: [String]) -> String { names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "") }

    /// `"; did you mean 'SUGGESTION'?"`, with the look-alike characters named when the suggestion differs
    /// from `written` only by them (see ``LookAlikes``).
    static func didYouMean(_ suggestion: String, for written: String, lead: String = "; did you mean") -> String {
        "\(lead) '\(name(suggestion))'?" + (LookAlikes.note(written: written, meant: suggestion).map { " \($0)" } ?? "")
    }

    /// One scalar as a message writes it.
    static func escaped(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\\": "\\\\"
        case "\n": "\\n"
        case "\r": "\\r"
        case "\t": "\\t"
        case _ where scalar.isInvisibleInMessages: "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        default: String(scalar)
        }
    }
}

extension Unicode.Scalar {
    /// A character a message escapes: a C0 or C1 control, DEL, a line or paragraph separator, a
    /// bidirectional control, or one that prints as nothing (a zero-width or joiner character, a soft
    /// hyphen, a byte order mark, a variation selector, a tag, a Hangul filler).
    var isInvisibleInMessages: Bool {
        switch value {
        case 0..<0x20, 0x7F...0x9F, 0xAD, 0x34F, 0x61C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B...0x180F,
             0x200B...0x200F, 0x2028...0x202E, 0x2060...0x206F, 0x3164, 0xFE00...0xFE0F, 0xFEFF, 0xFFA0,
             0xFFF9...0xFFFB, 0x1D173...0x1D17A, 0xE0000...0xE0FFF:
            true
        default:
            false
        }
    }
}
