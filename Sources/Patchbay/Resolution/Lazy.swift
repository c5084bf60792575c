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
/// kept until ``reset()``, after which the next use resolves again (for a
/// reconnecting client, say, or a test). A `Lazy` holds its container weakly, so it never keeps one alive;
/// and the scope it was made in too, so a scoped instance that holds a `Lazy`
/// does not keep its own scope alive (read after that scope is gone, it
/// resolves as in a closed scope).
public final class Lazy<Value>: @unchecked Sendable {
    private weak var container: Container?
    private let injector: InjectorName
    private weak var scope: Scope?
    /// Whether the `Lazy` was made in a scope, which may since have gone.
    private let madeInScope: Bool
    /// Set on first use (and again after a reset); then read with one atomic load, no lock.
    private let resolved = AtomicReference<Instance<Value>>()
    /// Serializes resets, and keeps each value a reset replaced alive until
    /// the `Lazy` goes: a thread that loaded it just before the reset may
    /// still be reading it, unretained.
    private let resetLock = Lock()
    nonisolated(unsafe) private var replaced: [Instance<Value>] = []  // guarded by `resetLock`

    /// Creates a lazy reference to `Value` in `container`.
    public init(_ type: Value.Type = Value.self, container: Container, from injector: InjectorName = .primary) {
        self.container = container
        self.injector = injector
        self.scope = nil
        self.madeInScope = false
    }

    init(container: Container, injector: InjectorName, scope: Scope?) {
        self.container = container
        self.injector = injector
        self.scope = scope
        self.madeInScope = scope != nil
    }

    deinit { resolved.destroy() }

    /// The value, resolved on first call.
    /// - Throws: ``ResolutionError`` when it cannot be resolved (or the container is gone).
    public func get() throws(ResolutionError) -> Value {
        if let box = resolved.load() { return box.takeUnretainedValue().value }
        guard let container else {
            throw ResolutionError(.containerReleased, type: String(describing: Value.self))
        }
        // Resolve holding nothing: the factory may take as long as it likes.
        // If two threads race, the first value published is the one kept.
        let value = try container.resolve(Value.self, from: injector, in: scope ?? (madeInScope ? .ended : nil))
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
    public var isResolved: Bool { resolved.load() != nil }

    /// Forgets the resolved value: the next use resolves again, through the
    /// manifest in force then. What the binding's lifetime keeps (a
    /// singleton) is the same instance again; a transient is made anew.
    ///
    /// Safe to call while other threads read the value. Each value a reset
    /// replaces is kept until this `Lazy` is released, since a reader may
    /// hold it unretained; resetting is for rare events, not every use.
    public func reset() {
        resetLock.withLock {
            if let previous = resolved.exchange(nil) { replaced.append(previous) }
        }
    }
}

/// `Lazy<T>` as a factory parameter.
protocol LazyDependency {
    static var dependencySpec: DependencySpec { get }
}

extension Lazy: LazyDependency {
    static var dependencySpec: DependencySpec {
        DependencySpec(
            key: TypeKey(Value.self), kind: .lazy,
            makeWrapper: { call -> Any in
                Lazy(container: call.context.container!, injector: call.binding.injector, scope: call.context.scope)
            },
            makeAwaitingWrapper: { call -> Any in
                Lazy(container: call.resolution.container, injector: call.binding.injector, scope: Scope.current)
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
