import Foundation
@testable import Patchbay
@testable import PatchbayTools
import Testing

// Every form of existential a registration may name: plain, class-bound, a
// composition, parameterized (one primary associated type, several, and
// class-bound), a nested protocol, a nested generic type, a generic class.

protocol GRepository<Item> { associatedtype Item }
protocol GClassRepository<Item>: AnyObject { associatedtype Item }
/// Primary associated types listed out of alphabetical order, as in the issue.
protocol GPair<Zed, Alpha> {
    associatedtype Zed
    associatedtype Alpha
}
protocol GNamed {}
protocol GAged {}
protocol GSession: AnyObject {}
enum GOuter {
    protocol Nested {}
    struct Inner<T>: GRepository { typealias Item = T }
}
final class GBox<T>: GRepository { typealias Item = T }

final class GUserRepo: GRepository, GClassRepository, GNamed, GAged, GSession, GOuter.Nested, @unchecked Sendable {
    typealias Item = String
}
/// `any GPair<Int, String>`.
final class GIntString: GPair, @unchecked Sendable {
    typealias Zed = Int
    typealias Alpha = String
}
/// `any GPair<String, Int>`.
final class GStringInt: GPair, @unchecked Sendable {
    typealias Zed = String
    typealias Alpha = Int
}
struct GArrays: GRepository { typealias Item = [Int] }

extension FactoryCatalog {
    /// One factory per form, several-types and single-type registrations both.
    static var generics: FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register(
            "users", product: GUserRepo.self,
            provides: (any GRepository<String>).self, (any GClassRepository<String>).self, (any GNamed & GAged).self,
            (any GSession).self, (any GOuter.Nested).self, GUserRepo.self
        ) { GUserRepo() }
        catalog.register("class-users", provides: (any GClassRepository<String>).self) { GUserRepo() }
        catalog.register("int-string", product: GIntString.self, provides: (any GPair<Int, String>).self) { GIntString() }
        catalog.register("string-int", provides: (any GPair<String, Int>).self) { GStringInt() }
        catalog.register("arrays", provides: (any GRepository<[Int]>).self) { GArrays() }
        catalog.register("inner", provides: GOuter.Inner<Int>.self) { GOuter.Inner<Int>() }
        catalog.register("box", provides: GBox<Int>.self) { GBox<Int>() }
        // Claims a parameterized protocol its product does not conform to:
        // only a value can show it (see TypeConformance).
        catalog.register("wrong", product: GUserRepo.self, provides: (any GRepository<Int>).self) { GUserRepo() }
        return catalog
    }
}

struct GenericProtocolTests {
    // MARK: 1. Names as Swift writes them

    @Test func namesAreWrittenAsSwiftWritesThem() {
        #expect(TypeKey((any GRepository<String>).self).name == "GRepository<String>")
        #expect(TypeKey((any GRepository<String>).self).qualifiedName == "PatchbayTests.GRepository<Swift.String>")
        #expect(TypeKey((any GClassRepository<String>).self).name == "GClassRepository<String>")
        #expect(TypeKey((any GRepository<[Int]>).self).name == "GRepository<Array<Int>>")
        #expect(TypeKey((any GRepository<[String: Int?]>).self).name == "GRepository<Dictionary<String, Optional<Int>>>")
        #expect(TypeKey((any GRepository<any GRepository<Int>>).self).name == "GRepository<GRepository<Int>>")
        #expect(TypeKey((any GNamed & GAged).self).name == "GAged & GNamed")
        #expect(TypeKey(GOuter.Inner<Int>.self).name == "Inner<Int>")
        #expect(TypeKey(GBox<Int>.self).qualifiedName == "PatchbayTests.GBox<Swift.Int>")
    }

    @Test func severalPrimaryAssociatedTypesAreLabelledAndNeverShareAName() {
        let intString = TypeKey((any GPair<Int, String>).self)
        let stringInt = TypeKey((any GPair<String, Int>).self)
        #expect(intString.name == "GPair<Alpha == String, Zed == Int>")
        #expect(stringInt.name == "GPair<Alpha == Int, Zed == String>")
        #expect(intString.qualifiedName == "PatchbayTests.GPair<Alpha == Swift.String, Zed == Swift.Int>")
        #expect(intString.name != stringInt.name && intString.qualifiedName != stringInt.qualifiedName)
    }

    @Test(arguments: [
        ("GRepository<String>", "users"),
        ("any GRepository<String>", "users"),
        ("PatchbayTests.GRepository<Swift.String>", "users"),
        ("any PatchbayTests.GRepository<Swift.String>", "users"),
        ("GRepository<Self.GRepository.Item == String>", "users"),
        ("GRepository< String >", "users"),
        ("GRepository<[Int]>", "arrays"),
        ("GRepository<Array<Int>>", "arrays"),
        ("GRepository<Swift.Array<Int>>", "arrays"),
        ("PatchbayTests.GRepository<[Swift.Int]>", "arrays"),
        ("GPair<Alpha == String, Zed == Int>", "int-string"),
        ("GPair<Zed == Int, Alpha == String>", "int-string"),
        ("any GPair<Zed == String, Alpha == Int>", "string-int"),
        ("GNamed & GAged", "users"),
        ("any GAged & GNamed", "users"),
        ("GOuter.Nested", "users"),
        ("Inner<Int>", "inner"),
        ("GOuter.Inner<Int>", "inner"),
        ("PatchbayTests.GOuter.Inner<Swift.Int>", "inner"),
    ])
    func aManifestMayWriteEachSpelling(name: String, factory: String) throws {
        let diagnostics = ManifestValidator(catalog: .generics).validate(manifest([bind(name, to: factory)]))
        #expect(diagnostics.errors.isEmpty, "\(name): \(diagnostics)")
    }

    @Test func aPositionalNameOfSeveralPrimaryAssociatedTypesIsUnknownAndSuggestsTheLabelledOne() throws {
        let diagnostics = ManifestValidator(catalog: .generics)
            .validate(manifest([bind("GPair<Int, String>", to: "int-string")]))
        let unknown = try #require(diagnostics.errors.first { $0.code == .unknownProtocol })
        #expect(unknown.suggestion?.hasPrefix("GPair<Alpha == ") == true, "\(unknown)")
    }

    @Test func didYouMeanWorksAcrossSpellings() throws {
        for name in ["any GRepostory<String>", "GRepostory<Self.GRepository.Item == String>", "GRepository<Strin>"] {
            let diagnostics = ManifestValidator(catalog: .generics).validate(manifest([bind(name, to: "users")]))
            let unknown = try #require(diagnostics.errors.first { $0.code == .unknownProtocol }, "\(name)")
            #expect(unknown.suggestion == "GRepository<String>", "\(name): \(unknown)")
            #expect(unknown.message.contains("did you mean 'GRepository<String>'?"))
        }
    }

    @Test func theReaderOfNamesTakesHostileTextWithoutCrashingAndLeavesItAsWritten() {
        for text in ["", "<", ">", "P<", "P<Int", "P<==Int>", "[[[", "(", "->", "A &", "P<Int>>", "a b c",
                     String(repeating: "[", count: 100_000), String(repeating: "P<", count: 10_000)]
        {
            #expect(TypeNameSyntax.parse(text) == nil, "\(text.prefix(20))")
            _ = TypeNameSyntax.lookupKey(text)
            _ = TypeNameSyntax.canonical(text)
        }
        #expect(TypeNameSyntax.lookupKey("Repository<[Int]>") == TypeNameSyntax.lookupKey("Repository<Array<Int>>"))
        #expect(TypeNameSyntax.lookupKey("P<A == Int, B == String>") != TypeNameSyntax.lookupKey("P<A == String, B == Int>"))
        #expect(TypeNameSyntax.lookupKey("(a: Int, String) async throws -> Void?")
            == "(a: Int, String) async throws -> Optional<Void>")
    }

    // MARK: 2. Conformance without hand-read metadata: registration, activation, resolution

    @Test func everyFormRegistersActivatesAndResolves() throws {
        let container = try makeContainer(.generics, [
            bind("any GRepository<String>", to: "users", .singleton),
            bind("GClassRepository<String>", to: "users", .singleton),
            bind("GNamed & GAged", to: "users", .singleton),
            bind("GSession", to: "users", .singleton),
            bind("GOuter.Nested", to: "users", .singleton),  // as Swift in the module writes it; "Nested" too
            bind("GPair<Zed == Int, Alpha == String>", to: "int-string"),
            bind("GPair<Alpha == Int, Zed == String>", to: "string-int"),
            bind("GRepository<[Int]>", to: "arrays"),
            bind("Inner<Int>", to: "inner"),
            bind("GBox<Int>", to: "box", .weak),
        ])
        let repository = try container.resolve((any GRepository<String>).self)
        #expect(repository is GUserRepo)
        // One singleton, shared by every protocol the factory provides.
        #expect(try container.resolve((any GClassRepository<String>).self) === repository as? GUserRepo)
        #expect(try container.resolve((any GNamed & GAged).self) as? GUserRepo === repository as? GUserRepo)
        #expect(try container.resolve((any GSession).self) === repository as? GUserRepo)
        #expect(try container.resolve((any GOuter.Nested).self) is GUserRepo)
        #expect(try container.resolve((any GPair<Int, String>).self) is GIntString)
        #expect(try container.resolve((any GPair<String, Int>).self) is GStringInt)
        #expect(try container.resolve((any GRepository<[Int]>).self) is GArrays)
        _ = try container.resolve(GOuter.Inner<Int>.self)
        let box = try container.resolve(GBox<Int>.self)
        #expect(try container.resolve(GBox<Int>.self) === box, "weak: shared while held")
    }

    @Test func aCollectionOfAParameterizedProtocolTakesItsElementsByEitherSpelling() throws {
        var catalog = FactoryCatalog.generics
        catalog.register("more-users", provides: (any GRepository<String>).self) { GUserRepo() }
        let container = try makeContainer(catalog, [
            Binding(collection: "GRepository<String>", factory: "users", lifetime: .singleton),
            Binding(collection: "any GRepository<String>", factory: "more-users", lifetime: .weak),
        ])
        let all = try container.resolve([any GRepository<String>].self)
        #expect(all.count == 2 && all.allSatisfy { $0 is GUserRepo })
    }

    @Test func aProductThatDoesNotConformToAParameterizedProtocolFailsBeforeItIsServed() throws {
        let container = try makeContainer(.generics, [bind("GRepository<Int>", to: "wrong")])
        let error = try #require(throws: ResolutionError.self) { try container.resolve((any GRepository<Int>).self) }
        #expect(error.reason == .factoryFailed && error.factory == "wrong")
        let underlying = try #require(error.underlying as? RegistrationError)
        #expect(underlying == .doesNotConform)
        #expect(underlying.locations.first?.fileID == "PatchbayTests/GenericProtocolTests.swift")
        #expect(error.description.contains("claims to provide PatchbayTests.GRepository<Swift.Int>"), "\(error)")
        #expect(error.description.contains("GUserRepo does not conform"), "\(error)")
    }

    @Test func weakOfAClassBoundParameterizedProtocolIsNotRefused() throws {
        let container = try makeContainer(.generics, [bind("GClassRepository<String>", to: "class-users", .weak)])
        let held = try container.resolve((any GClassRepository<String>).self)
        #expect(try container.resolve((any GClassRepository<String>).self) === held)
        weak var released: (any GClassRepository<String>)?
        do {
            let other = try makeContainer(.generics, [bind("GClassRepository<String>", to: "class-users", .weak)])
            released = try other.resolve((any GClassRepository<String>).self)
        }
        #expect(released == nil, "the container does not keep a weak instance alive")
    }

    @Test func aGenericClassIsKnownToBeAClass() {
        let index = CatalogIndex(FactoryCatalog.generics)
        let box = FactoryCatalog.generics.describe().factories.first { $0.name == "box" }
        #expect(box?.productIsClass == true)
        let classUsers = FactoryCatalog.generics.describe().factories.first { $0.name == "class-users" }
        #expect(classUsers?.productIsClass == nil, "a protocol: unknown without a value")
        #expect(index.lookup("GBox<Int>") != .unknown)
    }

    // MARK: 3. The offline check with catalog.json, and the schema

    @Test func theOfflineCheckReadsTheSameNamesFromCatalogJSON() throws {
        let data = try FactoryCatalog.generics.describe().jsonData()
        let description = try CatalogDescription(jsonData: data)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"PatchbayTests.GRepository<Swift.String>\""))
        #expect(text.contains("\"GPair<Alpha == String, Zed == Int>\""))
        #expect(!text.contains("Self."), "no runtime spelling in the description")

        let bindings = [
            bind("any GRepository<String>", to: "users"),
            bind("GPair<Zed == Int, Alpha == String>", to: "int-string"),
            bind("GRepository<[Int]>", to: "arrays"),
            bind("GAged & GNamed", to: "users"),
            bind("GClassRepository<String>", to: "class-users", .weak),
        ]
        let offline = ManifestValidator(description: description).validate(manifest(bindings))
        let live = ManifestValidator(catalog: .generics).validate(manifest(bindings))
        #expect(offline.errors.isEmpty, "\(offline)")
        #expect(offline.map(\.code) == live.map(\.code), "one verdict offline and live")
        let note = try #require(offline.first { $0.code == .weakUnchecked })
        #expect(note.severity == .note && note.message.contains("'class-users'"))
    }

    @Test func theCheckOfAFolderWithCatalogJSONReportsTheNoteInEveryFormatAndPasses() throws {
        let catalog = String(decoding: try FactoryCatalog.generics.describe().jsonData(), as: UTF8.self)
        let manifestText = """
            {
              "format": 1,
              "bindings": [
                { "protocol": "any GRepository<String>", "factory": "users" },
                { "protocol": "GPair<Zed == Int, Alpha == String>", "factory": "int-string" },
                { "protocol": "GClassRepository<String>", "factory": "class-users", "lifetime": "weak" }
              ]
            }
            """
        let folder = try ManifestFolder(["catalog.json": catalog, "production.json": manifestText])
        let report = try ManifestChecker().check([folder.url])
        // The folder leaves most of the catalog's factories unbound (unused-factory warnings).
        #expect(report.diagnostics.errors.isEmpty, "\(report.diagnostics)")
        #expect(report.diagnostics.notes.map(\.code) == [.weakUnchecked], "\(report.diagnostics)")
        #expect(!report.failed())
        let (line, column) = position(of: "\"weak\"", in: manifestText)
        let text = report.text()
        #expect(text.contains("production.json:\(line):\(column): note: lifetime 'weak' needs a class instance"), "\(text)")
        #expect(text.hasSuffix(", 1 note in 1 manifest\n") && text.contains("0 errors, "), "\(text)")
        #expect(report.github().contains("::notice file="), "\(report.github())")
        #expect(report.json().contains("\"notes\" : 1"), "\(report.json())")
    }

    @Test func aDescriptionWrittenWithTheRuntimeSpellingStillMatches() throws {
        let description = CatalogDescription(
            types: [.init(qualified: "App.Repository<Self.App.Repository.Item == Swift.String>",
                          name: "Repository<Self.Repository.Item == String>")],
            factories: [.init(
                name: "users", provides: ["App.Repository<Self.App.Repository.Item == Swift.String>"], needs: [],
                productType: "App.Users", productIsClass: true)])
        for name in ["Repository<String>", "any App.Repository<Swift.String>"] {
            let found = ManifestValidator(description: description).validate(manifest([bind(name, to: "users")]))
            #expect(found.errors.isEmpty, "\(name): \(found)")
        }
    }

    @Test func explainAndGraphPrintTheNamesManifestsWrite() throws {
        let description = FactoryCatalog.generics.describe()
        let written = manifest([
            bind("any GRepository<String>", to: "users", .singleton),
            bind("GPair<Zed == Int, Alpha == String>", to: "int-string"),
        ])
        let explainer = ManifestExplainer(manifest: written, catalog: description)
        for asked in ["GRepository<String>", "any GRepository<String>", "PatchbayTests.GRepository<Swift.String>"] {
            let text = explainer.explain(asked).text()
            #expect(text.hasPrefix("GRepository<String> in "), "\(asked): \(text)" as Comment)
            #expect(text.contains("users"), "\(text)")
            #expect(!text.contains("Self."))
        }
        #expect(explainer.explain("GPair<Alpha == String, Zed == Int>").text().hasPrefix("GPair<Alpha == String, Zed == Int> in "))
        let unknown = explainer.explain("any GRepostory<String>").text()
        #expect(unknown.contains("GRepository<String>"), "did you mean, across spellings: \(unknown)")

        let graph = DependencyGraph(manifest: written, catalog: description)
        #expect(graph.mermaid().contains("GRepository#lt;String#gt;"), "\(graph.mermaid())")
        #expect(graph.dot().contains("GPair<Alpha == String, Zed == Int>"), "\(graph.dot())")
        #expect(!graph.mermaid().contains("Self."))
    }

    @Test func theSchemaListsTheNamesManifestsWrite() throws {
        let schema = String(decoding: ManifestSchema.jsonData(catalog: FactoryCatalog.generics.describe()), as: UTF8.self)
        #expect(schema.contains("\"GRepository<String>\""))
        #expect(schema.contains("\"GPair<Alpha == String, Zed == Int>\""))
        #expect(schema.contains("\"GAged & GNamed\""))
        #expect(!schema.contains("Self."))
    }
}
