// Decorators (issue 55): every problem of a chain found with its code and
// place, the same by the live catalog and by its description (catalog.json),
// and refused at activation; what catalog.json and the JSON Schema say of
// decorators. The engine's side is DecoratorTests.swift, whose catalog and
// manifests these use.
import Foundation
import Testing
@testable import Patchbay
@testable import PatchbayTools

@Suite struct DecoratorCheckTests {
    // MARK: - The check

    /// DecoratorTests' manifest of one decorated binding, with `decorators`.
    static func chain(_ decorators: String) -> String { DecoratorTests.manifest(decorators) }

    /// Every problem of one manifest per code: its code, line, column, and
    /// suggestion, found by the live catalog, by its description read back
    /// from JSON, and by activation.
    static let problems: [(name: String, json: String, code: DiagnosticCode, line: Int, column: Int, suggestion: String?)] = [
        ("unknown", chain(#"["frst"]"#), .unknownDecorator, 6, 22, "first"),
        ("unknown object", chain(#"[{ "decorator": "secnod" }]"#), .unknownDecorator, 6, 37, "second"),
        ("a factory's name", chain(#"["base-store"]"#), .unknownDecorator, 6, 22, nil),
        ("of another type", chain(#"["clock-wrapper"]"#), .decoratorDoesNotDecorate, 6, 22, "counted"),
        ("twice", chain(#"["first", "second", "first"]"#), .duplicateDecorator, 6, 41, nil),
        ("another environment", chain(#"["recording"]"#), .environmentNotAllowed, 6, 22, nil),
        ("parameters", chain(#"[{ "decorator": "tagging", "parameters": { "tag": 3 } }]"#), .invalidParameters, 6, 71, nil),
        ("unknown parameter", chain(#"[{ "decorator": "tagging", "parameters": { "tag": "a", "tga": 1 } }]"#),
         .unknownParameter, 6, 76, nil),
        ("parameters to none", chain(#"[{ "decorator": "first", "parameters": { "tag": "a" } }]"#),
         .invalidParameters, 6, 60, nil),
        ("unbound need", chain(#"["timed"]"#), .missingDependency, 6, 22, nil),
        ("cycle", chain(#"["looping"]"#), .dependencyCycle, 6, 22, nil),
        ("element", """
            { "format": 1, "bindings": [
              { "collection": "TaggedStore", "factory": "plugin-store", "decorators": ["first"] } ] }
            """, .decoratorNotSupported, 2, 75, nil),
        ("unknown key", chain(#"[{ "decorator": "first", "paramters": {} }]"#), .unknownKey, 6, 46, "parameters"),
        ("not an array", chain(#""first""#), .wrongType, 6, 21, nil),
        ("not a name", chain(#"[3]"#), .wrongType, 6, 22, nil),
        ("no name", chain(#"[{ "parameters": {} }]"#), .missingKey, 6, 22, nil),
    ]


    @Test(arguments: problems.indices)
    func eachProblemHasItsCodeAndPlace(_ index: Int) throws {
        let problem = Self.problems[index]
        let catalog = DecoratorTests.catalog()
        let description = try CatalogDescription(jsonData: catalog.describe().jsonData())
        for (source, validator) in [("live", ManifestValidator(catalog: catalog)), ("described", ManifestValidator(description: description))] {
            let found = DecoratorTests.errors(problem.json, by: validator)
            #expect(found.count == 1, "\(problem.name), \(source): \(found)")
            let first = try #require(found.first, "\(problem.name), \(source)")
            #expect(first.code == problem.code, "\(problem.name), \(source): \(first)")
            #expect(first.line == problem.line && first.column == problem.column, "\(problem.name), \(source): \(first)")
            #expect(first.suggestion == problem.suggestion, "\(problem.name), \(source): \(first)")
        }
        // And the app refuses it with the same code.
        #expect(throws: ManifestError.self, "\(problem.name)") { try DecoratorTests.container(problem.json) }
    }

    /// A chain hangs on the bound type alone: an unknown factory does not
    /// hide its problems, live or offline.
    @Test func anUnknownFactoryDoesNotHideTheChain() throws {
        let json = DecoratorTests.manifest(#"["nope", "first", "first"]"#).replacingOccurrences(of: "base-store", with: "bsae-store")
        let catalog = DecoratorTests.catalog()
        let description = try CatalogDescription(jsonData: catalog.describe().jsonData())
        for validator in [ManifestValidator(catalog: catalog), ManifestValidator(description: description)] {
            let codes = DecoratorTests.errors(json, by: validator).map(\.code)
            #expect(codes.sorted { $0.rawValue < $1.rawValue } == [.duplicateDecorator, .unknownDecorator, .unknownFactory])
            // A decorator named as the factory is told apart, not left as a stale catalog's.
            let swapped = DecoratorTests.manifest("[]").replacingOccurrences(of: "base-store", with: "first")
            let message = DecoratorTests.errors(swapped, by: validator).first?.message ?? ""
            #expect(message.contains("'first' is a decorator") && !message.contains("stale"))
        }
    }

    /// `explain` names a binding's chain in order, as written.
    @Test func explainNamesTheChain() throws {
        let json = DecoratorTests.manifest(#"["first", { "decorator": "tagging", "parameters": { "tag": "x" } }]"#)
        let manifest = try ManifestLoader(environment: [:]).load(data: Data(json.utf8))
        let description = try CatalogDescription(jsonData: DecoratorTests.catalog().describe().jsonData())
        let text = ManifestExplainer(manifest: manifest, catalog: description).explain("TaggedStore", from: .primary).text()
        #expect(text.contains("  decorators:   'first' -> 'tagging' (the first wraps the factory's product; callers get the last)"))
        let plain = try ManifestLoader(environment: [:]).load(data: Data(DecoratorTests.manifest("[]").utf8))
        #expect(!ManifestExplainer(manifest: plain, catalog: description).explain("TaggedStore", from: .primary).text()
            .contains("decorators:"))
    }

    @Test func aChainThatPassesPassesOffline() throws {
        let json = DecoratorTests.manifest(
            #"["first", { "decorator": "tagging", "parameters": { "tag": "x" } }, "timed"]"#,
            more: #",{ "protocol": "TagClock", "factory": "some-clock" }"#)
        let manifest = try ManifestLoader(environment: [:]).load(data: Data(json.utf8))
        let description = try CatalogDescription(jsonData: DecoratorTests.catalog().describe().jsonData())
        #expect(ManifestValidator(catalog: DecoratorTests.catalog()).validate(manifest).errors.isEmpty)
        #expect(ManifestValidator(description: description).validate(manifest).errors.isEmpty)
        #expect(try DecoratorTests.container(json).resolve((any TaggedStore).self).tags == ["base", "first", "x", "timed"])
    }

    @Test func aDecoratorsParametersAreInterpolated() throws {
        let json = DecoratorTests.manifest(#"[{ "decorator": "tagging", "parameters": { "tag": "${TAG:-fallback}" } }]"#)
        let loaded = try ManifestLoader(environment: ["TAG": "from-env"]).load(data: Data(json.utf8))
        #expect(try Container(catalog: DecoratorTests.catalog(), manifest: loaded).resolve((any TaggedStore).self).tags
            == ["base", "from-env"])
        let defaulted = try ManifestLoader(environment: [:]).load(data: Data(json.utf8))
        #expect(try Container(catalog: DecoratorTests.catalog(), manifest: defaulted).resolve((any TaggedStore).self).tags
            == ["base", "fallback"])
        // Unset with no default: refused at the value, as a factory's parameter is.
        let unset = DecoratorTests.manifest(#"[{ "decorator": "tagging", "parameters": { "tag": "${TAG}" } }]"#)
        let error = try #require(throws: ManifestError.self) {
            try ManifestLoader(environment: [:]).load(data: Data(unset.utf8))
        }
        #expect(error.diagnostics.map(\.code) == [.envVarMissing])
        #expect(error.diagnostics.map { "\($0.line):\($0.column)" } == ["6:71"])
        #expect(error.diagnostics.first?.path == "/bindings/0/decorators/0/parameters/tag")
        #expect(error.diagnostics.first?.message.contains("parameters of decorator 'tagging' of binding TaggedStore") == true)
    }

    @Test func aDecoratorsNeedsFollowTheCaptiveRule() throws {
        var catalog = DecoratorTests.catalog()
        catalog.register("scoped-clock", provides: (any TagClock).self, lifetime: .scoped) { SomeClock() }
        let json = DecoratorTests.manifest(#"["timed"]"#, lifetime: "singleton",
            more: #",{ "protocol": "TagClock", "factory": "scoped-clock" }"#)
        let errors = DecoratorTests.errors(json, by: ManifestValidator(catalog: catalog))
        #expect(errors.map(\.code) == [.captiveDependency])
        // Named as the decorator's need, at its entry: the factory needs nothing.
        #expect(errors.first?.message.contains("('base-store', through its decorator 'timed') depends on scoped") == true)
        #expect(errors.first?.path == "/bindings/0/decorators/0")
    }

    @Test func thousandsOfBadLinksAreEachReportedOnce() throws {
        // Each of 3,000 chains misspells a decorator, and one repeats a decorator 3,000 times:
        // one diagnostic each, suggestions made once per type.
        let bindings = (0..<3_000).map { #"{ "protocol": "TaggedStore", "factory": "base-store", "injector": "i\#($0)", "decorators": ["frst"] }"# }
        let repeated = Array(repeating: #""first""#, count: 3_000).joined(separator: ", ")
        let json = #"{ "format": 1, "bindings": [ { "protocol": "TaggedStore", "factory": "base-store", "decorators": [\#(repeated)] }, "#
            + bindings.joined(separator: ",\n") + "] }"
        let errors = DecoratorTests.errors(json, by: ManifestValidator(catalog: DecoratorTests.catalog()))
        #expect(errors.filter { $0.code == .unknownDecorator }.count == 3_000)
        #expect(errors.filter { $0.code == .duplicateDecorator }.count == 2_999)
        #expect(errors.allSatisfy { $0.code == .unknownDecorator ? $0.suggestion == "first" : true })
    }

    @Test func anEnvironmentsDecoratorIsAllowedThere() throws {
        let container = try DecoratorTests.container(DecoratorTests.manifest(#"["recording"]"#, environment: "test"))
        #expect(try container.resolve((any TaggedStore).self).tags == ["base", "recording"])
    }

    @Test func aChildBindingReplacesItsParentsChainWhole() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("decorators-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(DecoratorTests.manifest(#"["first", "second"]"#, environment: "base").utf8)
            .write(to: folder.appendingPathComponent("base.json"))
        let child = #"{ "format": 1, "extends": "base.json", "bindings": [ "#
            + #"{ "protocol": "TaggedStore", "factory": "base-store", "decorators": ["second"] } ] }"#
        try Data(child.utf8).write(to: folder.appendingPathComponent("staging.json"))
        let staging = try ManifestLoader(environment: [:]).load(contentsOf: folder.appendingPathComponent("staging.json"))
        #expect(try Container(catalog: DecoratorTests.catalog(), manifest: staging).resolve((any TaggedStore).self).tags
            == ["base", "second"])
    }

    @Test func aHandWrittenDecoratorOfNoTypeIsJudgedNotTrusted() throws {
        // A description may come from anyone: a decorator that provides no type is no decorator an app
        // registers, so the description is refused, as a malformed factory's is (DecoratorFindingsTests, F9).
        var description = DecoratorTests.catalog().describe()
        let first = try #require(description.decorators?.firstIndex { $0.name == "first" })
        description.decorators![first].provides = []
        let refusal = #expect(throws: ManifestError.self) { try CatalogDescription(jsonData: description.jsonData()) }
        #expect(refusal?.diagnostics.map(\.code) == [.wrongType])
    }

    // MARK: - The catalog

    @Test func theDescriptionListsDecoratorsWithTheirPlaces() throws {
        let description = DecoratorTests.catalog().describe()
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
        var description = DecoratorTests.catalog().describe()
        description.decorators![0].name = description.factories[0].name
        let error = try #require(throws: ManifestError.self) {
            try CatalogDescription(jsonData: description.jsonData())
        }
        #expect(error.diagnostics.map(\.code) == [.duplicateName])
    }

    @Test func theCatalogSchemaCompletesTheDecoratorsOfTheBindingsType() throws {
        let checker = JSONSchemaChecker(ManifestSchemaBuilder.schema(catalog: DecoratorTests.catalog().describe()))
        let plain = JSONSchemaChecker(ManifestSchemaBuilder.schema())
        func json(_ text: String) throws -> JSONValue { try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) }
        let good = try json(DecoratorTests.manifest(#"["first", { "decorator": "tagging", "parameters": { "tag": "x" } }]"#))
        #expect(try checker.errors(good) == [])
        #expect(try plain.errors(good) == [])
        // A decorator of another type, or none, by name and in an object; and a key a decorator object lacks.
        for chain in [#"["clock-wrapper"]"#, #"[{ "decorator": "frst" }]"#, #"[{ "decorator": "first", "ttl": 1 }]"#] {
            #expect(try !checker.errors(json(DecoratorTests.manifest(chain))).isEmpty, "\(chain)")
        }
        #expect(try !plain.errors(json(DecoratorTests.manifest(#"[{ "decorator": "first", "ttl": 1 }]"#))).isEmpty)
    }

    @Test func theNamesOfFactoriesAndDecoratorsAreOneSpace() {
        let catalog = DecoratorTests.catalog()
        #expect(catalog.decoratorNames.contains("first"))
        #expect(!catalog.factoryNames.contains("first"))
        #expect(!catalog.contains(factory: "first"))
    }
}
