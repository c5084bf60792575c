// One of the four files of the engine allowed unsafe code (with
// `ThreadResolutionState.swift`, `TypeTable.swift` and `ProductMemory.swift`);
// every use is marked `unsafe`.
//
// What it guarantees: a context is used by one thread at a time (its
// owner's, or the call that made one of its own), so its fields need no
// exclusivity checks; what it refers to without a count (container,
// activation, overrides, scope, the outer context) is held by whoever began
// the resolution until it ends (`withResolution`): the activation by the
// thread's state, which keeps every activation its cache let go of until
// the outermost resolution ends; its path (`BindingPath`) refers,
// unretained, to bindings that activation keeps.
// Why it cannot be safe Swift: every strong read of these fields would
// retain and release, and each exclusivity check calls the runtime; they
// were the largest costs of a transient resolve. The activation and the
// outer context are `Unmanaged`, read on every resolve: a read of an
// `unowned(unsafe)` field that is passed on still retains and releases
// it, nil or not. The others are read off the fast path only, where the
// two spellings cost the same.

@safe @usableFromInline
final class ResolutionContext {
    // A context is used by one thread at a time (its owner's), so the dynamic
    // exclusivity checks Swift runs on each access of a class's `var` are
    // switched off: they were the largest cost of a transient resolve.
    // The container and activation are held without a count: whoever
    // begins a resolution holds both until it ends (the container is the
    // callee of its resolve, the activation the thread's state).
    @exclusivity(unchecked) private unowned(unsafe) var heldContainer: Container?
    @exclusivity(unchecked) private var heldActivation: Unmanaged<Activation>?
    // So are the overrides (the task-local value that holds them is in
    // force until the resolve returns) and the scope (its caller holds it).
    @exclusivity(unchecked) private unowned(unsafe) var heldOverrides: OverrideTable?
    @exclusivity(unchecked) private unowned(unsafe) var explicitScope: Scope?
    /// Copies of what every request reads, as plain values: a class
    /// reference read from memory costs a retain and a release, where these
    /// cost a load (see ``FactoryCall``). The activation's table, whether
    /// test overrides are in force, and the container's identity.
    @exclusivity(unchecked) private var table = FastTable.empty
    @exclusivity(unchecked) private var heldHasOverrides = false
    @exclusivity(unchecked) private var heldContainerID: ObjectIdentifier?

    /// The container resolving, while a resolution runs.
    var container: Container? { unsafe heldContainer }
    /// The activation it reads, while a resolution runs.
    var activation: Activation? { unsafe heldActivation?.takeUnretainedValue() }
    /// The test overrides in force, if any.
    var overrides: OverrideTable? { unsafe heldOverrides }
    /// Whether test overrides are in force.
    var hasOverrides: Bool { unsafe heldHasOverrides }
    /// The container's identity, while a resolution runs.
    var containerID: ObjectIdentifier? { unsafe heldContainerID }
    /// The bindings being built, outermost first.
    @exclusivity(unchecked) private var building = BindingPath()
    /// The `graph` instances this resolution made (see ``GraphLifetime``).
    @exclusivity(unchecked) private var graph = GraphInstances()

    /// The resolution that was innermost on this thread when this one began
    /// (unretained: it runs, further out, until after this one ends).
    @exclusivity(unchecked) private var outer: Unmanaged<ResolutionContext>?
    /// The thread's cache, whose scratch memory requests are made in.
    @exclusivity(unchecked) private var cache: UnsafeMutablePointer<ResolveCache>

    init(cache: UnsafeMutablePointer<ResolveCache>) {
        unsafe self.cache = unsafe cache
    }

    deinit { unsafe building.free() }

    /// Starts a top-level resolution on this context's thread, which it is the
    /// innermost of until it ends. A resolution begun by a `Lazy` made in an
    /// earlier one passes that one's `graph` instances, to share those still alive.
    @inline(__always)
    func begin(
        container: Container, activation: Unmanaged<Activation>, overrides: OverrideTable?, scope: Scope?,
        graph shared: SharedGraph? = nil
    ) {
        unsafe heldContainer = container
        unsafe heldActivation = activation
        unsafe heldOverrides = overrides
        unsafe self.explicitScope = scope
        unsafe table = activation.takeUnretainedValue().fastTable
        unsafe heldHasOverrides = overrides != nil
        unsafe heldContainerID = ObjectIdentifier(container)
        if let shared { unsafe graph.share(shared) }
        unsafe outer = unsafe cache.pointee.running
        unsafe cache.pointee.running = unsafe Unmanaged.passUnretained(self)
    }

    /// Ends it, letting go of everything it held.
    @inline(__always)
    func end() {
        unsafe heldContainer = nil
        unsafe heldActivation = nil
        unsafe heldOverrides = nil
        unsafe explicitScope = nil
        unsafe heldHasOverrides = false
        unsafe heldContainerID = nil
        unsafe graph.removeAll()
        unsafe cache.pointee.running = unsafe outer
        if unsafe outer == nil, unsafe cache.pointee.holdsRetired { unsafe cache.pointee.owner!.takeUnretainedValue().releaseRetired() }
        unsafe outer = nil
    }

    /// What a `Lazy` made now as a factory's parameter keeps of this
    /// resolution's `graph` instances; nil when the manifest binds nothing `graph`.
    func sharedGraph() -> SharedGraph? {
        unsafe activation!.hasGraphBindings ? graph.sharing() : nil
    }

    /// The scope for `scoped` bindings: the one the resolve was asked in, else the task's current one.
    var scope: Scope? { unsafe explicitScope ?? Scope.current }

    /// The injector that served the factory running now, for `ObjectOrigin`.
    var innermostInjector: InjectorName? { unsafe building.last?.injector }

    /// The requested types' names along the path, outermost first.
    var names: [String] { unsafe building.names }

    /// Resolves `type` into `memory` (uninitialized, for a `type`): its
    /// override if a test installed one, else the binding that serves it
    /// from `injector`. False, writing nothing, when no injector binds it:
    /// the caller, which has the type statically, handles that (see
    /// ``unbound(_:from:ifBound:)``).
    ///
    /// The engine works on memory, not on a generic `T`: most of it runs as
    /// code not specialized for the requested type, where a generic value
    /// (a `T?`, a temporary of `T`) would make the runtime look up metadata
    /// on every request.
    func resolve(
        _ type: Any.Type, into memory: ProductMemory, from injector: InjectorName, argument: ArgumentValue?
    ) throws -> Bool {
        let id = ObjectIdentifier(type)
        if hasOverrides, let make = overrides!.lookup(id) {
            do {
                AnyInstance.of(try make()).copyValue(into: memory)
                return true
            } catch {
                let name = TypeKey.shortName(of: type)
                throw ResolutionError.factoryFailed(error, making: name, by: nil, factory: "override", path: names + [name])
            }
        }
        guard let binding = unsafe table.binding(serving: id, from: injector) else { return false }
        try instance(of: binding, into: memory, argument: argument)
        return true
    }

    /// Resolves `T` from `injector`, with `argument`: in the thread's
    /// scratch memory, moved out. The form a factory's dependency and a
    /// top-level resolve use.
    @inline(__always)
    func resolveValue<T>(_: T.Type, from injector: InjectorName, argument: ArgumentValue?) throws -> T {
        guard let (memory, mark) = unsafe cache.pointee.claimScratch(for: T.self) else {
            return try resolveOnTheHeap(T.self, from: injector, argument: argument)  // too deep or over-aligned
        }
        defer { unsafe cache.pointee.scratchUsed = mark }
        guard try resolve(T.self, into: memory, from: injector, argument: argument) else {
            return try resolveUnbound(T.self, from: injector)
        }
        return memory.move(as: T.self)
    }

    /// An instance of `binding`, which serves `T`: made in the thread's
    /// scratch memory, moved out. The form of a dependency whose binding
    /// activation linked (``CompiledBinding/linkedNeed(_:)``).
    @inline(__always)
    func instanceValue<T>(of binding: CompiledBinding, as _: T.Type, argument: ArgumentValue? = nil) throws -> T {
        guard let (memory, mark) = unsafe cache.pointee.claimScratch(for: T.self) else {
            return try instance(of: binding, as: T.self, argument: argument)
        }
        defer { unsafe cache.pointee.scratchUsed = mark }
        try instance(of: binding, into: memory, argument: argument)
        return memory.move(as: T.self)
    }

    // The two ways out of `resolveValue` that use a `T?`, kept out of it: a
    // function with a `T?` anywhere in it asks the runtime for `Optional<T>`'s
    // metadata on entry, in code not specialized for `T`, on every call.

    @inline(never)
    private func resolveOnTheHeap<T>(_: T.Type, from injector: InjectorName, argument: ArgumentValue?) throws -> T {
        try resolve(T.self, from: injector, argument: argument)!
    }

    @inline(never)
    private func resolveUnbound<T>(_: T.Type, from injector: InjectorName) throws -> T {
        try unbound(T.self, from: injector, ifBound: false)!
    }

    /// Resolves `T` from `injector`; `nil` only when `ifBound` and no
    /// injector binds `T`. For the less common requests (optional needs, a
    /// factory that resolves by hand, an awaited resolve's synchronous part).
    func resolve<T>(
        _: T.Type, from injector: InjectorName, argument: ArgumentValue? = nil, ifBound: Bool = false
    ) throws -> T? {
        if let value = try ProductMemory.withHeap(for: T.self, { try resolve(T.self, into: $0, from: injector, argument: argument) }) {
            return value
        }
        return try unbound(T.self, from: injector, ifBound: ifBound)
    }

    /// `T`, which no injector binds: an ``Injectable`` type's own binding,
    /// `[]` for a collection whose element type the catalog knows, `nil`
    /// when `ifBound`, else the error.
    func unbound<T>(_: T.Type, from injector: InjectorName, ifBound: Bool) throws -> T? {
        if let injectable = T.self as? any Injectable.Type {
            return try self.injectable(injectable, as: T.self, from: injector, ifBound: ifBound)
        }
        // A collection of zero elements: `[]`, when the catalog knows its element type.
        if let empty = activation!.emptyCollection(T.self) { return empty }
        if ifBound { return nil }
        throw notBound(TypeKey(T.self), from: injector)
    }

    /// An instance of `binding`, from where its lifetime keeps it or newly
    /// made, written into `memory`: the synchronous driver of every
    /// lifetime (``InstancePlace``).
    ///
    /// A binding whose lifetime keeps nothing and whose product is built
    /// straight into memory (``CompiledBinding/isBuiltEachTime``, a plain
    /// transient) is built here without asking its storage: the most common
    /// factory skips a dynamic call.
    func instance(of binding: CompiledBinding, into memory: ProductMemory, argument: ArgumentValue?) throws {
        if binding.takesArgument { try check(argument, for: binding) }
        if binding.isBuiltEachTime { return try frame(binding, argument) { call in try binding.buildInto(call, memory) } }
        if !hasOverrides, let box = binding.madeShared { return binding.copy(box, into: memory) }
        binding.copy(try box(of: binding, argument: argument) { call in try binding.definition.build(call) }, into: memory)
    }

    /// The box of `binding`'s product, from where its lifetime keeps it, or
    /// made by `make` and kept there: in a frame of `binding`'s own, or,
    /// when `call` is given, in that call's frame (the inner product of a
    /// decorated binding, made in the decorated binding's frame, which
    /// names its factory, see ``DecoratorChain``). Out of line: inlined
    /// into ``instance(of:into:argument:)`` it made every resolve through
    /// it dearer, the transients built straight into memory included
    /// (769 -> 809 instructions under callgrind), though they never reach it.
    @inline(never)
    func box(
        of binding: CompiledBinding, argument: ArgumentValue?, inside call: FactoryCall? = nil,
        make: (FactoryCall) throws -> AnyObject
    ) throws -> AnyObject {
        let place = try binding.storage.place(
            of: binding, scope: scope, overrides: overrides, path: names + [binding.key.name])
        if let box = unsafe place.made(in: &graph) { return box }
        if let call { return try keep(binding, in: place, call, make) }
        return try frame(binding, argument) { call in try keep(binding, in: place, call, make) }
    }

    /// Makes `binding`'s product by `make` in `call`, kept in `place`.
    @inline(__always)
    private func keep(
        _ binding: CompiledBinding, in place: InstancePlace, _ call: FactoryCall,
        _ make: (FactoryCall) throws -> AnyObject
    ) throws -> AnyObject {
        switch place {
        case .nowhere: return try make(call)
        case .cell(let cell): return try cell.value(of: binding, at: unsafe building.all) { try make(call) }
        case .graph(let storage):
            let box = try make(call)
            unsafe graph.keep(box, of: storage)
            return box
        }
    }

    /// An instance of `binding`, as ``instance(of:into:argument:)`` makes it, returned.
    func instance<T>(of binding: CompiledBinding, as _: T.Type, argument: ArgumentValue?) throws -> T {
        try ProductMemory.withHeap(for: T.self) { memory in
            try instance(of: binding, into: memory, argument: argument)
            return true
        }!
    }

    /// The frame of one factory's run, synchronously: the frame's rules
    /// (``FramePath``: the cycle check, the path, the `factory-failed`
    /// wrapping) over the thread's stack, the binding on it while it runs.
    @inline(__always)
    func frame<Result>(
        _ binding: CompiledBinding, _ argument: ArgumentValue?, _ body: (FactoryCall) throws -> Result
    ) throws -> Result {
        try unsafe building.enter(binding)
        unsafe building.push(binding)
        defer { unsafe building.pop() }
        do {
            return try body(FactoryCall(context: self, binding: binding, argument: argument))
        } catch {
            throw unsafe building.failure(error, making: binding)
        }
    }

    /// What a frame of `binding` throws for `error`, for a call of
    /// `binding`'s closure made without one (a decorator that needs
    /// nothing, see ``DecoratorChain``): only a failure pays for the frame's rule.
    func failure(_ error: any Error, makingOffPath binding: CompiledBinding) -> ResolutionError {
        unsafe building.failure(error, making: binding, pushed: false)
    }

    private func check(_ argument: ArgumentValue?, for binding: CompiledBinding) throws {
        guard let expected = binding.definition.argument, argument?.key != expected else { return }
        throw ResolutionError(
            argument == nil ? .argumentMissing : .argumentMismatch, type: binding.key.name,
            path: names + [binding.key.name], factory: binding.definition.name,
            detail: argument.map { "\(expected.name), not \($0.key.name)" } ?? expected.name)
    }

    func notBound(_ key: TypeKey, from injector: InjectorName) -> ResolutionError {
        let activation = activation!
        let providers = activation.providers(of: key)
        let similar = EditDistance.suggestions(for: key.name, among: activation.entries.bindings.map(\.key.name))
        return ResolutionError(
            .notBound, type: key.name, injectors: activation.searchOrder(from: injector), path: names + [key.name],
            suggestions: providers ?? similar,
            detail: providers.map { $0.map { "'\($0)'" }.joined(separator: ", ") })
    }
}

/// A call is made, used and ended on one thread (a main-actor factory runs
/// it inside `MainActor.assumeIsolated`, on the thread that made it): the
/// context it refers to is that thread's, read without locks.
extension FactoryCall: @unchecked Sendable {}

/// A resolve-time argument with its type.
/// A class, so a ``FactoryCall`` can refer to it without owning it.
@usableFromInline
final class ArgumentValue {
    let value: Any
    let key: TypeKey

    init<Value>(_ value: Value) {
        self.value = value
        key = TypeKey(Value.self)
    }
}

extension CompiledBinding {
    /// Whether `other` yields the same instance as this binding: it is this
    /// binding, or shares its storage (one instance seen as several types),
    /// so on a path the two count as one.
    @inline(__always)
    func sharesInstance(with other: CompiledBinding) -> Bool {
        instanceIdentity == other.instanceIdentity
    }

    /// The identity of the instances this binding yields: its storage's.
    @inline(__always)
    var instanceIdentity: ObjectIdentifier { ObjectIdentifier(storage) }
}

/// The bindings a resolution is making, outermost first: a stack in plain
/// memory, kept for the context's life and grown when a path goes deeper.
///
/// The bindings are unretained: the activation the resolution holds keeps
/// them (an ``Injectable`` type's binding is kept for the process). An array
/// would retain and release each one, and check its buffer's uniqueness, on
/// every factory a resolve runs. Each entry keeps its binding's storage's
/// identity too, so the cycle check compares plain words and touches no binding.
@safe struct BindingPath: FramePath {
    @unsafe private struct Entry {
        let binding: Unmanaged<CompiledBinding>
        /// The binding's storage's identity: the instances it yields (see ``CompiledBinding/sharesInstance(with:)``).
        let instances: ObjectIdentifier
    }

    private var entries: UnsafeMutablePointer<Entry>
    private var capacity = 16
    /// How many bindings are on the path.
    private(set) var count = 0

    init() {
        unsafe entries = .allocate(capacity: capacity)
    }

    /// Frees the stack; call when its context goes.
    func free() { unsafe entries.deallocate() }

    /// The innermost binding.
    var last: CompiledBinding? { unsafe count == 0 ? nil : entries[count - 1].binding.takeUnretainedValue() }

    /// Puts `binding` on the path while its factory runs.
    @inline(__always)
    mutating func push(_ binding: CompiledBinding) {
        if count == capacity { grow() }
        unsafe entries[count] = unsafe Entry(binding: Unmanaged.passUnretained(binding), instances: binding.instanceIdentity)
        count += 1
    }

    /// Takes the innermost binding off the path.
    @inline(__always)
    mutating func pop() { count -= 1 }

    private mutating func grow() {
        let larger = UnsafeMutablePointer<Entry>.allocate(capacity: capacity * 2)
        unsafe larger.moveInitialize(from: entries, count: count)
        unsafe entries.deallocate()
        unsafe entries = unsafe larger
        capacity *= 2
    }

    @inline(__always)
    func holdsInstance(of binding: CompiledBinding) -> Bool {
        guard count > 0 else { return false }
        let instances = binding.instanceIdentity
        for index in 0..<count where unsafe entries[index].instances == instances { return true }
        return false
    }

    var all: [CompiledBinding] { (0..<count).map { unsafe entries[$0].binding.takeUnretainedValue() } }
}
