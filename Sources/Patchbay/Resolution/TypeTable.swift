/// The bound types of an activation, looked up by type identity: each slot
/// holds the binding that heads its type (see ``CompiledBinding/others``).
///
/// A `Dictionary<ObjectIdentifier, _>` hashes every lookup with SipHash,
/// which costs more than the rest of a cached singleton resolve. A type's
/// identity is the address of its metadata, already unique and well spread
/// once the low (alignment) bits are dropped, so an open-addressing table with
/// multiplicative (Fibonacci) hashing finds it in a multiply, a shift and
/// usually one compare. Built once per activation, never changed.
///
/// The slots are plain memory (``FastTable``), so a resolve reads them with no
/// retain, no bounds check and no enum switch; `heads` owns the bindings.
@usableFromInline
struct TypeTable: Sendable {
    /// The head bindings, at the same index as their slot.
    let heads: [CompiledBinding?]
    /// Owns the slots' memory.
    private let storage: TableSlotStorage
    /// What a resolve reads before it takes the general path.
    @usableFromInline let fast: FastTable

    /// Builds the table, at most half full, of head bindings of distinct types.
    init(_ bindings: [CompiledBinding]) {
        var capacity = 8
        while capacity < bindings.count * 2 { capacity <<= 1 }
        var heads = [CompiledBinding?](repeating: nil, count: capacity)
        storage = TableSlotStorage(capacity: capacity)
        let shift = UInt(UInt.bitWidth - capacity.trailingZeroBitCount)
        for binding in bindings {
            let key = UInt(bitPattern: Int(bitPattern: binding.key.id))
            var slot = FastTable.slot(for: key, shift: shift)
            while storage.slots[slot].key != 0 { slot = (slot + 1) & (capacity - 1) }
            storage.slots[slot] = TableSlot(
                key: key, binding: binding, ready: binding.ready?.pointer)
            heads[slot] = binding
        }
        self.heads = heads
        self.count = bindings.count
        self.fast = FastTable(slots: storage.slots, shift: shift, mask: capacity - 1)
    }

    /// The number of types.
    let count: Int

    /// The binding that heads a type, if bound; ``CompiledBinding/winner(for:)``
    /// gives the one that serves a request.
    subscript(id: ObjectIdentifier) -> CompiledBinding? {
        fast.slot(of: id).flatMap { heads[$0 - fast.slots] }
    }

    /// Every type's head binding, in no particular order.
    var bindings: [CompiledBinding] { heads.compactMap { $0 } }
}

/// One slot of the table: a type's identity and the binding that heads it.
@usableFromInline
struct TableSlot {
    /// The type's identity (its metadata address); 0 for an empty slot.
    @usableFromInline var key: UInt
    /// The head binding, unretained: the table's `heads` keeps it, and
    /// reading it costs no retain (see ``ResolveCache/running``).
    @usableFromInline unowned(unsafe) var binding: CompiledBinding?
    /// The head binding's word of its made singleton (``CompiledBinding/ready``),
    /// so the resolve fast path reads a made singleton without touching the
    /// binding object, which would retain and release it.
    @usableFromInline var ready: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
}

/// The plain-memory view of a ``TypeTable``. Valid while its activation lives.
@usableFromInline
struct FastTable: @unchecked Sendable {
    @usableFromInline let slots: UnsafeMutablePointer<TableSlot>
    @usableFromInline let shift: UInt
    @usableFromInline let mask: Int

    @usableFromInline
    init(slots: UnsafeMutablePointer<TableSlot>, shift: UInt, mask: Int) {
        self.slots = slots
        self.shift = shift
        self.mask = mask
    }

    /// A table with no types, for a cache that holds none yet.
    static let empty: FastTable = {
        let slots = UnsafeMutablePointer<TableSlot>.allocate(capacity: 2)
        slots.initialize(repeating: TableSlot(key: 0, binding: nil, ready: nil), count: 2)
        return FastTable(slots: slots, shift: UInt(UInt.bitWidth - 1), mask: 1)
    }()

    /// The home slot of `key` in a table of `1 << (Word.bitWidth - shift)`
    /// slots: Fibonacci hashing at the key's own width.
    ///
    /// A key is a metadata address, so `Word` is `UInt`, which is 32 bits on
    /// arm64_32 and armv7k (watchOS devices): the multiplier is 2^w divided
    /// by the golden ratio at that width, the top bits of the 64-bit one
    /// (`0x9E37_79B9` at 32 bits), and the product's top bits are the slot.
    /// Generic over the width so that a test on a 64-bit machine runs the
    /// 32-bit arithmetic too; `UInt`'s specialization folds the constant.
    @inlinable @inline(__always)
    static func slot<Word: FixedWidthInteger & UnsignedInteger>(for key: Word, shift: Word) -> Int {
        let golden = Word(truncatingIfNeeded: (0x9E37_79B9_7F4A_7C15 as UInt64) &>> UInt64(64 - Word.bitWidth))
        return Int(truncatingIfNeeded: (key &* golden) &>> shift)
    }

    /// The slot of a type, if bound.
    @inlinable @inline(__always)
    func slot(of id: ObjectIdentifier) -> UnsafeMutablePointer<TableSlot>? {
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

extension FastTable {
    /// The binding that serves `id` from `injector`, by the injector
    /// fallback rule (``CompiledBinding/winner(for:)``); nil when no injector binds it.
    @inline(__always)
    func binding(serving id: ObjectIdentifier, from injector: InjectorName) -> CompiledBinding? {
        guard let slot = slot(of: id) else { return nil }
        return slot.pointee.binding.unsafelyUnwrapped.winner(for: injector)
    }
}

/// Owns a table's slots: shared by an activation and its twin with
/// overrides switched on, freed with the last of them.
private final class TableSlotStorage: @unchecked Sendable {
    let slots: UnsafeMutablePointer<TableSlot>
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: TableSlot(key: 0, binding: nil, ready: nil), count: capacity)
    }

    deinit {
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }
}

extension TableSlot {
    /// The made singleton's box of this slot's binding, when it has one and
    /// it is made: the instance every request outside test overrides shares,
    /// read from the word its ``InstanceCell`` publishes it in. Unretained:
    /// the cell keeps it.
    @inlinable @inline(__always)
    func made() -> Unmanaged<AnyObject>? {
        guard let ready else { return nil }
        return AtomicReference<AnyObject>(pointer: ready).load()
    }
}
