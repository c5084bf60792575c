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
}

