/// A dependency resolved on first use rather than when its holder is made.
///
/// Take `Lazy<T>` as a factory parameter to defer a costly creation, or to
/// break a cycle between two factories (a `Lazy` edge is not part of the
/// dependency graph's cycle check, since nothing is resolved when the holder
/// is made):
///
///     catalog.register("mailer", provides: (any Mailer).self) { (templates: Lazy<any Templates>) in
///         SMTPMailer(templates: templates)
///     }
///     // later, inside SMTPMailer:
///     let body = try templates.get().render("welcome")
///
/// The value is resolved once, from the injector that served the holder, and
/// kept until ``reset()``, which lets go of it (once no ``get()`` that
/// loaded it is still running) so the next use resolves again: for a
/// reconnecting client, say, or a test.
///
/// A `Lazy` taken as a factory's parameter belongs to the resolution that
/// made its holder, as Swinject's graph does: read later, it shares that
/// resolution's `graph` instances that are still alive (so a child that
/// reads its parent through a `Lazy` gets the very parent that holds it),
/// and makes anew those that have gone. It holds them weakly, a value it
/// shares among them too: a cycle broken by a `Lazy` leaves no cycle of
/// strong references, and once such a value has gone the next ``get()``
/// resolves again.
///
/// A `Lazy` holds its container weakly, so it never keeps one alive;
/// and the scope it was made in too, so a scoped instance that holds a `Lazy`
/// does not keep its own scope alive (read after that scope is gone, it
/// resolves as in a closed scope).
public final class Lazy<Value>: @unchecked Sendable {
    /// The container, injector, test overrides and scope to resolve from, held weakly.
    private let origin: ObjectOrigin
    /// The resolve-time argument for a factory that takes one.
    private let argument: ArgumentValue?
    /// The `graph` instances of the resolution this `Lazy` was made in, as a
    /// factory's parameter, held weakly: read later, it shares those still alive.
    private let graph: SharedGraph?
    /// The scope given by ``Scope/adopt(_:file:line:)``, which wins over the origin's.
    nonisolated(unsafe) private weak var adoptedScope: Scope?  // guarded by `resetLock`
    nonisolated(unsafe) private var adopted = false  // guarded by `resetLock`
    /// Set on first use (and again after a reset); then read with one atomic load, no lock.
    private let resolved = AtomicReference<Instance<Value>>()
    /// The `get` calls running now: a value a reset replaces is released
    /// only when none of them can still be reading it, unretained.
    private let readers = ReaderCount()
    /// Serializes resets and the release of what they replaced.
    private let resetLock = Lock()
    /// The value, when it is an instance of the resolution this `Lazy` was
    /// made in (see ``SharedGraph``): held weakly, as that resolution's
    /// graph is, so a child that reads its parent through a `Lazy` does not
    /// keep the parent alive. Once it has gone, the next `get` resolves again.
    nonisolated(unsafe) private weak var sharedValue: AnyObject?  // guarded by `resetLock`
    /// Values a reset replaced while a `get` was running, released by the last one out.
    nonisolated(unsafe) private var replaced: [Instance<Value>] = []  // guarded by `resetLock`

    /// Creates a lazy reference to `Value` in `container`.
    public init(_ type: Value.Type = Value.self, container: Container, from injector: InjectorName = .primary) {
        origin = ObjectOrigin(container: container, injector: injector, overrides: nil, scope: nil)
        argument = nil
        graph = nil
    }

    /// Creates a lazy reference to `Value` in `container`, whose factory
    /// takes a resolve-time argument: `argument` is passed to it on first
    /// use, and again after each ``reset()`` (KOInject's `KOILazyResolverArg1`).
    ///
    ///     let report = Lazy(Report.self, container: container, argument: year)
    ///     try report.get()   // resolve(Report.self, argument: year), once
    public init<Argument>(
        _ type: Value.Type = Value.self, container: Container, from injector: InjectorName = .primary,
        argument: Argument
    ) {
        origin = ObjectOrigin(container: container, injector: injector, overrides: nil, scope: nil)
        self.argument = ArgumentValue(value: argument, key: TypeKey(Argument.self))
        graph = nil
    }

    /// Creates a lazy reference to `Value` from what is making the object
    /// that creates it, as `@Injected` does: inside an object a factory
    /// makes, that resolution's container, injector, test overrides and
    /// scope; elsewhere ``PatchbaySystem/container`` and the current scope.
    ///
    ///     final class ReportScreen {
    ///         let exporter = Lazy((any Exporter).self)
    ///     }
    /// - Parameters:
    ///   - type: The type to resolve.
    ///   - injector: The injector to search first; when `nil`, the one that
    ///     served the factory making the object, else `primary`.
    public init(_ type: Value.Type = Value.self, from injector: InjectorName? = nil) {
        let enclosing = ObjectOrigin.current
        origin = ObjectOrigin(
            container: enclosing.container, injector: injector ?? enclosing.injector, overrides: enclosing.overrides,
            scope: enclosing.scope)
        argument = nil
        graph = nil
    }

    /// A `Lazy` taken as a factory's parameter: it belongs to that resolution,
    /// whose argument it passes on and whose `graph` instances it shares.
    init(
        container: Container, injector: InjectorName, overrides: OverrideTable?, scope: Scope?,
        argument: ArgumentValue?, graph: SharedGraph?
    ) {
        origin = ObjectOrigin(container: container, injector: injector, overrides: overrides, scope: scope)
        self.argument = argument
        self.graph = graph
    }

    deinit {
        resolved.destroy()
        readers.destroy()
    }

    /// The value, resolved on first call.
    /// - Throws: ``ResolutionError`` when it cannot be resolved (or the container is gone).
    public func get() throws(ResolutionError) -> Value {
        // Counted in, so a concurrent reset keeps the box this call loads
        // (unretained) until the call has copied the value out of it.
        // (No `defer`: it costs an outlined call on every read.)
        readers.enter()
        if let box = resolved.load() {
            let value = box.takeUnretainedValue().value
            if readers.leave() { releaseReplaced() }
            return value
        }
        do {
            let value = try resolveFirst()
            if readers.leave() { releaseReplaced() }
            return value
        } catch {
            if readers.leave() { releaseReplaced() }
            throw error
        }
    }

    @inline(never)
    private func resolveFirst() throws(ResolutionError) -> Value {
        if graph != nil, let shared = resetLock.withLock({ sharedValue }) { return shared as! Value }
        let (adopted, adoptedScope) = resetLock.withLock { (self.adopted, self.adoptedScope) }
        let scope = adopted ? adoptedScope ?? Scope.ended : origin.resolvingScope
        let container = try origin.container(explicit: nil, named: false, for: Value.self, scope: scope)
        // Resolve holding nothing: the factory may take as long as it likes.
        // If two threads race, the first value published is the one kept.
        let value = try origin.withOverrides { () throws(ResolutionError) -> Value in
            let state = ThreadResolutionState.current
            return try container.resolve(
                Value.self, from: origin.injector, state: state, activation: state.activation(of: container),
                argument: argument, scope: scope, graph: graph)!
        }
        if let graph, type(of: value as Any) is AnyClass, graph.holds(value as AnyObject) {
            resetLock.withLock { sharedValue = value as AnyObject }
            return value
        }
        return resolved.initialize(Instance(value)).value
    }

    /// The value, resolved on first access. Stops the program with the
    /// ``ResolutionError``'s message if it cannot be resolved; use ``get()``
    /// to handle the error.
    public var value: Value {
        do {
            return try get()
        } catch {
            fatalError(error.description)
        }
    }

    /// The value: `try lazy()`.
    public func callAsFunction() throws(ResolutionError) -> Value { try get() }

    /// Whether the value has been resolved (and not reset since).
    public var isResolved: Bool { resolved.load() != nil || resetLock.withLock { sharedValue != nil } }

    /// Forgets the resolved value: the next use resolves again, through the
    /// manifest in force then. What the binding's lifetime keeps (a
    /// singleton) is the same instance again; a transient is made anew.
    ///
    /// Safe to call while other threads read the value. The `Lazy` lets go
    /// of the old value at once, or, if a ``get()`` is running then, when
    /// the last running one returns: a `weak` reference to a value nothing
    /// else holds is `nil` after the reset.
    public func reset() {
        let released = resetLock.withLock { () -> [Instance<Value>] in
            sharedValue = nil
            guard let previous = resolved.exchange(nil) else { return [] }
            replaced.append(previous)
            return readers.retire() ? takeReplaced() : []
        }
        // Released here, outside the lock: a deinit may do anything, even use this `Lazy`.
        _ = released
    }

    /// The last `get` out after a reset releases what the reset replaced.
    @inline(never)
    private func releaseReplaced() {
        let released = resetLock.withLock { readers.isIdle ? takeReplaced() : [] }
        _ = released  // outside the lock, as in `reset()`
    }

    /// Empties `replaced` and says nothing waits; called holding `resetLock`.
    private func takeReplaced() -> [Instance<Value>] {
        defer {
            replaced = []
            readers.cleared()
        }
        return replaced
    }
}

extension Lazy: ScopedProperty {
    /// Resolves in `scope` from now on (and after each reset); false when already resolved.
    func adopt(_ scope: Scope) -> Bool {
        resetLock.withLock {
            adoptedScope = scope
            adopted = true
        }
        return !isResolved
    }

    var scope: Scope? { resetLock.withLock { adopted ? adoptedScope : origin.scope } }

    var followsOwner: Bool { origin.isHandMade && !isResolved && resetLock.withLock { !adopted } }
}

/// A need read later: `Lazy<T>` or `Provider<T>` as a factory parameter.
protocol LazyDependency {
    static var dependencySpec: DependencySpec { get }
}

extension Lazy: LazyDependency {
    static var dependencySpec: DependencySpec {
        DependencySpec(
            key: TypeKey(Value.self), kind: .lazy,
            makeWrapper: { call -> Any in
                Lazy(
                    container: call.context.container!, injector: call.binding.injector,
                    overrides: call.context.overrides, scope: call.context.scope, argument: call.argument,
                    graph: call.context.sharedGraph())
            },
            makeAwaitingWrapper: { call -> Any in
                Lazy(
                    container: call.resolution.container, injector: call.binding.injector,
                    overrides: OverrideTable.current(for: ObjectIdentifier(call.resolution.container)),
                    scope: Scope.current, argument: nil, graph: call.resolution.activation.hasGraphBindings ? call.resolution.graph.sharing() : nil)
            }).wrappingACollection(of: Value.self)
    }
}

extension Scope {
    /// A closed scope, standing for one that has gone.
    static let ended: Scope = {
        let scope = Scope()
        scope.close()
        return scope
    }()
}
