import Foundation

/// Resolves types by consulting the active manifest: the heart of Patchbay.
///
///     let container = try Container(catalog: catalog, manifest: ManifestLoader().load(contentsOf: url))
///     let users = try container.resolve((any UserRepository).self)
///
/// Safe to use from any thread or task at once. A new manifest can be
/// activated while the app runs: it is validated first, then swapped in
/// atomically; if it has any error the running manifest stays active.
public final class Container: Sendable {
    /// The factories this container can build.
    public let catalog: FactoryCatalog

    /// The activation in force, read by resolves without a lock (see
    /// ``ThreadResolutionState``); replaced under `lock`.
    @usableFromInline let current = AtomicReference<Activation>()
    /// The key of the threads' resolve caches, copied from the lazily made
    /// global: reading it here is one load, where the global's accessor
    /// checks its one-time initialization on every resolve.
    @usableFromInline let threadKey = ThreadResolutionState.key
    private let lock = Lock()
    /// Set once any test installs overrides; carried by each activation after.
    nonisolated(unsafe) private var overridesInUse = false  // guarded by `lock`
    /// The activations this container has replaced that are still alive: an idle
    /// thread's resolve cache may hold one, and with it that activation's
    /// singletons, for as long as the thread does not resolve again. They are
    /// retired with the container, as the current one is.
    nonisolated(unsafe) private var replaced: [WeakActivation] = []  // guarded by `lock`

    /// Creates a container serving `manifest` from `catalog`.
    /// - Throws: ``ManifestError`` listing every problem when the manifest does not fit the catalog.
    public init(catalog: FactoryCatalog, manifest: Manifest) throws(ManifestError) {
        self.catalog = catalog
        _ = current.exchange(try Activation.compile(manifest, catalog: catalog))
    }

    /// Creates a container serving an activation made from `catalog`.
    init(catalog: FactoryCatalog, activation: Activation) {
        self.catalog = catalog
        _ = current.exchange(activation)
    }

    deinit {
        // The releasing thread lets go of this container's activation at once (another thread does when
        // it next resolves, or ends), so the manifest is freed with the container.
        ThreadResolutionState.existing?.forget(self)
        current.load()?.takeUnretainedValue().retire()
        for old in replaced { old.activation?.retire() }
        current.destroy()
    }

    /// Notes that `activation` is no longer in force. Call holding `lock`.
    private func noteReplaced(_ activation: Activation?) {
        guard let activation else { return }
        replaced.removeAll { $0.activation == nil }
        replaced.append(WeakActivation(activation: activation))
    }

    /// Creates a container serving the manifest file at `url`.
    /// - Throws: ``ManifestError`` listing every problem in the file or against the catalog.
    public convenience init(
        catalog: FactoryCatalog, manifestAt url: URL, loader: ManifestLoader = ManifestLoader()
    ) throws(ManifestError) {
        self.init(catalog: catalog, activation: try Activation.load(contentsOf: url, loader: loader, catalog: catalog))
    }

    /// The manifest in force.
    public var manifest: Manifest { currentActivation().manifest }

    /// The warnings of the manifest in force. (`unused-factory` is not among
    /// them: one manifest cannot see the other environments; `check` judges it over a folder.)
    public var warnings: [Diagnostic] { currentActivation().warnings }

    /// Validates `manifest` and, if it has no errors, makes it the one in
    /// force for every later resolve. Instances already handed out stay valid.
    /// - Throws: ``ManifestError`` with every problem; the running manifest then stays active, untouched.
    public func activate(_ manifest: Manifest) throws(ManifestError) {
        let activation = try Activation.compile(manifest, catalog: catalog)
        publish(activation)
    }

    /// Forgets every singleton and weak instance, so the next resolves make new
    /// ones from the same manifest. For tests.
    public func reset() {
        let base = currentActivation()
        guard let fresh = try? Activation.compile(base.manifest, catalog: catalog) else { return }
        publish(fresh, resetting: base)
    }

    /// Makes `fresh`, compiled outside the lock from `base`'s manifest, the
    /// activation in force: what every reset does. If a new manifest was
    /// activated meanwhile, resetting must not bring the old one back.
    func publish(_ fresh: Activation, resetting base: Activation) {
        let previous = lock.withLock { () -> Activation? in
            guard current.load()?.takeUnretainedValue().manifest == base.manifest else { return nil }
            let previous = current.exchange(overridesInUse ? fresh.withOverridesInUse() : fresh)
            noteReplaced(previous)
            return previous
        }
        _ = previous
    }

    /// The activation in force, retained. Takes the lock: for everything but the resolve fast path.
    func currentActivation() -> Activation {
        lock.withLock { current.load()!.takeUnretainedValue() }
    }

    /// Whether `activation` is the one in force: an address comparison, no lock.
    @inlinable @inline(__always)
    func isCurrent(_ activation: Activation) -> Bool {
        current.load()?.toOpaque() == Unmanaged.passUnretained(activation).toOpaque()
    }

    private func publish(_ activation: Activation) {
        let previous = lock.withLock {
            let previous = current.exchange(overridesInUse ? activation.withOverridesInUse() : activation)
            noteReplaced(previous)
            return previous
        }
        _ = previous  // released here, outside the lock: its singletons' deinits may do anything
    }

    func noteOverridesInUse() {
        let previous = lock.withLock { () -> Activation? in
            guard !overridesInUse else { return nil }
            overridesInUse = true
            let previous = current.exchange(current.load()!.takeUnretainedValue().withOverridesInUse())
            noteReplaced(previous)
            return previous
        }
        _ = previous
    }

    // MARK: - Resolving

    /// Resolves `type` from `injector` (with fallback through the others).
    ///
    ///     let repository = try container.resolve((any UserRepository).self)
    ///     let backup: any UserRepository = try container.resolve(from: .secondary)
    ///
    /// - Throws: ``ResolutionError`` naming the type, the injectors searched,
    ///   the dependency path and the nearest names.
    // Inlinable so the caller's module specializes it for `T`: unspecialized
    // generic code would look up `Instance<T>`'s metadata at run time on
    // every call, which costs more than the rest of a made singleton's read.
    @inlinable
    public func resolve<T>(_ type: T.Type = T.self, from injector: InjectorName = .primary) throws(ResolutionError) -> T {
        // What this code does itself, where `T` is static: read a made
        // singleton served from `primary` outside test overrides (no lock,
        // nothing allocated or retained but the result), and move out what
        // the engine made for any other request the fast table found. The
        // thread's cache (plain memory) says whether it holds this
        // container's activation in force, and its table finds the binding;
        // everything else is the engine's (`ResolutionContext`), which reads
        // a made singleton from the same word, through its `InstanceCell`.
        let cache = ResolveCache.current(threadKey)
        if injector.rawValue == "primary", let table = cache.pointee.table(for: self),
            let slot = table.slot(of: ObjectIdentifier(T.self))
        {
            if let box = slot.pointee.made() { return unboxed(box, as: T.self) }
            // The engine, unspecialized, makes it in the thread's scratch
            // memory; this code, where `T` is static, moves it out.
            if MemoryLayout<T>.alignment <= 16,
                let made = try serveHead(of: slot, size: MemoryLayout<T>.size, as: T.self, cache: cache)
            {
                return made.assumingMemoryBound(to: T.self).move()
            }
        }
        return try resolveGenerally(T.self, from: injector, cache: cache)
    }

    /// A plain request from `primary` that the thread's cache found in
    /// the activation in force, with no overrides in use, made in the
    /// thread's scratch memory (`size` bytes, for `type`), which it returns
    /// for the caller to move the instance out of at once: the space is
    /// given back. The binding is the slot's head, and the activation the
    /// cache's, which keeps it alive while the resolution runs (see
    /// ``ResolveCache/activation``): nothing is looked up twice, nothing
    /// retained. Nil, having made nothing, when the scratch memory is full
    /// (a very deep path) or the request joins a resolution running on this
    /// thread whose activation, older, binds no `type`: the general path
    /// answers those.
    @usableFromInline @inline(never)
    func serveHead(
        of slot: UnsafeMutablePointer<TableSlot>, size: Int, as type: Any.Type, cache: UnsafeMutablePointer<ResolveCache>
    ) throws(ResolutionError) -> UnsafeMutableRawPointer? {
        let used = cache.pointee.scratchUsed
        let rounded = (size + 15) & ~15
        guard used + rounded <= ResolveCache.scratchCapacity else { return nil }
        let memory = cache.pointee.scratch + used
        cache.pointee.scratchUsed = used + rounded
        defer { cache.pointee.scratchUsed = used }
        if let running = joinable(on: cache, scope: nil) {
            return try run(type) { try running.resolve(type, into: memory, from: .primary, argument: nil) } ? memory : nil
        }
        let context = cache.pointee.running == nil ? cache.pointee.context! : ResolutionContext(cache: cache)
        let activation = Unmanaged<Activation>.fromOpaque(cache.pointee.activation.unsafelyUnwrapped)
        context.begin(container: self, activation: activation.takeUnretainedValue(), overrides: nil, scope: nil)
        do {
            try context.instance(of: slot.pointee.binding.unsafelyUnwrapped, into: memory, argument: nil)
            context.end()
            return memory
        } catch {
            context.end()
            throw ResolutionError.factoryFailed(error, making: TypeKey.shortName(of: type), by: nil, path: [])
        }
    }

    /// Everything the fast path does not serve: ``resolve(_:from:state:activation:argument:ifBound:scope:graph:)``
    /// for a plain request, made in the thread's scratch memory.
    @usableFromInline @inline(never)
    func resolveGenerally<T>(
        _: T.Type, from injector: InjectorName, cache: UnsafeMutablePointer<ResolveCache>
    ) throws(ResolutionError) -> T {
        let state = cache.pointee.owner.unsafelyUnwrapped.takeUnretainedValue()
        // Read even when joining: a resolve is what moves the thread's cache
        // to a manifest activated since, so the old one can go when the
        // resolution that holds it ends.
        let activation = state.activation(of: self)
        if let running = joinable(on: cache, scope: nil) {
            return try run(T.self) { try running.resolveValue(T.self, from: injector, argument: nil) }
        }
        // The context holds the activation unowned: this call holds it until the resolution ends.
        let context = begin(on: cache, activation: activation, scope: nil, graph: nil)
        do {
            let value = try context.resolveValue(T.self, from: injector, argument: nil)
            context.end()
            withExtendedLifetime(activation) {}
            return value
        } catch {
            context.end()
            withExtendedLifetime(activation) {}
            throw ResolutionError.factoryFailed(error, making: TypeKey.shortName(of: T.self), by: nil, path: [])
        }
    }

    /// The address of the activation in force, for comparing: no retain, no lock.
    @inlinable
    var rawCurrent: UnsafeMutableRawPointer? { current.load()?.toOpaque() }

    /// This container's address, for comparing.
    @inlinable
    var address: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Resolves `type`, passing `arguments` as one tuple to a factory
    /// registered with `argument:` of that tuple type (same types, same order).
    ///
    ///     let view = try container.resolve(ScoreView.self, arguments: game, player)
    public func resolve<T, each Argument>(
        _ type: T.Type = T.self, from injector: InjectorName = .primary, arguments: repeat each Argument
    ) throws(ResolutionError) -> T {
        try resolve(T.self, from: injector, argument: (repeat each arguments))
    }

    /// Resolves `type`, passing `argument` to a factory registered with `argument:`.
    ///
    ///     let model = try container.resolve(GameViewModel.self, argument: game)
    public func resolve<T, Argument>(
        _ type: T.Type = T.self, from injector: InjectorName = .primary, argument: Argument
    ) throws(ResolutionError) -> T {
        let state = ThreadResolutionState.current
        return try resolve(
            T.self, from: injector, state: state, activation: state.activation(of: self),
            argument: ArgumentValue(value: argument, key: TypeKey(Argument.self)))!
    }

    /// Resolves `type`, or returns `nil` when no injector binds it.
    ///
    /// Only "not bound" gives `nil`: if the type is bound but its factory (or
    /// a dependency) fails, the error is thrown, never hidden. A collection
    /// `[T]` of no elements is `[]`, not `nil`, when the catalog knows `T`.
    public func resolveIfBound<T>(
        _ type: T.Type = T.self, from injector: InjectorName = .primary
    ) throws(ResolutionError) -> T? {
        let state = ThreadResolutionState.current
        return try resolve(T.self, from: injector, state: state, activation: state.activation(of: self), ifBound: true)
    }

    /// Whether some injector binds `type`.
    public func isBound<T>(_ type: T.Type) -> Bool {
        currentActivation().entries[ObjectIdentifier(type)] != nil
    }

    /// Resolves `type` inside `scope` (when not nil), or returns `nil` when no injector binds it.
    func resolveIfBound<T>(_ type: T.Type, from injector: InjectorName, in scope: Scope?) throws(ResolutionError) -> T? {
        let state = ThreadResolutionState.current
        return try resolve(
            T.self, from: injector, state: state, activation: state.activation(of: self), ifBound: true, scope: scope)
    }

    /// Resolves inside `scope` (for `scoped` bindings), from any thread.
    func resolve<T>(_ type: T.Type, from injector: InjectorName, in scope: Scope?) throws(ResolutionError) -> T {
        let state = ThreadResolutionState.current
        return try resolve(T.self, from: injector, state: state, activation: state.activation(of: self), scope: scope)!
    }

    /// The engine's entry: joins the resolution running innermost on this
    /// thread when it is this container's (a factory that calls its container
    /// directly, or a `Lazy` read while it is made), or starts a new one,
    /// in the thread's context when none runs, else in one of its own.
    /// `graph` is what a `Lazy` made in an earlier resolution shares of it.
    @inline(never)
    func resolve<T>(
        _ type: T.Type, from injector: InjectorName, state: ThreadResolutionState, activation: Activation,
        argument: ArgumentValue? = nil, ifBound: Bool = false, scope: Scope? = nil, graph: SharedGraph? = nil
    ) throws(ResolutionError) -> T? {
        if let running = joinable(on: state.cache, scope: scope) {
            return try run(T.self) { try running.resolve(T.self, from: injector, argument: argument, ifBound: ifBound) }
        }
        let context = begin(on: state.cache, activation: activation, scope: scope, graph: graph)
        defer { context.end() }
        return try run(T.self) { try context.resolve(T.self, from: injector, argument: argument, ifBound: ifBound) }
    }

    /// The resolution running innermost on this thread, when a request to
    /// this container in `scope` joins it: it is this container's, and in
    /// the same scope or the request names none. Joined also when the scope
    /// is the one it runs in (a `Lazy` read during construction passes the
    /// scope it captured): otherwise a loop back would not be seen, and would
    /// recurse or wait on itself.
    @inline(__always)
    private func joinable(on cache: UnsafeMutablePointer<ResolveCache>, scope: Scope?) -> ResolutionContext? {
        guard let running = cache.pointee.running, running.containerID == ObjectIdentifier(self),
            scope == nil || scope === running.scope
        else { return nil }
        return running
    }

    /// Begins a resolution of this container on `state`'s thread: in the
    /// thread's context when none runs there, else (a factory resolving
    /// from another container, or in another scope) in one of its own.
    private func begin(
        on cache: UnsafeMutablePointer<ResolveCache>, activation: Activation, scope: Scope?, graph: SharedGraph?
    ) -> ResolutionContext {
        let overrides = activation.overridesInUse ? OverrideTable.current(for: ObjectIdentifier(self)) : nil
        let context = cache.pointee.running == nil ? cache.pointee.context! : ResolutionContext(cache: cache)
        context.begin(container: self, activation: activation, overrides: overrides, scope: scope, graph: graph)
        return context
    }

    /// Runs `body`, turning any error that is not a ``ResolutionError`` into one.
    @inline(__always)
    private func run<Result>(_ type: Any.Type, _ body: () throws -> Result) throws(ResolutionError) -> Result {
        do {
            return try body()
        } catch {
            throw ResolutionError.factoryFailed(error, making: TypeKey.shortName(of: type), by: nil, path: [])
        }
    }
}

extension Scope {
    /// Resolves `type` in this scope from `container`, from any thread.
    ///
    /// The first container a scope resolves from is the one an object
    /// adopted into it later resolves from when no default container is set.
    public func resolve<T>(
        _ type: T.Type = T.self, from container: Container, injector: InjectorName = .primary
    ) throws(ResolutionError) -> T {
        resolving(from: container)
        return try container.resolve(type, from: injector, in: self)
    }
}

extension Container {
    /// The binding that serves `type` when asked from `injector`, after
    /// fallback; `nil` when no injector binds it. Resolves nothing.
    ///
    /// A collection `[T]` has no one binding: this is `nil` for it, and each
    /// of its elements is a binding of the manifest (``Binding/isCollectionElement``).
    public func binding<T>(for type: T.Type, from injector: InjectorName = .primary) -> BindingDescription? {
        let activation = currentActivation()
        return activation.entries[ObjectIdentifier(type)]?.winner(for: injector).described
    }
}

/// A weak reference to an activation.
private struct WeakActivation {
    weak var activation: Activation?
}
