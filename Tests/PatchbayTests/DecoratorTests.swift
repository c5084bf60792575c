// Decorators (issue 55, first slice): a chain named by the manifest wraps
// the factory's product in the order written; it lives as long as the
// binding; a decorator's needs and parameters are a factory's; and every
// problem of a chain is found with its code and place, the same by the live
// catalog and by its description (catalog.json), and refused at activation.
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

    @Test func aDecoratorsFailureNamesIt() throws {
        let container = try Self.container(Self.manifest(#"["first", "failing"]"#))
        let error = try #require(throws: ResolutionError.self) { try container.resolve((any TaggedStore).self) }
        #expect(error.reason == .factoryFailed)
        #expect(error.factory == "failing")
        #expect(error.underlying is DecoratorFailure)
    }

    @Test func aDecoratedBindingStillServesItsDependents() throws {
        // A decorated binding of another injector falls back as any binding does.
        let container = try Self.container(Self.manifest(#"["first"]"#, lifetime: "singleton"))
        #expect(try container.resolve((any TaggedStore).self, from: "secondary").tags == ["base", "first"])
    }

    // MARK: - The check

    /// Every problem of one manifest per code: its code, line, column, and
    /// suggestion, found by the live catalog, by its description read back
    /// from JSON, and by activation.
    static let problems: [(name: String, json: String, code: DiagnosticCode, line: Int, column: Int, suggestion: String?)] = [
        ("unknown", manifest(#"["frst"]"#), .unknownDecorator, 6, 22, "first"),
        ("unknown object", manifest(#"[{ "decorator": "secnod" }]"#), .unknownDecorator, 6, 37, "second"),
        ("a factory's name", manifest(#"["base-store"]"#), .unknownDecorator, 6, 22, nil),
        ("of another type", manifest(#"["clock-wrapper"]"#), .decoratorDoesNotDecorate, 6, 22, "counted"),
        ("twice", manifest(#"["first", "second", "first"]"#), .duplicateDecorator, 6, 41, nil),
        ("another environment", manifest(#"["recording"]"#), .environmentNotAllowed, 6, 22, nil),
        ("parameters", manifest(#"[{ "decorator": "tagging", "parameters": { "tag": 3 } }]"#), .invalidParameters, 6, 71, nil),
        ("unknown parameter", manifest(#"[{ "decorator": "tagging", "parameters": { "tag": "a", "tga": 1 } }]"#),
         .unknownParameter, 6, 76, nil),
        ("parameters to none", manifest(#"[{ "decorator": "first", "parameters": { "tag": "a" } }]"#),
         .invalidParameters, 6, 60, nil),
        ("unbound need", manifest(#"["timed"]"#), .missingDependency, 6, 22, nil),
        ("cycle", manifest(#"["looping"]"#), .dependencyCycle, 5, 45, nil),
        ("element", """
            { "format": 1, "bindings": [
              { "collection": "TaggedStore", "factory": "plugin-store", "decorators": ["first"] } ] }
            """, .decoratorNotSupported, 2, 75, nil),
        ("unknown key", manifest(#"[{ "decorator": "first", "paramters": {} }]"#), .unknownKey, 6, 46, "parameters"),
        ("not an array", manifest(#""first""#), .wrongType, 6, 21, nil),
        ("not a name", manifest(#"[3]"#), .wrongType, 6, 22, nil),
        ("no name", manifest(#"[{ "parameters": {} }]"#), .missingKey, 6, 22, nil),
    ]

    /// The errors of reading `json`, or else of validating it.
    static func errors(_ json: String, by validator: ManifestValidator) -> [Diagnostic] {
        do {
            return validator.validate(try ManifestLoader(environment: [:]).load(data: Data(json.utf8))).errors
        } catch {
            return error.diagnostics.errors
        }
    }

    @Test(arguments: problems.indices)
    func eachProblemHasItsCodeAndPlace(_ index: Int) throws {
        let problem = Self.problems[index]
        let catalog = Self.catalog()
        let description = try CatalogDescription(jsonData: catalog.describe().jsonData())
        for (source, validator) in [("live", ManifestValidator(catalog: catalog)), ("described", ManifestValidator(description: description))] {
            let found = Self.errors(problem.json, by: validator)
            #expect(found.count == 1, "\(problem.name), \(source): \(found)")
            let first = try #require(found.first, "\(problem.name), \(source)")
            #expect(first.code == problem.code, "\(problem.name), \(source): \(first)")
            #expect(first.line == problem.line && first.column == problem.column, "\(problem.name), \(source): \(first)")
            #expect(first.suggestion == problem.suggestion, "\(problem.name), \(source): \(first)")
        }
        // And the app refuses it with the same code.
        #expect(throws: ManifestError.self, "\(problem.name)") { try Self.container(problem.json) }
    }

    @Test func aChainThatPassesPassesOffline() throws {
        let json = Self.manifest(
            #"["first", { "decorator": "tagging", "parameters": { "tag": "x" } }, "timed"]"#,
            more: #",{ "protocol": "TagClock", "factory": "some-clock" }"#)
        let manifest = try ManifestLoader(environment: [:]).load(data: Data(json.utf8))
        let description = try CatalogDescription(jsonData: Self.catalog().describe().jsonData())
        #expect(ManifestValidator(catalog: Self.catalog()).validate(manifest).errors.isEmpty)
        #expect(ManifestValidator(description: description).validate(manifest).errors.isEmpty)
        #expect(try Self.container(json).resolve((any TaggedStore).self).tags == ["base", "first", "x", "timed"])
    }

    @Test func aDecoratorsParametersAreInterpolated() throws {
        let json = Self.manifest(#"[{ "decorator": "tagging", "parameters": { "tag": "${TAG:-fallback}" } }]"#)
        let loaded = try ManifestLoader(environment: ["TAG": "from-env"]).load(data: Data(json.utf8))
        #expect(try Container(catalog: Self.catalog(), manifest: loaded).resolve((any TaggedStore).self).tags
            == ["base", "from-env"])
        let defaulted = try ManifestLoader(environment: [:]).load(data: Data(json.utf8))
        #expect(try Container(catalog: Self.catalog(), manifest: defaulted).resolve((any TaggedStore).self).tags
            == ["base", "fallback"])
        // Unset with no default: refused at the value, as a factory's parameter is.
        let unset = Self.manifest(#"[{ "decorator": "tagging", "parameters": { "tag": "${TAG}" } }]"#)
        let error = try #require(throws: ManifestError.self) {
            try ManifestLoader(environment: [:]).load(data: Data(unset.utf8))
        }
        #expect(error.diagnostics.map(\.code) == [.envVarMissing])
        #expect(error.diagnostics.map { "\($0.line):\($0.column)" } == ["6:71"])
        #expect(error.diagnostics.first?.path == "/bindings/0/decorators/0/parameters/tag")
        #expect(error.diagnostics.first?.message.contains("parameters of decorator 'tagging' of binding TaggedStore") == true)
    }

    @Test func aDecoratorsNeedsFollowTheCaptiveRule() throws {
        var catalog = Self.catalog()
        catalog.register("scoped-clock", provides: (any TagClock).self, lifetime: .scoped) { SomeClock() }
        let json = Self.manifest(#"["timed"]"#, lifetime: "singleton",
            more: #",{ "protocol": "TagClock", "factory": "scoped-clock" }"#)
        let codes = Self.errors(json, by: ManifestValidator(catalog: catalog)).map(\.code)
        #expect(codes == [.captiveDependency])
    }

    @Test func thousandsOfBadLinksAreEachReportedOnce() throws {
        // Each of 3,000 chains misspells a decorator, and one repeats a decorator 3,000 times:
        // one diagnostic each, suggestions made once per type.
        let bindings = (0..<3_000).map { #"{ "protocol": "TaggedStore", "factory": "base-store", "injector": "i\#($0)", "decorators": ["frst"] }"# }
        let repeated = Array(repeating: #""first""#, count: 3_000).joined(separator: ", ")
        let json = #"{ "format": 1, "bindings": [ { "protocol": "TaggedStore", "factory": "base-store", "decorators": [\#(repeated)] }, "#
            + bindings.joined(separator: ",\n") + "] }"
        let errors = Self.errors(json, by: ManifestValidator(catalog: Self.catalog()))
        #expect(errors.filter { $0.code == .unknownDecorator }.count == 3_000)
        #expect(errors.filter { $0.code == .duplicateDecorator }.count == 2_999)
        #expect(errors.allSatisfy { $0.code == .unknownDecorator ? $0.suggestion == "first" : true })
    }

    @Test func anEnvironmentsDecoratorIsAllowedThere() throws {
        let container = try Self.container(Self.manifest(#"["recording"]"#, environment: "test"))
        #expect(try container.resolve((any TaggedStore).self).tags == ["base", "recording"])
    }

    @Test func aChildBindingReplacesItsParentsChainWhole() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("decorators-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(Self.manifest(#"["first", "second"]"#, environment: "base").utf8)
            .write(to: folder.appendingPathComponent("base.json"))
        let child = #"{ "format": 1, "extends": "base.json", "bindings": [ "#
            + #"{ "protocol": "TaggedStore", "factory": "base-store", "decorators": ["second"] } ] }"#
        try Data(child.utf8).write(to: folder.appendingPathComponent("staging.json"))
        let staging = try ManifestLoader(environment: [:]).load(contentsOf: folder.appendingPathComponent("staging.json"))
        #expect(try Container(catalog: Self.catalog(), manifest: staging).resolve((any TaggedStore).self).tags
            == ["base", "second"])
    }

    @Test func aHandWrittenDecoratorOfNoTypeIsJudgedNotTrusted() throws {
        // A description may come from anyone: a decorator that provides no type is no decorator an app
        // registers, so the description is refused, as a malformed factory's is (DecoratorFindingsTests, F9).
        var description = Self.catalog().describe()
        let first = try #require(description.decorators?.firstIndex { $0.name == "first" })
        description.decorators![first].provides = []
        let refusal = #expect(throws: ManifestError.self) { try CatalogDescription(jsonData: description.jsonData()) }
        #expect(refusal?.diagnostics.map(\.code) == [.wrongType])
    }

    // MARK: - The catalog

    @Test func theDescriptionListsDecoratorsWithTheirPlaces() throws {
        let description = Self.catalog().describe()
        let decorators = try #require(description.decorators)
        #expect(decorators.map(\.name) == decorators.map(\.name).sorted())
        let tagging = try #require(decorators.first { $0.name == "tagging" })
        #expect(tagging.provides.count == 1 && tagging.provides[0].hasSuffix("TaggedStore"))
        #expect(tagging.parameters?.type.hasSuffix("TagOptions") == true)
        #expect(tagging.registeredAt?.hasPrefix("PatchbayTests/DecoratorTests.swift:") == true)
        let timed = try #require(decorators.first { $0.name == "timed" })
        #expect(timed.needs?.map(\.type).map { $0.hasSuffix("TagClock") } == [true])
        #expect(decorators.first { $0.name == "recording" }?.environments == ["test"])
        // Read back as written; a catalog with none writes no key.
        #expect(try CatalogDescription(jsonData: description.jsonData()) == description)
        var plain = FactoryCatalog()
        plain.register("base-store", provides: (any TaggedStore).self) { BaseStore() }
        #expect(plain.describe().decorators == nil)
        #expect(try !String(decoding: plain.describe().jsonData(), as: UTF8.self).contains("decorators"))
    }

    @Test func aDescribedDecoratorWithAFactorysNameIsRefused() throws {
        var description = Self.catalog().describe()
        description.decorators![0].name = description.factories[0].name
        let error = try #require(throws: ManifestError.self) {
            try CatalogDescription(jsonData: description.jsonData())
        }
        #expect(error.diagnostics.map(\.code) == [.duplicateName])
    }

    @Test func theCatalogSchemaCompletesTheDecoratorsOfTheBindingsType() throws {
        let checker = JSONSchemaChecker(ManifestSchemaBuilder.schema(catalog: Self.catalog().describe()))
        let plain = JSONSchemaChecker(ManifestSchemaBuilder.schema())
        func json(_ text: String) throws -> JSONValue { try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) }
        let good = try json(Self.manifest(#"["first", { "decorator": "tagging", "parameters": { "tag": "x" } }]"#))
        #expect(try checker.errors(good) == [])
        #expect(try plain.errors(good) == [])
        // A decorator of another type, or none, by name and in an object; and a key a decorator object lacks.
        for chain in [#"["clock-wrapper"]"#, #"[{ "decorator": "frst" }]"#, #"[{ "decorator": "first", "ttl": 1 }]"#] {
            #expect(try !checker.errors(json(Self.manifest(chain))).isEmpty, "\(chain)")
        }
        #expect(try !plain.errors(json(Self.manifest(#"[{ "decorator": "first", "ttl": 1 }]"#))).isEmpty)
    }

    @Test func theNamesOfFactoriesAndDecoratorsAreOneSpace() {
        let catalog = Self.catalog()
        #expect(catalog.decoratorNames.contains("first"))
        #expect(!catalog.factoryNames.contains("first"))
        #expect(!catalog.contains(factory: "first"))
    }
}
