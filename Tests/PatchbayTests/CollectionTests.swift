// Collections of bindings (multi-bindings): several bindings of one type,
// each with its own factory and lifetime, served together as `[T]` in
// manifest order, to `resolve`, to a factory's `[T]` parameter and to
// `@Injected`.
import Foundation
import Testing
@testable import Patchbay

/// A plugin: the collection's element type in these tests.
protocol Plugin: AnyObject, Sendable {
    var name: String { get }
}

/// A sink no factory provides and no factory needs a collection of.
protocol UnknownSink: Sendable {}

/// A plugin tagged with its factory's name and a serial number, so tests tell instances apart.
final class NamedPlugin: Plugin {
    let name: String
    let serial: Int
    init(_ name: String, serial: Int = 0) {
        self.name = name
        self.serial = serial
    }
}

/// Holds the plugins its factory was given.
final class PluginHost: Sendable {
    let plugins: [any Plugin]
    init(plugins: [any Plugin]) { self.plugins = plugins }
}

enum Plugins {
    struct Rate: Decodable, Sendable { var rate: Int }

    /// `audit-plugin`, `metrics-plugin` (takes a rate), `console-plugin`,
    /// `session-plugin`, `argument-plugin` (takes an argument) and `host`, which needs `[any Plugin]`.
    static func catalog(made: Counter = Counter()) -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("audit-plugin", provides: (any Plugin).self) { NamedPlugin("audit", serial: made.increment()) }
        catalog.register("metrics-plugin", provides: (any Plugin).self, parameters: Rate.self) { rate in
            NamedPlugin("metrics-\(rate.rate)", serial: made.increment())
        }
        catalog.register("console-plugin", provides: (any Plugin).self) { NamedPlugin("console", serial: made.increment()) }
        catalog.register("session-plugin", provides: (any Plugin).self) { NamedPlugin("session", serial: made.increment()) }
        catalog.register("argument-plugin", provides: (any Plugin).self, argument: String.self) { name in
            NamedPlugin(name)
        }
        catalog.register("host", provides: PluginHost.self) { (plugins: [any Plugin]) in PluginHost(plugins: plugins) }
        return catalog
    }
}

@Suite(.bothEngines) struct CollectionTests {
    // MARK: - The catalog side

    @Test func anArrayParameterIsACollectionNeedOfItsElement() throws {
        let definition = try #require(Plugins.catalog().definition(named: "host"))
        let need = try #require(definition.dependencies?.first)
        #expect(need.kind == .collection)
        #expect(need.key == TypeKey((any Plugin).self))
        // The description records the element type, kind "collection", and reads back the same.
        let described = try #require(Plugins.catalog().describe().factories.first { $0.name == "host" })
        #expect(described.needs == [CatalogDescription.Need(type: TypeKey.qualifiedName(of: (any Plugin).self), kind: "collection")])
        let index = CatalogIndex(try CatalogDescription(jsonData: Plugins.catalog().describe().jsonData()))
        let offset = try #require(index.factoryOffset(named: "host"))
        #expect(index.needs(offset)?.first?.kind == .collection)
    }

    @Test func anArrayTypeIsToldByItsName() {
        #expect(TypeKey([any Plugin].self).isArray)
        #expect(TypeKey([Int].self).isArray)
        #expect(!TypeKey(Int.self).isArray)
        #expect(!TypeKey(Set<Int>.self).isArray)
        #expect(!TypeKey([String: Int].self).isArray)
    }

    // MARK: - Zero elements

    @Test func aCollectionWithNoElementsIsEmptyAndNeverMissing() throws {
        let container = try makeContainer(Plugins.catalog(), [bind("PluginHost", to: "host")])
        #expect(container.warnings.isEmpty)
        #expect(try container.resolve(PluginHost.self).plugins.isEmpty)
        #expect(try container.resolve([any Plugin].self).isEmpty)
        #expect(try container.resolveIfBound([any Plugin].self)?.isEmpty == true)
    }

    @Test func anArrayOfATypeTheCatalogDoesNotKnowIsNotBound() throws {
        let container = try makeContainer(Plugins.catalog(), [])
        let error = #expect(throws: ResolutionError.self) { try container.resolve([any UnknownSink].self) }
        #expect(error?.reason == .notBound)
        #expect(try container.resolveIfBound([any UnknownSink].self) == nil)
    }

    // MARK: - The manifest form

    /// Three plugins, one of each kind of lifetime, and a host that needs them all.
    static let pluginsManifest = """
        {
          "format": 1,
          "bindings": [
            { "protocol": "PluginHost", "factory": "host" },
            { "collection": "Plugin", "factory": "audit-plugin", "lifetime": "singleton" },
            { "collection": "Plugin", "factory": "metrics-plugin", "parameters": { "rate": 5 } },
            { "collection": "Plugin", "factory": "console-plugin", "lifetime": "transient" }
          ]
        }
        """

    @Test func aCollectionKeyMakesAnElementInManifestOrder() throws {
        let manifest = try ManifestLoader(environment: [:]).load(data: Data(Self.pluginsManifest.utf8), file: "plugins.json")
        #expect(manifest.bindings.map(\.isCollectionElement) == [false, true, true, true])
        #expect(manifest.bindings.map(\.protocolName) == ["PluginHost", "Plugin", "Plugin", "Plugin"])
        #expect(manifest.bindings[1].factory == "audit-plugin" && manifest.bindings[1].lifetime == .singleton)
        let inCode = Binding(collection: "Plugin", factory: "audit-plugin", lifetime: .singleton)
        #expect(inCode.isCollectionElement && inCode.protocolName == "Plugin")
        #expect(!Binding(protocol: "Plugin", factory: "audit-plugin").isCollectionElement)
        #expect(manifest.bindings[2].displayKey == "[Plugin]")
    }

    @Test func aGoodCollectionManifestGetsOneVerdict() throws {
        let folder = try ManifestFolder(["plugins.json": Self.pluginsManifest])
        let (live, described) = try OneVerdictTests.bothChecks(of: [folder.file("plugins.json")], catalog: Plugins.catalog())
        #expect(live.diagnostics.isEmpty, "\(live.diagnostics)")
        #expect(described.diagnostics.isEmpty, "\(described.diagnostics)")
    }

    @Test func elementsAndTheSingleBindingOfATypeAreIndependent() throws {
        // A single binding of Plugin and a collection of Plugin in one injector: no duplicate-binding.
        let found = try diagnostics("""
            {
              "format": 1,
              "bindings": [
                { "protocol": "Plugin", "factory": "audit-plugin" },
                { "collection": "Plugin", "factory": "audit-plugin" },
                { "collection": "Plugin", "factory": "console-plugin" }
              ]
            }
            """, catalog: Plugins.catalog())
        #expect(found.isEmpty, "\(found)")
    }

    @Test func aSingleNeedIsNotServedByACollectionAndSaysSo() throws {
        var catalog = Plugins.catalog()
        catalog.register("single-host", provides: String.self) { (plugin: any Plugin) in plugin.name }
        let found = try diagnostics("""
            {
              "format": 1,
              "bindings": [
                { "protocol": "String", "factory": "single-host" },
                { "collection": "Plugin", "factory": "audit-plugin" }
              ]
            }
            """, catalog: catalog)
        #expect(found.map(\.code) == [.missingDependency])
        #expect(found.first?.message.contains("takes as [Plugin]") == true, "\(found)")
    }

    // MARK: - Resolving

    /// The manifest of `pluginsManifest` in code: audit singleton, metrics (rate 5) transient, console weak.
    static func mixedLifetimes() -> [Binding] {
        [
            bind("PluginHost", to: "host"),
            Binding(collection: "Plugin", factory: "audit-plugin", lifetime: .singleton),
            Binding(collection: "Plugin", factory: "metrics-plugin", lifetime: .transient, parameters: .object(["rate": .integer(5)])),
            Binding(collection: "Plugin", factory: "console-plugin", lifetime: .weak),
        ]
    }

    @Test func eachElementIsMadeAsItsOwnLifetimeSaysInManifestOrder() throws {
        let container = try makeContainer(Plugins.catalog(), Self.mixedLifetimes())
        let first = try container.resolve([any Plugin].self)
        let second = try container.resolve([any Plugin].self)
        #expect(first.map(\.name) == ["audit", "metrics-5", "console"])
        #expect(second.map(\.name) == ["audit", "metrics-5", "console"])
        #expect(first[0] === second[0], "a singleton element is the same object every time")
        #expect(first[1] !== second[1], "a transient element is new each time")
        #expect(first[2] === second[2], "a weak element is shared while someone holds it")
        #expect(try container.resolve([any Plugin].self)[2] === first[2], "still held by `first`")
    }

    @Test func aWeakElementIsMadeAgainOnceReleased() throws {
        let container = try makeContainer(Plugins.catalog(), Self.mixedLifetimes())
        weak var released: (any Plugin)?
        try { released = try container.resolve([any Plugin].self)[2] }()
        #expect(released == nil, "nothing holds the weak element: it is gone")
        let again = try container.resolve([any Plugin].self)[2] as! NamedPlugin
        #expect(again.name == "console")
    }

    @Test func aFactoryThatNeedsTheCollectionGetsItsElements() throws {
        let container = try makeContainer(Plugins.catalog(), Self.mixedLifetimes())
        let host = try container.resolve(PluginHost.self)
        #expect(host.plugins.map(\.name) == ["audit", "metrics-5", "console"])
        #expect(host.plugins[0] === (try container.resolve([any Plugin].self)[0]))
    }

    @Test func injectedReadsTheCollection() throws {
        let container = try makeContainer(Plugins.catalog(), Self.mixedLifetimes())
        final class Screen: @unchecked Sendable {
            @Injected var plugins: [any Plugin]
            init(_ container: Container) { _plugins = Injected(container: container) }
        }
        let screen = Screen(container)
        #expect(screen.plugins.map(\.name) == ["audit", "metrics-5", "console"])
        #expect(screen.plugins[1] === screen.plugins[1], "kept after the first read, as any @Injected")
    }

    @Test func aScopedElementIsTheScopesOwn() throws {
        let container = try makeContainer(Plugins.catalog(), [
            Binding(collection: "Plugin", factory: "audit-plugin"),
            Binding(collection: "Plugin", factory: "session-plugin", lifetime: .scoped),
        ])
        let scope = Scope()
        let inScope = try scope.resolve([any Plugin].self, from: container)
        #expect(try scope.resolve([any Plugin].self, from: container)[1] === inScope[1])
        #expect(try Scope().resolve([any Plugin].self, from: container)[1] !== inScope[1])
        let error = #expect(throws: ResolutionError.self) { try container.resolve([any Plugin].self) }
        #expect(error?.reason == .noActiveScope)
        #expect(error?.factory == "session-plugin")
    }

    @Test func aCollectionIsServedFromTheFirstInjectorThatHasElements() throws {
        let container = try makeContainer(Plugins.catalog(), injectors: ["primary", "secondary", "alpha", "beta"], [
            Binding(collection: "Plugin", factory: "audit-plugin", injector: "alpha"),
            Binding(collection: "Plugin", factory: "console-plugin", injector: "beta"),
            Binding(collection: "Plugin", factory: "session-plugin", injector: "beta"),
            bind("PluginHost", to: "host", in: "beta"),
            bind("PluginHost", to: "host", in: .secondary),
        ])
        // The asking injector's own elements, else the whole list of the first injector in order that has some.
        #expect(try container.resolve([any Plugin].self, from: "beta").map(\.name) == ["console", "session"])
        #expect(try container.resolve([any Plugin].self, from: "alpha").map(\.name) == ["audit"])
        #expect(try container.resolve([any Plugin].self).map(\.name) == ["audit"])
        #expect(try container.resolve([any Plugin].self, from: .secondary).map(\.name) == ["audit"])
        // A factory's need is served from the injector that served the factory.
        #expect(try container.resolve(PluginHost.self, from: "beta").plugins.map(\.name) == ["console", "session"])
        #expect(try container.resolve(PluginHost.self, from: .secondary).plugins.map(\.name) == ["audit"])
    }

    @Test func aChildManifestReplacesTheParentsWholeCollection() throws {
        let folder = try ManifestFolder([
            "base.json": """
                { "format": 1, "bindings": [
                  { "protocol": "PluginHost", "factory": "host" },
                  { "collection": "Plugin", "factory": "audit-plugin" },
                  { "collection": "Plugin", "factory": "console-plugin" },
                  { "collection": "Plugin", "factory": "session-plugin", "injector": "secondary" }
                ] }
                """,
            "production.json": """
                { "format": 1, "extends": "base.json", "bindings": [
                  { "collection": "Plugin", "factory": "metrics-plugin", "parameters": { "rate": 9 } }
                ] }
                """,
        ])
        let manifest = try ManifestLoader(environment: [:]).load(contentsOf: folder.file("production.json"))
        let container = try Container(catalog: Plugins.catalog(), manifest: manifest)
        // Not merged: the child's list is primary's collection; secondary's is the parent's, untouched.
        #expect(try container.resolve(PluginHost.self).plugins.map(\.name) == ["metrics-9"])
        #expect(try container.resolve([any Plugin].self, from: .secondary).map(\.name) == ["session"])
        let winners = ManifestValidator(catalog: Plugins.catalog()).run(manifest).winners.filter(\.isCollectionElement)
        #expect(winners.map(\.factory) == ["session-plugin", "metrics-plugin"])
        #expect(winners[1].overrides.map(\.factory) == ["audit-plugin", "console-plugin"])
    }

    @Test func aReleasedContainerLetsGoOfItsSingletonElements() throws {
        weak var singleton: (any Plugin)?
        try {
            let container = try makeContainer(Plugins.catalog(), Self.mixedLifetimes())
            singleton = try container.resolve([any Plugin].self)[0]
            #expect(singleton != nil)
        }()
        #expect(singleton == nil)
    }

    @Test func overridingTheCollectionReplacesItWhole() throws {
        let container = try makeContainer(Plugins.catalog(), Self.mixedLifetimes())
        let fake: [any Plugin] = [NamedPlugin("fake")]
        let names = try container.withOverrides({ $0.override([any Plugin].self, with: fake) }) {
            try container.resolve(PluginHost.self).plugins.map(\.name)
        }
        #expect(names == ["fake"])
        #expect(try container.resolve(PluginHost.self).plugins.count == 3)
    }
}

