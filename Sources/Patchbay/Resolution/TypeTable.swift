/// The bound types of an activation, looked up by type identity.
///
/// A `Dictionary<ObjectIdentifier, _>` hashes every lookup with SipHash,
/// which costs more than the rest of a cached singleton resolve. A type's
/// identity is the address of its metadata, already unique and well spread
/// once the low (alignment) bits are dropped, so an open-addressing table with
/// multiplicative (Fibonacci) hashing finds it in a multiply, a shift and
/// usually one compare. Built once per activation, never changed.
///
/// Two views of the same slots: `entries` (Swift values, for the general
/// path) and ``FastTable`` (plain memory, for the resolve fast path).
@usableFromInline
struct TypeTable: Sendable {
    /// The entries, at the same index as their slot in the fast view.
    let values: [TypeEntry?]
    /// Owns the fast view's memory.
    private let storage: FastTableStorage
    /// What a resolve reads before it takes the general path.
    @usableFromInline let fast: FastTable

    /// Builds the table, at most half full, of entries of distinct types.
    /// `isLight` says which bindings the fast path may build itself (see
    /// ``FastSlot/light``); it is asked once per entry's `primary` winner,
    /// with every entry already in the table it is given.
    init(_ entries: [TypeEntry], isLight: (CompiledBinding, TypeTable) -> Bool = { _, _ in false }) {
        var capacity = 8
        while capacity < entries.count * 2 { capacity <<= 1 }
        var keys = [UInt](repeating: 0, count: capacity)
        var values = [TypeEntry?](repeating: nil, count: capacity)
        let shift = UInt(UInt.bitWidth - capacity.trailingZeroBitCount)
        for entry in entries {
            let key = UInt(bitPattern: Int(bitPattern: entry.key.id))
            var slot = FastTable.slot(for: key, shift: shift)
            while keys[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
            keys[slot] = key
            values[slot] = entry
        }
        storage = FastTableStorage(capacity: capacity)
        for index in 0..<capacity {
            guard let entry = values[index] else { continue }
            storage.slots[index] = FastSlot(
                key: keys[index], ready: entry.primary.readyCell?.instance.pointer, light: nil)
        }
        self.values = values
        self.count = entries.count
        self.fast = FastTable(slots: storage.slots, shift: shift, mask: capacity - 1)
        // Lightness follows dependencies: asked once every type is in place.
        for index in 0..<capacity {
            guard let primary = values[index]?.primary, isLight(primary, self) else { continue }
            storage.slots[index].light = Unmanaged.passUnretained(primary)
        }
    }

    /// The number of types.
    let count: Int

    /// The entry of a type, if bound.
    subscript(id: ObjectIdentifier) -> TypeEntry? {
        fast.slot(of: id).flatMap { values[$0 - fast.slots] }
    }

    /// Every entry, in no particular order.
    var entries: [TypeEntry] { values.compactMap { $0 } }
}

/// What the resolve fast path needs to know of one bound type, as plain
/// memory: reading it takes no retain, no bounds check and no enum switch.
@usableFromInline
struct FastSlot {
    /// The type's identity (its metadata address); 0 for an empty slot.
    @usableFromInline var key: UInt
    /// Where the `primary` winner keeps its singleton, when a resolve may read
    /// a made instance straight from there (no argument, no conversion).
    @usableFromInline var ready: UnsafeMutablePointer<AnyObject?>?
    /// The `primary` winner, when the fast path may build it without a
    /// resolution context: see `Activation.lightBindings`.
    @usableFromInline var light: Unmanaged<CompiledBinding>?
}

/// The plain-memory view of a ``TypeTable``. Valid while its activation lives.
@usableFromInline
struct FastTable: @unchecked Sendable {
    @usableFromInline let slots: UnsafeMutablePointer<FastSlot>
    @usableFromInline let shift: UInt
    @usableFromInline let mask: Int

    @usableFromInline
    init(slots: UnsafeMutablePointer<FastSlot>, shift: UInt, mask: Int) {
        self.slots = slots
        self.shift = shift
        self.mask = mask
    }

    /// A table with no types, for a cache that holds none yet.
    static let empty: FastTable = {
        let slots = UnsafeMutablePointer<FastSlot>.allocate(capacity: 2)
        slots.initialize(repeating: FastSlot(key: 0, ready: nil, light: nil), count: 2)
        return FastTable(slots: slots, shift: UInt(UInt.bitWidth - 1), mask: 1)
    }()

    @inlinable @inline(__always)
    static func slot(for key: UInt, shift: UInt) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) &>> shift)
    }

    /// The slot of a type, if bound.
    @inlinable @inline(__always)
    func slot(of id: ObjectIdentifier) -> UnsafeMutablePointer<FastSlot>? {
        let key = UInt(bitPattern: Int(bitPattern: id))
        var index = Self.slot(for: key, shift: shift)
        while true {
            let slot = slots + index
            let found = slot.pointee.key
            if found == key { return slot }
            if found == 0 { return nil }
            index = (index + 1) & mask
        }
    }
}

/// Owns a fast table's memory: shared by an activation and its twin with
/// overrides switched on, freed with the last of them.
private final class FastTableStorage: @unchecked Sendable {
    let slots: UnsafeMutablePointer<FastSlot>
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: FastSlot(key: 0, ready: nil, light: nil), count: capacity)
    }

    deinit {
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }
}
