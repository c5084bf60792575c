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
public final class Lazy<Value>: Sendable {
    /// What it resolves from (container, injector, test overrides and scope
    /// held weakly; the argument and shared `graph` of a factory parameter),
    /// and the value shared with the resolution this `Lazy` was made in.
    private let state: Locked<State>
    /// The value once resolved, until a reset.
    private let kept = LazyValue<Value>()

    private struct State {
        var deferred: DeferredResolution
        /// The value, when it is an instance of the resolution this `Lazy`
        /// was made in (see ``SharedGraph``): held weakly, as that
        /// resolution's graph is, so a child that reads its parent through a
        /// `Lazy` does not keep the parent alive. Once it has gone, the next
        /// `get` resolves again.
        weak var shared: AnyObject?
    }

    /// Creates a lazy reference to `Value` in `container`.
    public convenience init(_ type: Value.Type = Value.self, container: Container, from injector: InjectorName = .primary) {
        self.init(DeferredResolution(container: container, injector: injector))
    }

    /// Creates a lazy reference to `Value` in `container`, whose factory
    /// takes a resolve-time argument: `argument` is passed to it on first
    /// use, and again after each ``reset()`` (KOInject's `KOILazyResolverArg1`).
    ///
    ///     let report = Lazy(Report.self, container: container, argument: year)
    ///     try report.get()   // resolve(Report.self, argument: year), once
    public convenience init<Argument>(
        _ type: Value.Type = Value.self, container: Container, from injector: InjectorName = .primary,
        argument: Argument
    ) {
        self.init(DeferredResolution(container: container, injector: injector, argument: ArgumentValue(argument)))
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
    public convenience init(_ type: Value.Type = Value.self, from injector: InjectorName? = nil) {
        self.init(DeferredResolution(.current, injector: injector))
    }

    /// A `Lazy` taken as a factory's parameter (see ``DeferredResolution/init(_:sharingGraph:)``).
    init(_ deferred: DeferredResolution) { state = Locked(State(deferred: deferred)) }

    /// The value, resolved on first call.
    /// - Throws: ``ResolutionError`` when it cannot be resolved (or the container is gone).
    public func get() throws(ResolutionError) -> Value {
        try kept.value(of: self)
    }

    /// The first read (and the first after a reset), which `kept` calls.
    @inline(never)
    func resolveFirst() throws(ResolutionError) -> Value {
        let (deferred, shared) = state.withLock { ($0.deferred, $0.shared) }
        if deferred.graph != nil, let shared { return shared as! Value }
        // Resolved holding nothing: the factory may take as long as it likes.
        // If two threads race, the first value published is the one kept.
        let value = try deferred.resolve(Value.self)!
        if let graph = deferred.graph, type(of: value as Any) is AnyClass, graph.holds(value as AnyObject) {
            state.withLock { $0.shared = value as AnyObject }
            return value
        }
        return kept.publish(value)
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
    public var isResolved: Bool { kept.isResolved || state.withLock { $0.shared != nil } }

    /// Forgets the resolved value: the next use resolves again, through the
    /// manifest in force then. What the binding's lifetime keeps (a
    /// singleton) is the same instance again; a transient is made anew.
    ///
    /// Safe to call while other threads read the value. The `Lazy` lets go
    /// of the old value at once, or, if a ``get()`` is running then, when
    /// the last running one returns: a `weak` reference to a value nothing
    /// else holds is `nil` after the reset.
    public func reset() {
        let shared = state.withLock { $0.shared.take() }
        kept.reset()
        _ = shared  // released outside the lock: a deinit may do anything, even use this `Lazy`
    }
}

extension Lazy: ScopedProperty {
    var deferred: DeferredResolution { state.withLock { $0.deferred } }
    func adopt(_ scope: Scope) { state.withLock { $0.deferred.adopt(scope) } }
}

extension Lazy: LazyDependency {
    static var dependencySpec: DependencySpec {
        .deferred(Value.self, kind: .lazy, sharingGraph: true) { Lazy($0) }
    }
}
