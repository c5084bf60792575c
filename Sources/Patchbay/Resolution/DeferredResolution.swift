/// A resolution asked for now and run later: what ``Lazy``, ``Provider`` and
/// `@Injected` hold. It captures, when its holder is made, what a later
/// resolve needs (the container, injector, test overrides and scope of the
/// resolution that made the holder, or of the code that made it by hand; a
/// resolve-time argument; the `graph` instances a `Lazy` shares) and runs
/// every such resolve through the container's one entry.
///
/// Everything is held weakly (see ``ObjectOrigin``), so a holder never keeps
/// its container, overrides or scope alive. ``Scope/adopt(_:file:line:)``
/// moves it to another scope until it has resolved.
@usableFromInline
struct DeferredResolution {
    /// Where the holder was made, with the container named at its declaration if any.
    let origin: ObjectOrigin
    /// The injector searched first.
    let injector: InjectorName
    /// The resolve-time argument, for a factory that takes one.
    let argument: ArgumentValue?
    /// The `graph` instances of the resolution a `Lazy` was made in, held weakly.
    let graph: SharedGraph?
    /// Where an `@Injected` property is declared: its messages name it, and a trap stops there.
    let declaredAt: (file: StaticString, line: UInt)?
    /// Whether ``Scope/adopt(_:file:line:)`` gave a scope: it wins over the
    /// origin's, even once gone. Its holder guards these two, and resolves
    /// from a copy of this value taken under its lock.
    private(set) var isAdopted = false
    private(set) weak var adoptedScope: Scope?

    /// A resolution from `container` given by hand, passing `argument` to a factory that takes one.
    init(container: Container, injector: InjectorName, argument: ArgumentValue? = nil) {
        self.init(ObjectOrigin(container: container, injector: injector, overrides: nil, scope: nil), argument: argument)
    }

    /// A resolution from `origin`, or from `container` and `injector` when named.
    init(
        _ origin: ObjectOrigin, container: Container? = nil, injector: InjectorName? = nil,
        argument: ArgumentValue? = nil, graph: SharedGraph? = nil, declaredAt: (file: StaticString, line: UInt)? = nil
    ) {
        self.origin = origin.naming(container)
        self.injector = injector ?? origin.injector
        self.argument = argument
        self.graph = graph
        self.declaredAt = declaredAt
    }

    /// A need of a factory read later: it belongs to the resolution running
    /// the factory, whose argument it passes on and, when `sharingGraph`
    /// (a `Lazy`), whose `graph` instances it shares.
    init(_ call: FactoryCall, sharingGraph: Bool) {
        let context = call.context
        self.init(
            ObjectOrigin(
                container: context.container, injector: call.binding.injector, overrides: context.overrides,
                scope: context.scope),
            argument: call.argument, graph: sharingGraph ? context.sharedGraph() : nil)
    }

    /// The same, for a need of an `async` factory.
    init(_ call: AwaitingCall, sharingGraph: Bool) {
        self.init(call.origin, graph: sharingGraph ? call.resolution.sharedGraph() : nil)
    }

    /// Resolves `Value` now, with `argument` if given (it wins over the
    /// captured one); with `ifBound`, nil when nothing binds it. Called
    /// holding no lock: a factory may take as long as it likes.
    func resolve<Value>(
        _: Value.Type, argument: ArgumentValue? = nil, ifBound: Bool = false
    ) throws(ResolutionError) -> Value? {
        let scope = isAdopted ? adoptedScope ?? Scope.ended : origin.resolvingScope
        let container = try origin.container(for: Value.self, scope: scope)
        let run = { () throws(ResolutionError) -> Value? in
            let thread = ThreadResolutionState.current
            return try container.resolve(
                Value.self, from: injector, state: thread, activation: thread.activation(of: container),
                argument: argument ?? self.argument, ifBound: ifBound, scope: scope, graph: graph)
        }
        guard origin.madeWithOverrides else { return try run() }
        // Read after their `withOverrides` block returned, without them, as
        // any code after the block is. `withValue` rethrows untyped errors;
        // a `Result` carries the typed one through.
        return try OverrideTable.$current.withValue(origin.overrides) { Result(catching: run) }.get()
    }

    /// Resolves in `scope` from now on.
    mutating func adopt(_ scope: Scope) {
        isAdopted = true
        adoptedScope = scope
    }

    /// The scope this resolves in, if known and still there.
    var scope: Scope? { isAdopted ? adoptedScope : origin.scope }

    /// Whether an adopted owner's scope is carried here: made by hand, in
    /// no scope, and not adopted.
    var followsOwner: Bool { origin.isHandMade && !isAdopted }
}

/// A property that resolves later, in a scope: `@Injected`, ``Lazy``, ``Provider``.
protocol ScopedProperty {
    /// What it resolves from, as it stands now.
    var deferred: DeferredResolution { get }
    /// Resolves in `scope` from now on.
    func adopt(_ scope: Scope)
    /// Whether it keeps a value it has resolved, which cannot move to another scope.
    var isResolved: Bool { get }
}

extension ScopedProperty {
    /// A ``Provider`` keeps no value: its next call can always move to another scope.
    var isResolved: Bool { false }
}

/// A need read later: `Lazy<T>` or `Provider<T>` as a factory parameter.
protocol LazyDependency {
    static var dependencySpec: DependencySpec { get }
}

extension DependencySpec {
    /// The need of a factory parameter that resolves `Value` later, made by `wrap`.
    static func deferred<Value>(
        _: Value.Type, kind: Kind, sharingGraph: Bool, wrap: @escaping @Sendable (DeferredResolution) -> Any
    ) -> DependencySpec {
        DependencySpec(
            key: TypeKey(Value.self), kind: kind,
            makeWrapper: { call in wrap(DeferredResolution(call, sharingGraph: sharingGraph)) },
            makeAwaitingWrapper: { call in wrap(DeferredResolution(call, sharingGraph: sharingGraph)) }
        ).wrappingACollection(of: Value.self)
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
