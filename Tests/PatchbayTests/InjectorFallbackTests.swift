@testable import Patchbay
import Testing

/// Injectors and fallback, as the spec's "Injectors and fallback" section says:
/// the requester's own binding wins, else the first binding found searching the
/// injectors in order (primary, secondary, then custom ones in `injectors`
/// order, else in order of first appearance); a factory's dependencies are
/// resolved from the injector that served it, with the same fallback.
struct InjectorFallbackTests {
    static let tiers = ["primary", "secondary", "alpha", "beta"]

    /// `widget-<tier>`, `gadget-<tier>`, `sprocket-<tier>`: parts tagged with their tier.
    private func tieredCatalog() -> FactoryCatalog {
        var catalog = FactoryCatalog()
        for tier in Self.tiers {
            catalog.register("widget-\(tier)", provides: (any Widget).self) { Part(tag: tier) }
            catalog.register("gadget-\(tier)", provides: (any Gadget).self) { Part(tag: tier) }
            catalog.register("sprocket-\(tier)", provides: (any Sprocket).self) { Part(tag: tier) }
        }
        return catalog
    }

    /// Checks the winner both by `binding(for:from:)` and by a real resolve.
    private func expectWidget(
        _ container: Container, from injector: InjectorName, servedBy expected: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let binding = container.binding(for: (any Widget).self, from: injector)
        #expect(binding?.injector.rawValue == expected, sourceLocation: sourceLocation)
        #expect(binding?.factory == "widget-\(expected)", sourceLocation: sourceLocation)
        #expect(try container.resolve((any Widget).self, from: injector).tag == expected, sourceLocation: sourceLocation)
    }

    private func expectGadget(
        _ container: Container, from injector: InjectorName, servedBy expected: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let binding = container.binding(for: (any Gadget).self, from: injector)
        #expect(binding?.injector.rawValue == expected, sourceLocation: sourceLocation)
        #expect(binding?.factory == "gadget-\(expected)", sourceLocation: sourceLocation)
        #expect(try container.resolve((any Gadget).self, from: injector).tag == expected, sourceLocation: sourceLocation)
    }

    private func expectSprocket(
        _ container: Container, from injector: InjectorName, servedBy expected: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let binding = container.binding(for: (any Sprocket).self, from: injector)
        #expect(binding?.injector.rawValue == expected, sourceLocation: sourceLocation)
        #expect(binding?.factory == "sprocket-\(expected)", sourceLocation: sourceLocation)
        #expect(
            try container.resolve((any Sprocket).self, from: injector).tag == expected, sourceLocation: sourceLocation)
    }

    @Test func ownBindingWinsInEveryInjector() throws {
        let container = try makeContainer(tieredCatalog(), injectors: ["primary", "secondary", "beta", "alpha"], [
            bind("Widget", to: "widget-alpha", in: "alpha"),
            bind("Widget", to: "widget-beta", in: "beta"),
            bind("Widget", to: "widget-secondary", in: .secondary),
            bind("Widget", to: "widget-primary"),
        ])
        for tier in Self.tiers {
            try expectWidget(container, from: InjectorName(tier), servedBy: tier)
        }
        // The default injector is primary.
        #expect(try container.resolve((any Widget).self).tag == "primary")
    }

    @Test func fallbackFollowsTheInjectorsArrayOrder() throws {
        // alpha appears first in the bindings, but the array puts beta first.
        let container = try makeContainer(tieredCatalog(), injectors: ["primary", "secondary", "beta", "alpha"], [
            bind("Gadget", to: "gadget-alpha", in: "alpha"),
            bind("Gadget", to: "gadget-beta", in: "beta"),
            bind("Sprocket", to: "sprocket-alpha", in: "alpha"),
            bind("Sprocket", to: "sprocket-secondary", in: .secondary),
        ])
        // Gadget: only the custom injectors bind it.
        try expectGadget(container, from: .primary, servedBy: "beta")
        try expectGadget(container, from: .secondary, servedBy: "beta")
        try expectGadget(container, from: "alpha", servedBy: "alpha")
        try expectGadget(container, from: "beta", servedBy: "beta")
        try expectGadget(container, from: "not-in-the-manifest", servedBy: "beta")

        // Sprocket: secondary comes before any custom injector.
        try expectSprocket(container, from: .primary, servedBy: "secondary")
        try expectSprocket(container, from: .secondary, servedBy: "secondary")
        try expectSprocket(container, from: "alpha", servedBy: "alpha")
        try expectSprocket(container, from: "beta", servedBy: "secondary")
    }

    @Test func withoutAnInjectorsArrayTheOrderIsFirstAppearance() throws {
        let betaFirst = try makeContainer(tieredCatalog(), [
            bind("Widget", to: "widget-primary"),
            bind("Sprocket", to: "sprocket-beta", in: "beta"),
            bind("Gadget", to: "gadget-alpha", in: "alpha"),
            bind("Gadget", to: "gadget-beta", in: "beta"),
        ])
        try expectGadget(betaFirst, from: .primary, servedBy: "beta")
        try expectGadget(betaFirst, from: .secondary, servedBy: "beta")
        try expectGadget(betaFirst, from: "alpha", servedBy: "alpha")

        let alphaFirst = try makeContainer(tieredCatalog(), [
            bind("Widget", to: "widget-primary"),
            bind("Gadget", to: "gadget-alpha", in: "alpha"),
            bind("Gadget", to: "gadget-beta", in: "beta"),
        ])
        try expectGadget(alphaFirst, from: .primary, servedBy: "alpha")
        try expectGadget(alphaFirst, from: .secondary, servedBy: "alpha")
        try expectGadget(alphaFirst, from: "beta", servedBy: "beta")

        // An injector with no binding of its own searches from the first: primary wins over alpha.
        try expectWidget(alphaFirst, from: "alpha", servedBy: "primary")
        try expectWidget(alphaFirst, from: "beta", servedBy: "primary")
    }

    @Test func secondaryFallsBackToPrimaryAndCustomToSecondary() throws {
        let container = try makeContainer(tieredCatalog(), injectors: ["primary", "secondary", "alpha", "beta"], [
            bind("Widget", to: "widget-primary"),
            bind("Gadget", to: "gadget-secondary", in: .secondary),
            bind("Gadget", to: "gadget-beta", in: "beta"),
        ])
        try expectWidget(container, from: .secondary, servedBy: "primary")
        try expectWidget(container, from: "beta", servedBy: "primary")
        try expectGadget(container, from: .primary, servedBy: "secondary")
        try expectGadget(container, from: "alpha", servedBy: "secondary")
        try expectGadget(container, from: "beta", servedBy: "beta")
    }

    @Test func unboundTypeHasNoBinding() throws {
        let container = try makeContainer(tieredCatalog(), [bind("Widget", to: "widget-primary")])
        #expect(container.binding(for: (any Gadget).self) == nil)
        #expect(container.binding(for: (any Gadget).self, from: "alpha") == nil)
        #expect(!container.isBound((any Gadget).self))
        #expect(container.isBound((any Widget).self))
    }

    // MARK: - Dependencies come from the injector that served the factory

    /// `db-<tier>` makes a Database labelled with its tier; `repo-<tier>` a
    /// UserRepository that needs a Database, in four ways.
    private func repositoryCatalog() -> FactoryCatalog {
        var catalog = FactoryCatalog()
        for tier in Self.tiers {
            catalog.register("db-\(tier)", provides: (any Database).self) { FakeDatabase(label: tier) }
            catalog.register("repo-\(tier)", provides: (any UserRepository).self) { (db: any Database) in
                FakeUserRepository(label: tier, database: db)
            }
        }
        catalog.registerResolving("repo-resolving", provides: (any UserRepository).self) { resolver in
            FakeUserRepository(label: "resolving@\(resolver.injector)", database: try resolver.resolve((any Database).self))
        }
        catalog.register("repo-optional", provides: (any UserRepository).self) { (db: (any Database)?) in
            FakeUserRepository(label: "optional", database: db)
        }
        catalog.register("repo-lazy", provides: (any UserRepository).self) { (db: Lazy<any Database>) in
            FakeUserRepository(label: "lazy", database: try db.get())
        }
        catalog.register("signup", provides: SignupService.self) { (users: any UserRepository) in
            SignupService(users: users)
        }
        return catalog
    }

    @Test func dependenciesAreResolvedFromTheServingInjector() throws {
        let container = try makeContainer(repositoryCatalog(), injectors: ["primary", "secondary", "alpha", "beta"], [
            bind("SignupService", to: "signup"),
            bind("UserRepository", to: "repo-alpha", in: "alpha"),
            bind("UserRepository", to: "repo-beta", in: "beta"),
            bind("Database", to: "db-primary"),
            bind("Database", to: "db-alpha", in: "alpha"),
        ])
        // Asked from primary, served by alpha (first in order); its Database comes from alpha, not primary.
        let fromPrimary = try container.resolve((any UserRepository).self)
        #expect(fromPrimary.label == "alpha")
        #expect(fromPrimary.database?.label == "alpha")

        // Served by beta, which binds no Database: beta's fallback searches from the first, so primary's.
        let fromBeta = try container.resolve((any UserRepository).self, from: "beta")
        #expect(fromBeta.label == "beta")
        #expect(fromBeta.database?.label == "primary")

        // Two levels: SignupService (primary) -> UserRepository (alpha) -> Database (alpha).
        let signup = try container.resolve(SignupService.self)
        #expect(signup.users.label == "alpha")
        #expect(signup.users.database?.label == "alpha")

        // SignupService asked from beta is served by primary (beta has none), so its
        // UserRepository is asked from primary too: alpha's.
        let signupFromBeta = try container.resolve(SignupService.self, from: "beta")
        #expect(signupFromBeta.users.label == "alpha")
    }

    @Test(arguments: ["repo-resolving", "repo-optional", "repo-lazy"])
    func everyKindOfDependencyUsesTheServingInjector(factory: String) throws {
        let container = try makeContainer(repositoryCatalog(), injectors: ["primary", "secondary", "alpha", "beta"], [
            bind("UserRepository", to: factory, in: "beta"),
            bind("Database", to: "db-primary"),
            bind("Database", to: "db-secondary", in: .secondary),
            bind("Database", to: "db-beta", in: "beta"),
        ])
        let repository = try container.resolve((any UserRepository).self)
        #expect(repository.database?.label == "beta")
        if factory == "repo-resolving" {
            #expect(repository.label == "resolving@beta")
        }
    }
}
