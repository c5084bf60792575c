/// The bound types of an activation, looked up by type identity.
///
/// A `Dictionary<ObjectIdentifier, _>` hashes every lookup with SipHash,
/// which costs more than the rest of a cached singleton resolve. A type's
/// identity is the address of its metadata, already unique and well spread
/// once the low (alignment) bits are dropped, so an open-addressing table with
/// multiplicative (Fibonacci) hashing finds it in a multiply, a shift and
/// usually one compare. Built once per activation, never changed.
@usableFromInline
struct TypeTable: Sendable {
    @usableFromInline let keys: [UInt]
    @usableFromInline let values: [TypeEntry?]
    @usableFromInline let shift: UInt
    @usableFromInline let mask: Int

    /// Builds the table, at most half full.
    init(_ entries: [ObjectIdentifier: TypeEntry]) {
        var capacity = 8
        while capacity < entries.count * 2 { capacity <<= 1 }
        var keys = [UInt](repeating: 0, count: capacity)
        var values = [TypeEntry?](repeating: nil, count: capacity)
        let shift = UInt(UInt.bitWidth - capacity.trailingZeroBitCount)
        for (id, entry) in entries {
            let key = UInt(bitPattern: Int(bitPattern: id))
            var slot = Self.slot(for: key, shift: shift)
            while keys[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
            keys[slot] = key
            values[slot] = entry
        }
        self.keys = keys
        self.values = values
        self.shift = shift
        self.mask = capacity - 1
        self.count = entries.count
    }

    /// The number of types.
    let count: Int

    @inlinable @inline(__always)
    static func slot(for key: UInt, shift: UInt) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) &>> shift)
    }

    /// The entry of a type, if bound.
    @inlinable @inline(__always)
    subscript(id: ObjectIdentifier) -> TypeEntry? {
        let key = UInt(bitPattern: Int(bitPattern: id))
        var slot = Self.slot(for: key, shift: shift)
        while true {
            let found = keys[slot]
            if found == key { return values[slot] }
            if found == 0 { return nil }
            slot = (slot + 1) & mask
        }
    }

    /// Every entry, in no particular order.
    var entries: [TypeEntry] { values.compactMap { $0 } }
}
