// Every problem of one decorator link at once (issue 55, hostile review 67):
// a link whose `parameters` are not an object is still judged by name, an
// `add` refused as a duplicate still has its parameters judged, and a link
// used in the wrong environment still has its parameters judged. Each verdict
// is the same with the live catalog and with its description (catalog.json),
// and a refused link never runs.
import Foundation
import Testing
@testable import Patchbay
@testable import PatchbayTools

@Suite struct DecoratorLinkProblemsTests {
    /// DecoratorTests' catalog, with a decorator that takes parameters and is limited to `test`.
    static func catalog() -> FactoryCatalog {
        var catalog = DecoratorTests.catalog()
        catalog.registerDecorator("test-tagging", decorates: (any TaggedStore).self, parameters: TagOptions.self,
            environments: .only(["test"])) { (inner: any TaggedStore, options: TagOptions) in Layer(inner, options.tag) }
        return catalog
    }

    /// The codes of the errors about `text` (one file), live and described; they must agree.
    static func codes(_ text: String) throws -> [DiagnosticCode] {
        let folder = try ManifestFolder(["app.json": text])
        let (manifest, read) = ManifestLoader(environment: [:]).loadCollecting(
            contentsOf: folder.file("app.json"), displayPath: "app.json")
        let loaded = try #require(manifest, "\(read)")
        let description = try CatalogDescription(jsonData: catalog().describe().jsonData())
        let live = (read + ManifestValidator(catalog: catalog()).validate(loaded)).errors
        let described = (read + ManifestValidator(description: description).validate(loaded)).errors
        // The description adds a word on a stale catalog.json to an unknown name; codes and places are one.
        #expect(live.map(\.placeAndCode) == described.map(\.placeAndCode), "the description's verdict is the catalog's")
        return live.map(\.code).sorted { $0.rawValue < $1.rawValue }
    }

    static func bound(_ decorators: String, environment: String = "production") -> String {
        """
        { "format": 1, "environment": "\(environment)", "bindings": [
          { "protocol": "TaggedStore", "factory": "base-store", "decorators": \(decorators) },
          { "protocol": "TagClock", "factory": "some-clock" } ] }
        """
    }

    @Test func aLinkWhoseParametersAreNotAnObjectIsStillJudgedByName() throws {
        let text = Self.bound(#"[{ "decorator": "nope", "parameters": 5 }, { "decorator": "clock-wrapper", "parameters": 5 }]"#)
        #expect(try Self.codes(text) == [.decoratorDoesNotDecorate, .unknownDecorator, .wrongType, .wrongType])
    }

    @Test func aRefusedParametersObjectIsReportedOnceAndTheLinkNeverRuns() throws {
        let text = Self.bound(#"[{ "decorator": "tagging", "parameters": 5 }]"#)
        // Not again as missing parameters.
        #expect(try Self.codes(text) == [.wrongType])
        // The binding is not in effect: the app refuses the manifest; nothing runs the link without its parameters.
        // Even given the manifest as read, past the reader's error, the app serves nothing from it.
        let folder = try ManifestFolder(["app.json": text])
        let read = ManifestLoader(environment: [:]).loadCollecting(contentsOf: folder.file("app.json"), displayPath: "app.json")
        let manifest = try #require(read.0)
        let container = try? Container(catalog: Self.catalog(), manifest: manifest)
        let made = (try? container?.resolve((any TaggedStore).self)).flatMap { $0 }
        #expect(made == nil, "\(made.map(\.tags) ?? [])")
    }

    @Test func anAddedLinkWhoseParametersAreNotAnObjectIsStillJudgedByName() throws {
        let text = DecorateCheckTests.staging(#"""
            [{ "protocol": "TaggedStore", "injector": "secondary", "add": [{ "decorator": "nope", "parameters": 5 }] },
             { "protocol": "TaggedStore", "injector": "primary", "add": [{ "decorator": "clock-wrapper", "parameters": 5 }] }]
            """#)
        let (live, described) = try DecorateCheckTests.errors(DecorateCheckTests.folder(text))
        #expect(live.map(\.placeAndCode) == described.map(\.placeAndCode))
        #expect(live.map(\.code).sorted { $0.rawValue < $1.rawValue }
            == [.decoratorDoesNotDecorate, .unknownDecorator, .wrongType, .wrongType], "\(live)")
    }

    @Test func anAddRefusedAsADuplicateStillHasItsParametersJudged() throws {
        let base = #"""
            { "format": 1, "environment": "base", "bindings": [{ "protocol": "TaggedStore", "factory": "base-store",
              "decorators": [{ "decorator": "tagging", "parameters": { "tag": "a" } }] }] }
            """#
        let text = DecorateCheckTests.staging(#"[{ "protocol": "TaggedStore", "add": [{ "decorator": "tagging", "parameters": { "tag": 3 } }] }]"#)
        let (live, described) = try DecorateCheckTests.errors(DecorateCheckTests.folder(text, base: base))
        #expect(live == described)
        #expect(live.map(\.code).sorted { $0.rawValue < $1.rawValue } == [.duplicateDecorator, .invalidParameters], "\(live)")
        let place = position(of: "3 }", in: text)
        #expect(live.with(.invalidParameters).map { "\($0.file):\($0.line):\($0.column)" }
            == ["staging.json:\(place.line):\(place.column)"])
    }

    @Test func aLinkInTheWrongEnvironmentStillHasItsParametersJudged() throws {
        let text = Self.bound(#"[{ "decorator": "test-tagging", "parameters": { "tag": 3 } }]"#)
        #expect(try Self.codes(text) == [.environmentNotAllowed, .invalidParameters])
    }

    // MARK: - A decorator is named as a decorator

    @Test func aLinksParameterProblemNamesTheDecorator() throws {
        let folder = try ManifestFolder(["app.json": Self.bound(#"[{ "decorator": "tagging", "parameters": {} }]"#)])
        let (manifest, _) = ManifestLoader(environment: [:]).loadCollecting(contentsOf: folder.file("app.json"), displayPath: "app.json")
        let errors = ManifestValidator(catalog: Self.catalog()).validate(try #require(manifest)).errors
        #expect(errors.map(\.code) == [.invalidParameters])
        let message = try #require(errors.first?.message)
        #expect(message.contains("of decorator 'tagging' in the chain of TaggedStore"), "\(message)")
        #expect(!message.contains("binding TaggedStore -> 'tagging'"), "\(message)")
    }

    @Test func aWeakChainWhoseLastLinkMakesAValueNamesTheDecorator() throws {
        var catalog = Self.catalog()
        catalog.registerDecorator("to-value", decorates: (any TaggedStore).self) { (_: any TaggedStore) -> any TaggedStore in
            BaseStore()
        }
        let text = #"{ "format": 1, "bindings": [{ "protocol": "TaggedStore", "factory": "base-store", "lifetime": "weak", "#
            + #""decorators": ["first", "to-value"] }] }"#
        let container = try Container(catalog: catalog, manifest: ManifestLoader(environment: [:]).load(data: Data(text.utf8)))
        let error = try #require(throws: ResolutionError.self) { try container.resolve((any TaggedStore).self) }
        let message = "\(error)"
        #expect(message.contains("decorator 'to-value' (registered at"), "\(message)")
        #expect(message.contains("the last link of its chain"), "\(message)")
        #expect(!message.contains("factory 'to-value'"), "\(message)")
    }

    @Test func aMainActorLinkResolvedOffTheMainActorNamesTheDecorator() async throws {
        let text = #"{ "format": 1, "bindings": [{ "protocol": "TaggedStore", "factory": "base-store", "#
            + #""decorators": ["on-main", "first"] }] }"#
        let container = try Container(catalog: DecoratorTests.catalogWithAMainActorDecorator(),
            manifest: ManifestLoader(environment: [:]).load(data: Data(text.utf8)))
        let message: String = await Task.detached {
            do {
                _ = try container.resolve((any TaggedStore).self)
                return "resolved"
            } catch { return "\(error)" }
        }.value
        #expect(message.contains("decorator 'on-main' in the chain of TaggedStore runs on the main actor"), "\(message)")
        #expect(!message.contains("factory 'on-main'"), "\(message)")
    }
}

extension Diagnostic {
    /// Where it is and its code, what the live and described verdicts share word for word.
    fileprivate var placeAndCode: String { "\(file):\(line):\(column) \(code)" }
}
