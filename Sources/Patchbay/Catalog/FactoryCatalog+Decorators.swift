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
        addDecorator(name(), type, specs: specs, parameters: nil, environments, file, line, .anywhere { call, memory in
            var needs = call.dependencies
            memory.initialize(to: try make(memory.move(as: T.self), repeat needs.next((each Dependency).self, specs)))
        })
    }

    /// Registers a decorator that needs nothing but the instance it wraps.
    ///
    ///     catalog.registerDecorator("timing-store", decorates: (any NoteStore).self) { (inner: any NoteStore) in
    ///         TimingStore(inner)
    ///     }
    ///
    /// The same as the general form, whose closure takes any number of
    /// needs after the instance, called with none; see it for the details.
    /// A twin for speed, as the factories' fixed-arity forms are: the
    /// general form's needs are a parameter pack, walked at run time at
    /// every call, and the instance is handed to `make` to keep
    /// (`consuming`), which spares a retain and a release.
    ///
    /// - Parameters:
    ///   - name: The name manifests use to choose it. Unique in the catalog, among factories too.
    ///   - type: The type it wraps and returns, usually a protocol: `(any NoteStore).self`.
    ///   - environments: The environments a manifest may use it in (``FactoryEnvironments``); every one when `nil`.
    ///   - file: Where the registration is, for messages about mistakes; leave the default.
    ///   - line: Where the registration is, for messages about mistakes; leave the default.
    ///   - make: Wraps the instance.
    public mutating func registerDecorator<T>(
        _ name: @autoclosure () -> String,
        decorates type: T.Type,
        environments: FactoryEnvironments? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        make: @escaping @Sendable (consuming T) throws -> T
    ) {
        addDecorator(name(), type, specs: [], parameters: nil, environments, file, line, .anywhere { _, memory in
            memory.initialize(to: try make(memory.move(as: T.self)))
        }, alone: make)
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
        addDecorator(name(), type, specs: specs, parameters: .of(parameters), environments, file, line, .anywhere {
            call, memory in
            var needs = call.dependencies
            memory.initialize(to: try make(
                memory.move(as: T.self), call.parameters(as: Parameters.self),
                repeat needs.next((each Dependency).self, specs)))
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
        addDecorator(name(), type, specs: specs, parameters: nil, environments, file, line, .onMainActor {
            call, memory in
            var needs = call.dependencies
            memory.initialize(to: try make(memory.move(as: T.self), repeat needs.next((each Dependency).self, specs)))
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
        addDecorator(name(), type, specs: specs, parameters: .of(parameters), environments, file, line, .onMainActor {
            call, memory in
            var needs = call.dependencies
            memory.initialize(to: try make(
                memory.move(as: T.self), call.parameters(as: Parameters.self),
                repeat needs.next((each Dependency).self, specs)))
        })
    }

    /// What every form registers, written once: the forms differ only in
    /// the closure that calls the app's (with its parameters or not, on the
    /// main actor or not), which stays as thin as a factory's, so an app's
    /// registration code compiles to a call.
    private mutating func addDecorator<T>(
        _ name: String, _ type: T.Type, specs: [DependencySpec], parameters: ParametersSpec?,
        _ environments: FactoryEnvironments?, _ file: StaticString, _ line: UInt, _ wrap: DecoratorWrap,
        alone: (@Sendable (consuming T) throws -> T)? = nil
    ) {
        addOrStop(environments: environments, decorator: DecoratorDefinition(
            name, type, specs: specs, parameters: parameters, CodeLocation(file, line), wrap: wrap, alone: alone))
    }
}

/// A registration's call of the app's decorator closure, in place: given
/// memory that holds the instance to wrap (a `T`), it replaces it with the
/// closure's product, resolving the decorator's needs through the call; on
/// a throw the memory is left uninitialized, as a factory's `buildInto`
/// leaves it. In place, so that a chain of them is made in the caller's
/// memory, one value moved from link to link, with no box per link (see
/// ``DecoratorChain``).
enum DecoratorWrap {
    /// A closure that runs wherever the chain is made.
    case anywhere(@Sendable (FactoryCall, ProductMemory) throws -> Void)
    /// A closure that runs on the main actor.
    case onMainActor(@MainActor @Sendable (FactoryCall, ProductMemory) throws -> Void)
    /// An `async` closure, given a box of the decorated type and returning
    /// one: made only by an awaited chain (DecoratorChain+Awaiting.swift).
    case awaiting(@Sendable (AwaitingCall, AnyObject) async throws -> AnyObject)
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
    /// Replaces the instance of the decorated type in the memory it is
    /// given with its wrapper (see ``DecoratorWrap``), resolving the
    /// decorator's needs through the call (whose binding is the link's).
    /// A main-actor decorator's throws `needs-main-actor` from anywhere
    /// else, as a main-actor factory does.
    let wrap: @Sendable (FactoryCall, ProductMemory) throws -> Void
    /// The app's closure itself, a `@Sendable (consuming T) throws -> T`,
    /// for a decorator that reads nothing but the instance (no needs, no
    /// parameters, runs anywhere): a chain calls it with no closure of the
    /// registration between (see ``DecoratorChain``). Nil for the others.
    let alone: (any Sendable)?
    /// The same, awaiting its needs and its closure: an `async` decorator's
    /// (whose ``wrap`` throws `needs-await`); nil for the others.
    let wrapAwaiting: (@Sendable (AwaitingCall, AnyObject) async throws -> AnyObject)?
    /// ``wrap`` from a box to a box of the decorated type: how an awaited
    /// chain runs a synchronous or main-actor link (DecoratorChain+Awaiting.swift).
    let wrapBox: @Sendable (FactoryCall, AnyObject) throws -> AnyObject

    init<T>(
        _ name: String, _ type: T.Type, specs: [DependencySpec], parameters: ParametersSpec?, _ location: CodeLocation,
        wrap: DecoratorWrap, alone: (@Sendable (consuming T) throws -> T)? = nil
    ) {
        self.alone = alone
        let execution: FactoryExecution
        switch wrap {
        case .anywhere(let wrap):
            execution = .synchronous
            self.wrap = wrap
            wrapAwaiting = nil
        case .onMainActor(let wrap):
            execution = .mainActor
            self.wrap = { call, memory in
                guard MainQueue.isCurrent else { throw ResolutionError.cannotRunSynchronously(call, .needsMainActor) }
                // On the main actor's executor, so `assumeIsolated` holds; the
                // call and the memory stay on this thread (see `FactoryCall`'s `Sendable`).
                try MainActor.assumeIsolated { try wrap(call, memory) }
            }
            wrapAwaiting = nil
        case .awaiting(let wrap):
            execution = .async
            self.wrap = { call, _ in throw ResolutionError.cannotRunSynchronously(call, .needsAwait) }
            wrapAwaiting = wrap
        }
        // The box is the decorated type's: the validator allowed this decorator
        // only on a binding of `T` (see ``DecoratorChain``).
        let inPlace = self.wrap
        wrapBox = { call, inner in
            Instance<T>(try ProductMemory.withHeap(for: T.self) { memory in
                memory.initialize(to: Instance<T>.value(in: inner))
                try inPlace(call, memory)
                return true
            }!)
        }
        definition = FactoryDefinition(
            name: name, product: type, dependencies: specs, defaultLifetime: nil, parameters: parameters,
            registeredAt: location, buildInto: FactoryDefinition.alwaysBoxed, buildsInto: false, execution: execution,
            isDecorator: true
        ) { _ in
            preconditionFailure("Patchbay: a decorator is run through its wrap, never built")
        }
    }
}
