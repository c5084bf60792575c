/// The factories an app can build, each under a name a manifest can choose.
///
/// The catalog is the security boundary of Patchbay: a manifest can only pick
/// among factories registered here; it never names a Swift type to create.
///
///     var catalog = FactoryCatalog()
///     catalog.register("sqlite", provides: (any UserRepository).self) { (db: any Database, log: any Logger) in
///         SQLiteUserRepository(db: db, log: log)
///     }
///     catalog.register("in-memory", provides: (any UserRepository).self) {
///         InMemoryUserRepository()
///     }
///
/// A factory declares what it needs as the typed parameters of its closure, so
/// the catalog knows its dependencies without calling it; that is what lets a
/// manifest be checked offline. Registration mistakes (two factories with one
/// name, a product that does not conform to a type it claims to provide) stop
/// the program at the call that made them, with a message naming both places:
/// they are mistakes in code, not in data.
public struct FactoryCatalog: Sendable {
    /// The factories in registration order.
    private(set) var definitions: [FactoryDefinition] = []
    /// Index into `definitions` by factory name (see ``NameTable`` for why not a dictionary).
    private(set) var offsetsByName = NameTable<Int>()

    /// Creates an empty catalog.
    public init() {}

    /// Creates a catalog from modules, each adding its registrations in turn.
    ///
    ///     let catalog = FactoryCatalog(modules: [StorageModule(), MailModule()])
    public init(modules: [any CatalogModule]) {
        for module in modules { install(module) }
    }

    /// Adds the registrations of a module.
    public mutating func install(_ module: some CatalogModule) {
        module.register(into: &self)
    }

    /// The names of every registered factory, in registration order.
    public var factoryNames: [String] { definitions.map(\.name) }

    /// Whether a factory of that name is registered.
    public func contains(factory name: String) -> Bool { offsetsByName[name] != nil }

    /// The factory registered under `name`.
    func definition(named name: String) -> FactoryDefinition? {
        offsetsByName[name].map { definitions[$0] }
    }

    /// Adds a definition, or explains why it cannot be added.
    mutating func add(_ definition: FactoryDefinition) throws(RegistrationError) {
        // One hash of the name: the place it already has, or the new one.
        let offset = offsetsByName.update(definition.name, initial: definitions.count) { $0 }
        if offset != definitions.count {
            throw .duplicateName(definition.name, first: definitions[offset].registeredAt, second: definition.registeredAt)
        }
        definitions.append(definition)
    }

    /// Adds a definition; a mistake stops the program with the error's message.
    @usableFromInline
    mutating func addOrStop(_ definition: FactoryDefinition) {
        do {
            try add(definition)
        } catch {
            fatalError(error.description)
        }
    }
}

/// Groups registrations, as Swinject's `Assembly` or Impose's `ModuleProvider` do.
///
///     struct StorageModule: CatalogModule {
///         func register(into catalog: inout FactoryCatalog) {
///             catalog.register("sqlite", provides: (any UserRepository).self) { SQLiteUserRepository() }
///         }
///     }
public protocol CatalogModule {
    /// Registers this module's factories.
    func register(into catalog: inout FactoryCatalog)
}

/// A mistake in the code that registers factories.
public enum RegistrationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Two factories were registered under one name.
    case duplicateName(String, first: CodeLocation, second: CodeLocation)
    /// A factory claims to provide a type its product does not conform to.
    case doesNotConform(factory: String, product: String, provided: String, at: CodeLocation)

    /// What went wrong, where, and what to do.
    public var description: String {
        switch self {
        case let .duplicateName(name, first, second):
            "Patchbay: factory '\(name)' is registered twice, at \(first) and at \(second). "
                + "Each factory needs its own name: rename one of them."
        case let .doesNotConform(factory, product, provided, location):
            "Patchbay: factory '\(factory)' (registered at \(location)) claims to provide \(provided), "
                + "but its product \(product) does not conform to \(provided). "
                + "Add the conformance, or remove \(provided) from `provides:`."
        }
    }
}
