// Registration of `async` decorators: wrappers that must await to wrap
// (warm a cache from the store they wrap, open a connection for a
// recorder). As an `async` factory's, a link's direct and optional needs are
// awaited before its closure runs; and, as an `async` factory's binding, a
// binding whose chain holds one is awaited only: its whole chain is made by
// `resolve(awaiting:)` (DecoratorChain+Awaiting.swift), and a synchronous
// factory that needs it is `needs-await` in `patchbay check` and at activation.
//
// A synchronous closure still picks the synchronous forms: Swift prefers
// the overload whose function type the closure has, without converting it
// to an `async` one, as it does for `register`.

extension FactoryCatalog {
    /// Registers a decorator whose closure is `async`.
    ///
    ///     catalog.registerDecorator("warm-cache", decorates: (any NoteStore).self) {
    ///         (inner: any NoteStore, log: any Logger) async throws in
    ///         try await WarmCache(inner, log: log).loaded()
    ///     }
    ///     let store = try await container.resolve(awaiting: (any NoteStore).self)
    ///
    /// A binding whose chain holds one is made as an `async` factory's
    /// binding is: resolve it with ``Container/resolve(awaiting:from:)``, or
    /// take it as a direct (or optional) need of an `async` factory or
    /// decorator. Before a singleton's chain is made, a synchronous resolve
    /// throws ``ResolutionError/Reason/needsAwait``, and a synchronous factory
    /// that needs the binding is a `needs-await` error in `patchbay check` and
    /// at activation. The chain is made in order, each link where it runs
    /// (a synchronous one as a synchronous resolve would make it, a
    /// main-actor one on the main actor), and a singleton's once, however
    /// many tasks ask for it first at the same time.
    ///
    /// - Parameters:
    ///   - name: The name manifests use to choose it. Unique in the catalog, among factories too.
    ///   - type: The type it wraps and returns, usually a protocol: `(any NoteStore).self`.
    ///   - environments: The environments a manifest may use it in (``FactoryEnvironments``); every one when `nil`.
    ///   - file: Where the registration is, for messages about mistakes; leave the default.
    ///   - line: Where the registration is, for messages about mistakes; leave the default.
    ///   - make: Wraps the instance, given its needs, awaiting.
    public mutating func registerDecorator<T, each Dependency>(
        _ name: @autoclosure () -> String,
        decorates type: T.Type,
        environments: FactoryEnvironments? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        make: @escaping @Sendable (T, repeat each Dependency) async throws -> T
    ) {
        let specs = Self.dependencySpecs(repeat (each Dependency).self)
        addOrStop(environments: environments, decorator: DecoratorDefinition.awaiting(
            name(), type, specs: specs, parameters: nil, CodeLocation(file, line)
        ) { call, inner in
            var needs = call.dependencies
            return try await make(inner, repeat try await needs.next((each Dependency).self, specs))
        })
    }

    /// Registers a decorator whose closure is `async` and takes parameters
    /// from the manifest, after the instance it wraps (see the `async` form
    /// above, and the synchronous parameters form).
    ///
    ///     catalog.registerDecorator("warm-cache", decorates: (any NoteStore).self, parameters: CacheOptions.self) {
    ///         (inner: any NoteStore, options: CacheOptions) async throws in
    ///         try await WarmCache(inner, ttl: options.ttl).loaded()
    ///     }
    public mutating func registerDecorator<T, Parameters: Decodable & Sendable, each Dependency>(
        _ name: @autoclosure () -> String,
        decorates type: T.Type,
        parameters: Parameters.Type,
        environments: FactoryEnvironments? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        make: @escaping @Sendable (T, Parameters, repeat each Dependency) async throws -> T
    ) {
        let specs = Self.dependencySpecs(repeat (each Dependency).self)
        addOrStop(environments: environments, decorator: DecoratorDefinition.awaiting(
            name(), type, specs: specs, parameters: .of(parameters), CodeLocation(file, line)
        ) { call, inner in
            var needs = call.dependencies
            let parameters = call.parameters(as: Parameters.self)
            return try await make(inner, parameters, repeat try await needs.next((each Dependency).self, specs))
        })
    }
}

extension DecoratorDefinition {
    /// An `async` decorator: only its `wrapAwaiting` wraps, in an awaited
    /// chain; its synchronous `wrap`, which no chain calls (activation
    /// compiles a chain with an `async` link awaited), throws `needs-await`
    /// as an `async` factory's `build` does.
    static func awaiting<T>(
        _ name: String, _ type: T.Type, specs: [DependencySpec], parameters: ParametersSpec?, _ location: CodeLocation,
        wrap: @escaping @Sendable (AwaitingCall, T) async throws -> T
    ) -> DecoratorDefinition {
        DecoratorDefinition(
            name, type, specs: specs, parameters: parameters, location, execution: .async,
            wrap: { call, _ in throw ResolutionError.cannotRunSynchronously(call, .needsAwait) },
            // The box is the decorated type's (see ``DecoratorChain``).
            wrapAwaiting: { call, inner in Instance<T>(try await wrap(call, Instance<T>.value(in: inner))) })
    }
}
