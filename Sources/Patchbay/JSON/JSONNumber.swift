import Foundation

/// Checks on a number's text that `JSONDecoder` does not make, or reports badly (the format reference
/// lists them). Worked on its exact decimal value (`Decimal` holds 38 digits, more than any 64-bit
/// integer), never through `Int` or `Double`, so 32- and 64-bit platforms agree and nothing is rounded.
enum JSONNumber {
    /// Whether a non-zero number rounds to zero as a `Double` (`1e-400`).
    static func underflows(_ text: String) -> Bool {
        Double(text) == 0 && text.prefix { $0 != "e" && $0 != "E" }.contains { ("1"..."9").contains($0) }
    }

    /// Whether the number is whole, whatever its size (`2`, `2.0`, `2e3`).
    static func isWhole(_ text: String) -> Bool {
        guard let value = Decimal(string: text), !value.isNaN else { return false }
        let whole = NSDecimalNumberHandler(
            roundingMode: .plain, scale: 0, raiseOnExactness: false, raiseOnOverflow: false,
            raiseOnUnderflow: false, raiseOnDivideByZero: false)
        return NSDecimalNumber(decimal: value).rounding(accordingToBehavior: whole).decimalValue == value
    }

    /// Whether the number is whole and within the range of the integer type of `bits` (8 to 64) and sign.
    static func fits(_ text: String, bits: Int, signed: Bool) -> Bool {
        guard let (low, high) = range(bits: min(max(bits, 1), 64), signed: signed) else { return false }
        // Digits alone, the usual form, are read as they are; Decimal's parse costs a hundred times more.
        if let value = Int64(text) { return value >= low && (value < 0 || UInt64(value) <= high) }
        if let value = UInt64(text) { return value <= high }
        guard isWhole(text), let value = Decimal(string: text) else { return false }
        return Decimal(low) <= value && value <= Decimal(high)
    }

    /// The least and greatest value of the integer type of `bits` and sign; nil beyond 64 bits.
    static func range(bits: Int, signed: Bool) -> (lowest: Int64, highest: UInt64)? {
        guard (1...64).contains(bits) else { return nil }
        let high = UInt64.max >> (64 - bits + (signed ? 1 : 0))
        return (signed ? -Int64(high) - 1 : 0, high)
    }
}
