import Foundation

/// A JSON number as written, read into the type asked for only when asked:
/// `18446744073709551615` is a `UInt64` and `0.1` a `Decimal`, exactly,
/// with no `Double` in between to round them.
///
/// The readings follow `JSONDecoder`'s, which apps' parameter types rely on:
/// an integer type takes any number whose value is whole and in range
/// (`2`, `2.0`, `2e0`), a floating-point type any number it can hold
/// without becoming infinite or rounding a non-zero number to zero.
struct JSONNumber: Hashable, Sendable, CustomStringConvertible {
    /// The number's text: JSON's grammar when read from a file; for a number
    /// made in code, what Swift prints for it, which may be `inf` or `nan`.
    let text: String

    /// A number read from a document, whose text the reader has checked.
    init(text: String) {
        self.text = text
    }

    /// An integer made in code.
    init(_ value: Int) {
        text = String(value)
    }

    /// A floating-point number made in code; Swift prints the shortest text
    /// that reads back as the same value.
    init(_ value: Double) {
        text = "\(value)"
    }

    /// The text, as written.
    var description: String { text }

    /// The number as an integer of type `T`, when its value is whole and fits.
    ///
    /// Like `JSONDecoder`, a number whose nearest `Double` is whole and below
    /// 2^53 counts as that whole number (`1.0000000000000001` is 1).
    func integer<T: FixedWidthInteger>(as type: T.Type) -> T? {
        if let exact = Self.exactInteger(text, as: type) { return exact }
        guard let double = Double(text), double.isFinite, let whole = T(exactly: double),
              double.magnitude < 0x1p53 else { return nil }
        return whole
    }

    /// The number as a floating-point value of type `T`; nil when it is out
    /// of `T`'s range, or so small that it would round to zero.
    func floatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(as type: T.Type) -> T? {
        guard let value = T(text), value.isFinite else { return nil }
        return value != 0 || isZero ? value : nil
    }

    /// The number as a `Decimal`; nil when it is beyond `Decimal`'s range.
    var decimal: Decimal? {
        guard let value = Decimal(string: text), !value.isNaN else {
            return nil
        }
        return value
    }

    /// The number as ``JSONValue`` has it: an integer when it is a whole
    /// number that fits `Int`, else a `Double`.
    var jsonValue: JSONValue {
        integer(as: Int.self).map(JSONValue.integer) ?? .number(Double(text) ?? .nan)
    }

    /// Whether every digit before the exponent is 0.
    private var isZero: Bool {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "1")...UInt8(ascii: "9"): return false
            case UInt8(ascii: "e"), UInt8(ascii: "E"): return true
            default: continue
            }
        }
        return true
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
