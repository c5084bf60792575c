// A dependency cycle through a decorator (issue 55): reported at the link
// that closes it (its `decorators` entry, or the `decorate` entry that added
// it), drawn with the decorator named on its step, with a fix that works for
// a decorator; the same live and by the catalog's description; thrown by
// the engine as dependency-cycle. A cycle factories close alone keeps its
// message and place (CycleTests).
import Foundation
import Testing
@testable import Patchbay

@Suite struct DecoratorCycleTests {
    /// DecoratorTests' catalog, with a clock whose factory needs the store,
    /// and a decorator that takes its own type lazily.
    static func catalog() -> FactoryCatalog {
        var catalog = DecoratorTests.catalog()
        catalog.register("store-clock", provides: (any TagClock).self) { (_: any TaggedStore) in SomeClock() }
        catalog.registerDecorator("lazy-looping", decorates: (any TaggedStore).self) {
            (inner: any TaggedStore, _: Lazy<any TaggedStore>) in inner
        }
        return catalog
    }

    /// The errors of `json`, found by the live catalog and by its description.
    static func errors(_ json: String) throws -> (live: [Diagnostic], described: [Diagnostic]) {
        let description = try CatalogDescription(jsonData: catalog().describe().jsonData())
        return (DecoratorTests.errors(json, by: ManifestValidator(catalog: catalog())),
            DecoratorTests.errors(json, by: ManifestValidator(description: description)))
    }

    @Test func aDecoratorThatNeedsItsOwnTypeIsTheCycleAtItsEntry() throws {
        let json = DecoratorTests.manifest(#"["first", "looping"]"#)
        let (live, described) = try Self.errors(json)
        #expect(live == described, "the description's verdict is the catalog's")
        #expect(live.map(\.code) == [.dependencyCycle])
        let found = try #require(live.first)
        #expect(found.path == "/bindings/0/decorators/1")
        let place = position(of: #""looping""#, in: json)
        #expect("\(found.line):\(found.column)" == "\(place.line):\(place.column)", "\(found)")
        #expect(found.message == "dependency cycle: TaggedStore -> (decorator 'looping') -> TaggedStore; break it by "
            + "taking TaggedStore as Lazy<TaggedStore> or Provider<TaggedStore> in the closure of decorator 'looping', "
            + "or take decorator 'looping' out of the chain of TaggedStore", "\(found.message)")
        // And the app refuses it with the same code at the same place.
        let refusal = #expect(throws: ManifestError.self) { try DecoratorTests.container(json, catalog: Self.catalog()) }
        #expect(refusal?.diagnostics.errors.map { "\($0.line):\($0.column) \($0.code)" }
            == ["\(place.line):\(place.column) dependency-cycle"])
    }

    @Test func aDecoratorWhoseNeedNeedsTheDecoratedTypeIsTheCycleAtItsEntry() throws {
        let json = DecoratorTests.manifest(#"["timed"]"#, more: #",{ "protocol": "TagClock", "factory": "store-clock" }"#)
        let (live, described) = try Self.errors(json)
        #expect(live == described)
        #expect(live.map(\.code) == [.dependencyCycle])
        let found = try #require(live.first)
        #expect(found.path == "/bindings/0/decorators/0")
        #expect(found.message.hasPrefix("dependency cycle: TaggedStore -> (decorator 'timed') -> TagClock -> TaggedStore; "
            + "break it by taking TagClock as Lazy<TagClock> or Provider<TagClock> in the closure of decorator 'timed', "
            + "or take decorator 'timed' out of the chain of TaggedStore"), "\(found.message)")
        #expect(found.dependencyPath == ["TaggedStore", "TagClock", "TaggedStore"])
    }

    @Test func aCycleThroughALinkAddedByDecorateIsReportedAtTheEntryThatAddedIt() throws {
        let base = #"{ "format": 1, "bindings": [{ "protocol": "TaggedStore", "factory": "base-store" }] }"#
        let text = DecorateCheckTests.staging(#"[{ "protocol": "TaggedStore", "add": ["first", "looping"] }]"#)
        let description = try Self.catalog().describe().jsonData()
        let folder = try ManifestFolder([
            "base.json": base, "staging.json": text, "catalog.json": String(decoding: description, as: UTF8.self),
        ])
        let (manifest, read) = ManifestLoader(environment: [:]).loadCollecting(
            contentsOf: folder.file("staging.json"), displayPath: "staging.json")
        let loaded = try #require(manifest, "\(read)")
        let live = ManifestValidator(catalog: Self.catalog()).validate(loaded).errors
        let described = ManifestValidator(description: try CatalogDescription(jsonData: description)).validate(loaded).errors
        #expect(live == described)
        #expect(live.map(\.code) == [.dependencyCycle])
        let found = try #require(live.first)
        let place = position(of: #""looping""#, in: text)
        #expect("\(found.file) \(found.line):\(found.column) \(found.path)"
            == "staging.json \(place.line):\(place.column) /decorate/0/add/1", "\(found)")
        #expect(found.message.contains("TaggedStore -> (decorator 'looping') -> TaggedStore"), "\(found.message)")
    }

    @Test func aLazyNeedOfTheDecoratedTypeIsNoCycle() throws {
        let json = DecoratorTests.manifest(#"["lazy-looping", "first"]"#)
        let (live, described) = try Self.errors(json)
        #expect(live.isEmpty && described.isEmpty, "\(live) \(described)")
        #expect(try DecoratorTests.container(json, catalog: Self.catalog()).resolve((any TaggedStore).self).tags
            == ["base", "first"])
    }

    @Test func aCycleFactoriesCloseKeepsItsMessageAndPlaceBesideADecoratorsNeed() throws {
        // The store's factory and the clock's need each other; `timed`'s need of the clock is on the same loop.
        var catalog = Self.catalog()
        catalog.register("clock-store", provides: (any TaggedStore).self) { (_: any TagClock) in BaseStore() }
        let json = DecoratorTests.manifest(#"["timed"]"#, more: #",{ "protocol": "TagClock", "factory": "store-clock" }"#)
            .replacingOccurrences(of: "base-store", with: "clock-store")
        let description = try CatalogDescription(jsonData: catalog.describe().jsonData())
        for validator in [ManifestValidator(catalog: catalog), ManifestValidator(description: description)] {
            let found = DecoratorTests.errors(json, by: validator)
            #expect(found.map(\.code) == [.dependencyCycle])
            #expect(found.first?.path == "/bindings/0/factory")
            #expect(found.first?.message == "dependency cycle: TaggedStore -> TagClock -> TaggedStore; break it by taking "
                + "one of these as Lazy<...> in its factory, or bind a factory that does not need the next")
        }
    }

    /// A loop through the links of two chains, which the check cannot see
    /// (a Lazy read while the chain is made): the engine draws each link on
    /// it and its fix names every one, in the order of the loop (it named
    /// the first only, so the second link's closure went unmentioned).
    @Test func theEngineNamesEveryDecoratorOnTheLoop() async throws {
        var catalog = Self.catalog()
        catalog.registerDecorator("clock-looping", decorates: (any TagClock).self) {
            (inner: any TagClock, store: Lazy<any TaggedStore>) in
            _ = try store.get()
            return inner
        }
        var store = bind("TaggedStore", to: "base-store")
        store.decorators = [Binding.Decorator("first"), Binding.Decorator("timed")]
        var clock = bind("TagClock", to: "some-clock")
        clock.decorators = [Binding.Decorator("clock-looping")]
        let container = try makeContainer(catalog, [store, clock])
        let expected = "dependency cycle TaggedStore -> (decorator 'timed') -> TagClock -> (decorator 'clock-looping') -> "
            + "TaggedStore. Break it by taking one of these as Lazy<...> in its factory, or in the closure of decorator "
            + "'timed' in the chain of TaggedStore or of decorator 'clock-looping' in the chain of TagClock, or take one "
            + "of them out of its chain."
        let error = try #require(throws: ResolutionError.self) { try container.resolve((any TaggedStore).self) }
        #expect(error.reason == .dependencyCycle)
        #expect("\(error)".hasSuffix(expected), "\(error)")
        // Awaited, the same loop and fix.
        let awaited = try await #require(throws: ResolutionError.self) { try await container.resolve(awaiting: (any TaggedStore).self) }
        #expect("\(awaited)".hasSuffix(expected), "\(awaited)")
    }

    /// The same loop through the links of two chains, taken now (not
    /// lazily), so the check sees it: drawn with each link and fixed naming
    /// every one, as the engine draws and fixes its twin above (the check
    /// drew the first link only, `TaggedStore -> (decorator 'timed') ->
    /// TagClock -> TaggedStore`, and its fix named 'timed' alone), reported
    /// at the first link's entry.
    @Test func theCheckNamesEveryDecoratorOnTheLoopAsTheEngineDoes() throws {
        var catalog = Self.catalog()
        catalog.registerDecorator("clock-looping", decorates: (any TagClock).self) {
            (inner: any TagClock, _: any TaggedStore) in inner
        }
        let json = DecoratorTests.manifest(#"["first", "timed"]"#, more: #"""
            ,{ "protocol": "TagClock", "factory": "some-clock", "decorators": ["clock-looping"] }
            """#)
        let drawn = "TaggedStore -> (decorator 'timed') -> TagClock -> (decorator 'clock-looping') -> TaggedStore"
        let fix = "break it by taking one of these as Lazy<...> in its factory, or in the closure of decorator 'timed' in "
            + "the chain of TaggedStore or of decorator 'clock-looping' in the chain of TagClock, or take one of them out "
            + "of its chain"
        let description = try CatalogDescription(jsonData: catalog.describe().jsonData())
        let place = position(of: #""timed""#, in: json)
        for validator in [ManifestValidator(catalog: catalog), ManifestValidator(description: description)] {
            let found = DecoratorTests.errors(json, by: validator)
            #expect(found.map(\.code) == [.dependencyCycle])
            let cycle = try #require(found.first)
            #expect(cycle.message == "dependency cycle: " + drawn + "; " + fix, "\(cycle.message)")
            #expect("\(cycle.path) \(cycle.line):\(cycle.column)" == "/bindings/0/decorators/1 \(place.line):\(place.column)")
            #expect(cycle.dependencyPath == ["TaggedStore", "TagClock", "TaggedStore"])
        }
        // The engine's twin (a Lazy read, which the check does not follow) says the same loop and fix.
        var lazyCatalog = Self.catalog()
        lazyCatalog.registerDecorator("clock-looping", decorates: (any TagClock).self) {
            (inner: any TagClock, store: Lazy<any TaggedStore>) in
            _ = try store.get()
            return inner
        }
        let container = try DecoratorTests.container(json, catalog: lazyCatalog)
        let error = try #require(throws: ResolutionError.self) { try container.resolve((any TaggedStore).self) }
        #expect("\(error)".hasSuffix("dependency cycle " + drawn + ". B" + fix.dropFirst() + "."), "\(error)")
    }

    @Test func theEngineThrowsTheCycleNamingTheDecorator() async throws {
        // A Lazy read while the chain is made: the check does not follow it, the engine must refuse it.
        var catalog = Self.catalog()
        catalog.registerDecorator("eager-looping", decorates: (any TaggedStore).self) {
            (inner: any TaggedStore, me: Lazy<any TaggedStore>) in
            _ = try me.get()
            return inner
        }
        var binding = bind("TaggedStore", to: "base-store")
        binding.decorators = [Binding.Decorator("eager-looping")]
        let container = try makeContainer(catalog, [binding])
        let error = try #require(throws: ResolutionError.self) { try container.resolve((any TaggedStore).self) }
        #expect(error.reason == .dependencyCycle)
        #expect("\(error)".contains("dependency cycle TaggedStore -> (decorator 'eager-looping') -> TaggedStore. Break it "
            + "by taking one of these as Lazy<...> in its factory, or in the closure of decorator 'eager-looping' in the "
            + "chain of TaggedStore, or take it out of the chain."), "\(error)")
        // Awaited, the same loop and fix.
        let awaited = try await #require(throws: ResolutionError.self) { try await container.resolve(awaiting: (any TaggedStore).self) }
        #expect("\(awaited)".contains("TaggedStore -> (decorator 'eager-looping') -> TaggedStore"), "\(awaited)")
    }
}
