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
        let specs = Self.dependencySpecs(repeat (each Dependency).self), box = Instance<T>.self
        addOrStop(environments: environments, Self.asyncDefinition(
            name(), type, lifetime, specs: specs, parameters: nil, file, line, AwaitingClosure { call in
                var needs = call.dependencies
                return box.init(try await make(repeat try await needs.next((each Dependency).self, specs)))
            }))
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
        addOrStop(environments: environments, Self.asyncDefinition(
            name(), type, lifetime, specs: [], parameters: nil, file, line, AwaitedProduct(make: make, box: Instance<T>.self)))
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
        let specs = Self.dependencySpecs(repeat (each Dependency).self), box = Instance<T>.self
        addOrStop(environments: environments, Self.asyncDefinition(
            name(), type, lifetime, specs: specs, parameters: .of(parameters), file, line, AwaitingClosure { call in
                var needs = call.dependencies
                return box.init(try await make(
                    call.parameters(as: Parameters.self), repeat try await needs.next((each Dependency).self, specs)))
            }))
    }

    /// A definition whose product only `produce`, awaited, makes, boxed as
    /// `Instance<T>`. The registration's own builder boxes it: a closure
    /// around it here would cost each product an async frame. Its box's
    /// class is looked up once, at registration: `Instance<T>(...)` in that
    /// unspecialized code would ask the runtime for its metadata every time.
    static func asyncDefinition<T>(
        _ name: String, _ type: T.Type, _ lifetime: Lifetime?, specs: [DependencySpec],
        parameters: ParametersSpec?, _ file: StaticString, _ line: UInt, _ produce: some AwaitingBuilder
    ) -> FactoryDefinition {
        FactoryDefinition(
            name: name, product: type, dependencies: specs, defaultLifetime: lifetime, parameters: parameters,
            registeredAt: CodeLocation(file, line), buildInto: FactoryDefinition.alwaysBoxed, buildsInto: false,
            execution: .async, buildAwaiting: produce
        ) { call in throw ResolutionError.cannotRunSynchronously(call, .needsAwait) }
    }
}

/// Makes an `async` factory's product, boxed, awaiting its needs: what
/// ``FactoryDefinition/buildAwaiting`` holds. A protocol rather than a
/// closure: a closure with captures is called through a forwarder, an async
/// frame (a task allocation) more for every product.
protocol AwaitingBuilder: AnyObject, Sendable {
    func build(_ call: AwaitingCall) async throws -> AnyObject
}

/// The builder of an `async` factory that needs nothing, called straight.
final class AwaitedProduct<T>: AwaitingBuilder {
    let make: @Sendable () async throws -> T
    let box: Instance<T>.Type

    init(make: @escaping @Sendable () async throws -> T, box: Instance<T>.Type) {
        self.make = make
        self.box = box
    }

    @inline(__always) func build(_: AwaitingCall) async throws -> AnyObject { box.init(try await make()) }
}

/// The builder of an `async` factory with needs, a closure that awaits them in order.
final class AwaitingClosure: AwaitingBuilder {
    let build: @Sendable (AwaitingCall) async throws -> AnyObject

    init(_ build: @escaping @Sendable (AwaitingCall) async throws -> AnyObject) { self.build = build }

    @inline(__always) func build(_ call: AwaitingCall) async throws -> AnyObject { try await build(call) }
}
