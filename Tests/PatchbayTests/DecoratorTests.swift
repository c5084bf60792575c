// Decorators (issue 55, first slice), the engine's side: a chain named by the
// manifest wraps the factory's product in the order written, lives as long
// as the binding in every lifetime, takes its parameters and needs as a
// factory does, and runs on the main actor when a link must. The check's
// side (every code at its place, live and offline) is DecoratorCheckTests.swift.
import Foundation
import Testing
@testable import Patchbay

/// What the tests decorate: each layer adds its tag to what it wraps.
protocol TaggedStore: Sendable {
    var tags: [String] { get }
}

/// Another type, which no decorator of `TaggedStore` decorates.
protocol TagClock: Sendable {}

struct BaseStore: TaggedStore {
    let tags = ["base"]
}

final class Layer: TaggedStore {
    let inner: any TaggedStore
    let tag: String
    init(_ inner: any TaggedStore, _ tag: String) { (self.inner, self.tag) = (inner, tag) }
    var tags: [String] { inner.tags + [tag] }
}

struct SomeClock: TagClock {}

struct TagOptions: Decodable, Sendable {
    var tag: String
}

struct DecoratorFailure: Error {}

@Suite struct DecoratorTests {
    /// A catalog with a store, a clock, and decorators of each kind; `made`
    /// counts the runs of the `counted` decorator.
    static func catalog(counting made: Counter = Counter()) -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("base-store", provides: (any TaggedStore).self) { BaseStore() }
        catalog.register("some-clock", provides: (any TagClock).self) { SomeClock() }
        catalog.register("plugin-store", provides: (any TaggedStore).self) { BaseStore() }
        catalog.registerDecorator("first", decorates: (any TaggedStore).self) { (inner: any TaggedStore) in
            Layer(inner, "first")
        }
        catalog.registerDecorator("second", decorates: (any TaggedStore).self) { (inner: any TaggedStore) in
            Layer(inner, "second")
        }
        catalog.registerDecorator("counted", decorates: (any TaggedStore).self) { (inner: any TaggedStore) in
            made.increment()
            return Layer(inner, "counted")
        }
        catalog.registerDecorator("timed", decorates: (any TaggedStore).self) {
            (inner: any TaggedStore, _: any TagClock) in Layer(inner, "timed")
        }
        catalog.registerDecorator("tagging", decorates: (any TaggedStore).self, parameters: TagOptions.self) {
            (inner: any TaggedStore, options: TagOptions) in Layer(inner, options.tag)
        }
        catalog.registerDecorator("recording", decorates: (any TaggedStore).self, environments: .only(["test"])) {
            (inner: any TaggedStore) in Layer(inner, "recording")
        }
        catalog.registerDecorator("looping", decorates: (any TaggedStore).self) {
            (inner: any TaggedStore, _: any TaggedStore) in inner
        }
        catalog.registerDecorator("failing", decorates: (any TaggedStore).self) {
            (_: any TaggedStore) throws -> any TaggedStore in throw DecoratorFailure()
        }
        catalog.registerDecorator("clock-wrapper", decorates: (any TagClock).self) { (inner: any TagClock) in inner }
        return catalog
    }

    /// A manifest of one `TaggedStore` binding with `decorators` (JSON), and `more` bindings after it.
    static func manifest(
        _ decorators: String, lifetime: String = "transient", environment: String = "production", more: String = ""
    ) -> String {
        """
        {
          "format": 1,
          "environment": "\(environment)",
          "bindings": [
            { "protocol": "TaggedStore", "factory": "base-store", "lifetime": "\(lifetime)",
              "decorators": \(decorators) }\(more)
          ]
        }
        """
    }

    static func container(_ json: String, catalog: FactoryCatalog = catalog()) throws -> Container {
        try Container(catalog: catalog, manifest: ManifestLoader(environment: [:]).load(data: Data(json.utf8)))
    }

    /// The errors of reading `json`, or else of validating it.
    static func errors(_ json: String, by validator: ManifestValidator) -> [Diagnostic] {
        do {
            return validator.validate(try ManifestLoader(environment: [:]).load(data: Data(json.utf8))).errors
        } catch {
            return error.diagnostics.errors
        }
    }

    // MARK: - The engine

    @Test func theChainWrapsInTheOrderWritten() throws {
        let container = try Self.container(Self.manifest(#"["first", "second"]"#))
        #expect(try container.resolve((any TaggedStore).self).tags == ["base", "first", "second"])
        let reversed = try Self.container(Self.manifest(#"["second", "first"]"#))
        #expect(try reversed.resolve((any TaggedStore).self).tags == ["base", "second", "first"])
    }

    @Test func anUndecoratedBindingIsTheProduct() throws {
        let container = try Self.container(Self.manifest("[]"))
        #expect(try container.resolve((any TaggedStore).self).tags == ["base"])
    }

    @Test func aSingletonChainIsMadeOnce() throws {
        let made = Counter()
        let container = try Self.container(
            Self.manifest(#"["first", "counted"]"#, lifetime: "singleton"), catalog: Self.catalog(counting: made))
        let first = try container.resolve((any TaggedStore).self)
        let second = try container.resolve((any TaggedStore).self)
        #expect(made.value == 1)
        let same = ObjectIdentifier(first as AnyObject) == ObjectIdentifier(second as AnyObject)
        #expect(same)
        #expect(first.tags == ["base", "first", "counted"])
    }

    @Test func aResetSingletonsChainIsMadeAgain() throws {
        let made = Counter()
        let container = try Self.container(
            Self.manifest(#"["counted"]"#, lifetime: "singleton"), catalog: Self.catalog(counting: made))
        _ = try container.resolve((any TaggedStore).self)
        container.reset(.singleton)
        #expect(try container.resolve((any TaggedStore).self).tags == ["base", "counted"])
        container.reset((any TaggedStore).self)
        _ = try container.resolve((any TaggedStore).self)
        #expect(made.value == 3)
    }

    @Test func aTransientChainIsMadeAtEachRequest() throws {
        let made = Counter()
        let container = try Self.container(
            Self.manifest(#"["counted"]"#, lifetime: "transient"), catalog: Self.catalog(counting: made))
        let first = try container.resolve((any TaggedStore).self)
        let second = try container.resolve((any TaggedStore).self)
        #expect(made.value == 2)
        let same = ObjectIdentifier(first as AnyObject) == ObjectIdentifier(second as AnyObject)
        #expect(!same)
    }

    @Test func aDecoratorTakesItsParametersAndNeeds() throws {
        let container = try Self.container(Self.manifest(
            #"[{ "decorator": "tagging", "parameters": { "tag": "cached" } }, "timed"]"#,
            more: #",{ "protocol": "TagClock", "factory": "some-clock" }"#))
        #expect(try container.resolve((any TaggedStore).self).tags == ["base", "cached", "timed"])
    }

    /// Every lifetime with chains of 0 to 3 links: the validator accepts each,
    /// live and offline, and the engine serves the links in the order written,
    /// made as often as the lifetime makes the product (twice per two requests
    /// for transient and graph, each a resolution of its own; once for the others).
    @Test(arguments: Lifetime.allCases, 0...3)
    func everyLifetimeKeepsItsChain(_ lifetime: Lifetime, length: Int) throws {
        // A weak instance must be a class: the base store is a struct, its decorators are not.
        guard lifetime != .weak || length > 0 else { return }
        let chain = Array(["first", "second", "counted"].suffix(length))
        let made = Counter()
        let catalog = Self.catalog(counting: made)
        let json = Self.manifest("[" + chain.map { "\"\($0)\"" }.joined(separator: ", ") + "]", lifetime: lifetime.rawValue)
        let manifest = try ManifestLoader(environment: [:]).load(data: Data(json.utf8))
        #expect(ManifestValidator(catalog: catalog).validate(manifest).errors.isEmpty)
        #expect(ManifestValidator(description: catalog.describe()).validate(manifest).errors.isEmpty)
        let container = try Container(catalog: catalog, manifest: manifest)
        let (first, second) = try Scope().run {
            (try container.resolve((any TaggedStore).self), try container.resolve((any TaggedStore).self))
        }
        #expect(first.tags == ["base"] + chain)
        #expect(second.tags == ["base"] + chain)
        if chain.contains("counted") { #expect(made.value == ([.transient, .graph].contains(lifetime) ? 2 : 1)) }
    }

    @Test func aMainActorFactorysProductIsDecoratedOnTheMainActor() async throws {
        var catalog = Self.catalog()
        catalog.register("main-store", provides: (any TaggedStore).self, on: MainActor.self) { BaseStore() }
        let json = Self.manifest(#"["first", "second"]"#).replacingOccurrences(of: "base-store", with: "main-store")
        let container = try Self.container(json, catalog: catalog)
        #expect(try await container.resolve(awaiting: (any TaggedStore).self).tags == ["base", "first", "second"])
    }

    /// The catalog with a main-actor decorator, and a nonisolated factory that needs the decorated type.
    static func catalogWithAMainActorDecorator() -> FactoryCatalog {
        var catalog = Self.catalog()
        catalog.registerDecorator("on-main", decorates: (any TaggedStore).self, on: MainActor.self) {
            (inner: any TaggedStore) in
            MainActor.assertIsolated()
            return Layer(inner, "on-main")
        }
        catalog.registerDecorator("tag-on-main", decorates: (any TaggedStore).self, parameters: TagOptions.self,
                                  on: MainActor.self) { (inner: any TaggedStore, options: TagOptions) in
            MainActor.assertIsolated()
            return Layer(inner, options.tag)
        }
        catalog.register("store-clock", provides: (any TagClock).self) { (_: any TaggedStore) in SomeClock() }
        return catalog
    }

    @Test func aMainActorLinkMakesTheChainOnTheMainActor() async throws {
        let container = try Self.container(
            Self.manifest(#"["first", "on-main", { "decorator": "tag-on-main", "parameters": { "tag": "p" } }, "second"]"#),
            catalog: Self.catalogWithAMainActorDecorator())
        #expect(try await container.resolve(awaiting: (any TaggedStore).self).tags
            == ["base", "first", "on-main", "p", "second"])
        // A synchronous resolve off the main actor cannot run the link: it throws, as for a main-actor factory.
        let reason = await Task.detached {
            do {
                _ = try container.resolve((any TaggedStore).self)
                return nil as ResolutionError.Reason?
            } catch {
                return (error as? ResolutionError)?.reason
            }
        }.value
        #expect(reason == .needsMainActor)
    }

    @Test func aNonisolatedFactoryCannotNeedAChainWithAMainActorLink() throws {
        let catalog = Self.catalogWithAMainActorDecorator()
        let json = Self.manifest(#"["on-main"]"#, more: #",{ "protocol": "TagClock", "factory": "store-clock" }"#)
        let description = try CatalogDescription(jsonData: catalog.describe().jsonData())
        for validator in [ManifestValidator(catalog: catalog), ManifestValidator(description: description)] {
            let errors = Self.errors(json, by: validator)
            #expect(errors.map(\.code) == [.needsMainActor])
            #expect(errors.map { "\($0.line):\($0.column)" } == ["6:72"])
            #expect(errors.first?.message.contains("its decorator 'on-main'") == true, "\(errors)")
        }
    }

    /// A weak binding keeps what its chain's last link makes: a class
    /// factory wrapped by a value-making decorator is judged by the
    /// decorator (a note: its type is a protocol), and refused when the
    /// value is made, naming the decorator; a value factory wrapped by a
    /// class-making one is kept weakly, not refused for the factory's product.
    @Test func aWeakBindingIsJudgedByTheLastLink() throws {
        var catalog = Self.catalog()
        catalog.register("class-store", product: Layer.self, provides: (any TaggedStore).self) { Layer(BaseStore(), "class") }
        catalog.registerDecorator("value-layer", decorates: (any TaggedStore).self) { (inner: any TaggedStore) in
            BaseStore()
        }
        let valueOutside = Self.manifest(#"["value-layer"]"#, lifetime: "weak")
            .replacingOccurrences(of: "base-store", with: "class-store")
        let check = ManifestValidator(catalog: catalog).validate(
            try ManifestLoader(environment: [:]).load(data: Data(valueOutside.utf8)))
        #expect(check.errors.isEmpty)
        let note = check.first { $0.code == .weakUnchecked }
        #expect(note?.message.contains("decorator 'value-layer', the last of its chain") == true)
        let container = try Self.container(valueOutside, catalog: catalog)
        #expect {
            _ = try container.resolve((any TaggedStore).self)
        } throws: { error in
            "\(error)".contains("not a class instance") && "\(error)".contains("'value-layer'")
        }
        // A value factory, a class outside: kept weakly while held.
        let classOutside = try Self.container(Self.manifest(#"["first"]"#, lifetime: "weak"), catalog: catalog)
        let held = try classOutside.resolve((any TaggedStore).self)
        #expect(ObjectIdentifier(held as AnyObject) == ObjectIdentifier(try classOutside.resolve((any TaggedStore).self) as AnyObject))
    }

    @Test func aDecoratorsFailureNamesIt() throws {
        let container = try Self.container(Self.manifest(#"["first", "failing"]"#))
        let error = try #require(throws: ResolutionError.self) { try container.resolve((any TaggedStore).self) }
        #expect(error.reason == .factoryFailed)
        #expect(error.factory == "failing")
        #expect(error.underlying is DecoratorFailure)
        // Named as what it is, a decorator of the binding's chain.
        #expect(error.description.contains("decorator 'failing' in the chain of TaggedStore threw"))
        #expect(!error.description.contains("factory 'failing'"))
    }

    @Test func aDecoratedBindingStillServesItsDependents() throws {
        // A decorated binding of another injector falls back as any binding does.
        let container = try Self.container(Self.manifest(#"["first"]"#, lifetime: "singleton"))
        #expect(try container.resolve((any TaggedStore).self, from: "secondary").tags == ["base", "first"])
    }
}
