// The registration calls. Each one is generic over the closure's parameters
// (a parameter pack), so the catalog records what a factory needs from the
// closure's type alone, without calling it. The common form has fixed-arity
// twins for no, one and two dependencies, for speed: see
// FactoryCatalog+FixedArity.swift.
//
// None of them is inlinable: an app's registration code is a call, as with
// any other container, and the closures that run its factories are this
// module's generic code, not specialized in the app's module for each call
// site. Specialized, they made a release build of 1,000 registrations take
// 5 to 9 times Swinject's time and up to 2.6 times its object size
// (Benchmarks/README.md, "Compile cost of registration code"); even the
// collection maker alone, specialized at each call site, doubled it. The
// engine works on memory for the requested type, not on generic values, so
// that the unspecialized closures ask the runtime for as little metadata per
// call as it can (see `CollectionMaker`).
//
// Every form takes the factory's name as an `@autoclosure`: a string
// literal passed as a `String` is built in the caller by code the optimizer
// folds over and over in one long function, which made 1,000 registrations'
// SIL optimization three times Swinject's (whose registrations name
// nothing); each literal in a closure of its own is optimized once
// (Benchmarks/README.md, "Stop 62: compile cost").

extension FactoryCatalog {
    /// Registers a factory that provides one type.
    ///
    /// The closure's parameters are the factory's dependencies; the container
    /// resolves each from the injector that serves the factory. Because the
    /// closure returns `T`, the compiler checks that the product conforms.
    ///
    ///     catalog.register("sqlite", provides: (any UserRepository).self, lifetime: .singleton) {
    ///         (db: any Database, log: any Logger) in
    ///         SQLiteUserRepository(db: db, log: log)
    ///     }
    ///
    /// A parameter of type `T?` is an optional need (nil when `T` is not
    /// bound); a parameter of type ``Lazy`` is resolved on first use, which
    /// breaks a cycle between two factories.
    ///
    /// - Parameters:
    ///   - name: The name manifests use to choose this factory. Must be unique in the catalog.
    ///   - type: The type the factory provides, usually a protocol: `(any Clock).self`.
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
        make: @escaping @Sendable (repeat each Dependency) throws -> T
    ) {
        let specs = Self.dependencySpecs(repeat (each Dependency).self)
        // The closures call `make` themselves rather than through a shared
        // `produce` closure (as the other forms do): one closure layer fewer
        // on every transient this form builds, the most common kind.
        addOrStop(environments: environments, FactoryDefinition(
            name: name(), product: type, dependencies: specs, defaultLifetime: lifetime,
            registeredAt: CodeLocation(file, line), collection: .of(T.self), buildInto: { call, memory in
                var needs = call.dependencies
                memory.initialize(
                    to: try make(repeat needs.next((each Dependency).self, specs)))
            },
            build: { call in
                var needs = call.dependencies
                return Instance<T>(try make(repeat needs.next((each Dependency).self, specs)))
            }))
    }

    /// Registers a factory that takes parameters from the manifest.
    ///
    /// The binding's `parameters` object is decoded into `Parameters` when the
    /// manifest is activated; a binding whose parameters do not decode is an
    /// `invalid-parameters` error then, not a failure at first use.
    ///
    ///     struct SQLiteOptions: Decodable, Sendable { var path: String; var poolSize: Int? }
    ///     catalog.register("sqlite", provides: (any Database).self, parameters: SQLiteOptions.self) {
    ///         (options: SQLiteOptions, log: any Logger) in
    ///         try SQLiteDatabase(path: options.path, log: log)
    ///     }
    public mutating func register<T, Parameters: Decodable & Sendable, each Dependency>(
        _ name: @autoclosure () -> String,
        provides type: T.Type,
        parameters: Parameters.Type,
        lifetime: Lifetime? = nil,
        environments: FactoryEnvironments? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        make: @escaping @Sendable (Parameters, repeat each Dependency) throws -> T
    ) {
        let specs = Self.dependencySpecs(repeat (each Dependency).self)
        addOrStop(environments: environments, Self.singleType(
            name(), type, lifetime, specs: specs, parameters: .of(parameters), file, line
        ) { call in
            var needs = call.dependencies
            return try make(call.parameters(as: Parameters.self), repeat needs.next((each Dependency).self, specs))
        })
    }

    /// Registers a factory that takes an argument when it is resolved, as in
    /// `container.resolve(GameViewModel.self, argument: game)`.
    ///
    /// Such a factory is resolved with an argument: directly, or as the
    /// dependency of a factory that takes an argument of the same type, which
    /// is passed on to it. Any other factory that depends on it is an
    /// `argument-required` error, since nothing could pass the argument.
    ///
    /// Several arguments are one tuple, typed as such, which
    /// ``Container/resolve(_:from:arguments:)`` builds from its arguments:
    ///
    ///     catalog.register("score", provides: ScoreView.self, argument: (Game, Player).self) {
    ///         (arguments: (Game, Player), clock: any Clock) in
    ///         ScoreView(game: arguments.0, player: arguments.1, clock: clock)
    ///     }
    ///     let view = try container.resolve(ScoreView.self, arguments: game, player)
    public mutating func register<T, Argument, each Dependency>(
        _ name: @autoclosure () -> String,
        provides type: T.Type,
        argument: Argument.Type,
        lifetime: Lifetime? = nil,
        environments: FactoryEnvironments? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        make: @escaping @Sendable (Argument, repeat each Dependency) throws -> T
    ) {
        let specs = Self.dependencySpecs(repeat (each Dependency).self)
        addOrStop(environments: environments, Self.singleType(
            name(), type, lifetime, specs: specs, argument: TypeKey(argument), file, line
        ) { call in
            var needs = call.dependencies
            return try make(call.argument(as: Argument.self), repeat needs.next((each Dependency).self, specs))
        })
    }

    /// Registers a factory that takes both manifest parameters and a resolve-time argument.
    public mutating func register<T, Parameters: Decodable & Sendable, Argument, each Dependency>(
        _ name: @autoclosure () -> String,
        provides type: T.Type,
        parameters: Parameters.Type,
        argument: Argument.Type,
        lifetime: Lifetime? = nil,
        environments: FactoryEnvironments? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        make: @escaping @Sendable (Parameters, Argument, repeat each Dependency) throws -> T
    ) {
        let specs = Self.dependencySpecs(repeat (each Dependency).self)
        addOrStop(environments: environments, Self.singleType(
            name(), type, lifetime, specs: specs, parameters: .of(parameters), argument: TypeKey(argument), file, line
        ) { call in
            var needs = call.dependencies
            return try make(
                call.parameters(as: Parameters.self), call.argument(as: Argument.self),
                repeat needs.next((each Dependency).self, specs))
        })
    }

    /// Registers a factory whose product provides several types.
    ///
    /// Each provided type is checked at registration where Swift can tell
    /// from the types alone: a class product that is not a subclass of a
    /// provided class stops the program with a message naming the factory,
    /// the type and the place. For a protocol (plain, class-bound, a
    /// composition or a parameterized one such as `any Repository<String>`)
    /// Swift has no public answer without a value, so each value the factory
    /// makes is checked before it is served: one that does not conform
    /// fails that resolution with a `factory-failed` ``ResolutionError``
    /// whose underlying ``RegistrationError`` is `does-not-conform`, naming
    /// the registration's place. Bindings of different protocols to this
    /// factory with the same lifetime, injector and parameters share their
    /// instances in every lifetime but `transient`: one singleton, one weak
    /// instance while held as any of the types, one per scope, one per graph.
    ///
    ///     catalog.register("system-clock", product: SystemClock.self,
    ///                      provides: (any Clock).self, (any TimeSource).self) { SystemClock() }
    public mutating func register<Product, each Provided, each Dependency>(
        _ name: @autoclosure () -> String,
        product: Product.Type,
        provides types: repeat (each Provided).Type,
        lifetime: Lifetime? = nil,
        environments: FactoryEnvironments? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        make: @escaping @Sendable (repeat each Dependency) throws -> Product
    ) {
        let specs = Self.dependencySpecs(repeat (each Dependency).self)
        addOrStop(environments: environments, try Self.severalTypesDefinition(
            name(), product, repeat each types, specs: specs, lifetime: lifetime, argument: nil, file, line
        ) { call in
            var needs = call.dependencies
            return try make(repeat needs.next((each Dependency).self, specs))
        })
    }

    /// The definition of a factory whose product provides several types:
    /// each type checked at registration where Swift can tell, and each
    /// product `produce` makes checked before it is served (see the form above).
    static func severalTypesDefinition<Product, each Provided>(
        _ name: String, _ product: Product.Type, _ types: repeat (each Provided).Type, specs: [DependencySpec],
        lifetime: Lifetime?, argument: TypeKey?, _ file: StaticString, _ line: UInt,
        produce: @escaping @Sendable (FactoryCall) throws -> Product
    ) throws(RegistrationError) -> FactoryDefinition {
        let location = CodeLocation(file, line)
        let provided = try Self.providedTypes(of: product, repeat each types, factory: name, at: location)
        return FactoryDefinition(
            name: name, product: product, provides: provided.types, dependencies: specs, defaultLifetime: lifetime,
            argument: argument, registeredAt: location,
            buildInto: FactoryDefinition.alwaysBoxed, buildsInto: false
        ) { call in
            let product = try produce(call)
            try provided.check(product)
            return Instance<Product>(product)
        }
    }

    /// Registers an existing instance as a factory: every resolution returns
    /// this same instance, whatever lifetime a binding gives it.
    ///
    ///     catalog.register("shared-formatter", provides: DateFormatter.self, instance: formatter)
    public mutating func register<T>(
        _ name: @autoclosure () -> String,
        provides type: T.Type,
        instance: T,
        environments: FactoryEnvironments? = nil,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        addOrStop(environments: environments, Self.singleType(name(), type, .singleton, specs: [], file, line) {
            [box = Instance<T>(instance)] _ in box.value
        })
    }

    /// Registers a factory that resolves its dependencies by hand.
    ///
    /// Use this when what a factory needs depends on a runtime decision. The
    /// trade-off: its needs are unknown to static checks, so `patchbay check`
    /// and activation cannot report a missing dependency, a cycle or a captive
    /// dependency through it; those surface as ``ResolutionError``s when it runs.
    ///
    ///     catalog.registerResolving("router", provides: (any Router).self) { resolver in
    ///         let flags = try resolver.resolve((any FeatureFlags).self)
    ///         return flags.newRouter ? try NewRouter(resolver.resolve()) : LegacyRouter()
    ///     }
    public mutating func registerResolving<T>(
        _ name: @autoclosure () -> String,
        provides type: T.Type,
        lifetime: Lifetime? = nil,
        environments: FactoryEnvironments? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        make: @escaping @Sendable (Resolver) throws -> T
    ) {
        addOrStop(environments: environments, Self.singleType(name(), type, lifetime, specs: nil, file, line) { call in
            try Resolver.during(call, make)
        })
    }

    /// Registers a factory that resolves by hand and takes manifest parameters,
    /// which it reads with ``Resolver/parameters(as:)``.
    public mutating func registerResolving<T, Parameters: Decodable & Sendable>(
        _ name: @autoclosure () -> String,
        provides type: T.Type,
        parameters: Parameters.Type,
        lifetime: Lifetime? = nil,
        environments: FactoryEnvironments? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        make: @escaping @Sendable (Resolver) throws -> T
    ) {
        addOrStop(environments: environments, Self.singleType(
            name(), type, lifetime, specs: nil, parameters: .of(parameters), file, line
        ) { call in try Resolver.during(call, make) })
    }

    // MARK: - Building definitions

    /// A factory whose product is the one type it provides. `produce` makes
    /// the product; it is wrapped twice: boxed, for storage (singletons, scopes,
    /// graphs), and written straight into the caller's memory, for transients.
    static func singleType<T>(
        _ name: String, _ type: T.Type, _ lifetime: Lifetime?, specs: [DependencySpec]?,
        parameters: ParametersSpec? = nil, argument: TypeKey? = nil, _ file: StaticString, _ line: UInt,
        produce: @escaping @Sendable (FactoryCall) throws -> T
    ) -> FactoryDefinition {
        FactoryDefinition(
            name: name, product: type, dependencies: specs, defaultLifetime: lifetime, parameters: parameters,
            argument: argument, registeredAt: CodeLocation(file, line), collection: .of(T.self),
            buildInto: { call, memory in memory.initialize(to: try produce(call)) },
            build: { call in Instance<T>(try produce(call)) })
    }

    static func dependencySpecs<each D>(_ types: repeat (each D).Type) -> [DependencySpec] {
        var specs: [DependencySpec] = []
        repeat specs.append(DependencySpec.of(each types))
        return specs
    }

    /// The provided types of a several-types registration, each with its
    /// conversion from the product, and the check, on each value the factory
    /// makes, of the provided types whose conformance the types alone did not
    /// show (see ``TypeConformance``), before it is boxed, so none is served
    /// as a type it is not; throws for the first type the product is known
    /// not to convert to.
    static func providedTypes<Product, each Provided>(
        of product: Product.Type, _ types: repeat (each Provided).Type, factory: String, at location: CodeLocation
    ) throws(RegistrationError) -> (types: [ProvidedType], check: @Sendable (Product) throws(RegistrationError) -> Void) {
        var provided: [ProvidedType] = []
        var unknown: [(name: String, converts: @Sendable (Product) -> Bool)] = []
        func append<T>(_ type: T.Type) throws(RegistrationError) {
            switch TypeConformance.canConvert(product, to: type) {
            case false?:
                throw .doesNotConform(
                    factory: factory, product: TypeKey.qualifiedName(of: product),
                    provided: TypeKey.qualifiedName(of: type), at: location)
            case nil: unknown.append((TypeKey.qualifiedName(of: type), { $0 is T }))
            case true?: break
            }
            // The conversion is a dynamic cast, checked when the value was
            // made; it runs once per instance made, never on a cached read.
            provided.append(ProvidedType(key: TypeKey(type), type: type) { box in
                Instance<T>(Instance<Product>.value(in: box) as! T)
            })
        }
        repeat try append(each types)
        return (provided, { [unknown] product throws(RegistrationError) in
            for type in unknown where !type.converts(product) {
                throw .doesNotConform(
                    factory: factory, product: TypeKey.qualifiedName(of: Swift.type(of: product as Any)),
                    provided: type.name, at: location)
            }
        })
    }
}
