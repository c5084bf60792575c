// The slot hash of the resolver's type table at both word widths. A key is a
// metadata address, a `UInt`: 64 bits here, 32 bits on watchOS devices
// (arm64_32, armv7k), where no test runs. The hash is generic over the width,
// so this machine runs the 32-bit arithmetic through it, against the same
// hash worked out by hand in wider integers.
import Testing
@testable import Patchbay

@Suite struct TypeTableHashTests {
    /// Addresses as metadata has them: 16-byte aligned and close together,
    /// plus the extremes of the width.
    static let keys: [UInt64] = (0..<64).map { 0x0010_2000 + UInt64($0) * 16 } + [1, 0x8000_0010, 0xFFFF_FFF0]

    /// Table sizes (as powers of two) from the smallest, 8 slots, up.
    static let sizes = [3, 4, 7, 12]

    @Test(arguments: sizes)
    func the32BitSlotIsTheTopBitsOfTheProductWithKnuthsConstant(bits: Int) {
        for key in Self.keys {
            // 2654435769 is 2^32 divided by the golden ratio; the product is
            // taken modulo 2^32, as a 32-bit multiply wraps.
            let expected = Int(((key * 2_654_435_769) & 0xFFFF_FFFF) >> (32 - bits))
            let slot = FastTable.slot(for: UInt32(key), shift: UInt32(32 - bits))
            #expect(slot == expected, "key \(key), \(1 << bits) slots")
        }
    }

    @Test(arguments: sizes)
    func the64BitSlotIsTheTopBitsOfTheProductWithTheGoldenRatio(bits: Int) {
        for key in Self.keys {
            let product = key.multipliedFullWidth(by: 0x9E37_79B9_7F4A_7C15).low
            let expected = Int(product >> UInt64(64 - bits))
            #expect(FastTable.slot(for: key, shift: UInt64(64 - bits)) == expected, "key \(key), \(1 << bits) slots")
        }
    }
}
