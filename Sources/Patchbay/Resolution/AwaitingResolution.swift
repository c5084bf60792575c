// Resolution through `await`: what makes `async` factories, and goes to the
// main actor for main-actor ones. Everything else it hands to the
// synchronous engine, so a plain binding resolves the same way whichever
// entry was called; this engine only adds what awaiting needs: a singleton
// made once by one task while the others await it, and the path of
// bindings being awaited, for cycles and messages.

extension Container {
    /// Resolves `type` from `injector` (with fallback), awaiting what must be
    /// awaited: a binding served by an `async` factory (and its needs), and a
    /// main-actor factory's product, made on the main actor.
    ///
    ///     let store = try await container.resolve(awaiting: (any TokenStore).self)
    ///
    /// Any binding can be resolved this way; a plain one is made exactly as
    /// ``resolve(_:from:)`` makes it. A singleton of an `async` factory is
    /// made once even when many tasks ask for it first at the same time.
    ///
    /// `graph` instances are shared by the `async` factories of one awaited
    /// resolve; each synchronous need in it is resolved as a resolve of its
    /// own, with a graph of its own. A main-actor product is handed to the
    /// caller as it is: make such types `Sendable` (a `@MainActor` class is).
    ///
    /// - Throws: ``ResolutionError``, naming the path of the binding that failed.
    public func resolve<T>(
        awaiting type: T.Type = T.self, from injector: InjectorName = .primary
    ) async throws(ResolutionError) -> T {
        let activation = ThreadResolutionState.current.activation(of: self)
        if let binding = activation.binding(serving: ObjectIdentifier(T.self), from: injector) {
            switch binding.awaitedExecution {
            case .synchronous:
                // Nothing to await: the synchronous engine serves it (and any override of it).
                return try resolve(T.self, from: injector)
            case .async where !activation.overridesInUse:
                // A made singleton is read as the synchronous engine's fast path reads one.
                if let box = binding.madeShared { return Instance<T>.value(in: box) }
            default: break
            }
        }
        return try await AwaitingResolution(container: self, activation: activation)
            .resolve(T.self, from: injector, path: [])!
    }
}

/// One top-level ``Container/resolve(awaiting:from:)`` and everything it
/// awaits: the activation it reads (so the whole graph comes from one
/// manifest) and its `graph` instances.
final class AwaitingResolution: Sendable {
    let container: Container
    let activation: Activation
    let overrides: OverrideTable?
    /// The `graph` instances of the `async` factories it made (see
    /// ``GraphLifetime``). One resolution awaits its needs one after another,
    /// in one task, so the lock is never contended: it orders the accesses
    /// of the threads the task runs on. Nil when the manifest binds nothing
    /// `graph`: most resolutions then allocate nothing for it.
    private let graphs: Locked<GraphInstances>?

    /// The path of the awaited making of a cell the running task is inside,
    /// ending with its binding: where a resolve begun inside it (a factory
    /// that resolves by hand) goes on from, so a loop back is a cycle.
    @TaskLocal static var makingAround: [CompiledBinding] = []

    init(container: Container, activation: Activation) {
        self.container = container
        self.activation = activation
        graphs = activation.hasGraphBindings ? Locked(GraphInstances()) : nil
        overrides = activation.overridesInUse ? OverrideTable.current(for: ObjectIdentifier(container)) : nil
    }

    /// The `graph` instances, as a `Lazy` made now shares them.
    var graph: GraphInstances {
        get { graphs?.withLock { $0 } ?? GraphInstances() }
        set { graphs?.withLock { $0 = newValue } }
    }

    /// Resolves `T` for a request at the end of `path`: an `async` binding
    /// here, a main-actor one on the main actor, anything else (an override,
    /// an unbound or ``Injectable`` type too) as the synchronous engine does.
    func resolve<T>(
        _: T.Type, from injector: InjectorName, path: [CompiledBinding], ifBound: Bool = false
    ) async throws(ResolutionError) -> T? {
        let id = ObjectIdentifier(T.self)
        let binding = overrides?.lookup(id) == nil ? activation.binding(serving: id, from: injector) : nil
        switch binding?.awaitedExecution {
        case .async?:
            return try await instance(of: binding!, as: T.self, path: path)
        case .mainActor?:
            return try await resolveOnMainActor(T.self, from: injector, ifBound: ifBound, after: path)
        case .synchronous?, nil:
            return try resolveSynchronously(T.self, from: injector, ifBound: ifBound, after: path)
        }
    }

    /// `T` as the synchronous engine resolves it, on the main actor. A
    /// function of its own: a function that names `Result<T?, ...>` asks
    /// the runtime for its metadata on entry, in this unspecialized code,
    /// whichever way the request goes.
    private func resolveOnMainActor<T>(
        _: T.Type, from injector: InjectorName, ifBound: Bool, after path: [CompiledBinding]
    ) async throws(ResolutionError) -> T? {
        let made = await MainActor.run { () -> Instance<Result<T?, ResolutionError>> in
            Instance(Result { () throws(ResolutionError) in
                try self.resolveSynchronously(T.self, from: injector, ifBound: ifBound, after: path)
            })
        }
        return try made.value.get()
    }

    /// `T` as the synchronous engine resolves it, in this resolution's
    /// activation; an error's path goes on from `path`.
    private func resolveSynchronously<T>(
        _: T.Type, from injector: InjectorName, ifBound: Bool, after path: [CompiledBinding]
    ) throws(ResolutionError) -> T? {
        do {
            return try container.resolve(
                T.self, from: injector, state: ThreadResolutionState.current, activation: activation, ifBound: ifBound)
        } catch {
            throw error.following(path.map(\.key.name))
        }
    }

    /// An instance of an `async` binding, from where its lifetime keeps it
    /// or newly made: the awaiting driver of every lifetime (``InstancePlace``),
    /// twin of ``ResolutionContext/instance(of:into:argument:)``.
    private func instance<T>(
        of binding: CompiledBinding, as _: T.Type, path: [CompiledBinding]
    ) async throws(ResolutionError) -> T {
        let place = try binding.storage.place(
            of: binding, scope: Scope.current, overrides: overrides, path: path.map(\.key.name) + [binding.key.name])
        var path = path
        switch place {
        case .cell(let cell):
            if let box = cell.current { return binding.typed(box, as: T.self) }
            // Asked first inside an awaited making (a factory that resolves
            // by hand), the path goes on from that making's: a loop back is
            // then a cycle, where waiting for the making would never end.
            if path.isEmpty { path = Self.makingAround }
        case .graph(let storage):
            if let box = graphs!.withLock({ $0.instance(of: storage) }) { return binding.typed(box, as: T.self) }
        case .weakBox(let weak):
            if let box = weak.current { return binding.typed(box, as: T.self) }
        case .nowhere: break
        }
        let box = try await frame(binding, after: path) { call in
            let make = { () async throws -> AnyObject in try await binding.definition.buildAwaiting!(call) }
            switch place {
            case .nowhere: return try await make()
            case .cell(let cell):
                return try await cell.value(of: binding, at: call.path.map(\.key.name)) {
                    try await Self.$makingAround.withValue(call.path, operation: make)
                }
            case .weakBox(let weak):
                let made = try await make()
                return try weak.value(of: binding) { made }
            case .graph(let storage):
                let box = try await make()
                graphs!.withLock { $0.keep(box, of: storage) }
                return box
            }
        }
        return binding.typed(box, as: T.self)
    }

    /// The frame of one `async` factory's run: the cycle check
    /// (``ResolutionError/cycle(at:after:)``), the path that its needs are
    /// awaited at the end of, and its error wrapped as `factory-failed` with
    /// the path. Twin of ``ResolutionContext/frame(_:_:_:)``.
    private func frame(
        _ binding: CompiledBinding, after path: [CompiledBinding],
        _ body: (AwaitingCall) async throws -> AnyObject
    ) async throws(ResolutionError) -> AnyObject {
        if let cycle = ResolutionError.cycle(at: binding, after: path) { throw cycle }
        let path = path + [binding]
        do {
            // Objects the factory makes belong to this resolution, as a synchronous factory's do.
            let origin = ObjectOrigin(
                container: container, injector: binding.injector, overrides: overrides, scope: Scope.current)
            return try await ObjectOrigin.$awaited.withValue(origin) {
                try await body(AwaitingCall(resolution: self, binding: binding, path: path))
            }
        } catch {
            throw ResolutionError.factoryFailed(error, making: binding.key.name, by: binding, path: path.map(\.key.name))
        }
    }
}

/// What an `async` factory's closure is called with: the resolution it
/// runs in and the path to its binding, which its needs are awaited at the end of.
@usableFromInline
struct AwaitingCall: Sendable {
    let resolution: AwaitingResolution
    let binding: CompiledBinding
    /// The bindings being awaited, outermost first, ending with ``binding``.
    let path: [CompiledBinding]

    /// A cursor over the factory's needs, in the order of its closure's parameters.
    @usableFromInline
    var dependencies: DependencyCursor<Self> { DependencyCursor(call: self) }

    /// The binding's decoded parameters; validation decoded them at activation.
    @usableFromInline
    func parameters<P>(as _: P.Type) -> P {
        binding.parameters as! P
    }

    /// One need, resolved from the injector that served the factory, with
    /// the same fallback: awaited when it must be, `T?` as such.
    func dependency<D>(_: D.Type, spec: DependencySpec) async throws -> D {
        if let makeWrapper = spec.makeAwaitingWrapper {
            return try await makeWrapper(self) as! D  // an Optional or Lazy of a concrete type
        }
        return try await resolution.resolve(D.self, from: binding.injector, path: path)!
    }
}

extension CompiledBinding {
    /// Where an awaited resolve makes this binding: as its factory runs, but
    /// a collection with a main-actor element on the main actor, as a whole
    /// (validation refuses `async` elements).
    var awaitedExecution: FactoryExecution {
        guard definition.execution == .synchronous, !elements.isEmpty,
            elements.contains(where: { $0.definition.execution == .mainActor })
        else { return definition.execution }
        return .mainActor
    }
}

extension ResolutionError {
    /// The same error as seen from the end of `outer`: its path goes on from there.
    func following(_ outer: [String]) -> ResolutionError {
        guard !outer.isEmpty else { return self }
        var error = ResolutionError(
            reason, type: requestedType, injectors: injectorsSearched, path: outer + dependencyPath,
            suggestions: suggestions, factory: factory, underlying: underlying, detail: detail)
        error.requestedAt = requestedAt
        error.requestedAtDeclaration = requestedAtDeclaration
        return error
    }
}
