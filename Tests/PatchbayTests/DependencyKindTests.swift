@testable import Patchbay
import Testing

/// The kinds of need a factory can declare: direct, optional (`T?`) and `Lazy<T>`.
struct DependencyKindTests {
    // MARK: - Optional

    private func optionalCatalog(databaseFails: Bool = false) -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("optional-repo", provides: (any UserRepository).self) { (db: (any Database)?) in
            FakeUserRepository(label: "optional", database: db)
        }
        catalog.register("db", provides: (any Database).self) { () throws -> any Database in
            if databaseFails { throw FixtureError(message: "no disk") }
            return FakeDatabase(label: "db")
        }
        return catalog
    }

    @Test func anOptionalDependencyIsNilWhenUnbound() throws {
        // No missing-dependency error for an optional need.
        let container = try makeContainer(optionalCatalog(), [bind("UserRepository", to: "optional-repo")])
        let repository = try container.resolve((any UserRepository).self)
        #expect(repository.database == nil)
    }

    @Test func anOptionalDependencyIsResolvedWhenBound() throws {
        let container = try makeContainer(optionalCatalog(), [
            bind("UserRepository", to: "optional-repo"), bind("Database", to: "db"),
        ])
        #expect(try container.resolve((any UserRepository).self).database?.label == "db")
    }

    @Test func anOptionalDependencyDoesNotHideAFailure() throws {
        let container = try makeContainer(optionalCatalog(databaseFails: true), [
            bind("UserRepository", to: "optional-repo"), bind("Database", to: "db"),
        ])
        let error = #expect(throws: ResolutionError.self) { try container.resolve((any UserRepository).self) }
        #expect(error?.reason == .factoryFailed)
        #expect(error?.factory == "db")
        #expect(error?.underlying as? FixtureError == FixtureError(message: "no disk"))
    }

    // MARK: - Lazy

    private func henCatalog(eggs: Counter) -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("lazy-hen", provides: (any Chicken).self) { (egg: Lazy<any Egg>) in LazyHen(egg: egg) }
        catalog.register("egg", provides: (any Egg).self) { (chicken: any Chicken) in
            eggs.increment()
            return ChickenEgg(chicken: chicken)
        }
        return catalog
    }

    @Test func lazyBreaksACycle() throws {
        let eggs = Counter()
        // Chicken needs Lazy<Egg>, Egg needs Chicken: activates.
        let container = try makeContainer(henCatalog(eggs: eggs), [
            bind("Chicken", to: "lazy-hen", .singleton), bind("Egg", to: "egg", .singleton),
        ])
        let chicken = try container.resolve((any Chicken).self)
        #expect(eggs.value == 0, "a Lazy is not resolved until it is used")

        let egg = try chicken.layEgg()
        #expect(egg.chicken === chicken, "the egg got the one singleton chicken")
        #expect(eggs.value == 1)
        #expect(try chicken.layEgg() === egg, "a Lazy keeps what it resolved")
        #expect(try container.resolve((any Egg).self) === egg)
        #expect(eggs.value == 1)
    }

    @Test func lazyWorksWithTransients() throws {
        let eggs = Counter()
        let container = try makeContainer(henCatalog(eggs: eggs), [
            bind("Chicken", to: "lazy-hen"), bind("Egg", to: "egg"),
        ])
        let chicken = try container.resolve((any Chicken).self)
        let egg = try chicken.layEgg()
        #expect(egg.chicken !== chicken, "transient: the egg's chicken is a new one")
        #expect(try egg.chicken.layEgg() !== egg)
        #expect(eggs.value == 2)
    }

    @Test func aLazyMadeByHand() throws {
        var catalog = FactoryCatalog()
        catalog.register("part", provides: (any Widget).self) { Part(tag: "primary") }
        catalog.register("other-part", provides: (any Widget).self) { Part(tag: "secondary") }
        let container = try makeContainer(catalog, [
            bind("Widget", to: "part"), bind("Widget", to: "other-part", in: .secondary),
        ])
        let lazy = Lazy((any Widget).self, container: container)
        let fromSecondary = Lazy((any Widget).self, container: container, from: .secondary)
        #expect(try lazy().tag == "primary")
        #expect(try lazy.get() === lazy.value)
        #expect(try fromSecondary.get().tag == "secondary")
    }

    @Test func aLazyDoesNotKeepItsContainerAlive() throws {
        var catalog = FactoryCatalog()
        catalog.register("part", provides: (any Widget).self) { Part() }
        weak var released: Container?
        let lazy: Lazy<any Widget>
        do {
            let container = try makeContainer(catalog, [bind("Widget", to: "part")])
            lazy = Lazy((any Widget).self, container: container)
            released = container
        }
        #expect(released == nil)
        let error = #expect(throws: ResolutionError.self) { try lazy.get() }
        #expect(error?.reason == .containerReleased)
    }
}
