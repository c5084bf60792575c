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
    /// What replacing the activation changes, under one lock.
    private struct State {
        /// Set once any test installs overrides; carried by each activation after.
        var overridesInUse = false
        /// The activations this container has replaced that are still alive: an idle
        /// thread's resolve cache may hold one, and with it that activation's
        /// singletons, for as long as the thread does not resolve again. They are
        /// retired with the container, as the current one is.
        var replaced: [WeakActivation] = []
    }
    private let state = Locked(State())
    /// The generations of the wiring, the leases held on them and what
    /// replaced ones leave to shut down (see ``GenerationLedger``); changed
    /// with `state`'s lock held when a manifest is activated, alone by a lease.
    let ledger = Locked(GenerationLedger())
    /// The retirements under way, the failures no watch heard and what was made late in replaced
    /// bindings, for ``shutdown()`` (see `Container+Retiring.swift`).
    let retiring = Locked(RetiringWork())
    /// The container whose new wiring this one serves while it starts
    /// (``activate(_:isolation:startingWith:)``), if it is such: it then owns
    /// none of its singletons, which its deinit must leave alone; what it
    /// makes resolves later from its owner, and its owner's test overrides are its own.
    let owner: StagingOwner?

    /// The container a starting wiring's container serves for.
    struct StagingOwner: Sendable {
        weak var container: Container?
        let id: ObjectIdentifier
    }

    /// Whose test overrides apply: this container's, or its owner's.
    var overridesID: ObjectIdentifier { owner?.id ?? ObjectIdentifier(self) }

    /// Whether any test installed overrides on this container.
    var overridesAreInUse: Bool { state.withLock { $0.overridesInUse } }

    /// Creates a container serving `manifest` from `catalog`.
    /// - Throws: ``ManifestError`` listing every problem when the manifest does not fit the catalog.
    public convenience init(catalog: FactoryCatalog, manifest: Manifest) throws(ManifestError) {
        self.init(catalog: catalog, activation: try Activation.compile(manifest, catalog: catalog))
    }

    /// Creates a container serving an activation made from `catalog`.
    init(catalog: FactoryCatalog, activation: Activation, startingFor owner: Container? = nil) {
        self.catalog = catalog
        self.owner = owner.map { StagingOwner(container: $0, id: ObjectIdentifier($0)) }
        _ = current.exchange(activation)
    }

    deinit {
        // The releasing thread lets go of this container's activation at once (another thread does when
        // it next resolves, or ends), so the manifest is freed with the container.
        ThreadResolutionState.existing?.forget(self)
        guard owner == nil else { return }
        let (overridden, replaced) = state.withLock { ($0.overridesInUse, $0.replaced) }
        if var activation = current.exchange(nil) {
            // Held by this container alone (no thread's resolve cache holds it, and no twin with overrides
            // on shares its cells), it is freed here with every singleton it made: retiring each first was
            // a second walk over every binding, a tenth of the time of dropping a container of 100,000.
            if overridden || !isKnownUniquelyReferenced(&activation) { activation.retire() }
        }
        for old in replaced { old.activation?.retire() }
    }

    /// Makes `activation` (or its twin with overrides on, once any test
    /// installed some) the one in force, holding the lock, and notes the
    /// one it replaces; returns that one, for the caller to release outside
    /// the lock: its singletons' deinits may do anything.
    private func replace(with activation: Activation, _ state: inout State) -> Activation? {
        let previous = current.exchange(state.overridesInUse ? activation.withOverridesInUse() : activation)
        state.replaced.removeAll { $0.activation == nil }
        if let previous { state.replaced.append(WeakActivation(activation: previous)) }
        return previous
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
    /// force for every later resolve, as the next ``generation``.
    ///
    /// What did not change is kept: a binding whose factory, parameters,
    /// lifetime, injector, decorators and needs' bindings are the same keeps
    /// its made singleton (see "Re-activate while running" in the
    /// reference). The singletons it replaces are shut down (each that is an
    /// ``AsyncShutdown``) once no ``withLease(isolation:_:)`` that could
    /// reach them is held; instances already handed out outside a lease are the app's.
    /// - Throws: ``ManifestError`` with every problem; the running manifest then stays active, untouched.
    public func activate(_ manifest: Manifest) throws(ManifestError) {
        try activate(manifest, reporting: nil)
    }

    /// ``activate(_:)``, telling `report` how the singletons it replaces were shut down.
    func activate(_ manifest: Manifest, reporting report: (@Sendable (Int, [Diagnostic]) -> Void)?) throws(ManifestError) {
        while true {
            // Compiled against the activation in force; published only if it still is, else compiled again:
            // what it keeps must be what the one it replaces holds.
            let base = currentActivation()
            let fresh = try Activation.compile(manifest, catalog: catalog, keepingFrom: base)
            if publish(generation: fresh, over: base, reporting: report) { return }
        }
    }

    /// Makes `fresh`, compiled from a new manifest against `base`, the
    /// activation in force as the next generation, unless another was
    /// published since `base` (then false, and nothing changes). The
    /// storages of `base` it did not keep are retired: their singletons
    /// are shut down once no lease that could reach them is held.
    func publish(
        generation fresh: Activation, over base: Activation, reporting report: (@Sendable (Int, [Diagnostic]) -> Void)?
    ) -> Bool {
        let outcome = state.withLock { state -> (previous: Activation, due: [GenerationLedger.Retirement])? in
            guard let inForce = current.publishedObject, inForce.serial == base.serial else { return nil }
            let change = StorageChange(from: inForce, to: fresh)
            _ = replace(with: fresh, &state)
            let due = ledger.withLock { $0.replace(dropping: change.dropped, making: change.made, report: report) }
            watchForLateMaking(change.unmade)
            return (inForce, due)
        }
        guard let outcome else { return false }
        startRetiring(outcome.due)
        _ = outcome.previous  // released here, outside the lock: its singletons' deinits may do anything
        return true
    }

    /// Forgets every singleton and weak instance, so the next resolves make new
    /// ones from the same manifest. For tests.
    public func reset() {
        let base = currentActivation()
        guard let fresh = try? Activation.compile(base.manifest, catalog: catalog) else { return }
        publish(fresh, resetting: base)
    }

    /// Makes `fresh` the activation in force. Compiled outside the lock
    /// from `base`'s manifest (what every reset does), it is not: if a new
    /// manifest was activated meanwhile, resetting must not bring the old one back.
    func publish(_ fresh: Activation, resetting base: Activation? = nil) {
        let previous = state.withLock { state -> Activation? in
            if let base, current.publishedObject?.manifest != base.manifest { return nil }
            return replace(with: fresh, &state)
        }
        _ = previous  // released here, outside the lock: its singletons' deinits may do anything
    }

    /// The activation in force, retained. Takes the lock: for everything but the resolve fast path.
    func currentActivation() -> Activation {
        state.withLock { _ in current.publishedObject! }
    }


    func noteOverridesInUse() {
        let previous = state.withLock { state -> Activation? in
            guard !state.overridesInUse else { return nil }
            state.overridesInUse = true
            return replace(with: current.publishedObject!, &state)
        }
        _ = previous  // released here, outside the lock, as in `publish`
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
        try resolveOnThisThread(T.self, from: injector)
    }

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
            argument: ArgumentValue(argument))!
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

    /// Resolves inside `scope` (for `scoped` bindings), from any thread.
    func resolve<T>(_ type: T.Type, from injector: InjectorName, in scope: Scope?) throws(ResolutionError) -> T {
        let state = ThreadResolutionState.current
        return try resolve(T.self, from: injector, state: state, activation: state.activation(of: self), scope: scope)!
    }

    /// The engine's entry for every request but the fast path's: the
    /// resolution ``withResolution(on:activation:scope:graph:making:_:)``
    /// joins or begins runs it. `graph` is what a `Lazy` made in an earlier
    /// resolution shares of it.
    @inline(never)
    func resolve<T>(
        _ type: T.Type, from injector: InjectorName, state: ThreadResolutionState, activation: Activation,
        argument: ArgumentValue? = nil, ifBound: Bool = false, scope: Scope? = nil, graph: SharedGraph? = nil
    ) throws(ResolutionError) -> T? {
        try withResolution(on: state, activation: activation, scope: scope, graph: graph, making: T.self) { context, _ in
            try context.resolve(T.self, from: injector, argument: argument, ifBound: ifBound)
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
        currentActivation().entries[ObjectIdentifier(type)]?.winner(for: injector).described
    }
}

/// A weak reference to an activation.
private struct WeakActivation {
    weak var activation: Activation?
}
