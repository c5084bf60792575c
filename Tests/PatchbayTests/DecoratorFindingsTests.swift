// The hostile review of decorators (issue 55): each finding fixed here has a
// test that failed before its fix. F1: a decorated binding keeps sharing its
// factory's instance with the undecorated bindings of the same storage. F4:
// lifecycle sees every made link of a singleton's chain and its inner product.
// F9 is a case of the bad-catalog corpus (decorator-shapes-never-registered).
// F10: the JSON Schemas refuse decorators on a collection's element, as the
// validator does, and the catalog's schema judges a decorator's parameters
// as the validator does. F8: `patchbay diff` counts a chain's difference as one.
import Foundation
import Testing
@testable import Patchbay
@testable import PatchbayTools

/// The type the findings' decorators wrap: each layer adds its tag.
protocol FindingStore: Sendable {
    var tags: [String] { get }
}

/// A second type the shared product provides.
protocol FindingOther: Sendable {}

/// Records shutdowns, in order, across one test's instances.
final class ShutdownLog: @unchecked Sendable {
    private let lock = NSLock()
    private var names: [String] = []
    func record(_ name: String) { lock.withLock { names.append(name) } }
    var recorded: [String] { lock.withLock { names } }
}

/// The product: one object seen as both types, shut down once.
final class FindingBase: FindingStore, FindingOther, AsyncShutdown {
    let tags = ["base"]
    let log: ShutdownLog
    init(_ log: ShutdownLog) { self.log = log }
    func shutdown() async throws { log.record("base") }
}

/// A class layer that is shut down too.
final class ClosingLayer: FindingStore, AsyncShutdown {
    let inner: any FindingStore
    let tag: String
    let log: ShutdownLog
    init(_ inner: any FindingStore, _ tag: String, _ log: ShutdownLog) { (self.inner, self.tag, self.log) = (inner, tag, log) }
    var tags: [String] { inner.tags + [tag] }
    func shutdown() async throws { log.record(tag) }
}

/// The parameters of the `tagging` decorator.
struct FindingTag: Decodable, Sendable {
    var tag: String
}

/// A value layer, with no lifecycle of its own.
struct ValueLayer: FindingStore {
    let inner: any FindingStore
    let tag: String
    var tags: [String] { inner.tags + [tag] }
}

@Suite struct DecoratorFindingsTests {
    static func catalog(made: Counter = Counter(), log: ShutdownLog = ShutdownLog()) -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("both", product: FindingBase.self, provides: (any FindingStore).self, (any FindingOther).self) {
            made.increment()
            return FindingBase(log)
        }
        catalog.registerDecorator("value", decorates: (any FindingStore).self) { (inner: any FindingStore) in
            ValueLayer(inner: inner, tag: "value")
        }
        catalog.registerDecorator("closing-a", decorates: (any FindingStore).self) { (inner: any FindingStore) in
            ClosingLayer(inner, "a", log)
        }
        catalog.registerDecorator("closing-b", decorates: (any FindingStore).self) { (inner: any FindingStore) in
            ClosingLayer(inner, "b", log)
        }
        catalog.registerDecorator("same", decorates: (any FindingStore).self) { (inner: any FindingStore) in inner }
        catalog.registerDecorator("tagging", decorates: (any FindingStore).self, parameters: FindingTag.self) {
            (inner: any FindingStore, options: FindingTag) in ValueLayer(inner: inner, tag: options.tag)
        }
        return catalog
    }

    static func container(_ bindings: String, catalog: FactoryCatalog) throws -> Container {
        let json = #"{ "format": 1, "environment": "production", "bindings": [ \#(bindings) ] }"#
        return try Container(catalog: catalog, manifest: ManifestLoader(environment: [:]).load(data: Data(json.utf8)))
    }

    static func identity(_ value: Any) -> ObjectIdentifier { ObjectIdentifier(value as AnyObject) }

    // MARK: - F1: one storage, one instance

    /// The decorated binding's chain wraps the one instance the factory
    /// made for both types; the undecorated binding gets it bare.
    @Test(arguments: [false, true])
    func aDecoratedBindingSharesItsFactorysSingleton(otherFirst: Bool) throws {
        let made = Counter()
        let container = try Self.container(#"""
            { "protocol": "FindingStore", "factory": "both", "lifetime": "singleton", "decorators": ["closing-a"] },
            { "protocol": "FindingOther", "factory": "both", "lifetime": "singleton" }
            """#, catalog: Self.catalog(made: made))
        let other = otherFirst ? try container.resolve((any FindingOther).self) : nil
        let store = try container.resolve((any FindingStore).self)
        let again = try container.resolve((any FindingStore).self)
        let bare = try other ?? container.resolve((any FindingOther).self)
        #expect(made.value == 1)
        #expect(store.tags == ["base", "a"])
        #expect(Self.identity(store) == Self.identity(again))
        let layer = try #require(store as? ClosingLayer)
        #expect(Self.identity(layer.inner) == Self.identity(bare))
    }

    /// An awaited resolve shares the product too: it goes through the same engine.
    @Test func anAwaitedResolveSharesTheProduct() async throws {
        let made = Counter()
        let container = try Self.container(#"""
            { "protocol": "FindingStore", "factory": "both", "lifetime": "singleton", "decorators": ["value"] },
            { "protocol": "FindingOther", "factory": "both", "lifetime": "singleton" }
            """#, catalog: Self.catalog(made: made))
        let store = try await container.resolve(awaiting: (any FindingStore).self)
        let bare = try await container.resolve(awaiting: (any FindingOther).self)
        #expect(made.value == 1)
        let layer = try #require(store as? ValueLayer)
        #expect(Self.identity(layer.inner) == Self.identity(bare))
    }

    /// A transient decorated binding makes its own, as an undecorated transient does.
    @Test func aTransientDecoratedBindingMakesItsOwn() throws {
        let made = Counter()
        let container = try Self.container(#"""
            { "protocol": "FindingStore", "factory": "both", "lifetime": "transient", "decorators": ["closing-a"] },
            { "protocol": "FindingOther", "factory": "both", "lifetime": "transient" }
            """#, catalog: Self.catalog(made: made))
        _ = try container.resolve((any FindingStore).self)
        _ = try container.resolve((any FindingOther).self)
        #expect(made.value == 2)
    }

    /// In a scope, the two bindings share the scope's one instance.
    @Test func aScopedDecoratedBindingSharesTheScopesInstance() throws {
        let made = Counter()
        let container = try Self.container(#"""
            { "protocol": "FindingStore", "factory": "both", "lifetime": "scoped", "decorators": ["value"] },
            { "protocol": "FindingOther", "factory": "both", "lifetime": "scoped" }
            """#, catalog: Self.catalog(made: made))
        let scope = Scope(container: container)
        let store = try scope.resolve((any FindingStore).self)
        let bare = try scope.resolve((any FindingOther).self)
        #expect(made.value == 1)
        let layer = try #require(store as? ValueLayer)
        #expect(Self.identity(layer.inner) == Self.identity(bare))
    }

    /// A `weak` class product is shared too, while someone holds it.
    @Test func aWeakDecoratedBindingSharesAClassProduct() throws {
        let made = Counter()
        let container = try Self.container(#"""
            { "protocol": "FindingStore", "factory": "both", "lifetime": "weak", "decorators": ["closing-a"] },
            { "protocol": "FindingOther", "factory": "both", "lifetime": "weak" }
            """#, catalog: Self.catalog(made: made))
        let store = try container.resolve((any FindingStore).self)
        let bare = try container.resolve((any FindingOther).self)
        #expect(made.value == 1)
        let layer = try #require(store as? ClosingLayer)
        #expect(Self.identity(layer.inner) == Self.identity(bare))
    }

    /// Resetting the undecorated type renews the shared product, and so the
    /// chain around it: the decorated binding never wraps a forgotten instance.
    @Test func resettingTheSharedProductRenewsTheChain() throws {
        let made = Counter()
        let container = try Self.container(#"""
            { "protocol": "FindingStore", "factory": "both", "lifetime": "singleton", "decorators": ["closing-a", "value"] },
            { "protocol": "FindingOther", "factory": "both", "lifetime": "singleton" }
            """#, catalog: Self.catalog(made: made))
        _ = try container.resolve((any FindingStore).self)
        container.reset((any FindingOther).self)
        let store = try container.resolve((any FindingStore).self)
        let bare = try container.resolve((any FindingOther).self)
        #expect(made.value == 2)
        let outer = try #require(store as? ValueLayer)
        let layer = try #require(outer.inner as? ClosingLayer)
        #expect(Self.identity(layer.inner) == Self.identity(bare))
    }

    // MARK: - F4: lifecycle sees the chain

    /// Every made link and the inner product are listed, innermost first,
    /// and shut down outermost first, each once.
    @Test func shutdownReachesEveryLinkOutermostFirst() async throws {
        let log = ShutdownLog()
        let container = try Self.container(#"""
            { "protocol": "FindingStore", "factory": "both", "lifetime": "singleton",
              "decorators": ["closing-a", "same", "value", "closing-b"] }
            """#, catalog: Self.catalog(log: log))
        _ = try container.resolve((any FindingStore).self)
        let listed = container.madeSingletons(as: (any AsyncShutdown).self).map { String(describing: type(of: $0.instance)) }
        #expect(listed == ["FindingBase", "ClosingLayer", "ClosingLayer"])
        #expect(container.madeSingletons(as: (any FindingStore).self).map(\.instance.tags)
            == [["base"], ["base", "a"], ["base", "a", "value"], ["base", "a", "value", "b"]])
        try await container.shutdown()
        #expect(log.recorded == ["b", "a", "base"])
    }

    /// The inner product shared with an undecorated binding is shut down once.
    @Test func aSharedInnerProductIsShutDownOnce() async throws {
        let log = ShutdownLog()
        let container = try Self.container(#"""
            { "protocol": "FindingStore", "factory": "both", "lifetime": "singleton", "decorators": ["value"] },
            { "protocol": "FindingOther", "factory": "both", "lifetime": "singleton" }
            """#, catalog: Self.catalog(log: log))
        _ = try container.resolve((any FindingStore).self)
        _ = try container.resolve((any FindingOther).self)
        #expect(container.madeSingletons(as: (any AsyncShutdown).self).count == 1)
        try await container.shutdown()
        #expect(log.recorded == ["base"])
    }

    // MARK: - F10: the schemas agree with the validator on a collection's element

    @Test(arguments: [#"["value"]"#, "[]"])
    func theSchemasJudgeAnElementsDecoratorsAsTheValidatorDoes(decorators: String) throws {
        let bindings = #"{ "collection": "FindingStore", "factory": "both", "decorators": \#(decorators) }"#
        let json = #"{ "format": 1, "environment": "production", "bindings": [ \#(bindings) ] }"#
        let catalog = Self.catalog()
        let manifest = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
        let refused = ManifestValidator(catalog: catalog).run(try ManifestLoader(environment: [:]).load(data: Data(json.utf8)))
            .diagnostics.contains { $0.code == .decoratorNotSupported }
        #expect(refused == (decorators != "[]"))
        for schema in [ManifestSchema.schema(), ManifestSchema.schema(catalog: catalog.describe())] {
            #expect(try !JSONSchemaChecker(schema).errors(manifest).isEmpty == refused)
        }
    }

    /// The catalog's schema judges a chain entry's `parameters` by its decorator's parameter type.
    @Test(arguments: [
        (#"{ "decorator": "tagging", "parameters": { "tag": "x" } }"#, false),
        (#"{ "decorator": "tagging", "parameters": { "tag": 3 } }"#, true),
        (#"{ "decorator": "tagging" }"#, true),
        (#""tagging""#, true),  // its name alone gives no parameters, and 'tag' is required
        (#""value""#, false),
        (#"{ "decorator": "value", "parameters": { "tag": "x" } }"#, true),
    ])
    func theCatalogSchemaJudgesADecoratorsParameters(entry: String, refused: Bool) throws {
        let json = #"{ "format": 1, "environment": "production", "bindings": [ "#
            + #"{ "protocol": "FindingStore", "factory": "both", "decorators": [\#(entry)] } ] }"#
        let catalog = Self.catalog()
        let errors = ManifestValidator(catalog: catalog).run(try ManifestLoader(environment: [:]).load(data: Data(json.utf8)))
            .diagnostics.filter { $0.severity == .error }
        #expect(errors.isEmpty == !refused, "\(errors)")
        let manifest = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
        let schemaErrors = try JSONSchemaChecker(ManifestSchema.schema(catalog: catalog.describe())).errors(manifest)
        #expect(schemaErrors.isEmpty == !refused, "\(schemaErrors)")
    }

    /// A `decorate` entry's `add` is judged as a chain's entry: a decorator with required fields needs its parameters.
    @Test(arguments: [(#""tagging""#, true), (#"{ "decorator": "tagging" }"#, true),
                      (#"{ "decorator": "tagging", "parameters": { "tag": "x" } }"#, false), (#""value""#, false)])
    func theCatalogSchemaJudgesAnAddedDecoratorsParameters(entry: String, refused: Bool) throws {
        let json = #"{ "format": 1, "environment": "production", "bindings": [ "#
            + #"{ "protocol": "FindingStore", "factory": "both" } ], "#
            + #""decorate": [{ "protocol": "FindingStore", "add": [\#(entry)] }] }"#
        let catalog = Self.catalog()
        let errors = ManifestValidator(catalog: catalog).run(try ManifestLoader(environment: [:]).load(data: Data(json.utf8)))
            .diagnostics.filter { $0.severity == .error }
        #expect(errors.isEmpty == !refused, "\(errors)")
        let manifest = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
        let schemaErrors = try JSONSchemaChecker(ManifestSchema.schema(catalog: catalog.describe())).errors(manifest)
        #expect(schemaErrors.isEmpty == !refused, "\(schemaErrors)")
    }

    /// A type no decorator decorates: its chain's entries are refused by a clear `not`, not an empty `enum`.
    @Test func aTypeWithNoDecoratorsRefusesEveryEntryWithoutAnEmptyEnum() throws {
        let schema = ManifestSchema.schema(catalog: Self.catalog().describe())
        func hasEmptyEnum(_ value: JSONValue) -> Bool {
            switch value {
            case .object(let members): members["enum"] == .array([]) || members.values.contains(where: hasEmptyEnum)
            case .array(let items): items.contains(where: hasEmptyEnum)
            default: false
            }
        }
        #expect(!hasEmptyEnum(schema))
        let json = #"{ "format": 1, "environment": "production", "bindings": [ "#
            + #"{ "protocol": "FindingOther", "factory": "both", "decorators": ["value"] } ] }"#
        let manifest = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
        #expect(try !JSONSchemaChecker(schema).errors(manifest).isEmpty)
    }

    // MARK: - F8: diff sees a chain

    static func wiring(_ decorators: [String], factory: String = "both") throws -> Wiring {
        let chain = decorators.map { "\"\($0)\"" }.joined(separator: ", ")
        let json = #"{ "format": 1, "environment": "production", "bindings": [ "#
            + #"{ "protocol": "FindingStore", "factory": "\#(factory)", "lifetime": "singleton", "decorators": [\#(chain)] } ] }"#
        let manifest = try ManifestLoader(environment: [:]).load(data: Data(json.utf8))
        return Wiring(manifest: manifest, catalog: catalog().describe(), label: "production")
    }

    /// A decorator added, removed or moved is a difference of its own kind, whose lines are the chains.
    @Test(arguments: [
        (["closing-a"], ["closing-a", "value"]), (["closing-a", "value"], []), (["closing-a", "value"], ["value", "closing-a"]),
    ])
    func aChainDifferenceIsADifference(before: [String], after: [String]) throws {
        let diff = WiringDiff(from: try Self.wiring(before), to: try Self.wiring(after))
        #expect(diff.changes.map(\.kind) == ["chain changed"])
        #expect(diff.summary == "1 difference (1 chain changed)")
        let shown = { (chain: [String]) in chain.isEmpty ? "none" : chain.joined(separator: ", ") }
        let text = diff.text()
        #expect(text.contains("\n  - decorators: \(shown(before))\n  + decorators: \(shown(after))\n"), "\(text)")
        #expect(String(decoding: diff.jsonData(), as: UTF8.self).contains(#""change" : "chain changed""#))
    }

    /// The command: a chain difference between two environments of a folder exits 1, as `diff` does.
    @Test func theDiffCommandExitsOneForAChainDifference() throws {
        func manifest(_ environment: String, _ chain: String) -> String {
            #"{ "format": 1, "environment": "\#(environment)", "bindings": [ "#
                + #"{ "protocol": "FindingStore", "factory": "both", "lifetime": "singleton", "decorators": \#(chain) } ] }"#
        }
        let folder = try ManifestFolder([
            "staging.json": manifest("staging", #"["closing-a"]"#),
            "production.json": manifest("production", #"["closing-a", "value"]"#),
        ])
        let standard = Collected<String>(), error = Collected<String>()
        let status = PatchbayCommandLine(catalog: Self.catalog(), loader: ManifestLoader(environment: [:])).run(
            ["diff", folder.url.path, "--from", "staging", "--to", "production"],
            output: .init(standard: standard.append, error: error.append))
        let printed = standard.all.joined()
        #expect(status == 1, "\(error.all.joined())")
        #expect(printed.hasSuffix("""
            FindingStore from primary, secondary
              - decorators: closing-a
              + decorators: closing-a, value
            1 difference (1 chain changed)

            """), "\(printed)")
    }

    /// The same chain is no difference; a factory changed with it is `changed`, its lines naming the chain.
    @Test func aChainIsComparedWithTheRestOfItsBinding() throws {
        #expect(WiringDiff(from: try Self.wiring(["value"]), to: try Self.wiring(["value"])).isEqual)
        var catalog = Self.catalog()
        catalog.register("other", provides: (any FindingStore).self) { ValueLayer(inner: FindingBase(ShutdownLog()), tag: "o") }
        let json = #"{ "format": 1, "environment": "production", "bindings": [ "#
            + #"{ "protocol": "FindingStore", "factory": "other", "lifetime": "singleton", "decorators": ["value"] } ] }"#
        let other = Wiring(
            manifest: try ManifestLoader(environment: [:]).load(data: Data(json.utf8)), catalog: catalog.describe(),
            label: "production")
        let diff = WiringDiff(from: try Self.wiring(["value"]), to: other)
        #expect(diff.changes.map(\.kind) == ["changed"])
        #expect(diff.text().contains("  + other (singleton, from primary) decorated by value\n"), "\(diff.text())")
    }
}
