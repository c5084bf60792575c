import Foundation

/// Checks on a JSON number's text that `JSONDecoder` does not make, or
/// reports badly (see ``StricterThanFoundation``): whether it is a whole
/// number within a fixed-width integer's range, and whether it underflows.
/// Worked on the digits, never through `Int` or `Double`, so the verdict is
/// the same on 32- and 64-bit platforms and no precision is lost.
enum JSONNumber {
    /// The number as an integer of type `T`, when its value is whole and fits.
    /// Like `JSONDecoder`, a number whose nearest `Double` is whole and below
    /// 2^53 counts as that whole number (`1.0000000000000001` is 1).
    static func integer<T: FixedWidthInteger>(_ text: String, as type: T.Type) -> T? {
        if let exact = exactInteger(text, as: type) { return exact }
        guard let double = Double(text), double.isFinite, double.magnitude < 0x1p53 else { return nil }
        return T(exactly: double)
    }

    /// Whether the number is whole, whatever its size (`2`, `2.0`, `2e3`, `1e30`), by its digits.
    /// (Read as a `Double`, `9999555555600001.5` would look whole, and `JSONDecoder` truncates it into an `Int`.)
    static func isWhole(_ text: String) -> Bool {
        guard var value = Decimal(string: text), !value.isNaN else { return false }
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 0, .plain)
        return rounded == value
    }

    /// Whether the number is a whole number within the range of the integer type of `bits` and sign.
    static func fits(_ text: String, bits: Int, signed: Bool) -> Bool {
        switch (bits, signed) {
        case (8, true): integer(text, as: Int8.self) != nil
        case (16, true): integer(text, as: Int16.self) != nil
        case (32, true): integer(text, as: Int32.self) != nil
        case (8, false): integer(text, as: UInt8.self) != nil
        case (16, false): integer(text, as: UInt16.self) != nil
        case (32, false): integer(text, as: UInt32.self) != nil
        case (_, false): integer(text, as: UInt64.self) != nil
        default: integer(text, as: Int64.self) != nil
        }
    }

    /// The range of the integer type of `bits` and sign, for messages; nil beyond 64 bits.
    static func range(bits: Int, signed: Bool) -> (lowest: String, highest: String)? {
        guard (1...64).contains(bits) else { return nil }
        let highest = UInt64.max >> (64 - bits + (signed ? 1 : 0))
        return (signed ? "-\(highest + 1)" : "0", "\(highest)")
    }

    /// Whether a non-zero number rounds to zero as a `Double` (`1e-400`).
    static func underflows(_ text: String) -> Bool {
        guard Double(text) == 0 else { return false }
        let mantissa = text.utf8.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
        return mantissa.contains { (UInt8(ascii: "1")...UInt8(ascii: "9")).contains($0) }
    }

    /// The exact value of `text` as a `T`: nil unless it is a JSON number
    /// whose value is whole and within `T`'s range.
    ///
    /// Works on the digits, not on a `Double`, so no precision is lost;
    /// bounded in time by the text's length, whatever its exponent.
    static func exactInteger<T: FixedWidthInteger>(_ text: String, as type: T.Type) -> T? {
        var digits: [UInt8] = []
        var fractionDigits = 0
        var exponent = 0
        var negative = false
        var part = 0  // 0: integer digits, 1: fraction digits, 2: exponent
        var exponentSign = 1
        for (offset, byte) in text.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "-") where offset == 0:
                negative = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let digit = Int(byte - UInt8(ascii: "0"))
                if part == 2 {
                    // Saturates: no exponent this large leaves a value that fits.
                    exponent = min(exponent * 10 + digit, 1_000_000)
                } else {
                    if part == 1 { fractionDigits += 1 }
                    if digit != 0 || !digits.isEmpty { digits.append(UInt8(digit)) }  // no leading zeros
                }
            case UInt8(ascii: ".") where part == 0:
                part = 1
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard part < 2 else { return nil }
                part = 2
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                guard part == 2, exponent == 0 else { return nil }
                exponentSign = byte == UInt8(ascii: "-") ? -1 : 1
            default:
                return nil
            }
        }
        guard !digits.isEmpty else { return 0 }
        // The value is digits × 10^scale.
        var scale = exponentSign * exponent - fractionDigits
        if scale < 0 {
            let trailingZeros = digits.reversed().prefix { $0 == 0 }.count
            guard -scale <= trailingZeros else { return nil }  // a fraction is left
            digits.removeLast(-scale)
            scale = 0
        }
        // 2^128 has 39 digits: anything longer cannot fit any integer type here.
        guard digits.count + scale <= 40 else { return nil }
        var magnitude: T.Magnitude = 0
        for digit in digits + repeatElement(0, count: scale) {
            let (times10, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times10.addingReportingOverflow(T.Magnitude(digit))
            guard !overflow, !carry else { return nil }
            magnitude = sum
        }
        guard negative else { return T(exactly: magnitude) }
        guard T.isSigned, magnitude <= T.min.magnitude else { return nil }
        // Two's complement: 0 - magnitude, truncated, is -magnitude even for T.min.
        return T(truncatingIfNeeded: 0 &- magnitude)
    }
}
