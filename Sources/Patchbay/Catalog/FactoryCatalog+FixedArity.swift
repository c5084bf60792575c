// Fixed-arity twins of the common registration form, for factories with no
// dependencies, one or two. They behave exactly like the general form (same
// definition, same checks, same messages); they exist for speed.
//
// The general form takes its closure's parameters as a pack, which Swift
// walks at run time, element by element. And a pack's elements are passed
// borrowed, so the factory's closure retains a dependency it stores and the
// caller releases its copy afterwards: two atomic operations per dependency
// that a direct `init` does not pay. (A `consuming` pack crashes the Swift
// 6.3 compiler.) With a plain generic parameter, the dependency is handed
// over `consuming`.
//
// The no-dependency twin is needed for overload resolution as much as for
// speed: without it, a closure of no parameters would match the one-dependency
// form with `Dependency == ()`. A closure of three or more parameters takes
// the general form; each twin's dependencies are read in parameter order, as
// the general form reads them.
//
// Each `buildInto` passes the factory's product straight into the memory's
// initializer: a product kept in a `let` first is copied into the memory and
// the `let` destroyed (a retain and a release), since this code is not
// specialized for the product's type.

extension FactoryCatalog {
    /// Registers a factory that provides one type and needs nothing.
    ///
    ///     catalog.register("system-clock", provides: (any Clock).self) { SystemClock() }
    ///
    /// The same as the general form, whose closure takes any number of
    /// dependencies, called with none; see it for the details.
    ///
    /// - Parameters:
    ///   - name: The name manifests use to choose this factory. Must be unique in the catalog.
    ///   - type: The type the factory provides, usually a protocol: `(any Clock).self`.
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
        make: @escaping @Sendable () throws -> T
    ) {
        addOrStop(environments: environments, FactoryDefinition(
            name: name(), product: type, dependencies: [], defaultLifetime: lifetime,
            registeredAt: CodeLocation(file, line), collection: .of(T.self), buildInto: { _, memory in
                memory.initialize(to: try make())
            },
            build: { _ in Instance<T>(try make()) }))
    }

    /// Registers a factory that provides one type and needs one dependency.
    ///
    ///     catalog.register("sqlite", provides: (any UserRepository).self) { (db: any Database) in
    ///         SQLiteUserRepository(db: db)
    ///     }
    ///
    /// The same as the general form, whose closure takes any number of
    /// dependencies, called with one; see it for the details. The dependency
    /// is handed to `make` to keep (`consuming`), which spares a retain and a
    /// release.
    ///
    /// - Parameters:
    ///   - name: The name manifests use to choose this factory. Must be unique in the catalog.
    ///   - type: The type the factory provides, usually a protocol: `(any UserRepository).self`.
    ///   - lifetime: The lifetime when a binding names none; `transient` when `nil`.
    ///   - environments: The environments a manifest may bind it in (``FactoryEnvironments``); every one when `nil`.
    ///   - file: Where the registration is, for messages about mistakes; leave the default.
    ///   - line: Where the registration is, for messages about mistakes; leave the default.
    ///   - make: Makes the product from its dependency.
    public mutating func register<T, Dependency>(
        _ name: @autoclosure () -> String,
        provides type: T.Type,
        lifetime: Lifetime? = nil,
        environments: FactoryEnvironments? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        make: @escaping @Sendable (consuming Dependency) throws -> T
    ) {
        let specs = Self.dependencySpecs(Dependency.self)
        addOrStop(environments: environments, FactoryDefinition(
            name: name(), product: type, dependencies: specs, defaultLifetime: lifetime,
            registeredAt: CodeLocation(file, line), collection: .of(T.self), buildInto: { call, memory in
                memory.initialize(
                    to: try make(call.dependency(Dependency.self, specs: specs, index: 0)))
            },
            build: { call in
                Instance<T>(try make(call.dependency(Dependency.self, specs: specs, index: 0)))
            }))
    }

    /// Registers a factory that provides one type and needs two dependencies.
    ///
    ///     catalog.register("sqlite", provides: (any UserRepository).self) {
    ///         (db: any Database, log: any Logger) in
    ///         SQLiteUserRepository(db: db, log: log)
    ///     }
    ///
    /// The same as the general form, whose closure takes any number of
    /// dependencies, called with two; see it for the details. The dependencies
    /// are handed to `make` to keep (`consuming`), which spares a retain and a
    /// release of each.
    ///
    /// - Parameters:
    ///   - name: The name manifests use to choose this factory. Must be unique in the catalog.
    ///   - type: The type the factory provides, usually a protocol: `(any UserRepository).self`.
    ///   - lifetime: The lifetime when a binding names none; `transient` when `nil`.
    ///   - environments: The environments a manifest may bind it in (``FactoryEnvironments``); every one when `nil`.
    ///   - file: Where the registration is, for messages about mistakes; leave the default.
    ///   - line: Where the registration is, for messages about mistakes; leave the default.
    ///   - make: Makes the product from its dependencies.
    public mutating func register<T, First, Second>(
        _ name: @autoclosure () -> String,
        provides type: T.Type,
        lifetime: Lifetime? = nil,
        environments: FactoryEnvironments? = nil,
        file: StaticString = #fileID, line: UInt = #line,
        make: @escaping @Sendable (consuming First, consuming Second) throws -> T
    ) {
        let specs = Self.dependencySpecs(First.self, Second.self)
        addOrStop(environments: environments, FactoryDefinition(
            name: name(), product: type, dependencies: specs, defaultLifetime: lifetime,
            registeredAt: CodeLocation(file, line), collection: .of(T.self), buildInto: { call, memory in
                memory.initialize(
                    to: try make(
                        call.dependency(First.self, specs: specs, index: 0),
                        call.dependency(Second.self, specs: specs, index: 1)))
            },
            build: { call in
                Instance<T>(try make(
                    call.dependency(First.self, specs: specs, index: 0),
                    call.dependency(Second.self, specs: specs, index: 1)))
            }))
    }

}
