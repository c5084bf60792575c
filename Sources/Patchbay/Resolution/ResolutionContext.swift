/// One top-level resolve and everything it builds: the activation it reads
/// (so the whole graph comes from one manifest, even if another is activated
/// meanwhile), the chain of bindings under construction (to detect cycles and
/// to name the path in errors), and the `graph`-lifetime instances.
///
/// Each thread reuses one context (``ThreadResolutionState``), so a resolve
/// allocates nothing of its own. Used by one thread at a time.
@usableFromInline
final class ResolutionContext {
    // A context is used by one thread at a time (its owner's), so the dynamic
    // exclusivity checks Swift runs on each access of a class's `var` are
    // switched off: they were the largest cost of a transient resolve.
    // The container and activation are unowned: whoever begins a
    // resolution holds both until it ends (the container is the callee of
    // its resolve, the activation that call's own reference).
    @exclusivity(unchecked) private(set) unowned(unsafe) var container: Container?
    @exclusivity(unchecked) private(set) unowned(unsafe) var activation: Activation?
    // So are the overrides (the task-local value that holds them is in
    // force until the resolve returns) and the scope (its caller holds it).
    @exclusivity(unchecked) private(set) unowned(unsafe) var overrides: OverrideTable?
    @exclusivity(unchecked) private unowned(unsafe) var explicitScope: Scope?
    /// Copies of what every request reads, as plain values: a class
    /// reference read from memory costs a retain and a release, where these
    /// cost a load (see ``FactoryCall``). The activation's table, whether
    /// test overrides are in force, and the container's identity.
    @exclusivity(unchecked) private var table = FastTable.empty
    @exclusivity(unchecked) private(set) var hasOverrides = false
    @exclusivity(unchecked) private(set) var containerID: ObjectIdentifier?
    /// The bindings being built, outermost first.
    @exclusivity(unchecked) private var building = BindingPath()
    /// The `graph` instances this resolution made (see ``GraphLifetime``).
    @exclusivity(unchecked) var graph = GraphInstances()

    /// The resolution that was innermost on this thread when this one began
    /// (unretained: it runs, further out, until after this one ends).
    @exclusivity(unchecked) private unowned(unsafe) var outer: ResolutionContext?
    /// The thread's cache, whose scratch memory requests are made in.
    @exclusivity(unchecked) private var cache: UnsafeMutablePointer<ResolveCache>

    init(cache: UnsafeMutablePointer<ResolveCache>) {
        self.cache = cache
    }

    deinit { building.free() }

    /// Starts a top-level resolution on this context's thread, which it is the
    /// innermost of until it ends. A resolution begun by a `Lazy` made in an
    /// earlier one passes that one's `graph` instances, to share those still alive.
    @inline(__always)
    func begin(
        container: Container, activation: Activation, overrides: OverrideTable?, scope: Scope?,
        graph shared: SharedGraph? = nil
    ) {
        self.container = container
        self.activation = activation
        self.overrides = overrides
        self.explicitScope = scope
        table = activation.fastTable
        hasOverrides = overrides != nil
        containerID = ObjectIdentifier(container)
        if let shared { graph.share(shared) }
        outer = cache.pointee.running
        cache.pointee.running = self
    }

    /// Ends it, letting go of everything it held.
    @inline(__always)
    func end() {
        container = nil
        activation = nil
        overrides = nil
        explicitScope = nil
        hasOverrides = false
        containerID = nil
        graph.removeAll()
        cache.pointee.running = outer
        if outer == nil, cache.pointee.holdsRetired { cache.pointee.owner!.takeUnretainedValue().releaseRetired() }
        outer = nil
    }

    /// What a `Lazy` made now as a factory's parameter keeps of this
    /// resolution's `graph` instances; nil when the manifest binds nothing `graph`.
    func sharedGraph() -> SharedGraph? {
        activation!.hasGraphBindings ? graph.sharing() : nil
    }

    /// The scope for `scoped` bindings: the one the resolve was asked in, else the task's current one.
    var scope: Scope? { explicitScope ?? Scope.current }

    /// The injector that served the factory running now, for `ObjectOrigin`.
    var innermostInjector: InjectorName? { building.last?.injector }

    /// The requested types' names along the path, outermost first.
    var names: [String] { building.all.map { $0.key.name } }

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
        _ type: Any.Type, into memory: UnsafeMutableRawPointer, from injector: InjectorName, argument: ArgumentValue?
    ) throws -> Bool {
        let id = ObjectIdentifier(type)
        if hasOverrides, let make = overrides!.lookup(id) {
            do {
                unsafeDowncast(try make(), to: AnyInstance.self).copyValue(into: memory)
                return true
            } catch {
                let name = TypeKey.shortName(of: type)
                throw ResolutionError.factoryFailed(error, making: name, by: nil, factory: "override", path: names + [name])
            }
        }
        guard let binding = table.binding(serving: id, from: injector) else { return false }
        try instance(of: binding, into: memory, argument: argument)
        return true
    }

    /// Resolves `T` from `injector`, with `argument`: in the thread's
    /// scratch memory, moved out. The form a factory's dependency and a
    /// top-level resolve use.
    @inline(__always)
    func resolveValue<T>(_: T.Type, from injector: InjectorName, argument: ArgumentValue?) throws -> T {
        guard let (memory, used) = scratch(for: T.self) else {
            return try resolveOnTheHeap(T.self, from: injector, argument: argument)  // too deep or over-aligned
        }
        defer { cache.pointee.scratchUsed = used }
        guard try resolve(T.self, into: memory, from: injector, argument: argument) else {
            return try resolveUnbound(T.self, from: injector)
        }
        return memory.assumingMemoryBound(to: T.self).move()
    }

    /// An instance of `binding`, which serves `T`, with no argument: made
    /// in the thread's scratch memory, moved out. The form of a top-level
    /// resolve whose binding the container's table already found.
    @inline(__always)
    func instanceValue<T>(of binding: CompiledBinding, as _: T.Type, argument: ArgumentValue? = nil) throws -> T {
        guard let (memory, used) = scratch(for: T.self) else {
            return try instance(of: binding, as: T.self, argument: argument)
        }
        defer { cache.pointee.scratchUsed = used }
        try instance(of: binding, into: memory, argument: argument)
        return memory.assumingMemoryBound(to: T.self).move()
    }

    /// Room for a `T` on the thread's scratch stack, and the mark to give it
    /// back at (by setting `scratchUsed` to it); nil when the stack is full
    /// (a very deep path) or `T` is over-aligned: then the heap serves.
    @inline(__always)
    private func scratch<T>(for _: T.Type) -> (UnsafeMutableRawPointer, Int)? {
        let size = (MemoryLayout<T>.size + 15) & ~15
        let used = cache.pointee.scratchUsed
        guard used + size <= ResolveCache.scratchCapacity, MemoryLayout<T>.alignment <= 16 else { return nil }
        cache.pointee.scratchUsed = used + size
        return (cache.pointee.scratch + used, used)
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
        let memory = UnsafeMutablePointer<T>.allocate(capacity: 1)
        defer { memory.deallocate() }
        guard try resolve(T.self, into: memory, from: injector, argument: argument) else {
            return try unbound(T.self, from: injector, ifBound: ifBound)
        }
        return memory.move()
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

    /// An instance of `binding`, from its storage or newly made, as its lifetime says, written into `memory`.
    ///
    /// A binding whose lifetime keeps nothing and whose product is built
    /// straight into memory (``CompiledBinding/isBuiltEachTime``, a plain
    /// transient) is built here without asking its storage, which would
    /// only call ``build(_:into:argument:)``: the most common factory skips
    /// a dynamic call.
    func instance(of binding: CompiledBinding, into memory: UnsafeMutableRawPointer, argument: ArgumentValue?) throws {
        if binding.takesArgument { try check(argument, for: binding) }
        if binding.isBuiltEachTime { return try build(binding, into: memory, argument: argument) }
        try binding.storage.instance(of: binding, into: memory, in: self, argument: argument)
    }

    /// Runs `binding`'s factory straight into `memory`, for a lifetime that
    /// keeps nothing; the product is the bound type (``CompiledBinding/buildsIntoMemory``).
    @inline(__always)
    func build(_ binding: CompiledBinding, into memory: UnsafeMutableRawPointer, argument: ArgumentValue?) throws {
        try run(binding, argument) { call in try binding.buildInto(call, memory) }
    }

    /// An instance of `binding`, as ``instance(of:into:argument:)`` makes it, returned.
    func instance<T>(of binding: CompiledBinding, as _: T.Type, argument: ArgumentValue?) throws -> T {
        let memory = UnsafeMutablePointer<T>.allocate(capacity: 1)
        defer { memory.deallocate() }
        try instance(of: binding, into: memory, argument: argument)
        return memory.move()
    }

    /// Runs the binding's factory into a box.
    func make(_ binding: CompiledBinding, _ argument: ArgumentValue?) throws -> AnyObject {
        try run(binding, argument, binding.definition.build)
    }

    /// Runs a factory with cycle detection and error context.
    @inline(__always)
    func run<Result>(
        _ binding: CompiledBinding, _ argument: ArgumentValue?, _ body: (FactoryCall) throws -> Result
    ) throws -> Result {
        try checkCycle(binding)
        building.push(binding)
        defer { building.pop() }
        do {
            return try body(FactoryCall(context: self, binding: binding, argument: argument))
        } catch {
            throw ResolutionError.factoryFailed(error, making: binding.key.name, by: binding, path: names)
        }
    }

    /// Throws when `binding` is already being built further up this path.
    /// Bindings that share instances (one storage) count as one.
    @inline(__always)
    func checkCycle(_ binding: CompiledBinding) throws {
        guard building.holdsInstance(of: binding) else { return }
        throw ResolutionError.cycle(at: binding, after: building.all)!
    }

    private func check(_ argument: ArgumentValue?, for binding: CompiledBinding) throws {
        guard let expected = binding.definition.argument else { return }
        guard let argument else {
            throw ResolutionError(
                .argumentMissing, type: binding.key.name, path: names + [binding.key.name],
                factory: binding.definition.name, detail: expected.name)
        }
        guard argument.key == expected else {
            throw ResolutionError(
                .argumentMismatch, type: binding.key.name, path: names + [binding.key.name],
                factory: binding.definition.name, detail: "\(expected.name), not \(argument.key.name)")
        }
    }

    func notBound(_ key: TypeKey, from injector: InjectorName) -> ResolutionError {
        let activation = activation!
        let searched = activation.searchOrder(from: injector)
        let providers = activation.providers(of: key)
        let similar = EditDistance.suggestions(for: key.name, among: activation.boundNames)
        return ResolutionError(
            .notBound, type: key.name, injectors: searched, path: names + [key.name],
            suggestions: providers ?? similar,
            detail: providers.map { $0.map { "'\($0)'" }.joined(separator: ", ") })
    }
}

/// A resolve-time argument with its type.
/// A class, so a ``FactoryCall`` can refer to it without owning it.
@usableFromInline
final class ArgumentValue {
    let value: Any
    let key: TypeKey

    init(value: Any, key: TypeKey) {
        self.value = value
        self.key = key
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
