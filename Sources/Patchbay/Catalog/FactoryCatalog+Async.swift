// Registration of `async` factories: services that must await to start
// (open a database, read a keychain). Their needs are awaited before the
// closure runs, each resolved as `resolve(awaiting:)` would; the definition
// records `async`, so validation refuses a synchronous factory that needs
// one, and a synchronous resolve throws `needs-await` instead of blocking.

extension FactoryCatalog {
    /// Registers a factory whose closure is `async`.
    ///
    ///     catalog.register("keychain-store", provides: (any TokenStore).self, lifetime: .singleton) {
    ///         (log: any Logger) async throws in
    ///         try await KeychainTokenStore.open(log: log)
    ///     }
    ///     let store = try await container.resolve(awaiting: (any TokenStore).self)
    ///
    /// Resolve it with ``Container/resolve(awaiting:from:)``, or take it as a
    /// direct (or optional) need of another `async` factory. A singleton is
    /// made once even when many tasks ask for it first at the same time; once
    /// made, a synchronous resolve returns it too. Before that, a synchronous
    /// resolve throws ``ResolutionError/Reason/needsAwait``, and a synchronous
    /// factory that needs it is a `needs-await` error in `patchbay check` and
    /// at activation.
    ///
    /// - Parameters:
    ///   - name: The name manifests use to choose this factory. Must be unique in the catalog.
    ///   - type: The type the factory provides, usually a protocol.
    ///   - lifetime: The lifetime when a binding names none; `transient` when `nil`.
    ///   - environments: The environments a manifest may bind it in (``FactoryEnvironments``); every one when `nil`.
    ///   - file: Where the registration is, for messages about mistakes; leave the default.
    ///   - line: Where the registration is, for messages about mistakes; leave the default.
    ///   - make: Makes the product from its dependencies.
    public mutating func register<T, each Dependency>(
        _ name: @autoclosure () -> String,
        provides type: T.Type,
        lifetime: Lifetime? = nil,
        environments: FactoryEnvironments? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        make: @escaping @Sendable (repeat each Dependency) async throws -> T
    ) {
        let specs = Self.dependencySpecs(repeat (each Dependency).self)
        addOrStop(environments: environments, Self.asyncDefinition(
            name(), type, lifetime, specs: specs, parameters: nil, file, line, .withNeeds(AwaitedProductOfNeeds(make: make, specs: specs))))
    }

    /// Registers an `async` factory that needs nothing.
    ///
    ///     catalog.register("remote-config", provides: (any ConfigSource).self) { () async throws in
    ///         try await RemoteConfig.fetch()
    ///     }
    ///
    /// The same as the general `async` form called with no dependencies; see
    /// it for the details.
    ///
    /// - Parameters:
    ///   - name: The name manifests use to choose this factory. Must be unique in the catalog.
    ///   - type: The type the factory provides, usually a protocol.
    ///   - lifetime: The lifetime when a binding names none; `transient` when `nil`.
    ///   - environments: The environments a manifest may bind it in (``FactoryEnvironments``); every one when `nil`.
    ///   - file: Where the registration is, for messages about mistakes; leave the default.
    ///   - line: Where the registration is, for messages about mistakes; leave the default.
    ///   - make: Makes the product.
    @inlinable
    public mutating func register<T>(
        _ name: @autoclosure () -> String,
        provides type: T.Type,
        lifetime: Lifetime? = nil,
        environments: FactoryEnvironments? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        make: @escaping @Sendable () async throws -> T
    ) {
        // Its own form for speed, as the synchronous twins are: a call
        // through a parameter pack, even an empty one, asks the runtime for
        // a tuple type's metadata and makes three task allocations per
        // product (Benchmarks/README.md, "Stop 61: awaited transient").
        // Inlined into the app, so the closure that boxes the product is
        // compiled where `T` is known, with the app's closure inlined in it:
        // called from unspecialized code, the app's closure would return `T`
        // through a buffer of its own (Benchmarks/README.md, "Stop 64").
        // The one `@inlinable` form, on purpose: it costs the app's compile
        // about 7 ms a registration, measured there; the synchronous forms,
        // many per app, are not. Registered from the app's own generic code,
        // the closure stays generic and asks the runtime for the box's class.
        addAwaited(name(), type, lifetime, environments, file, line) { Instance<T>(try await make()) }
    }

    /// The definition of the `async` form that needs nothing, with the closure that makes its product boxed.
    @usableFromInline mutating func addAwaited<T>(
        _ name: String, _ type: T.Type, _ lifetime: Lifetime?, _ environments: FactoryEnvironments?,
        _ file: StaticString, _ line: UInt, _ make: @escaping @Sendable () async throws -> AnyObject
    ) {
        addOrStop(environments: environments, Self.asyncDefinition(name, type, lifetime, specs: [], parameters: nil, file, line, .direct(make)))
    }

    /// Registers an `async` factory that takes parameters from the manifest
    /// (see the parameters form of `register`).
    public mutating func register<T, Parameters: Decodable & Sendable, each Dependency>(
        _ name: @autoclosure () -> String,
        provides type: T.Type,
        parameters: Parameters.Type,
        lifetime: Lifetime? = nil,
        environments: FactoryEnvironments? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        make: @escaping @Sendable (Parameters, repeat each Dependency) async throws -> T
    ) {
        let specs = Self.dependencySpecs(repeat (each Dependency).self)
        addOrStop(environments: environments, Self.asyncDefinition(
            name(), type, lifetime, specs: specs, parameters: .of(parameters), file, line,
            .withNeeds(AwaitedProductOfParameters(make: make, specs: specs))))
    }

    /// A definition whose product only `produce`, awaited, makes, boxed as
    /// `Instance<T>`. The registration's own closure or builder boxes it: a
    /// closure around it here would cost each product an async frame.
    static func asyncDefinition<T>(
        _ name: String, _ type: T.Type, _ lifetime: Lifetime?, specs: [DependencySpec],
        parameters: ParametersSpec?, _ file: StaticString, _ line: UInt, _ produce: AwaitedMaking
    ) -> FactoryDefinition {
        FactoryDefinition(
            name: name, product: type, dependencies: specs, defaultLifetime: lifetime, parameters: parameters,
            registeredAt: CodeLocation(file, line), buildInto: FactoryDefinition.alwaysBoxed, buildsInto: false,
            execution: .async, buildAwaiting: produce
        ) { call in throw ResolutionError.cannotRunSynchronously(call, .needsAwait) }
    }
}

/// How an `async` factory's product is made, boxed, awaiting its needs:
/// what ``FactoryDefinition/buildAwaiting`` holds.
enum AwaitedMaking: Sendable {
    /// The closure of a factory that needs nothing, which the app's inlined
    /// `register` compiled, boxing the product itself: called straight, as
    /// a builder's witness it would cost each product an async frame.
    case direct(@Sendable () async throws -> AnyObject)
    /// A builder that awaits the needs, then calls the factory's closure.
    case withNeeds(any AwaitingBuilder)
    /// What a factory that is not `async` holds: the engine never makes it awaiting.
    case never
}

extension FactoryDefinition {
    /// Makes an `async` factory's product, boxed, awaiting its needs.
    @inline(__always) func makeAwaited(_ call: AwaitingCall) async throws -> AnyObject {
        switch buildAwaiting {
        case .direct(let make): try await make()
        case .withNeeds(let builder): try await builder.build(call)
        case .never: preconditionFailure("Patchbay: only an async factory is made awaiting")
        }
    }
}

/// Makes an `async` factory's product with needs, boxed, awaiting them. A
/// protocol rather than a closure formed here: a closure with captures
/// formed in this unspecialized code is called through a forwarder, an
/// async frame (a task allocation) more for every product.
protocol AwaitingBuilder: Sendable {
    func build(_ call: AwaitingCall) async throws -> AnyObject
}

/// The builder of an `async` factory with needs: awaits them in order, then its closure.
struct AwaitedProductOfNeeds<T, each Dependency>: AwaitingBuilder {
    let make: @Sendable (repeat each Dependency) async throws -> T
    let specs: [DependencySpec], box = Instance<T>.self

    @inline(__always) func build(_ call: AwaitingCall) async throws -> AnyObject {
        var needs = call.dependencies
        return box.init(try await make(repeat try await needs.next((each Dependency).self, specs)))
    }
}

/// The builder of an `async` factory with manifest parameters and needs.
struct AwaitedProductOfParameters<T, Parameters, each Dependency>: AwaitingBuilder {
    let make: @Sendable (Parameters, repeat each Dependency) async throws -> T
    let specs: [DependencySpec], box = Instance<T>.self

    @inline(__always) func build(_ call: AwaitingCall) async throws -> AnyObject {
        var needs = call.dependencies
        let parameters = call.parameters(as: Parameters.self)
        return box.init(try await make(parameters, repeat try await needs.next((each Dependency).self, specs)))
    }
}
