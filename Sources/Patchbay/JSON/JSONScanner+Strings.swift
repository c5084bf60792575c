/// Strings: where the scanner checks escapes and UTF-8 (`JSONDecoder`
/// decodes them). A string is where non-ASCII text may appear, so this is
/// also where UTF-8 continuation bytes are counted for columns.
extension JSONScanner {
    /// Reads a string from its opening quote; returns the byte range between the
    /// quotes and whether it holds escapes (a string with none is used as is).
    mutating func string(openedAt opening: SourcePosition) throws(Stop) -> (Range<Int>, Bool) {
        offset += 1
        let start = offset
        var hasEscapes = false
        while offset < bytes.count {
            let byte = bytes[offset]
            // Most bytes are plain ASCII text: one test for them, the switch for the rest.
            if byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                offset += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                offset += 1
                return (start..<offset - 1, hasEscapes)
            case UInt8(ascii: "\\"):
                hasEscapes = true
                try escape()
            case 0..<0x20:
                throw failure(controlCharacterMessage(byte), at: offset)
            default:  // 0x80 and above: the first byte of a multi-byte character
                guard let length = utf8SequenceLength(at: offset) else { throw invalidUTF8(at: offset) }
                continuationBytes += length - 1
                offset += length
            }
        }
        throw .syntax(JSONSyntaxError(position: opening, message: "unterminated string"))
    }

    /// Checks one escape sequence inside a string, starting at its backslash.
    mutating func escape() throws(Stop) {
        let backslash = offset
        offset += 1
        guard offset < bytes.count else { return }  // the string's loop reports it unterminated
        switch bytes[offset] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
             UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            offset += 1
        case UInt8(ascii: "u"):
            offset += 1
            var unit: UInt32 = 0
            for _ in 0..<4 {
                guard offset < bytes.count else { return }
                guard let digit = hexValue(bytes[offset]) else {
                    throw failure(expected: "4 hex digits after '\\u'", at: offset, wholeWord: false)
                }
                unit = unit << 4 | digit
                offset += 1
            }
            guard (0xD800..<0xE000).contains(unit) else { return }
            // A high surrogate must be followed at once by a low one; the pair is one character.
            if unit < 0xDC00, lowSurrogateEscape(at: offset) {
                offset += 6
                return
            }
            noteUnpairedSurrogate(unit, at: backslash)
        case 0..<0x20:
            throw failure(controlCharacterMessage(bytes[offset]), at: offset)
        default:
            guard utf8SequenceLength(at: offset) != nil else { throw invalidUTF8(at: offset) }
            throw failure("invalid escape '\\\(scalar(at: offset))' in string", at: backslash)
        }
    }

    /// Whether a `\uDC00`-`\uDFFF` escape stands at `offset`.
    func lowSurrogateEscape(at offset: Int) -> Bool {
        guard bytes.count - offset >= 6, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u")
        else { return false }
        var unit: UInt32 = 0
        for index in offset + 2..<offset + 6 {
            guard let digit = hexValue(bytes[index]) else { return false }
            unit = unit << 4 | digit
        }
        return (0xDC00..<0xE000).contains(unit)
    }

    /// Notes an escaped surrogate that is not half of a pair: JSON's grammar
    /// allows it, but it is no character, and `JSONDecoder` rejects it.
    mutating func noteUnpairedSurrogate(_ unit: UInt32, at backslash: Int) {
        guard unrepresentable == nil else { return }
        let escape = "\\u" + String(unit, radix: 16, uppercase: true)
        unrepresentable = JSONSyntaxError(
            position: position(at: backslash),
            message: "unpaired surrogate '\(escape)' in string: it is not a character; escape a character "
                + "above U+FFFF as a pair (\\uD83D\\uDE00), or write it as UTF-8")
    }

    /// The length of the well-formed UTF-8 sequence at `offset`, or nil.
    ///
    /// Follows the Unicode Standard's table 3-7, which rules out overlong forms,
    /// surrogates and code points above U+10FFFF.
    func utf8SequenceLength(at offset: Int) -> Int? {
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        let length: Int
        switch bytes[offset] {
        case 0..<0x80: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return nil
        }
        guard bytes.count - offset >= length, (low...high).contains(bytes[offset + 1]) else { return nil }
        return (offset + 2..<offset + length).allSatisfy { bytes[$0] & 0xC0 == 0x80 } ? length : nil
    }

    /// The value of an ASCII hex digit, or nil.
    func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
