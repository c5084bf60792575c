// Collections of bindings (multi-bindings): several bindings of one type,
// each with its own factory and lifetime, served together as `[T]` in
// manifest order, to `resolve`, to a factory's `[T]` parameter and to
// `@Injected`.
import Foundation
import Testing
@testable import Patchbay
@testable import PatchbayTools

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

struct CollectionTests {
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
        // The plugins' catalog declares no entry points: check's one warning about that, and nothing else.
        #expect(live.diagnostics.map(\.code) == [.noEntryPoints], "\(live.diagnostics)")
        #expect(described.diagnostics.map(\.code) == [.noEntryPoints], "\(described.diagnostics)")
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

    @Test func aFactoryUsedOnlyAsAnElementIsNotUnused() throws {
        let folder = try ManifestFolder(["plugins.json": Self.pluginsManifest])
        let unused = try ManifestChecker(catalog: Plugins.catalog()).check([folder.url]).diagnostics
            .filter { $0.code == .unusedFactory }.map(\.message)
        #expect(unused.count == 2, "\(unused)")
        #expect(unused.contains { $0.hasPrefix("factory 'session-plugin' ") })
        #expect(unused.contains { $0.hasPrefix("factory 'argument-plugin' ") })
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

    @Test func anElementSharesItsInstanceWithTheTypesBindingOfTheSameFactory() throws {
        let container = try makeContainer(Plugins.catalog(), [
            bind("Plugin", to: "audit-plugin", .singleton),
            Binding(collection: "Plugin", factory: "audit-plugin", lifetime: .singleton),
            Binding(collection: "Plugin", factory: "console-plugin", lifetime: .singleton),
        ])
        let single = try container.resolve((any Plugin).self)
        let elements = try container.resolve([any Plugin].self)
        #expect(elements[0] === single, "one factory, lifetime, injector and parameters: one instance")
        #expect(elements[1] !== single)
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
        let winners = ManifestValidator(catalog: Plugins.catalog()).dependencyVerdicts(manifest).bindings
            .filter(\.isCollectionElement)
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

    // MARK: - Made by the engine

    @Test func aCollectionOfMixedLifetimesMakesEachElementAsItsLifetimeSays() throws {
        let container = try makeContainer(Plugins.catalog(), Self.mixedLifetimes())
        let first = try container.resolve([any Plugin].self)
        let second = try container.resolve([any Plugin].self)
        #expect(first.map(\.name) == ["audit", "metrics-5", "console"])
        #expect(first[0] === second[0] && first[1] !== second[1] && first[2] === second[2])
    }

    @Test func anElementOfASeveralTypesFactoryIsMadeAsAnyOther() throws {
        var catalog = Plugins.catalog()
        catalog.register("several", product: NamedPlugin.self, provides: (any Plugin).self, NamedPlugin.self) {
            NamedPlugin("several")
        }
        let container = try makeContainer(catalog, [
            Binding(collection: "Plugin", factory: "several"), Binding(collection: "Plugin", factory: "console-plugin"),
        ])
        #expect(try container.resolve([any Plugin].self).map(\.name) == ["several", "console"])
    }

    @Test func anElementThatFailsNamesItsPathAndTheElementsMadeBeforeItAreLetGo() throws {
        final class TrackedPlugin: Plugin {
            let name = "tracked"
            let released: Counter
            init(released: Counter) { self.released = released }
            deinit { released.increment() }
        }
        let made = Counter()
        let released = Counter()
        var catalog = Plugins.catalog()
        catalog.register("tracked-plugin", provides: (any Plugin).self) { () -> any Plugin in
            made.increment()
            return TrackedPlugin(released: released)
        }
        catalog.register("failing-plugin", provides: (any Plugin).self) { () throws -> any Plugin in
            throw FixtureError(message: "no plugin")
        }
        let container = try makeContainer(catalog, [
            Binding(collection: "Plugin", factory: "tracked-plugin"), Binding(collection: "Plugin", factory: "failing-plugin"),
        ])
        let error = try #require(throws: ResolutionError.self) { try container.resolve([any Plugin].self) }
        #expect(error.reason == .factoryFailed)
        #expect(error.factory == "failing-plugin")
        #expect(error.dependencyPath == ["Array<Plugin>", "Plugin"])
        #expect(error.underlying as? FixtureError == FixtureError(message: "no plugin"))
        #expect(made.value == 1 && released.value == 1, "the first element was made and let go")
    }

    @Test func anElementThatResolvesItsOwnCollectionIsACycle() throws {
        let holder = Box<Container>()
        let calls = Counter()
        var catalog = Plugins.catalog()
        catalog.register("looping-plugin", provides: (any Plugin).self) { () throws -> any Plugin in
            calls.increment()
            _ = try holder.value!.resolve([any Plugin].self)
            return NamedPlugin("looping")
        }
        let container = try makeContainer(catalog, [
            Binding(collection: "Plugin", factory: "audit-plugin", lifetime: .singleton),
            Binding(collection: "Plugin", factory: "looping-plugin"),
        ])
        holder.value = container
        let error = try #require(throws: ResolutionError.self) { try container.resolve([any Plugin].self) }
        #expect(error.reason == .dependencyCycle)
        #expect(error.dependencyPath == ["Array<Plugin>", "Plugin", "Array<Plugin>"])
        #expect(calls.value == 1, "found on the first loop")
    }
    // MARK: - explain, graph and schema

    /// Three plugins in primary, one in secondary, and a host that needs them.
    static let toolsManifest = """
        {
          "format": 1,
          "bindings": [
            { "protocol": "PluginHost", "factory": "host", "lifetime": "singleton" },
            { "collection": "Plugin", "factory": "audit-plugin", "lifetime": "singleton" },
            { "collection": "Plugin", "factory": "metrics-plugin", "parameters": { "rate": 5 } },
            { "collection": "Plugin", "factory": "console-plugin", "lifetime": "transient" },
            { "collection": "Plugin", "factory": "session-plugin", "injector": "secondary" }
          ]
        }
        """

    static func loadedToolsManifest(_ text: String = toolsManifest) throws -> Manifest {
        let folder = try ManifestFolder(["plugins.json": text])
        let (manifest, diagnostics) = ManifestLoader(environment: [:])
            .loadCollecting(contentsOf: folder.file("plugins.json"), displayPath: "plugins.json")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        return try #require(manifest)
    }

    @Test func explainShowsTheCollectionAndEachElement() throws {
        let explainer = ManifestExplainer(manifest: try Self.loadedToolsManifest(), catalog: Plugins.catalog().describe())
        let collection = explainer.explain("[Plugin]")
        Golden.expectMatches(collection.text(), "explain-collection-Plugin.txt")
        #expect(collection.isBound)
        #expect(collection.collection?.servedBy == .primary)
        #expect(collection.collection?.elements.map(\.served.factory) == ["audit-plugin", "metrics-plugin", "console-plugin"])
        #expect(collection.collection?.shadows.map(\.factory) == ["session-plugin"])
        // `Plugin` has no single binding: its collection is what it shows.
        #expect(explainer.explain("Plugin").text() == collection.text().replacingOccurrences(of: "from primary", with: "from primary"))
        // From secondary, its own element wins the whole collection.
        let secondary = explainer.explain("[Plugin]", from: .secondary)
        #expect(secondary.collection?.elements.map(\.served.factory) == ["session-plugin"])
        // A factory's [Plugin] need is a node whose children are the elements.
        let host = explainer.explain("PluginHost")
        Golden.expectMatches(host.text(), "explain-collection-PluginHost.txt")
        let need = try #require(host.resolution?.needs.nodes?.first)
        #expect(need.kind == .collection && need.served == nil)
        #expect(need.children.map { $0.served?.factory } == ["audit-plugin", "metrics-plugin", "console-plugin"])
    }

    @Test func explainSaysAnEmptyCollectionIsEmpty() throws {
        let explainer = ManifestExplainer(
            manifest: try Self.loadedToolsManifest(#"{ "format": 1, "bindings": [ { "protocol": "PluginHost", "factory": "host" } ] }"#),
            catalog: Plugins.catalog().describe())
        let empty = explainer.explain("[Plugin]")
        #expect(!empty.isBound)
        #expect(empty.text().contains("[Plugin] has no elements in plugins.json"))
        #expect(empty.text().contains("resolves to:  [] (a collection is zero or more elements)"))
        #expect(empty.text().contains(#"to add one:   { "collection": "Plugin", "factory": "argument-plugin" }"#))
        #expect(explainer.explain("PluginHost").text().contains("[Plugin]  <- no elements: resolves to [] (searched primary, secondary)"))
    }

    @Test func aSingleBindingBesideACollectionPointsToIt() throws {
        let text = Self.toolsManifest.replacingOccurrences(
            of: #"{ "protocol": "PluginHost""#, with: #"{ "protocol": "Plugin", "factory": "console-plugin" },\#n    { "protocol": "PluginHost""#)
        let explanation = ManifestExplainer(manifest: try Self.loadedToolsManifest(text), catalog: Plugins.catalog().describe())
            .explain("Plugin")
        #expect(explanation.resolution?.served.factory == "console-plugin")
        #expect(explanation.text().contains("collection:   also [Plugin], 3 elements from primary: explain '[Plugin]'"))
    }

    @Test func graphDrawsAnEdgeToEachElement() throws {
        let graph = DependencyGraph(manifest: try Self.loadedToolsManifest(), catalog: Plugins.catalog().describe())
        Golden.expectMatches(graph.mermaid(), "graph-collection.mmd")
        let primary = try #require(graph.injectors.first { $0.name == .primary })
        #expect(primary.nodes.map(\.type) == ["[Plugin]", "[Plugin]", "[Plugin]", "PluginHost"], "sorted by type")
        let host = try #require(primary.nodes.first { $0.type == "PluginHost" })
        let elements = primary.nodes.filter { $0.type == "[Plugin]" }
        #expect(elements.map(\.factory) == ["audit-plugin", "metrics-plugin", "console-plugin"])
        #expect(graph.edges == elements.map { DependencyGraph.Edge(from: host.id, to: $0.id, kind: .collection) })
        #expect(graph.dot().contains("\(host.id) -> \(elements[0].id) [label=\"element\"];"))
        #expect(graph.unbound.isEmpty)
    }

    @Test func theSchemaTakesCollectionInsteadOfProtocol() throws {
        let element: JSONValue = .object(["collection": .string("Plugin"), "factory": .string("audit-plugin")])
        func manifest(_ binding: JSONValue) -> JSONValue {
            .object(["format": .integer(1), "bindings": .array([binding])])
        }
        let plain = JSONSchemaChecker(ManifestSchema.schema())
        let described = JSONSchemaChecker(ManifestSchema.schema(catalog: Plugins.catalog().describe()))
        for checker in [plain, described] {
            #expect(try checker.accepts(manifest(element)))
            #expect(try !checker.accepts(manifest(.object(["factory": .string("audit-plugin")]))), "neither key")
            #expect(try !checker.accepts(manifest(.object([
                "protocol": .string("Plugin"), "collection": .string("Plugin"), "factory": .string("audit-plugin"),
            ]))), "both keys")
        }
        #expect(try !described.accepts(manifest(.object(["collection": .string("Plugin"), "factory": .string("host")]))),
            "a factory that does not provide the element type")
        #expect(try !described.accepts(manifest(.object(["collection": .string("Plugn"), "factory": .string("audit-plugin")]))))
    }

    // MARK: - A collection taken lazily or as an optional

    @Test func aLazyOrOptionalCollectionIsACollectionNeedNotAMissingOne() throws {
        var catalog = Plugins.catalog()
        catalog.register("lazy-host", provides: (any Gadget).self) { (plugins: Lazy<[any Plugin]>) in
            Part(tag: plugins.value.map(\.name).joined(separator: ","))
        }
        catalog.register("optional-host", provides: (any Widget).self) { (plugins: [any Plugin]?) in
            Part(tag: plugins.map { $0.map(\.name).joined(separator: ",") } ?? "nil")
        }
        let need = try #require(catalog.definition(named: "lazy-host")?.dependencies?.first)
        #expect(need.kind == .lazyCollection)
        #expect(need.key == TypeKey((any Plugin).self))
        let container = try makeContainer(catalog, [
            Binding(collection: "Plugin", factory: "audit-plugin"),
            Binding(collection: "Plugin", factory: "console-plugin"),
            bind("Gadget", to: "lazy-host"), bind("Widget", to: "optional-host"),
        ])
        #expect(try container.resolve((any Gadget).self).tag == "audit,console")
        #expect(try container.resolve((any Widget).self).tag == "audit,console")
    }

    @Test func aLazyCollectionClosesACycleAsALazyDoes() throws {
        final class Hub: Sendable {
            let plugins: Lazy<[any Plugin]>
            init(plugins: Lazy<[any Plugin]>) { self.plugins = plugins }
        }
        final class HubPlugin: Plugin {
            let name = "hub-plugin"
            let hub: Hub
            init(hub: Hub) { self.hub = hub }
        }
        var catalog = FactoryCatalog()
        catalog.register("hub", provides: Hub.self, lifetime: .singleton) { (plugins: Lazy<[any Plugin]>) in
            Hub(plugins: plugins)
        }
        catalog.register("hub-plugin", provides: (any Plugin).self) { (hub: Hub) in HubPlugin(hub: hub) }
        let container = try makeContainer(catalog, [
            bind("Hub", to: "hub"), Binding(collection: "Plugin", factory: "hub-plugin"),
        ])
        let hub = try container.resolve(Hub.self)
        #expect(hub.plugins.value.map(\.name) == ["hub-plugin"])
        // Without the Lazy, the same loop is a cycle.
        var direct = FactoryCatalog()
        direct.register("host", provides: PluginHost.self, lifetime: .singleton) { (plugins: [any Plugin]) in
            PluginHost(plugins: plugins)
        }
        direct.register("host-plugin", provides: (any Plugin).self) { (_: PluginHost) in NamedPlugin("host-plugin") }
        let error = #expect(throws: ManifestError.self) {
            try makeContainer(direct, [
                bind("PluginHost", to: "host"), Binding(collection: "Plugin", factory: "host-plugin"),
            ])
        }
        #expect(error.map(errorCodes) == [.dependencyCycle])
    }
}
