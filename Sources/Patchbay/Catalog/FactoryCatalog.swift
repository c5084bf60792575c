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
    /// The decorators in registration order (see `registerDecorator(_:decorates:environments:file:line:make:)`).
    /// Apart from the factories: a binding's `factory` never names one, nor does `decorators` name a factory.
    private(set) var decorators: [DecoratorDefinition] = []
    /// Index into `decorators` by name. Decorators and factories share one
    /// space of names, so a name in a manifest means one thing.
    private(set) var decoratorOffsetsByName = NameTable<Int>()

    /// How `JSONDecoder` reads dates and data in this catalog's parameter
    /// types; `JSONDecoder`'s defaults unless set. Recorded in the catalog
    /// description, so the offline check reads dates as the app does.
    public var parameterDecoding = ParameterDecoding.default

    /// The types the app resolves itself, in the order declared (see ``entryPoint(_:from:optional:fileID:line:)``).
    var entryPoints: [EntryPoint] = []

    /// The environments each factory that names some may be bound in, by
    /// factory name: kept apart from the definitions, which activation
    /// copies, since most factories name none.
    private(set) var environmentRules: [String: FactoryEnvironments] = [:]

    /// Creates an empty catalog.
    public init() {}

    /// Creates a catalog from modules, each adding its registrations in turn.
    ///
    ///     let catalog = FactoryCatalog(modules: [StorageModule(), MailModule()])
    public init(modules: [any CatalogModule]) {
        for module in modules { install(module) }
    }

    /// Adds the registrations of a module.
    public mutating func install(_ module: some CatalogModule) { module.register(into: &self) }

    /// The names of every registered factory, in registration order.
    public var factoryNames: [String] { definitions.map(\.name) }

    /// Whether a factory of that name is registered.
    public func contains(factory name: String) -> Bool { offsetsByName[name] != nil }

    /// The names of every registered decorator, in registration order.
    public var decoratorNames: [String] { decorators.map(\.definition.name) }

    /// The factory registered under `name`.
    func definition(named name: String) -> FactoryDefinition? {
        offsetsByName[name].map { definitions[$0] }
    }

    /// Adds a definition, or explains why it cannot be added.
    mutating func add(_ definition: FactoryDefinition) throws(RegistrationError) {
        // The rule a catalog description's names are read by: what `describe()` writes must read back.
        if let problem = Self.validNameProblem(definition.name) {
            throw .invalidName(definition.name, problem, at: definition.registeredAt)
        }
        if let decorator = decoratorOffsetsByName[definition.name] {
            throw .duplicateName(
                definition.name, first: decorators[decorator].definition.registeredAt, second: definition.registeredAt)
        }
        // One hash of the name: the place it already has, or the new one.
        let offset = offsetsByName.update(definition.name, initial: definitions.count) { $0 }
        if offset != definitions.count {
            throw .duplicateName(definition.name, first: definitions[offset].registeredAt, second: definition.registeredAt)
        }
        definitions.append(definition)
    }

    /// Adds a decorator, or explains why it cannot be added: its name follows
    /// a factory's rules, in the space of names factories share.
    mutating func add(_ decorator: DecoratorDefinition) throws(RegistrationError) {
        let definition = decorator.definition
        if let problem = Self.validNameProblem(definition.name) {
            throw .invalidName(definition.name, problem, at: definition.registeredAt)
        }
        if let factory = offsetsByName[definition.name] {
            throw .duplicateName(definition.name, first: definitions[factory].registeredAt, second: definition.registeredAt)
        }
        let offset = decoratorOffsetsByName.update(definition.name, initial: decorators.count) { $0 }
        if offset != decorators.count {
            throw .duplicateName(
                definition.name, first: decorators[offset].definition.registeredAt, second: definition.registeredAt)
        }
        decorators.append(decorator)
    }

    /// Adds a decorator, bindable in `environments` (every one when nil); a mistake stops the program, as ``addOrStop(environments:_:)`` does.
    mutating func addOrStop(environments: FactoryEnvironments?, decorator: DecoratorDefinition) {
        do {
            try add(decorator)
            if let environments, !environments.isAll { environmentRules[decorator.definition.name] = environments }
        } catch {
            fatalError(error.description)
        }
    }

    /// Adds a definition, bindable in `environments` (every one when nil); a mistake stops the program
    /// with the error's message. Optional, so that the registrations' default argument is a nil, which
    /// costs each call site nothing, where `.all` was a call to its accessor in every registration an app compiles.
    /// A definition that cannot be made (a several-types one whose product is known not to provide a type)
    /// stops the program in the same way.
    mutating func addOrStop(
        environments: FactoryEnvironments? = nil, _ definition: @autoclosure () throws(RegistrationError) -> FactoryDefinition
    ) {
        do {
            let definition = try definition()
            try add(definition)
            if let environments, !environments.isAll { environmentRules[definition.name] = environments }
        } catch {
            fatalError(error.description)
        }
    }

    /// The environments the factory `name` may be bound in.
    public func environments(ofFactory name: String) -> FactoryEnvironments { environmentRules[name] ?? .all }
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

/// A mistake in the code that registers factories: a stable code, and a
/// message naming the places involved.
///
/// An extensible set of codes, like ``DiagnosticCode``: compare with the
/// static members, which compare codes only.
///
///     catch let error as RegistrationError where error == .duplicateName { ... }
public struct RegistrationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The stable code: `duplicate-name`, `does-not-conform`, `invalid-name`.
    public let code: String
    /// The factory the mistake is about.
    public let factory: String
    /// The places in the app's code involved: both registrations of a duplicate name, or the one registration.
    public let locations: [CodeLocation]
    /// What went wrong, where, and what to do.
    public let description: String

    /// The error of `code` alone, which the codes' static members are: compared with, never thrown.
    private static func code(_ code: String) -> RegistrationError {
        RegistrationError(code: code, factory: "", locations: [], description: code)
    }

    /// Two factories were registered under one name.
    public static let duplicateName = code("duplicate-name")
    /// A factory claims to provide a type its product does not conform to.
    public static let doesNotConform = code("does-not-conform")
    /// A factory name that is empty or holds a control character: no manifest could name it plainly.
    public static let invalidName = code("invalid-name")
    /// A factory bound `weak` made a value that is not a class instance, which
    /// a weak reference cannot hold. Found when it made its first value,
    /// because the product type alone could not tell (a protocol, say).
    public static let weakValueType = code("weak-value-type")

    /// Whether two errors have the same code.
    public static func == (lhs: RegistrationError, rhs: RegistrationError) -> Bool { lhs.code == rhs.code }

    /// Hashes the code, as `==` compares it.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// `name` registered at `first`, then again at `second`.
    static func duplicateName(_ name: String, first: CodeLocation, second: CodeLocation) -> RegistrationError {
        RegistrationError(
            code: duplicateName.code, factory: name, locations: [first, second],
            description: "Patchbay: factory '\(name)' is registered twice, at \(first) and at \(second). "
                + "Each factory needs its own name: rename one of them.")
    }

    /// `name`, registered at `location`, is not a name a manifest can use.
    static func invalidName(_ name: String, _ problem: String, at location: CodeLocation) -> RegistrationError {
        RegistrationError(
            code: invalidName.code, factory: name, locations: [location],
            description: "Patchbay: the factory name '\(name.escapingControlCharacters)' registered at \(location) "
                + "\(problem). A manifest names the factory by it: give it a plain, non-empty name.")
    }

    /// `factory`, registered at `location`, claims `provided`, which its `product` does not conform to.
    static func doesNotConform(factory: String, product: String, provided: String, at location: CodeLocation)
        -> RegistrationError
    {
        RegistrationError(
            code: doesNotConform.code, factory: factory, locations: [location],
            description: "Patchbay: factory '\(factory)' (registered at \(location)) claims to provide \(provided), "
                + "but its product \(product) does not conform to \(provided). "
                + "Add the conformance, or remove \(provided) from `provides:`.")
    }

    /// `factory`, registered at `location` and bound `weak`, made a `product` that is not a class instance.
    /// When `chainOf` names a type, `factory` is the decorator that ends its chain: what the binding keeps.
    static func weakValueType(
        factory: String, product: String, at location: CodeLocation, chainOf type: String? = nil
    ) -> RegistrationError {
        let description = if let type {
            "Patchbay: the binding of \(type) is bound with lifetime 'weak', but decorator '\(factory)' (registered at "
                + "\(location)), the last link of its chain, made a \(product), which is not a class instance: a weak "
                + "reference cannot hold it. Bind it 'singleton', 'scoped' or 'transient', or make the decorator's "
                + "product a class."
        } else {
            "Patchbay: factory '\(factory)' (registered at \(location)) is bound with lifetime 'weak', "
                + "but it made a \(product), which is not a class instance: a weak reference cannot hold it. "
                + "Bind it 'singleton', 'scoped' or 'transient', or make its product a class."
        }
        return RegistrationError(code: weakValueType.code, factory: factory, locations: [location], description: description)
    }
}
