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
        let activation = ThreadResolutionState.activation(of: self)
        let binding = activation.binding(serving: ObjectIdentifier(T.self), from: injector)
        switch binding?.awaitedExecution {
        case .synchronous?:
            // Nothing to await: the synchronous engine serves it (and any override of it).
            return try resolve(T.self, from: injector)
        case .async? where !activation.overridesInUse:
            // A made singleton is read as the synchronous engine's fast path reads one.
            if let box = binding!.madeShared { return Instance<T>.value(in: box) }
            // Asked inside an `async` factory's run in this same task (a
            // factory that resolves by hand), the path goes on from that
            // run's: a loop back is then a cycle. A task it started is not its run.
            // Each value handed on is consumed: what an `await` outlives is
            // otherwise copied, a retain and a release each.
            let path = AwaitedPath(AwaitingCall.running?.inThisTask)
            return Instance<T>.value(
                in: try await AwaitingResolution(container: self, activation: consume activation)
                    .box(of: (consume binding)!, path: path))
        default: break
        }
        return try await AwaitingResolution(container: self, activation: activation).resolve(T.self, from: injector)
    }
}

/// One top-level ``Container/resolve(awaiting:from:)`` and everything it
/// awaits: the activation it reads (so the whole graph comes from one
/// manifest) and its `graph` instances. A value, copied into each call it
/// makes (``AwaitingCall``): an object of its own would cost every awaited
/// resolve an allocation, where a copy costs a nested call two retains.
struct AwaitingResolution: Sendable {
    let container: Container
    let activation: Activation
    let overrides: OverrideTable?
    /// The `graph` instances of the `async` factories it made (see
    /// ``GraphLifetime``). One resolution awaits its needs one after another,
    /// in one task, so the lock is never contended: it orders the accesses
    /// of the threads the task runs on. Nil when the manifest binds nothing
    /// `graph`: most resolutions then allocate nothing for it.
    let graphs: Locked<GraphInstances>?
    /// The task it runs in: one resolution awaits its needs one after
    /// another, in the task that asked (see ``AwaitingCall/inThisTask``).
    let task = TaskIdentity.current

    @inline(__always) init(container: Container, activation: Activation) {
        // What it reads of them first, then they are moved in: read after, they are copied.
        graphs = activation.hasGraphBindings ? Locked(GraphInstances()) : nil
        overrides = activation.overridesInUse ? OverrideTable.current(for: container.overridesID) : nil
        self.container = container
        self.activation = activation
    }

    /// What a `Lazy` made now shares the `graph` instances through; nil when there are none.
    func sharedGraph() -> SharedGraph? { graphs?.withLock { $0.sharing() } }

    /// Resolves `T` for a request at the end of `path`: an `async` binding
    /// here, a main-actor one on the main actor, anything else (an override,
    /// an unbound or ``Injectable`` type too) as the synchronous engine does.
    func resolve<T>(
        _: T.Type, from injector: InjectorName, path: AwaitedPath, ifBound: Bool = false
    ) async throws(ResolutionError) -> T? {
        let id = ObjectIdentifier(T.self)
        let binding = overrides?.lookup(id) == nil ? activation.binding(serving: id, from: injector) : nil
        switch binding?.awaitedExecution {
        case .async?:
            return Instance<T>.value(in: try await box(of: binding!, path: path))
        case .mainActor?:
            return try await resolveOnMainActor(T.self, from: injector, ifBound: ifBound, after: path)
        case .synchronous?, nil:
            return try resolveSynchronously(T.self, from: injector, ifBound: ifBound, after: path)
        }
    }

    /// `T` for a top-level request, as ``resolve(_:from:path:ifBound:)``
    /// resolves it. A function of its own: naming `T?` in the unspecialized
    /// entry would ask the runtime for its metadata at every awaited resolve.
    @inline(never)
    func resolve<T>(_: T.Type, from injector: InjectorName) async throws(ResolutionError) -> T {
        try await resolve(T.self, from: injector, path: AwaitedPath(AwaitingCall.running?.inThisTask))!
    }

    /// `T` as the synchronous engine resolves it, on the main actor. A
    /// function of its own: a function that names `Result<T?, ...>` asks
    /// the runtime for its metadata on entry, in this unspecialized code,
    /// whichever way the request goes.
    private func resolveOnMainActor<T>(
        _: T.Type, from injector: InjectorName, ifBound: Bool, after path: AwaitedPath
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
        _: T.Type, from injector: InjectorName, ifBound: Bool, after path: AwaitedPath
    ) throws(ResolutionError) -> T? {
        do {
            return try container.resolve(
                T.self, from: injector, state: ThreadResolutionState.current, activation: activation, ifBound: ifBound)
        } catch {
            throw error.following(path.names)
        }
    }

    /// An instance of an `async` binding, from where its lifetime keeps it
    /// or newly made, boxed as the bound type: the awaiting driver of every
    /// lifetime (``InstancePlace``), twin of ``ResolutionContext/instance(of:into:argument:)``.
    ///
    /// Consuming what it is given: a caller then holds nothing across the
    /// `await` but the box, where each value an `await` outlives costs a
    /// retain and a release. In its caller's frame: an async function of
    /// its own costs a frame each resolve.
    @inline(__always)
    fileprivate consuming func box(
        of binding: consuming CompiledBinding, path: consuming AwaitedPath
    ) async throws(ResolutionError) -> AnyObject {
        // A lifetime that keeps nothing is not asked (as ``CompiledBinding/isBuiltEachTime`` spares the sync engine).
        let place = binding.keepsNoInstance ? .nowhere : try binding.storage.place(
            of: binding, scope: Scope.current, overrides: overrides, path: path.names + [binding.key.name])
        let made: AnyObject? = switch place {
        case .cell(let cell): cell.current
        case .graph(let storage): graphs!.withLock { $0.instance(of: storage) }
        case .nowhere: nil
        }
        if let made { return binding.boxed(made) }
        // The frame: the one cycle check and the path (``FramePath``), the
        // factory run as the innermost call of this task, its error wrapped.
        try path.enter(binding)
        let call = AwaitingCall(resolution: consume self, binding: consume binding, outer: (consume path).innermost)
        let box: AnyObject
        do {
            // The factory's closure or builder called from each case, and
            // each case's closure capturing only what it uses: a local
            // closure shared by the cases costs an async frame.
            switch place {
            case .cell(let cell):
                box = try await AwaitingCall.$running.withValue(call) {
                    try await cell.value(of: call.binding, at: AwaitedPath(call).all) {
                        try await call.binding.definition.makeAwaited(call)
                    }
                }
            case .nowhere, .graph:
                // The app's closure of a factory that needs nothing is the
                // operation itself: a closure around it would reach it
                // through the definition, and hold that, a retain and a release.
                box = if case .direct(let make) = call.binding.definition.buildAwaiting {
                    try await AwaitingCall.$running.withValue(call, operation: make)
                } else {
                    try await AwaitingCall.$running.withValue(call) { try await call.binding.definition.makeAwaited(call) }
                }
                if case .graph(let storage) = place { call.resolution.graphs!.withLock { $0.keep(box, of: storage) } }
            }
        } catch {
            throw AwaitedPath(call).failure(error, making: call.binding)
        }
        return call.binding.boxed(box)
    }
}

/// What an `async` factory's closure is called with, and the frame of its
/// run: the resolution it runs in, its binding, and the call it runs inside
/// (the awaited path, innermost first), which its needs are awaited at the
/// end of. The innermost call of a task is its task-local ``running``: a
/// factory's own hand-written awaited resolve goes on from it.
@usableFromInline
final class AwaitingCall: Sendable {
    let resolution: AwaitingResolution
    let binding: CompiledBinding
    /// The call this one runs inside: the path goes on from it.
    let outer: AwaitingCall?

    /// The awaited factory the current task is running, innermost.
    @TaskLocal static var running: AwaitingCall?

    init(resolution: AwaitingResolution, binding: CompiledBinding, outer: AwaitingCall?) {
        self.resolution = resolution
        self.binding = binding
        self.outer = outer
    }

    /// This call, when the current task is the one running it; nil in a
    /// task it started (which inherited ``running``, and may ask for what
    /// this run makes without looping back into it).
    var inThisTask: AwaitingCall? { resolution.task == TaskIdentity.current ? self : nil }

    /// What an object its factory makes belongs to (see ``ObjectOrigin``).
    var origin: ObjectOrigin {
        ObjectOrigin(
            container: resolution.container, injector: binding.injector, overrides: resolution.overrides,
            scope: Scope.current)
    }

    /// A cursor over the factory's needs, in the order of its closure's parameters.
    @usableFromInline
    var dependencies: DependencyCursor<AwaitingCall> { DependencyCursor(call: self) }

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
        return try await resolution.resolve(D.self, from: binding.injector, path: AwaitedPath(self))!
    }
}

/// The awaited path (``FramePath``): the calls a task is running, from the innermost.
struct AwaitedPath: FramePath {
    let innermost: AwaitingCall?

    init(_ innermost: AwaitingCall?) { self.innermost = innermost }

    /// Inlined: on a top-level resolve's path, which is empty, it is one test.
    @inline(__always) func holdsInstance(of binding: CompiledBinding) -> Bool {
        innermost != nil && calls.contains { $0.binding.sharesInstance(with: binding) }
    }

    var all: [CompiledBinding] { calls.map(\.binding).reversed() }

    /// The calls of the path, innermost first.
    private var calls: some Sequence<AwaitingCall> {
        sequence(state: innermost) { call in
            defer { call = call?.outer }
            return call
        }
    }
}

extension CompiledBinding {
    /// Where an awaited resolve makes a binding of `definition` with these
    /// collection `elements` (``awaitedExecution``): as its factory runs,
    /// but a collection with a main-actor element on the main actor, as a
    /// whole (validation refuses `async` elements).
    static func awaitedExecution(of definition: FactoryDefinition, elements: [CompiledBinding]) -> FactoryExecution {
        guard definition.execution == .synchronous, !elements.isEmpty,
            elements.contains(where: { $0.definition.execution == .mainActor })
        else { return definition.execution }
        return .mainActor
    }
}

extension ResolutionError {
    /// The same error as seen from the end of `outer`: its path goes on from there.
    func following(_ outer: [String]) -> ResolutionError {
        var error = self
        error.dependencyPath = outer + dependencyPath
        return error
    }
}
