/// The scanner's messages: "expected X, found Y", where Y names what is really
/// there (a quoted character, a bare word such as `'tru'`, "end of file", a
/// control character by code point), so a person finds it even when it is invisible.
extension JSONScanner {
    /// "expected \(expected), found ..." at `offset` (with no `expected`, anything after the root value), or
    /// invalid UTF-8 there, which cannot be shown. `wholeWord`: whether a letter or digit is shown with its word.
    func failure(expected: String?, at offset: Int, hint: String? = nil, wholeWord: Bool = true) -> Stop {
        if offset < byteCount, scalar(at: offset) == nil { return invalidUTF8(at: offset) }
        let (found, foundHint) = found(at: offset, wholeWord: wholeWord)
        let message = expected.map { "expected \($0), found \(found)" } ?? "unexpected \(found) after the end of the JSON document"
        return failure(message + parenthesized(hint ?? foundHint), at: offset)
    }

    func failure(_ message: String, at offset: Int) -> Stop {
        .syntax(JSONSyntaxError(position: position(at: offset), message: message))
    }

    func invalidUTF8(at offset: Int) -> Stop { failure("invalid UTF-8 byte 0x\(hex(byte(at: offset), 2))", at: offset) }

    /// Names the likely mistake when a `,` is followed by a closing bracket.
    func trailingCommaHint() -> String? { isAt("}") || isAt("]") ? "trailing commas are not allowed" : nil }

    func controlCharacterMessage(_ byte: UInt8) -> String {
        let hint = byte == 0x09 ? "write it as \\t" : byte == 0x0A || byte == 0x0D ? "is the closing '\"' missing?" : nil
        return "unescaped control character U+\(hex(byte, 4)) in string" + parenthesized(hint)
    }

    /// What stands at `offset`, and a likely cause worth naming.
    private func found(at offset: Int, wholeWord: Bool) -> (String, hint: String?) {
        guard offset < byteCount else { return ("end of file", nil) }
        let byte = self.byte(at: offset)
        switch byte {
        case 0..<0x20, 0x7F:
            return ("control character U+\(hex(byte, 4))", nil)
        case 0x80...:
            let scalar = scalar(at: offset) ?? "\u{FFFD}"
            if scalar == "\u{201C}" || scalar == "\u{201D}" { return ("'\(scalar)'", "JSON strings need straight double quotes") }
            return ("'\(scalar)' (U+\(hex(scalar.value, 4)))", nil)  // a no-break space looks like a space
        case UInt8(ascii: "'"):
            return ("\"'\"", "JSON strings need double quotes")
        case UInt8(ascii: "/") where offset + 1 < byteCount && (self.byte(at: offset + 1) == 0x2F || self.byte(at: offset + 1) == 0x2A):
            return ("'/'", "comments are not allowed in JSON")
        case _ where wholeWord && isWordByte(at: offset):
            var end = offset
            while isWordByte(at: end) && end - offset < 21 { end += 1 }
            let run = text(offset..<end)
            let hint: String? = switch run {
            case "NaN", "Infinity": "NaN and Infinity are not allowed in JSON"
            case "True", "TRUE", "False", "FALSE", "Null", "NULL", "nil", "None": "JSON has only true, false and null"
            default: nil
            }
            return ("'\(run.count > 20 ? run.prefix(20) + "..." : run)'", hint)
        default:
            return ("'\(Character(Unicode.Scalar(byte)))'", nil)
        }
    }

    private func parenthesized(_ text: String?) -> String { text.map { " (\($0))" } ?? "" }

    /// Whether the byte at `offset` is an ASCII letter, digit or underscore.
    func isWordByte(at offset: Int) -> Bool {
        guard offset < byteCount else { return false }
        let byte = self.byte(at: offset)
        return (0x61...0x7A).contains(byte | 0x20) || (0x30...0x39).contains(byte) || byte == 0x5F
    }

    private func hex(_ value: some BinaryInteger, _ digits: Int) -> String { String(format: "%0\(digits)X", UInt32(value)) }
}
