@testable import Patchbay
import Testing

/// Ways of registering factories: modules, instances, several provided types,
/// and factories that resolve by hand.
struct CatalogTests {
    struct StorageTestModule: CatalogModule {
        func register(into catalog: inout FactoryCatalog) {
            catalog.register("memory-db", provides: (any Database).self, lifetime: .singleton) {
                FakeDatabase(label: "memory")
            }
        }
    }

    struct RepositoryTestModule: CatalogModule {
        func register(into catalog: inout FactoryCatalog) {
            catalog.register("db-repo", provides: (any UserRepository).self) { (db: any Database) in
                FakeUserRepository(label: "db-repo", database: db)
            }
        }
    }

    /// A module that installs others, as the example's NotesModule does.
    struct AppTestModule: CatalogModule {
        func register(into catalog: inout FactoryCatalog) {
            catalog.install(StorageTestModule())
            catalog.install(RepositoryTestModule())
            catalog.register("signup", provides: SignupService.self) { (users: any UserRepository) in
                SignupService(users: users)
            }
        }
    }

    @Test func modulesAddTheirFactoriesInOrder() throws {
        let catalog = FactoryCatalog(modules: [StorageTestModule(), RepositoryTestModule()])
        #expect(catalog.factoryNames == ["memory-db", "db-repo"])
        #expect(catalog.contains(factory: "memory-db"))
        #expect(!catalog.contains(factory: "signup"))

        let container = try makeContainer(catalog, [
            bind("Database", to: "memory-db"), bind("UserRepository", to: "db-repo"),
        ])
        let repository = try container.resolve((any UserRepository).self)
        #expect(repository.database?.label == "memory")
        // The module's default lifetime applies.
        #expect(container.binding(for: (any Database).self)?.lifetime == .singleton)
        #expect(try container.resolve((any Database).self) === repository.database)
    }

    @Test func modulesCanInstallModules() throws {
        var catalog = FactoryCatalog()
        catalog.install(AppTestModule())
        #expect(catalog.factoryNames == ["memory-db", "db-repo", "signup"])
        let container = try makeContainer(catalog, [
            bind("Database", to: "memory-db"), bind("UserRepository", to: "db-repo"), bind("SignupService", to: "signup"),
        ])
        #expect(try container.resolve(SignupService.self).users.database?.label == "memory")
    }

    @Test func aRegisteredInstanceIsAlwaysThatInstance() throws {
        let shared = Part(tag: "shared")
        var catalog = FactoryCatalog()
        catalog.register("shared-part", provides: (any Widget).self, instance: shared)
        catalog.register("hello", provides: (any Greeting).self, instance: TextGreeting(text: "hello"))

        for lifetime: Lifetime? in [nil, .transient, .singleton, .graph] {
            let container = try makeContainer(catalog, [
                bind("Widget", to: "shared-part", lifetime), bind("Greeting", to: "hello", lifetime),
            ])
            #expect(try container.resolve((any Widget).self) === shared)
            #expect(try container.resolve((any Widget).self) === shared)
            #expect(try container.resolve((any Widget).self, from: .secondary) === shared)
            #expect(try container.resolve((any Greeting).self).text == "hello")
        }
        let byDefault = try makeContainer(catalog, [bind("Widget", to: "shared-part")])
        #expect(byDefault.binding(for: (any Widget).self)?.lifetime == .singleton)
    }

    @Test func aProductCanProvideSeveralTypes() throws {
        var catalog = FactoryCatalog()
        catalog.register("combo", product: Part.self, provides: (any Widget).self, (any Gadget).self) {
            Part(tag: "combo")
        }
        let container = try makeContainer(catalog, [bind("Widget", to: "combo"), bind("Gadget", to: "combo")])
        #expect(try container.resolve((any Widget).self).tag == "combo")
        #expect(try container.resolve((any Gadget).self).tag == "combo")

        let wrongType = try #require(throws: ManifestError.self) {
            try makeContainer(catalog, [bind("Widget", to: "combo"), bind("Sprocket", to: "combo")])
        }
        // Sprocket is known to no factory here, so it is an unknown protocol.
        #expect(errorCodes(wrongType) == [.unknownProtocol])
    }

    @Test func aFactoryThatDoesNotProvideTheProtocolIsAnActivationError() throws {
        var catalog = FactoryCatalog()
        catalog.register("combo", product: Part.self, provides: (any Widget).self, (any Gadget).self) { Part() }
        catalog.register("sprocket", provides: (any Sprocket).self) { Part() }
        let error = try #require(throws: ManifestError.self) {
            try makeContainer(catalog, [bind("Sprocket", to: "combo")])
        }
        #expect(errorCodes(error) == [.factoryDoesNotProvide])
    }

    // MARK: - registerResolving

    private func routingCatalog() -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("say-sql", provides: (any Greeting).self) { TextGreeting(text: "sql") }
        catalog.register("say-memory", provides: (any Greeting).self) { TextGreeting(text: "memory") }
        catalog.register("sql-db", provides: (any Database).self) { FakeDatabase(label: "sql") }
        catalog.registerResolving("router", provides: (any UserRepository).self) { resolver in
            let choice = try resolver.resolve((any Greeting).self)
            if choice.text == "sql" {
                return FakeUserRepository(label: "sql", database: try resolver.resolve((any Database).self))
            }
            return FakeUserRepository(label: "memory", database: try resolver.resolveIfBound((any Database).self))
        }
        return catalog
    }

    @Test func aResolvingFactoryDecidesAtRunTime() throws {
        let sql = try makeContainer(routingCatalog(), [
            bind("UserRepository", to: "router"), bind("Greeting", to: "say-sql"), bind("Database", to: "sql-db"),
        ])
        let fromSQL = try sql.resolve((any UserRepository).self)
        #expect(fromSQL.label == "sql")
        #expect(fromSQL.database?.label == "sql")

        // Its needs are unknown to static checks, so a missing Database is not an activation error...
        let memory = try makeContainer(routingCatalog(), [
            bind("UserRepository", to: "router"), bind("Greeting", to: "say-memory"),
        ])
        let fromMemory = try memory.resolve((any UserRepository).self)
        #expect(fromMemory.label == "memory")
        #expect(fromMemory.database == nil, "Resolver.resolveIfBound gives nil when not bound")

        // ...but a resolution error when it turns out to be needed.
        let broken = try makeContainer(routingCatalog(), [
            bind("UserRepository", to: "router"), bind("Greeting", to: "say-sql"),
        ])
        let error = #expect(throws: ResolutionError.self) { try broken.resolve((any UserRepository).self) }
        #expect(error?.reason == .notBound)
        #expect(error?.requestedType == "Database")
        #expect(error?.dependencyPath == ["UserRepository", "Database"])
        #expect(error?.suggestions == ["sql-db"])
    }

    /// A lowercase type name that begins like `any `, to check the prefix is
    /// only dropped when it is the existential's.
    struct anyway {}

    @Test func typeNamesDropOnlyTheExistentialsAny() {
        #expect(TypeKey((any Database).self).name == "Database")
        #expect(TypeKey((any Database).self).qualifiedName == "PatchbayTests.Database")
        #expect(TypeKey(anyway.self).name == "anyway")
        #expect(TypeKey(Int.self).qualifiedName == "Swift.Int")
    }
}
