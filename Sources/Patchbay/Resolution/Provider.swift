/// A dependency that resolves anew at each call: Swinject's and Dagger's
/// `Provider`. Each ``get()`` asks the container again, so the binding's
/// lifetime decides what it gets: a `transient` is made fresh each time
/// (a model per row, a unit of work per job), a `singleton` is the same
/// instance each time.
///
///     catalog.register("rows", provides: RowFactory.self) { (rows: Provider<RowModel>) in
///         RowFactory(makeRow: rows)
///     }
///     // later, inside RowFactory:
///     let model = try makeRow.get()   // a new RowModel, if it is transient
///
/// Each call is a resolution of its own: it starts a new graph, so `graph`
/// instances are not shared with the resolution that made the holder, nor
/// with earlier calls (unlike ``Lazy``, which shares the graph it was made
/// in). A call made while its container is resolving on the same thread
/// (from inside a factory) joins that resolution, so a loop back is still
/// reported as a cycle, never recursed into.
///
/// Checked at activation as a `Lazy` is: the type must be bound from the
/// injector that served the holder; since nothing is resolved when the
/// holder is made, a `Provider` may close a cycle; and the captive rule
/// judges it as it judges a `Lazy`.
///
/// A `Provider` holds its container weakly, so it never keeps one alive,
/// and the scope it was made in too.
public final class Provider<Value>: Sendable {
    /// What it resolves from: container, injector, test overrides and scope
    /// held weakly, and the argument of a factory parameter. No `graph`:
    /// each call is a resolution of its own. Locked for ``Scope/adopt(_:file:line:)``.
    private let state: Locked<DeferredResolution>

    /// Creates a provider of `Value` from `container`.
    ///
    ///     let rows = Provider(RowModel.self, container: container)
    ///     let first = try rows.get(), second = try rows.get()   // two instances of a transient
    public convenience init(_ type: Value.Type = Value.self, container: Container, from injector: InjectorName = .primary) {
        self.init(DeferredResolution(container: container, injector: injector))
    }

    /// Creates a provider of `Value` from `container`, whose factory takes a
    /// resolve-time argument: `argument` is passed to it at each call.
    ///
    ///     let reports = Provider(Report.self, container: container, argument: year)
    ///     try reports.get()   // resolve(Report.self, argument: year), each time
    public convenience init<Argument>(
        _ type: Value.Type = Value.self, container: Container, from injector: InjectorName = .primary,
        argument: Argument
    ) {
        self.init(DeferredResolution(container: container, injector: injector, argument: ArgumentValue(argument)))
    }

    /// Creates a provider of `Value` from what is making the object that
    /// creates it, as `@Injected` and ``Lazy`` do: inside an object a
    /// factory makes, that resolution's container, injector, test overrides
    /// and scope; elsewhere ``PatchbaySystem/container`` and the current scope.
    ///
    ///     final class Inbox {
    ///         let rows = Provider(RowModel.self)
    ///     }
    /// - Parameters:
    ///   - type: The type to resolve.
    ///   - injector: The injector to search first; when `nil`, the one that
    ///     served the factory making the object, else `primary`.
    public convenience init(_ type: Value.Type = Value.self, from injector: InjectorName? = nil) {
        self.init(DeferredResolution(.current, injector: injector))
    }

    /// A `Provider` taken as a factory's parameter (see ``DeferredResolution/init(_:sharingGraph:)``).
    init(_ deferred: DeferredResolution) { state = Locked(deferred) }

    /// A value, resolved now, as the binding's lifetime gives it.
    /// - Throws: ``ResolutionError`` when it cannot be resolved (or the container is gone).
    public func get() throws(ResolutionError) -> Value { try deferred.resolve(Value.self)! }

    /// A value, resolved now with `argument` for a factory registered with
    /// `argument:` (this call's argument wins over one the provider was made with).
    ///
    ///     let model = try models.get(argument: game)
    /// - Throws: ``ResolutionError`` when it cannot be resolved (or the container is gone).
    public func get<Argument>(argument: Argument) throws(ResolutionError) -> Value {
        try deferred.resolve(Value.self, argument: ArgumentValue(argument))!
    }

    /// A value: `try provider()`.
    public func callAsFunction() throws(ResolutionError) -> Value { try get() }
}

extension Provider: ScopedProperty {
    var deferred: DeferredResolution { state.withLock { $0 } }
    func adopt(_ scope: Scope) { state.withLock { $0.adopt(scope) } }
}

// `Provider<T>` as a factory parameter: a need read later, as a `Lazy` is,
// found by the same conformance (one runtime lookup per dependency type at
// registration, not two).
extension Provider: LazyDependency {
    static var dependencySpec: DependencySpec {
        .deferred(Value.self, kind: .provider, sharingGraph: false) { Provider($0) }
    }
}
