// The registration of decorators: a named entry of the catalog that wraps
// the instance a binding's factory made in another of the same type. A
// manifest chooses a binding's chain (`"decorators": [...]`), per
// environment; the validator checks it as it checks a factory (names,
// environments, parameters, needs), and activation wraps the product where
// the factory makes it, so every lifetime keeps the whole chain.
//
// A decorator's closure is typed as a factory's: the wrapped instance
// first, then (in the parameters form) the manifest's `parameters`, then
// its needs, each found from the closure's type alone by the same
// `DependencySpec`s and resolved through the same `DependencyCursor` as a
// factory's. Synchronous and main-actor closures here, `async` ones in
// FactoryCatalog+AsyncDecorators.swift: a main-actor link makes the whole
// chain main-actor, an `async` one makes it awaited (``FactoryExecution/ofChain(_:links:)``).

extension FactoryCatalog {
    /// Registers a decorator: a named wrapper a manifest may put around any
    /// binding of the type it decorates, with `"decorators": ["timing-store"]`.
    ///
    /// The closure's first parameter is the instance it wraps (the factory's
    /// product, or the previous decorator's in the chain); the others are its
    /// needs, resolved as a factory's are, from the binding's injector.
    ///
    ///     catalog.registerDecorator("timing-store", decorates: (any NoteStore).self) {
    ///         (inner: any NoteStore, log: any Logger) in
    ///         TimingStore(inner, log: log)
    ///     }
    ///
    /// The chain lives as long as the binding: a singleton's is made once,
    /// a transient's at every request.
    ///
    /// - Parameters:
    ///   - name: The name manifests use to choose it. Unique in the catalog, among factories too.
    ///   - type: The type it wraps and returns, usually a protocol: `(any NoteStore).self`.
    ///   - environments: The environments a manifest may use it in (``FactoryEnvironments``); every one when `nil`.
    ///   - file: Where the registration is, for messages about mistakes; leave the default.
    ///   - line: Where the registration is, for messages about mistakes; leave the default.
    ///   - make: Wraps the instance, given its needs.
    public mutating func registerDecorator<T, each Dependency>(
        _ name: @autoclosure () -> String,
        decorates type: T.Type,
        environments: FactoryEnvironments? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        make: @escaping @Sendable (T, repeat each Dependency) throws -> T
    ) {
        let specs = Self.dependencySpecs(repeat (each Dependency).self)
        addOrStop(environments: environments, decorator: DecoratorDefinition(
            name(), type, specs: specs, parameters: nil, CodeLocation(file, line)
        ) { call, inner in
            var needs = call.dependencies
            return try make(inner, repeat needs.next((each Dependency).self, specs))
        })
    }

    /// Registers a decorator that takes parameters from the manifest:
    /// `{ "decorator": "caching-store", "parameters": { "ttl": 30 } }`.
    ///
    /// The parameters are decoded into `Parameters` when the manifest is
    /// checked, as a factory's are (`invalid-parameters`, `unknown-parameter`).
    ///
    ///     struct CacheOptions: Decodable, Sendable { var ttl: Int }
    ///     catalog.registerDecorator("caching-store", decorates: (any NoteStore).self, parameters: CacheOptions.self) {
    ///         (inner: any NoteStore, options: CacheOptions) in
    ///         CachingStore(inner, ttl: options.ttl)
    ///     }
    public mutating func registerDecorator<T, Parameters: Decodable & Sendable, each Dependency>(
        _ name: @autoclosure () -> String,
        decorates type: T.Type,
        parameters: Parameters.Type,
        environments: FactoryEnvironments? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        make: @escaping @Sendable (T, Parameters, repeat each Dependency) throws -> T
    ) {
        let specs = Self.dependencySpecs(repeat (each Dependency).self)
        addOrStop(environments: environments, decorator: DecoratorDefinition(
            name(), type, specs: specs, parameters: .of(parameters), CodeLocation(file, line)
        ) { call, inner in
            var needs = call.dependencies
            return try make(
                inner, call.parameters(as: Parameters.self), repeat needs.next((each Dependency).self, specs))
        })
    }
}

extension FactoryCatalog {
    /// Registers a decorator whose closure runs on the main actor: a wrapper
    /// of a view model or a UI service.
    ///
    ///     catalog.registerDecorator("tracked-feed", decorates: (any FeedModel).self, on: MainActor.self) {
    ///         (inner: any FeedModel, analytics: any Analytics) in
    ///         TrackedFeed(inner, analytics)
    ///     }
    ///
    /// A binding whose chain holds one is made on the main actor, as a
    /// main-actor factory is: resolve it there, or with
    /// `try await container.resolve(awaiting:)`; a nonisolated factory that
    /// needs it is a `needs-main-actor` error in `patchbay check` and at activation.
    ///
    /// - Parameters:
    ///   - name: The name manifests use to choose it. Unique in the catalog, among factories too.
    ///   - type: The type it wraps and returns.
    ///   - mainActor: `MainActor.self`: where the closure runs.
    ///   - environments: The environments a manifest may use it in (``FactoryEnvironments``); every one when `nil`.
    ///   - file: Where the registration is, for messages about mistakes; leave the default.
    ///   - line: Where the registration is, for messages about mistakes; leave the default.
    ///   - make: Wraps the instance, given its needs, on the main actor.
    public mutating func registerDecorator<T, each Dependency>(
        _ name: @autoclosure () -> String,
        decorates type: T.Type,
        on mainActor: MainActor.Type,
        environments: FactoryEnvironments? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        make: @escaping @MainActor @Sendable (T, repeat each Dependency) throws -> T
    ) {
        let specs = Self.dependencySpecs(repeat (each Dependency).self)
        addOrStop(environments: environments, decorator: DecoratorDefinition.onMainActor(
            name(), type, specs: specs, parameters: nil, CodeLocation(file, line)
        ) { call, inner in
            var needs = call.dependencies
            return try make(inner, repeat needs.next((each Dependency).self, specs))
        })
    }

    /// Registers a decorator whose closure runs on the main actor and takes
    /// parameters from the manifest, after the instance it wraps.
    public mutating func registerDecorator<T, Parameters: Decodable & Sendable, each Dependency>(
        _ name: @autoclosure () -> String,
        decorates type: T.Type,
        parameters: Parameters.Type,
        on mainActor: MainActor.Type,
        environments: FactoryEnvironments? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        make: @escaping @MainActor @Sendable (T, Parameters, repeat each Dependency) throws -> T
    ) {
        let specs = Self.dependencySpecs(repeat (each Dependency).self)
        addOrStop(environments: environments, decorator: DecoratorDefinition.onMainActor(
            name(), type, specs: specs, parameters: .of(parameters), CodeLocation(file, line)
        ) { call, inner in
            var needs = call.dependencies
            return try make(
                inner, call.parameters(as: Parameters.self), repeat needs.next((each Dependency).self, specs))
        })
    }
}

/// Everything the catalog knows of one decorator: what it shares with a
/// factory (its name, the type it decorates as its one provided type, its
/// needs and parameters, its place), as a ``FactoryDefinition`` the
/// validator's index and the engine read as they read a factory's, and
/// how it wraps an instance.
final class DecoratorDefinition: Sendable {
    /// The decorator as a factory: it provides the type it decorates, and
    /// takes no argument. Its `build` is never called; ``wrap`` is.
    let definition: FactoryDefinition
    /// Wraps `inner`, a box of the decorated type, in a new box of that type,
    /// resolving the decorator's needs through `call` (whose binding is the link's).
    let wrap: @Sendable (FactoryCall, AnyObject) throws -> AnyObject
    /// The same, awaiting its needs and its closure: an `async` decorator's
    /// (whose ``wrap`` throws `needs-await`); nil for the others.
    let wrapAwaiting: (@Sendable (AwaitingCall, AnyObject) async throws -> AnyObject)?

    /// A synchronous decorator: `wrap` takes and returns the decorated type's value.
    convenience init<T>(
        _ name: String, _ type: T.Type, specs: [DependencySpec], parameters: ParametersSpec?, _ location: CodeLocation,
        wrap: @escaping @Sendable (FactoryCall, T) throws -> T
    ) {
        // The box is the decorated type's: the validator allowed this
        // decorator only on a binding of `T`, and activation wraps that
        // binding's product as `T` (see ``DecoratorChain``).
        self.init(name, type, specs: specs, parameters: parameters, location, execution: .synchronous) { call, inner in
            Instance<T>(try wrap(call, Instance<T>.value(in: inner)))
        }
    }

    /// A decorator whose `wrap` runs on the main actor: from anywhere else it
    /// throws `needs-main-actor`, as a main-actor factory does.
    static func onMainActor<T>(
        _ name: String, _ type: T.Type, specs: [DependencySpec], parameters: ParametersSpec?, _ location: CodeLocation,
        wrap: @escaping @MainActor @Sendable (FactoryCall, T) throws -> T
    ) -> DecoratorDefinition {
        DecoratorDefinition(
            name, type, specs: specs, parameters: parameters, location, execution: .mainActor
        ) { call, inner in
            guard MainQueue.isCurrent else { throw ResolutionError.cannotRunSynchronously(call, .needsMainActor) }
            // On the main actor's executor, so `assumeIsolated` holds; the
            // call stays on this thread (see `FactoryCall`'s `Sendable`), and
            // the box is the decorated type's (see ``DecoratorChain``).
            let box = inner as! Instance<T>
            return try MainActor.assumeIsolated { () throws -> Instance<T> in Instance(try wrap(call, box.value)) }
        }
    }

    /// A decorator that runs as `execution` says, whose `wrap` takes and returns boxes of `T`.
    init<T>(
        _ name: String, _ type: T.Type, specs: [DependencySpec], parameters: ParametersSpec?, _ location: CodeLocation,
        execution: FactoryExecution, wrap: @escaping @Sendable (FactoryCall, AnyObject) throws -> AnyObject,
        wrapAwaiting: (@Sendable (AwaitingCall, AnyObject) async throws -> AnyObject)? = nil
    ) {
        definition = FactoryDefinition(
            name: name, product: type, dependencies: specs, defaultLifetime: nil, parameters: parameters,
            registeredAt: location, buildInto: FactoryDefinition.alwaysBoxed, buildsInto: false, execution: execution
        ) { _ in
            preconditionFailure("Patchbay: a decorator is run through its wrap, never built")
        }
        self.wrap = wrap
        self.wrapAwaiting = wrapAwaiting
    }
}
