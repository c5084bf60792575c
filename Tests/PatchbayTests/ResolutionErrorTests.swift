@testable import Patchbay
import Testing

/// What resolution and registration errors say.
struct ResolutionErrorTests {
    /// SignupService -> UserRepository (resolves by hand) -> Database, with two
    /// catalog factories that provide Database and a failing one.
    private func appCatalog() -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("signup", provides: SignupService.self) { (users: any UserRepository) in
            SignupService(users: users)
        }
        catalog.registerResolving("dynamic-repo", provides: (any UserRepository).self) { resolver in
            FakeUserRepository(label: "dynamic", database: try resolver.resolve((any Database).self))
        }
        catalog.register("sqlite-db", provides: (any Database).self) { FakeDatabase(label: "sqlite") }
        catalog.register("memory-db", provides: (any Database).self) { FakeDatabase(label: "memory") }
        catalog.register("failing-db", provides: (any Database).self) { () throws -> any Database in
            throw FixtureError(message: "disk full")
        }
        catalog.register("part", provides: (any Widget).self) { Part() }
        catalog.register("gadget-a", provides: (any Gadget).self) { Part() }
        catalog.register("gadget-b", provides: (any Gadget).self) { Part() }
        return catalog
    }

    // MARK: - Not bound

    @Test func notBoundNamesTheTypeEveryInjectorAndTheFactoriesThatProvideIt() throws {
        let container = try makeContainer(appCatalog(), injectors: ["primary", "secondary", "fixtures"], [
            bind("Widget", to: "part"), bind("Widget", to: "part", in: "fixtures"),
        ])
        let error = try #require(throws: ResolutionError.self) { try container.resolve((any Gadget).self) }
        #expect(error.reason == .notBound)
        #expect(error.requestedType == "Gadget")
        #expect(error.injectorsSearched == [.primary, .secondary, "fixtures"])
        #expect(error.dependencyPath == ["Gadget"])
        #expect(error.suggestions == ["gadget-a", "gadget-b"])
        let text = error.description
        #expect(text.contains("cannot resolve Gadget"), "\(text)")
        #expect(text.contains("primary, secondary, fixtures"), "\(text)")
        #expect(text.contains("'gadget-a'") && text.contains("'gadget-b'"), "\(text)")
        #expect(!text.contains("(path:"), "no path for a top-level request: \(text)")
    }

    @Test func notBoundFromACustomInjectorListsItFirst() throws {
        let container = try makeContainer(appCatalog(), injectors: ["primary", "secondary", "fixtures", "tenant"], [
            bind("Widget", to: "part", in: "tenant"),
        ])
        let error = try #require(throws: ResolutionError.self) {
            try container.resolve((any Gadget).self, from: "tenant")
        }
        #expect(error.injectorsSearched == ["tenant", .primary, .secondary, "fixtures"])
        #expect(error.description.contains("tenant, primary, secondary, fixtures"), "\(error)")
    }

    @Test func notBoundDeepInAGraphShowsTheDependencyPath() throws {
        let container = try makeContainer(appCatalog(), [
            bind("SignupService", to: "signup"), bind("UserRepository", to: "dynamic-repo"),
        ])
        let error = try #require(throws: ResolutionError.self) { try container.resolve(SignupService.self) }
        #expect(error.reason == .notBound)
        #expect(error.requestedType == "Database")
        #expect(error.dependencyPath == ["SignupService", "UserRepository", "Database"])
        #expect(error.injectorsSearched == [.primary, .secondary])
        #expect(error.suggestions == ["failing-db", "memory-db", "sqlite-db"])
        let text = error.description
        #expect(text.contains("SignupService -> UserRepository -> Database"), "\(text)")
        #expect(text.contains("'memory-db'") && text.contains("'sqlite-db'"), "\(text)")
    }

    @Test func aTypeNoFactoryProvidesGetsSimilarBoundNames() throws {
        var catalog = FactoryCatalog()
        catalog.register("greeter", provides: (any Greeting).self) { TextGreeting(text: "hi") }
        let container = try makeContainer(catalog, [bind("Greeting", to: "greeter")])
        let error = try #require(throws: ResolutionError.self) { try container.resolve(Greetings.self) }
        #expect(error.reason == .notBound)
        #expect(error.suggestions == ["Greeting"])
        #expect(error.description.contains("Did you mean 'Greeting'?"), "\(error)")

        let unknown = try #require(throws: ResolutionError.self) { try container.resolve(Int.self) }
        #expect(unknown.suggestions.isEmpty)
        #expect(unknown.description.contains("No factory in the catalog provides it"), "\(unknown)")
    }

    // MARK: - Factory failed

    @Test func factoryFailedIncludesTheUnderlyingErrorAndTheFactory() throws {
        let container = try makeContainer(appCatalog(), [
            bind("SignupService", to: "signup"), bind("UserRepository", to: "dynamic-repo"),
            bind("Database", to: "failing-db"),
        ])
        let direct = try #require(throws: ResolutionError.self) { try container.resolve((any Database).self) }
        #expect(direct.reason == .factoryFailed)
        #expect(direct.factory == "failing-db")
        #expect(direct.requestedType == "Database")
        #expect(direct.underlying as? FixtureError == FixtureError(message: "disk full"))
        #expect(direct.description.contains("'failing-db'"), "\(direct)")
        #expect(direct.description.contains("disk full"), "\(direct)")

        let deep = try #require(throws: ResolutionError.self) { try container.resolve(SignupService.self) }
        #expect(deep.reason == .factoryFailed)
        #expect(deep.factory == "failing-db")
        #expect(deep.dependencyPath == ["SignupService", "UserRepository", "Database"])
        #expect(deep.description.contains("SignupService -> UserRepository -> Database"), "\(deep)")
        #expect(deep.description.contains("disk full"), "\(deep)")
    }

    // MARK: - resolveIfBound

    @Test func resolveIfBoundIsNilOnlyWhenNotBound() throws {
        let container = try makeContainer(appCatalog(), [
            bind("Widget", to: "part"), bind("Database", to: "failing-db"),
            bind("SignupService", to: "signup"), bind("UserRepository", to: "dynamic-repo"),
        ])
        #expect(try container.resolveIfBound((any Gadget).self) == nil)
        #expect(try container.resolveIfBound((any Gadget).self, from: .secondary) == nil)
        #expect(try container.resolveIfBound((any Widget).self) != nil)

        let failed = #expect(throws: ResolutionError.self) { try container.resolveIfBound((any Database).self) }
        #expect(failed?.reason == .factoryFailed)
        #expect(failed?.underlying as? FixtureError == FixtureError(message: "disk full"))
        let deep = #expect(throws: ResolutionError.self) { try container.resolveIfBound(SignupService.self) }
        #expect(deep?.reason == .factoryFailed)
    }

    @Test func resolveIfBoundRethrowsANotBoundDependency() throws {
        let container = try makeContainer(appCatalog(), [bind("UserRepository", to: "dynamic-repo")])
        let error = #expect(throws: ResolutionError.self) { try container.resolveIfBound((any UserRepository).self) }
        #expect(error?.reason == .notBound)
        #expect(error?.requestedType == "Database")
    }

    // MARK: - Scopes

    @Test func scopeErrorsSayWhatToDo() throws {
        let container = try makeContainer(appCatalog(), [bind("Widget", to: "part", .scoped)])
        let noScope = try #require(throws: ResolutionError.self) { try container.resolve((any Widget).self) }
        #expect(noScope.reason == .noActiveScope)
        #expect(noScope.factory == "part")
        #expect(noScope.description.contains("scoped") && noScope.description.contains("scope.run"), "\(noScope)")

        let scope = Scope()
        scope.close()
        let closed = try #require(throws: ResolutionError.self) { try scope.resolve((any Widget).self, from: container) }
        #expect(closed.reason == .scopeClosed)
        #expect(closed.description.contains("closed"), "\(closed)")
    }

    // MARK: - Registration errors

    @Test func aDuplicateNameNamesBothLocations() throws {
        var catalog = FactoryCatalog()
        catalog.register("db", provides: (any Database).self, file: "App/Storage.swift", line: 10) {
            FakeDatabase(label: "first")
        }
        var other = FactoryCatalog()
        other.register("db", provides: (any Database).self, file: "App/Other.swift", line: 20) {
            FakeDatabase(label: "second")
        }
        let duplicate = try #require(other.definition(named: "db"))
        let error = try #require(throws: RegistrationError.self) { try catalog.add(duplicate) }
        #expect(error == .duplicateName && error.code == "duplicate-name" && error != .doesNotConform)
        #expect(error.factory == "db")
        #expect(error.locations == [CodeLocation(fileID: "App/Storage.swift", line: 10), CodeLocation(fileID: "App/Other.swift", line: 20)])
        #expect(error.description == "Patchbay: factory 'db' is registered twice, at App/Storage.swift:10 and at "
            + "App/Other.swift:20. Each factory needs its own name: rename one of them.")
        #expect(catalog.factoryNames == ["db"], "the duplicate was not added")
    }

    @Test func aLocationFromLiteralsEqualsOneFromText() {
        // Registrations keep the call site's literal; code and tests make locations from strings.
        let literal = CodeLocation("App/Storage.swift", 10)
        let text = CodeLocation(fileID: "App/Storage.swift", line: 10)
        #expect(literal == text && literal.hashValue == text.hashValue)
        #expect(literal.fileID == "App/Storage.swift" && literal.description == "App/Storage.swift:10")
        #expect(literal != CodeLocation(fileID: "App/Storage.swift", line: 11))
        #expect(literal != CodeLocation("App/Other.swift", 10))
        #expect(Set([literal, text]).count == 1)
    }

    @Test func aProductThatDoesNotConformIsRejectedWhenItsValueIsChecked() throws {
        let location = CodeLocation(fileID: "App/Catalog.swift", line: 7)
        // A protocol: only a value can tell (see TypeConformance), so the
        // registration passes and the value is checked before it is served.
        let provided = try FactoryCatalog.providedTypes(
            of: Part.self, (any Widget).self, (any Database).self, factory: "odd", at: location)
        let error = try #require(throws: RegistrationError.self) { try provided.check(Part(tag: "a", serial: 1)) }
        #expect(error == .doesNotConform && error.code == "does-not-conform")
        #expect(error.factory == "odd" && error.locations == [location])
        #expect(error.description.hasPrefix("Patchbay: factory 'odd' (registered at App/Catalog.swift:7) claims to provide "))
        #expect(error.description.contains("but its product ") && error.description.contains("Part does not conform to "))

        let valueType = try FactoryCatalog.providedTypes(
            of: TextGreeting.self, (any Unrelated).self, factory: "text", at: location)
        let valueError = try #require(throws: RegistrationError.self) { try valueType.check(TextGreeting(text: "hi")) }
        #expect(valueError.description.contains("Unrelated"))
    }

    @Test func aClassProductThatIsNotASubclassIsRejectedAtRegistration() throws {
        let location = CodeLocation(fileID: "App/Catalog.swift", line: 7)
        let error = try #require(throws: RegistrationError.self) {
            try FactoryCatalog.providedTypes(of: Part.self, OtherPart.self, factory: "odd", at: location)
        }
        #expect(error == .doesNotConform && error.description.contains("OtherPart"))
    }

    @Test func aProductThatConformsIsAccepted() throws {
        let location = CodeLocation(fileID: "App/Catalog.swift", line: 7)
        let provided = try FactoryCatalog.providedTypes(
            of: Part.self, (any Widget).self, (any Gadget).self, Part.self, factory: "part", at: location)
        #expect(provided.types.map(\.key) == [TypeKey((any Widget).self), TypeKey((any Gadget).self), TypeKey(Part.self)])
        #expect(TypeConformance.canConvert(Part.self, to: (any Widget).self) == nil
            && TypeConformance.canConvert(Part.self, to: (any Gadget).self) == nil
            && TypeConformance.canConvert(Part.self, to: Part.self) == true,
            "the two protocols are checked on values; Part itself is known")
        try provided.check(Part(tag: "a", serial: 1))
        let greetings = try FactoryCatalog.providedTypes(
            of: TextGreeting.self, (any Greeting).self, factory: "text", at: location)
        #expect(greetings.types.count == 1)
        try greetings.check(TextGreeting(text: "hi"))
    }

    /// Unrelated to `Part`: a class that is not its subclass.
    private final class OtherPart {}

    #if compiler(>=6.2)
    @Test func registeringTwoFactoriesWithOneNameStopsTheProgram() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            registerTwoFactoriesWithOneName()
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("factory 'twice' is registered twice"), "the message names the mistake: \(output)")
    }
    #endif
}

/// Registers two factories named "twice": stops the program.
///
/// Not inlined: with -O, Swift 6.3.1 crashes (in LLVM's function-attrs pass)
/// compiling an exit test whose body has these registrations inlined into it.
@inline(never)
func registerTwoFactoriesWithOneName() {
    var catalog = FactoryCatalog()
    catalog.register("twice", provides: Int.self) { 1 }
    catalog.register("twice", provides: Int.self) { 2 }
}

/// A type close in name to `Greeting`, that no factory provides.
struct Greetings {}
