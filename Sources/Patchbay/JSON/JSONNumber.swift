import Foundation

/// Checks on a JSON number's text that `JSONDecoder` does not make, or
/// reports badly (the format reference lists them): whether it is a whole
/// number within a fixed-width integer's range, and whether it underflows.
/// Worked on the digits, never through `Int` or `Double`, so the verdict is
/// the same on 32- and 64-bit platforms and no precision is lost.
enum JSONNumber {
    /// The number as an integer of type `T`, when its value is whole and fits,
    /// by its exact decimal value (`Decimal` holds 38 digits, more than any
    /// 64-bit integer has).
    static func integer<T: FixedWidthInteger>(_ text: String, as type: T.Type) -> T? {
        guard isWhole(text), let value = Decimal(string: text) else { return nil }
        if value < 0 {
            guard T.isSigned, value >= Decimal(Int64(truncatingIfNeeded: T.min)) else { return nil }
            return T(exactly: NSDecimalNumber(decimal: value).int64Value)
        }
        guard value <= Decimal(UInt64(truncatingIfNeeded: T.max)) else { return nil }
        return T(exactly: NSDecimalNumber(decimal: value).uint64Value)
    }

    /// Whether a non-zero number rounds to zero as a `Double` (`1e-400`).
    static func underflows(_ text: String) -> Bool {
        guard Double(text) == 0 else { return false }
        let mantissa = text.utf8.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
        return mantissa.contains { (UInt8(ascii: "1")...UInt8(ascii: "9")).contains($0) }
    }

    /// Whether the number is whole, whatever its size (`2`, `2.0`, `2e3`), by its digits.
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
}
