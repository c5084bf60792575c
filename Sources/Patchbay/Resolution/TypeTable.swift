// One of the four files of the engine allowed unsafe code (with
// `ThreadResolutionState.swift`, `ResolutionContext.swift` and
// `ProductMemory.swift`); every use is marked `unsafe`.
//
// What it guarantees: a table's slots and a binding's need links are
// written while its activation is compiled, before any resolve can see
// them, and never after; they refer, unretained, to bindings the
// activation keeps (`heads`, and every binding it compiled), so they are
// valid while the activation lives, which every reader holds. A binding's
// `others` is set once, the same way.
// Why it cannot be safe Swift: a `Dictionary` lookup hashes with SipHash
// and an array of class references retains what it hands out; a resolve
// finds its binding with a multiply, a shift and a compare on plain memory.

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
            while unsafe storage.slots[slot].key != 0 { slot = (slot + 1) & (capacity - 1) }
            unsafe storage.slots[slot] = unsafe TableSlot(
                key: key, binding: binding, ready: binding.ready?.pointer)
            heads[slot] = binding
        }
        self.heads = heads
        self.fast = unsafe FastTable(slots: storage.slots, shift: shift, mask: capacity - 1)
    }

    /// The binding that heads a type, if bound; ``CompiledBinding/winner(for:)``
    /// gives the one that serves a request.
    subscript(id: ObjectIdentifier) -> CompiledBinding? {
        unsafe fast.slot(of: id).flatMap { unsafe heads[$0 - fast.slots] }
    }

    /// Every type's head binding, in no particular order.
    var bindings: [CompiledBinding] { heads.compactMap { $0 } }
}

/// One slot of the table: a type's identity and the binding that heads it.
@unsafe @usableFromInline
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
@safe @usableFromInline
struct FastTable: @unchecked Sendable {
    @usableFromInline let slots: UnsafeMutablePointer<TableSlot>
    @usableFromInline let shift: UInt
    @usableFromInline let mask: Int

    @usableFromInline
    init(slots: UnsafeMutablePointer<TableSlot>, shift: UInt, mask: Int) {
        unsafe self.slots = unsafe slots
        self.shift = shift
        self.mask = mask
    }

    /// A table with no types, for a cache that holds none yet.
    static let empty: FastTable = {
        let slots = UnsafeMutablePointer<TableSlot>.allocate(capacity: 2)
        unsafe slots.initialize(repeating: TableSlot(key: 0, binding: nil, ready: nil), count: 2)
        return unsafe FastTable(slots: slots, shift: UInt(UInt.bitWidth - 1), mask: 1)
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
            let slot = unsafe slots + index
            let found = unsafe slot.pointee.key
            if found == key { return unsafe slot }
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
        guard let slot = unsafe slot(of: id) else { return nil }
        return unsafe slot.pointee.binding.unsafelyUnwrapped.winner(for: injector)
    }
}

/// Owns a table's slots: shared by an activation and its twin with
/// overrides switched on, freed with the last of them.
@safe private final class TableSlotStorage: @unchecked Sendable {
    let slots: UnsafeMutablePointer<TableSlot>
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        unsafe slots = .allocate(capacity: capacity)
        unsafe slots.initialize(repeating: TableSlot(key: 0, binding: nil, ready: nil), count: capacity)
    }

    deinit {
        unsafe slots.deinitialize(count: capacity)
        unsafe slots.deallocate()
    }
}

extension TableSlot {
    /// The made singleton's box of this slot's binding, when it has one and
    /// it is made: the instance every request outside test overrides shares,
    /// read from the word its ``InstanceCell`` publishes it in. Unretained:
    /// the cell keeps it.
    @inlinable @inline(__always)
    func made() -> Unmanaged<AnyObject>? {
        guard let ready = unsafe ready else { return nil }
        return unsafe AtomicReference<AnyObject>(pointer: ready).load()
    }
}

/// The value in a box known to be an `Instance<T>`, which the caller holds
/// unretained (the resolve fast path's made singleton, kept by its cell).
@inlinable @inline(__always)
func unboxed<T>(_ box: Unmanaged<AnyObject>, as _: T.Type) -> T {
    unsafe unsafeDowncast(box.takeUnretainedValue(), to: Instance<T>.self).value
}

/// One binding, ready to serve: the factory, lifetime, decoded parameters,
/// and where its instances live.
@safe @usableFromInline
final class CompiledBinding: Sendable {
    /// The bound type: its provided type's, not a copy of it, which was two strings more to retain
    /// and release for every binding of every activation.
    var key: TypeKey { provided.key }
    let injector: InjectorName
    let definition: FactoryDefinition
    let provided: ProvidedType
    let parameters: (any Sendable)?
    /// Where its instances live, and how a request gets one: its lifetime
    /// (see ``LifetimeStorage``), shared by the bindings that share instances.
    let storage: any LifetimeStorage
    /// What validation concluded of the binding, which
    /// ``Container/binding(for:from:)`` returns. Kept as made: it holds
    /// places and shared arrays, so compiling it costs no formatting. Nil
    /// for the implicit binding of an ``Injectable`` type, which no manifest wrote.
    var described: BindingDescription? { descriptions.isEmpty ? nil : descriptions[describedPlace] }
    /// The validation's descriptions, shared by every binding of the
    /// activation, and this one's place among them: a reference, where a
    /// copy of the description would retain each of its own.
    private let descriptions: [BindingDescription], describedPlace: Int
    /// Where a made instance is read straight from, with no lock: the cell
    /// of a singleton whose factory takes no argument and whose product is
    /// the bound type; nil for every other binding (see ``made()``).
    @usableFromInline let ready: AtomicReference<AnyObject>?

    /// The made instance every request outside test overrides shares, read
    /// with no lock, when this binding has one (see ``ready``): the one rule
    /// of who may read a made singleton without asking its lifetime, which
    /// the resolve fast path (through its slot's copy of ``ready``) and an
    /// awaited resolve follow.
    var madeShared: AnyObject? { ready?.publishedObject }
    /// Makes the product straight into memory for the bound type, when the
    /// factory can and the product is that type: the definition's closure,
    /// kept here so the engine reads it without going through the definition.
    let buildInto: @Sendable (FactoryCall, ProductMemory) throws -> Void
    /// Whether every request builds a new product straight into memory: the
    /// lifetime keeps no instance (``LifetimeStorage/sharesInstances`` is
    /// false), the product is the bound type and the factory can build into
    /// the caller's memory. The engine then builds it without
    /// asking the storage (see ``ResolutionContext/instance(of:into:argument:)``).
    let isBuiltEachTime: Bool
    /// Whether its lifetime keeps no instance (``LifetimeStorage/sharesInstances``
    /// is false): its place is always ``InstancePlace/nowhere``.
    let keepsNoInstance: Bool
    /// Whether the factory takes a resolve-time argument.
    let takesArgument: Bool
    /// Where an awaited resolve makes it (``awaitedExecution(of:elements:)``):
    /// kept, as an awaited resolve reads it first.
    let awaitedExecution: FactoryExecution
    /// On the binding that heads its type (the first in injector order,
    /// which the type table holds), the type's bindings in other injectors;
    /// empty on the others. Set while the activation is compiled, before any
    /// resolve can see it; never changed after.
    ///
    /// The spec's rule (the requesting injector's own binding wins, else the
    /// first found searching in order) comes down to: its own binding, else
    /// the head. So a type needs no table of its own, only these.
    @exclusivity(unchecked) nonisolated(unsafe) private var heldOthers: [InjectorName: CompiledBinding] = [:]
    var others: [InjectorName: CompiledBinding] { unsafe heldOthers }
    /// The bindings that serve this binding's factory's plain needs (a
    /// dependency of type `D`, not an optional, `Lazy` or collection), by
    /// the need's place, as the table serves `D` from this binding's
    /// injector: linked once at activation (``linkNeeds(in:)``), so a
    /// resolve finds each by its place, not by hashing its type. Empty when
    /// the factory has none; a place holds nil when the table has no
    /// binding of `D` (an ``Injectable`` type, or an empty collection),
    /// which the engine then resolves by type. Unretained: the activation
    /// keeps every binding it links. Plain memory, allocated with the
    /// binding and filled in at activation: an array in a `var` would be
    /// retained and released at every read.
    nonisolated(unsafe) private let linkedNeeds: UnsafeMutablePointer<NeedLink>?
    /// For the binding that serves a collection `[T]`: its elements, in
    /// manifest order, each a binding of `T` with its own lifetime; empty
    /// for every other binding.
    let elements: [CompiledBinding]

    init(
        injector: InjectorName, definition: FactoryDefinition, provided: ProvidedType,
        parameters: (any Sendable)?, storage: any LifetimeStorage,
        described: (all: [BindingDescription], place: Int)?, elements: [CompiledBinding] = []
    ) {
        self.elements = elements
        self.injector = injector
        self.definition = definition
        self.provided = provided
        self.parameters = parameters
        self.storage = storage
        (descriptions, describedPlace) = described ?? ([], 0)
        buildInto = definition.buildInto
        keepsNoInstance = !type(of: storage).sharesInstances
        isBuiltEachTime = provided.convert == nil && definition.buildsInto && keepsNoInstance
        takesArgument = definition.argument != nil
        awaitedExecution = Self.awaitedExecution(of: definition, elements: elements)
        if let cell = storage.sharedCell, definition.argument == nil, provided.convert == nil {
            ready = cell.instance
        } else {
            ready = nil
        }
        if let specs = definition.dependencies, specs.contains(where: { $0.kind == .direct }) {
            unsafe linkedNeeds = .allocate(capacity: specs.count)
            unsafe linkedNeeds!.initialize(repeating: NeedLink(binding: nil), count: specs.count)
        } else {
            unsafe linkedNeeds = nil
        }
    }

    deinit { unsafe linkedNeeds?.deallocate() }

    /// The binding that serves a request from `injector`, when this binding
    /// heads its type (the first in injector order): by ``InjectorServing``'s
    /// rule, that injector's own, else this one.
    @inlinable @inline(__always)
    func winner(for injector: InjectorName) -> CompiledBinding {
        injector == .primary ? self : winnerOutsidePrimary(injector)
    }

    @usableFromInline
    func winnerOutsidePrimary(_ injector: InjectorName) -> CompiledBinding {
        others.isEmpty ? self : InjectorServing.rule(own: others[injector], first: self)!
    }

    /// The binding linked to the need at `index`, if any (see ``linkedNeeds``).
    @inline(__always)
    func linkedNeed(_ index: Int) -> CompiledBinding? {
        unsafe linkedNeeds?[index].binding
    }

    /// Links each plain need of this binding's factory to the binding
    /// `table` serves it by from this binding's injector. Called while the
    /// activation is compiled, before any resolve can see the binding.
    func linkNeeds(in table: FastTable) {
        guard let linkedNeeds = unsafe linkedNeeds, let specs = definition.dependencies else { return }
        for (index, spec) in specs.enumerated() where spec.kind == .direct {
            unsafe linkedNeeds[index] = NeedLink(binding: table.binding(serving: spec.key.id, from: injector))
        }
    }

    /// Makes this binding the head of its type, with `others` its bindings in other injectors.
    func head(_ others: [InjectorName: CompiledBinding]) { unsafe heldOthers = others }

    /// Calls `body` with every binding of this head's type, this one first.
    func forEachBinding(_ body: (CompiledBinding) -> Void) {
        body(self)
        others.values.forEach(body)
    }

    /// Turns a product box into a box of the bound type.
    @inline(__always)
    func boxed(_ productBox: AnyObject) -> AnyObject { provided.convert?(productBox) ?? productBox }

    /// Copies a product box's value, as the bound type, into uninitialized memory for it.
    @inline(__always)
    func copy(_ productBox: AnyObject, into memory: ProductMemory) {
        AnyInstance.of(boxed(productBox)).copyValue(into: memory)
    }
}

/// A link from a binding to one that serves its need, unretained (see
/// ``CompiledBinding/linkedNeeds``): bindings of one activation may link in
/// a cycle through `Lazy`-broken needs' owners, which strong links would leak.
struct NeedLink {
    unowned(unsafe) let binding: CompiledBinding?
}
