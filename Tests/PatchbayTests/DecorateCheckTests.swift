// `decorate` (issue 55): every mistake of an entry with its code, file, line
// and column, found alike by the live catalog, by its description
// (catalog.json), by the app's activation and by the built `patchbay check`;
// what `explain` and the JSON Schema say of it. The merge is DecorateTests.swift.
import Foundation
import Testing
@testable import Patchbay
@testable import PatchbayTools

@Suite struct DecorateCheckTests {
    /// A child of DecorateTests' base, labelled staging, with `decorate` as given.
    static func staging(_ decorate: String) -> String {
        """
        {
          "format": 1,
          "environment": "staging",
          "extends": "base.json",
          "bindings": [],
          "decorate": \(decorate)
        }
        """
    }

    /// One mistake: the `decorate` that makes it, its code, the text its place
    /// begins with in staging.json (the `occurrence`-th), and the suggestion.
    struct Problem: Sendable, CustomTestStringConvertible {
        let name: String
        let decorate: String
        let code: DiagnosticCode
        let at: String
        var occurrence = 1
        var suggestion: String?
        var testDescription: String { name }
    }

    static let problems: [Problem] = [
        .init(name: "remove of a link the chain lacks", decorate: #"[{ "protocol": "TaggedStore", "injector": "primary", "remove": ["frst"] }]"#,
              code: .decoratorNotInChain, at: #""frst""#, suggestion: "first"),
        .init(name: "remove of a link no chain has", decorate: #"[{ "protocol": "TaggedStore", "remove": ["counted"] }]"#,
              code: .decoratorNotInChain, at: #""counted""#),
        .init(name: "remove of a link twice", decorate: #"[{ "protocol": "TaggedStore", "remove": ["first", "first"] }]"#,
              code: .decoratorNotInChain, at: #""first""#, occurrence: 2),
        .init(name: "add of a link the chains have", decorate: #"[{ "protocol": "TaggedStore", "add": ["first"] }]"#,
              code: .duplicateDecorator, at: #""first""#),
        .init(name: "add of a link twice", decorate: #"[{ "protocol": "TaggedStore", "add": ["counted", { "decorator": "counted" }] }]"#,
              code: .duplicateDecorator, at: #""counted" }"#),
        .init(name: "unknown decorator", decorate: #"[{ "protocol": "TaggedStore", "add": ["frst"] }]"#,
              code: .unknownDecorator, at: #""frst""#, suggestion: "first"),
        .init(name: "a decorator of another type", decorate: #"[{ "protocol": "TaggedStore", "add": ["clock-wrapper"] }]"#,
              code: .decoratorDoesNotDecorate, at: #""clock-wrapper""#, suggestion: "counted"),
        .init(name: "another environment's decorator", decorate: #"[{ "protocol": "TaggedStore", "add": ["recording"] }]"#,
              code: .environmentNotAllowed, at: #""recording""#),
        .init(name: "parameters", decorate: #"[{ "protocol": "TaggedStore", "add": [{ "decorator": "tagging", "parameters": { "tag": 3 } }] }]"#,
              code: .invalidParameters, at: "3 }"),
        .init(name: "unknown protocol", decorate: #"[{ "protocol": "TagedStore", "add": ["counted"] }]"#,
              code: .unknownProtocol, at: #""TagedStore""#, suggestion: "TaggedStore"),
        .init(name: "an injector that does not bind it", decorate: #"[{ "protocol": "TagClock", "injector": "secondary", "add": ["clock-wrapper"] }]"#,
              code: .decorateUnbound, at: #""secondary""#, suggestion: "primary"),
        .init(name: "unknown key", decorate: #"[{ "protocol": "TaggedStore", "ad": ["counted"] }]"#,
              code: .unknownKey, at: #""ad""#, suggestion: "add"),
        .init(name: "a binding's key for its chain", decorate: #"[{ "protocol": "TaggedStore", "decorators": ["counted"] }]"#,
              code: .unknownKey, at: #""decorators""#, suggestion: "add"),
        .init(name: "a link's key", decorate: #"[{ "protocol": "TaggedStore", "decorator": "counted" }]"#,
              code: .unknownKey, at: #""decorator""#, suggestion: "add"),
        .init(name: "a misspelt remove", decorate: #"[{ "protocol": "TaggedStore", "remvoe": ["first"] }]"#,
              code: .unknownKey, at: #""remvoe""#, suggestion: "remove"),
        .init(name: "neither add nor remove", decorate: #"[{ "protocol": "TaggedStore" }]"#,
              code: .missingKey, at: #"{ "protocol": "TaggedStore" }"#),
        .init(name: "no protocol", decorate: #"[{ "add": ["counted"] }]"#, code: .missingKey, at: #"{ "add""#),
        .init(name: "protocol not a string", decorate: #"[{ "protocol": 3, "add": ["counted"] }]"#, code: .wrongType, at: "3,"),
        .init(name: "empty injector", decorate: #"[{ "protocol": "TaggedStore", "injector": "", "add": ["counted"] }]"#,
              code: .wrongType, at: #""""#),
        .init(name: "empty add", decorate: #"[{ "protocol": "TaggedStore", "add": [] }]"#, code: .wrongType, at: "[] }"),
        .init(name: "remove of an object", decorate: #"[{ "protocol": "TaggedStore", "remove": [{ "decorator": "first" }] }]"#,
              code: .wrongType, at: #"{ "decorator""#),
        .init(name: "add of a number", decorate: #"[{ "protocol": "TaggedStore", "add": [3] }]"#, code: .wrongType, at: "3]"),
        .init(name: "decorate not an array", decorate: #"{ "protocol": "TaggedStore" }"#, code: .wrongType, at: #"{ "protocol""#),
        .init(name: "an entry not an object", decorate: #"["TaggedStore"]"#, code: .wrongType, at: #""TaggedStore""#),
        .init(name: "a key twice", decorate: #"[{ "protocol": "TaggedStore", "add": ["counted"], "add": ["second"] }]"#,
              code: .duplicateKey, at: #""add""#, occurrence: 2),
    ]

    /// The folder of DecorateTests' base and this staging.json, with catalog.json.
    static func folder(_ staging: String, base: String = DecorateTests.base) throws -> ManifestFolder {
        let description = try DecoratorTests.catalog().describe().jsonData()
        return try ManifestFolder([
            "base.json": base, "staging.json": staging, "catalog.json": String(decoding: description, as: UTF8.self),
        ])
    }

    /// Every error about staging.json, as the live catalog finds it and as its description does.
    static func errors(_ folder: ManifestFolder) throws -> (live: [Diagnostic], described: [Diagnostic]) {
        let (manifest, read) = ManifestLoader(environment: [:]).loadCollecting(
            contentsOf: folder.file("staging.json"), displayPath: "staging.json")
        guard let manifest else { return (read.errors, read.errors) }
        let description = try CatalogDescription(jsonData: DecoratorTests.catalog().describe().jsonData())
        return ((read + ManifestValidator(catalog: DecoratorTests.catalog()).validate(manifest)).errors,
            (read + ManifestValidator(description: description).validate(manifest)).errors)
    }

    @Test(arguments: problems)
    func eachMistakeHasItsCodeAndPlace(_ problem: Problem) throws {
        let text = Self.staging(problem.decorate)
        let folder = try Self.folder(text)
        let (live, described) = try Self.errors(folder)
        #expect(live == described, "the description's verdict is the catalog's")
        #expect(live.count == 1, "\(live)")
        let found = try #require(live.first)
        let place = position(of: problem.at, in: text, occurrence: problem.occurrence)
        #expect(found.code == problem.code, "\(found)")
        #expect(found.file == "staging.json", "\(found)")
        #expect(found.line == place.line && found.column == place.column, "\(found), expected \(place)")
        #expect(found.suggestion == problem.suggestion, "\(found)")
        // The app refuses it with the same code, at the same place.
        let refusal = #expect(throws: ManifestError.self) {
            try Container(catalog: DecoratorTests.catalog(), manifestAt: folder.file("staging.json"),
                loader: ManifestLoader(environment: [:]))
        }
        #expect(refusal?.diagnostics.errors.map { "\($0.line):\($0.column) \($0.code)" }
            == ["\(place.line):\(place.column) \(problem.code)"])
    }

    @Test func everyMistakeIsReportedAtOnceAndTheCheckCommandAgreesWithTheApp() throws {
        let text = Self.staging(#"""
            [{ "protocol": "TaggedStore", "injector": "primary", "remove": ["frist"] },
             { "protocol": "TaggedStore", "add": ["first", "frst", "recording"] },
             { "protocol": "TagClock", "injector": "secondary", "add": ["clock-wrapper"] },
             { "protocol": "TagedStore", "add": ["counted"] },
             { "protocol": "TaggedStore", "ad": ["counted"] }]
            """#)
        let folder = try Self.folder(text)
        let refusal = try #require(throws: ManifestError.self) {
            try Container(catalog: DecoratorTests.catalog(), manifestAt: folder.file("staging.json"),
                loader: ManifestLoader(environment: [:]))
        }
        let app = refusal.diagnostics.errors.map { "staging.json:\($0.line):\($0.column): error: [\($0.code)]" }
        #expect(Set(refusal.diagnostics.map(\.code)) == [.decoratorNotInChain, .duplicateDecorator, .unknownDecorator,
            .environmentNotAllowed, .decorateUnbound, .unknownProtocol, .unknownKey])
        let run = try runProduct("patchbay", ["check", "staging.json"], in: folder.url)
        #expect(run.status == 1)
        let printed = run.stdout.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("staging.json:"), line.contains(": error: "),
                let code = line.firstRange(of: "[")?.lowerBound
            else { return nil }
            let head = line[..<line.range(of: ": error: ")!.upperBound]
            return String(head) + String(line[code...])
        }
        #expect(printed.sorted() == app.sorted(), "\(run.stdout)")
    }

    @Test func aTypeNoFileBindsIsUnboundAtTheEntrysProtocol() throws {
        let base = #"{ "format": 1, "bindings": [{ "protocol": "TaggedStore", "factory": "base-store" }] }"#
        let text = Self.staging(#"[{ "protocol": "TagClock", "add": ["clock-wrapper"] }]"#)
        let (live, _) = try Self.errors(Self.folder(text, base: base))
        #expect(live.map(\.code) == [.decorateUnbound])
        let place = position(of: #""TagClock""#, in: text)
        #expect(live.map { [$0.line, $0.column] } == [[place.line, place.column]])
        #expect(live.first?.message.contains("no binding of TagClock is in effect") == true)
    }

    @Test func aNeedOfAnAddedLinkIsReportedAtItsEntry() throws {
        // `timed` needs a TagClock, which this base does not bind.
        let base = #"{ "format": 1, "bindings": [{ "protocol": "TaggedStore", "factory": "base-store", "lifetime": "singleton" }] }"#
        let text = Self.staging(#"[{ "protocol": "TaggedStore", "add": ["timed"] }]"#)
        let (live, described) = try Self.errors(Self.folder(text, base: base))
        #expect(live == described)
        #expect(live.map(\.code) == [.missingDependency])
        let place = position(of: #""timed""#, in: text)
        #expect(live.map { "\($0.file):\($0.line):\($0.column)" } == ["staging.json:\(place.line):\(place.column)"])
        #expect(live.first?.path == "/decorate/0/add/0")
    }

    @Test func aParentsEntryIsReportedInTheParent() throws {
        // The middle file's mistake is the middle file's, whichever child loads it.
        let middle = DecorateTests.child(#"[{ "protocol": "TaggedStore", "remove": ["counted"] }]"#)
        let text = DecorateTests.child(#"[{ "protocol": "TaggedStore", "add": ["counted"] }]"#, extends: "middle.json")
        let folder = try ManifestFolder(["base.json": DecorateTests.base, "middle.json": middle, "staging.json": text])
        let (live, _) = try Self.errors(folder)
        #expect(live.map { "\($0.file) \($0.code)" } == ["middle.json decorator-not-in-chain"])
    }

    @Test func thousandsOfEntriesAndNamesAreJudgedInOnePass() throws {
        // 5,000 names removed that the chain lacks, and 5,000 entries of an unbound type: each reported once.
        let names = (0..<5_000).map { #""gone-\#($0)""# }.joined(separator: ", ")
        let entries = (0..<5_000).map { _ in #"{ "protocol": "TaggedStore", "injector": "nowhere", "add": ["counted"] }"# }
        let text = Self.staging("[" + #"{ "protocol": "TaggedStore", "remove": [\#(names)] }, "# + entries.joined(separator: ", ") + "]")
        let clock = ContinuousClock.now
        let (live, _) = try Self.errors(Self.folder(text))
        #expect(live.with(.decoratorNotInChain).count == 5_000)
        #expect(live.with(.decorateUnbound).count == 5_000)
        #expect(ContinuousClock.now - clock < .seconds(20))
    }

    @Test func removingEveryLinkAndAddingThemBackIsNoMistake() throws {
        let text = Self.staging(#"[{ "protocol": "TaggedStore", "remove": ["first"], "add": ["first"] }]"#)
        let (live, _) = try Self.errors(Self.folder(text))
        #expect(live.isEmpty, "\(live)")
    }

    // MARK: - Hostile input

    @Test func aNameWithALineBreakForgesNoLine() throws {
        let text = Self.staging(#"[{ "protocol": "TaggedStore", "injector": "x\ny", "remove": ["a\n::error::b"] }, { "protocol": "T\u0007", "add": ["c"] }]"#)
        let (live, _) = try Self.errors(Self.folder(text))
        #expect(live.map(\.code).sorted { $0.rawValue < $1.rawValue } == [.decorateUnbound, .unknownProtocol])
        #expect(live.allSatisfy { !$0.message.contains("\n") && !$0.message.contains("\u{7}") }, "\(live)")
    }

    @Test func aCollectionsElementsAreNotEditedAndTheMessageSaysWhy() throws {
        let base = #"{ "format": 1, "bindings": [{ "collection": "TaggedStore", "factory": "plugin-store" }] }"#
        let (live, _) = try Self.errors(Self.folder(Self.staging(#"[{ "protocol": "TaggedStore", "add": ["first"] }]"#), base: base))
        #expect(live.map(\.code) == [.decorateUnbound])
        #expect(live.first?.message.contains("a collection's elements cannot be decorated") == true)
    }

    @Test func anUnsetVariableInAnAddedDecoratorsParametersIsReportedAtItsValue() throws {
        let text = Self.staging(#"[{ "protocol": "TaggedStore", "add": [{ "decorator": "tagging", "parameters": { "tag": "${NOPE}" } }] }]"#)
        let (live, _) = try Self.errors(Self.folder(text))
        #expect(live.map(\.code) == [.envVarMissing])
        let place = position(of: #""${NOPE}""#, in: text)
        #expect(live.map { "\($0.file):\($0.line):\($0.column) \($0.path)" }
            == ["staging.json:\(place.line):\(place.column) /decorate/0/add/0/parameters/tag"])
    }

    @Test func withoutACatalogAnEntryFindsTheBindingItNamesOtherwise() throws {
        // The check without catalog.json cannot tell that the names are one type: it does not call the entry unbound.
        let text = Self.staging(#"[{ "protocol": "PatchbayTests.TaggedStore", "add": ["counted"] }]"#)
        let folder = try Self.folder(text)
        let manifest = try ManifestLoader(environment: [:]).load(contentsOf: folder.file("staging.json"))
        #expect(ManifestValidator().validate(manifest).errors.isEmpty)
        #expect(ManifestValidator(catalog: DecoratorTests.catalog()).validate(manifest).errors.isEmpty)
    }

    // MARK: - explain

    @Test func explainNamesTheFileThatAddedEachLink() throws {
        let text = Self.staging(#"[{ "protocol": "TaggedStore", "add": ["counted"] }]"#)
        let folder = try Self.folder(text)
        let manifest = try ManifestLoader(environment: [:]).load(contentsOf: folder.file("staging.json"), displayPath: "staging.json")
        let description = try CatalogDescription(jsonData: DecoratorTests.catalog().describe().jsonData())
        let explainer = ManifestExplainer(manifest: manifest, catalog: description)
        let primary = explainer.explain("TaggedStore", from: .primary).text()
        let added = position(of: #""counted""#, in: text)
        let written = position(of: #""first""#, in: DecorateTests.base)
        #expect(primary.contains("  decorators:   'first' -> 'counted' (the first wraps"), "\(primary)")
        #expect(primary.contains("\n    'first'       base.json:\(written.line):\(written.column), in the binding's decorators\n"), "\(primary)")
        #expect(primary.contains("\n    'counted'     staging.json:\(added.line):\(added.column), added by decorate\n"), "\(primary)")
        let secondary = explainer.explain("TaggedStore", from: .secondary).text()
        #expect(secondary.contains("'first' -> 'second' -> 'counted'"), "\(secondary)")
        #expect(secondary.contains("    'counted'     staging.json:\(added.line):\(added.column), added by decorate"))
        // The built command prints the same.
        let run = try runProduct("patchbay", ["explain", "--manifest", "staging.json", "TaggedStore"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("'counted'     staging.json:\(added.line):\(added.column), added by decorate"), "\(run.stdout)")
    }

    // MARK: - diff and graph

    @Test func diffShowsAChainADecorateChanged() throws {
        let text = Self.staging(#"[{ "protocol": "TaggedStore", "injector": "primary", "add": ["counted"] }]"#)
        let folder = try Self.folder(text)
        let run = try runProduct("patchbay", ["diff", ".", "--from", "base", "--to", "staging"], in: folder.url)
        #expect(run.stdout.contains("counted"), "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("chain changed"), "\(run.stdout)")
        let graph = try runProduct("patchbay", ["graph", "staging.json"], in: folder.url)
        #expect(graph.stdout.contains("decorators: first, counted"), "\(graph.stdout)")
    }

    // MARK: - The schema

    @Test func theSchemaDescribesDecorateAndCompletesDecoratorsPerType() throws {
        let checker = JSONSchemaChecker(ManifestSchemaBuilder.schema(catalog: DecoratorTests.catalog().describe()))
        let plain = JSONSchemaChecker(ManifestSchemaBuilder.schema())
        func json(_ decorate: String) throws -> JSONValue {
            try JSONDecoder().decode(JSONValue.self, from: Data(Self.staging(decorate).utf8))
        }
        let good = try json(#"[{ "protocol": "TaggedStore", "injector": "secondary", "remove": ["first"], "add": ["counted", { "decorator": "tagging", "parameters": { "tag": "x" } }] }]"#)
        #expect(try checker.errors(good) == [])
        #expect(try plain.errors(good) == [])
        // Shape: both schemas refuse it.
        for shape in [#"[{ "protocol": "TaggedStore" }]"#, #"[{ "add": ["first"] }]"#, #"[{ "protocol": "TaggedStore", "ad": ["first"] }]"#,
                      #"[{ "protocol": "TaggedStore", "add": [] }]"#, #"[{ "protocol": "TaggedStore", "remove": [3] }]"#, #"{}"#] {
            #expect(try !plain.errors(json(shape)).isEmpty, "\(shape)")
            #expect(try !checker.errors(json(shape)).isEmpty, "\(shape)")
        }
        // Names: the catalog's schema refuses a decorator of another type, an unknown type, bad parameters.
        for named in [#"[{ "protocol": "TaggedStore", "add": ["clock-wrapper"] }]"#, #"[{ "protocol": "TagedStore", "add": ["first"] }]"#,
                      #"[{ "protocol": "TaggedStore", "remove": ["clock-wrapper"] }]"#,
                      #"[{ "protocol": "TaggedStore", "add": [{ "decorator": "tagging", "parameters": { "tag": 3 } }] }]"#] {
            #expect(try plain.errors(json(named)).isEmpty, "\(named)")
            #expect(try !checker.errors(json(named)).isEmpty, "\(named)")
        }
        // `schema --catalog` lists the decorators of each type under its `add`.
        let text = String(decoding: ManifestSchemaBuilder.jsonData(catalog: DecoratorTests.catalog().describe()), as: UTF8.self)
        #expect(text.contains(#""decorate""#))
    }
}
