/// The scanner's error messages, and the byte-level helpers they describe with.
///
/// Messages read "expected X, found Y", where Y names what is really there: a
/// quoted character, a bare word (`'tru'`), "end of file" or a control
/// character by code point, so a person can find it even when it is invisible.
extension JSONScanner {
    /// What stands at an offset, for the "found ..." part of a message.
    struct Found {
        /// The description: `'}'`, `'tru'`, `end of file`, `control character U+0001`.
        var text: String
        /// A likely cause worth naming, e.g. that comments are not allowed.
        var hint: String?
    }

    /// A syntax error "expected \(expected), found ..." at `offset`; invalid UTF-8
    /// there is reported as such instead, since it cannot be shown.
    /// - Parameters:
    ///   - hint: Replaces the hint the found text would bring.
    ///   - wholeWord: Whether a letter or digit is shown with the word it starts.
    func failure(expected: String, at offset: Int, hint: String? = nil, wholeWord: Bool = true) -> Stop {
        if offset < bytes.count, bytes[offset] >= 0x80, utf8SequenceLength(at: offset) == nil {
            return invalidUTF8(at: offset)
        }
        let found = found(at: offset, wholeWord: wholeWord)
        return failure("expected \(expected), found \(found.text)" + parenthesized(hint ?? found.hint), at: offset)
    }

    /// A syntax error with `message` at the byte at `offset`.
    func failure(_ message: String, at offset: Int) -> Stop {
        .syntax(JSONSyntaxError(position: position(at: offset), message: message))
    }

    /// The error for anything but whitespace after the root value.
    func trailingContent() -> Stop {
        if bytes[offset] >= 0x80, utf8SequenceLength(at: offset) == nil { return invalidUTF8(at: offset) }
        let found = found(at: offset, wholeWord: true)
        let message = "unexpected \(found.text) after the end of the JSON document" + parenthesized(found.hint)
        return failure(message, at: offset)
    }

    /// The error for a byte that does not begin well-formed UTF-8.
    func invalidUTF8(at offset: Int) -> Stop {
        failure("invalid UTF-8 byte 0x\(hex(bytes[offset], digits: 2))", at: offset)
    }

    /// Names the likely mistake when a `,` is followed by a closing bracket.
    func trailingCommaHint() -> String? {
        isAtByte("}") || isAtByte("]") ? "trailing commas are not allowed" : nil
    }

    /// The message for a raw control character inside a string.
    func controlCharacterMessage(_ byte: UInt8) -> String {
        let hint: String? = switch byte {
        case UInt8(ascii: "\t"): "write it as \\t"
        case UInt8(ascii: "\n"), UInt8(ascii: "\r"): "is the closing '\"' missing?"
        default: nil
        }
        return "unescaped control character U+\(hex(byte, digits: 4)) in string" + parenthesized(hint)
    }

    /// Describes what stands at `offset`.
    func found(at offset: Int, wholeWord: Bool) -> Found {
        guard offset < bytes.count else { return Found(text: "end of file") }
        let byte = bytes[offset]
        switch byte {
        case 0..<0x20, 0x7F:
            return Found(text: "control character U+\(hex(byte, digits: 4))")
        case 0x80...:
            let scalar = scalar(at: offset)
            if scalar == "\u{201C}" || scalar == "\u{201D}" {  // pasted from a word processor
                return Found(text: "'\(scalar)'", hint: "JSON strings need straight double quotes")
            }
            // Show the code point too: a no-break space looks like a space.
            return Found(text: "'\(scalar)' (U+\(hex(scalar.value, digits: 4)))")
        case UInt8(ascii: "'"):
            return Found(text: "\"'\"", hint: "JSON strings need double quotes")
        case UInt8(ascii: "/") where offset + 1 < bytes.count
            && (bytes[offset + 1] == UInt8(ascii: "/") || bytes[offset + 1] == UInt8(ascii: "*")):
            return Found(text: "'/'", hint: "comments are not allowed in JSON")
        case _ where wholeWord && isWordByte(at: offset):
            var end = offset
            while isWordByte(at: end) && end - offset < 21 { end += 1 }
            let run = String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self)
            let word = run.count > 20 ? String(run.prefix(20)) + "..." : run
            return Found(text: "'\(word)'", hint: wordHint(run))
        default:
            return Found(text: "'\(Character(Unicode.Scalar(byte)))'")
        }
    }

    /// Names the usual cause of a bare word where a value should be.
    private func wordHint(_ word: String) -> String? {
        switch word {
        case "NaN", "Infinity": "NaN and Infinity are not allowed in JSON"
        case "True", "TRUE", "False", "FALSE", "Null", "NULL", "nil", "None": "JSON has only true, false and null"
        default: nil
        }
    }

    /// `text` as " (text)", or "" for nil.
    private func parenthesized(_ text: String?) -> String {
        text.map { " (\($0))" } ?? ""
    }

    /// Whether the byte at `offset` is an ASCII letter, digit or underscore.
    func isWordByte(at offset: Int) -> Bool {
        guard offset < bytes.count else { return false }
        let byte = bytes[offset]
        return (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
    }

    /// The scalar at `offset`, which must begin well-formed UTF-8.
    func scalar(at offset: Int) -> Unicode.Scalar {
        let length = utf8SequenceLength(at: offset) ?? 1
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<offset + length]), as: UTF8.self)
        return text.unicodeScalars.first ?? "\u{FFFD}"
    }

    /// `value` in upper-case hex, zero-padded to `digits`.
    private func hex(_ value: some BinaryInteger, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
