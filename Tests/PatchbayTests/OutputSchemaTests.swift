// The shipped schemas against what the code really writes: check-output's
// against `check --format json` for every code the library defines (read from
// DiagnosticCode.swift, so a new code is covered the day it is added), in
// every severity, with and without a place; against every case of the
// bad-manifest corpus; against a real run that prints a note and a line-0
// place; and against the codes only the app reports (`singleton-failed`,
// `start-up-failed`, `shutdown-failed`) through the same encoder. And the
// manifest schemas against every manifest the repository holds as valid.
import Foundation
import NotesKit
import Testing
@testable import Patchbay
@testable import PatchbayTools

@Suite struct OutputSchemaTests {
    static let manifests = repositoryRoot.appendingPathComponent("Manifests", isDirectory: true)

    static func checker(_ name: String) throws -> JSONSchemaChecker {
        try JSONSchemaChecker(data: Data(contentsOf: manifests.appendingPathComponent(name)))
    }

    static func json(_ text: String) throws -> JSONValue { try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) }

    /// Every code DiagnosticCode.swift defines (`public static let name: Self = "code"`).
    static let definedCodes: [DiagnosticCode] = {
        let source = (try? String(
            contentsOf: repositoryRoot.appendingPathComponent("Sources/Patchbay/Diagnostics/DiagnosticCode.swift"),
            encoding: .utf8)) ?? ""
        return source.components(separatedBy: "\n").compactMap { line -> DiagnosticCode? in
            guard line.contains("public static let"), line.contains(": Self = \""),
                  let open = line.firstIndex(of: "\""), let close = line.lastIndex(of: "\""), open < close
            else { return nil }
            return DiagnosticCode(rawValue: String(line[line.index(after: open)..<close]))
        }
    }()

    /// The JSON `check` prints for `diagnostics`, listing every one or the first `limit`.
    static func printed(_ diagnostics: [Diagnostic], limit: Int? = nil) throws -> JSONValue {
        try json(CheckReport(diagnostics: diagnostics, manifestCount: 2, notes: [], requiredVariables: []).json(maxDiagnostics: limit))
    }

    @Test func everyCodeInEverySeverityAndPlaceMatchesTheSchema() throws {
        let schema = try Self.checker("check-output.schema.json")
        #expect(Self.definedCodes.count > 40, "read \(Self.definedCodes.count) codes from DiagnosticCode.swift")
        #expect(Self.definedCodes.contains(.startUpFailed) && Self.definedCodes.contains(.weakUnchecked))
        var all: [Diagnostic] = []
        for code in Self.definedCodes {
            for severity in [Diagnostic.Severity.error, .warning, .note] {
                // A place in a manifest, with a suggestion and a dependency path; a whole folder, at line 0.
                var placed = Diagnostic(code: code, severity: severity, message: "what is wrong and what to do",
                                        file: "Manifests/production.json", line: 7, column: 43, path: "/bindings/0/factory")
                placed.suggestion = "file-store"
                placed.dependencyPath = ["NoteService", "NoteStore"]
                let folder = Diagnostic(code: code, severity: severity, message: "of the whole folder",
                                        file: "Manifests", line: 0, column: 0, path: "")
                for diagnostic in [placed, folder] {
                    let document = try Self.printed([diagnostic])
                    #expect(try schema.errors(document) == [], "\(code) \(severity) at line \(diagnostic.line)")
                }
                all += [placed, folder]
            }
        }
        // Every one in one report, listed whole or cut short (summary.omitted, summary.notes).
        #expect(try schema.errors(Self.printed(all)) == [])
        #expect(try schema.errors(Self.printed(all, limit: 3)) == [])
    }

    /// Each case of the bad-manifest corpus, as `check --format json` would print it.
    @Test(arguments: BadManifestCorpus.cases)
    func theCorpusOutputMatchesTheSchema(_ testCase: BadManifestCase) throws {
        let (loaded, validated) = BadManifestCorpus.diagnostics(of: testCase)
        let document = try Self.printed(Diagnostic.sortedForDisplay(loaded + validated))
        #expect(try Self.checker("check-output.schema.json").errors(document) == [])
    }

    /// A real run of the command that prints a note (`weak-unchecked`) and a
    /// warning with no place in a file (`unused-factory` at the folder, line 0).
    @Test func aRunWithANoteAndAPlacelessWarningMatchesTheSchema() throws {
        let folder = try ManifestFolder(["development.json": #"""
            { "format": 1, "bindings": [ { "protocol": "Logger", "factory": "console", "lifetime": "weak" } ] }
            """#])
        var catalog = FactoryCatalog()
        catalog.register("console", provides: (any Docs.Logger).self) { Docs.Impl() }
        catalog.register("unused", provides: (any Docs.Clock).self) { Docs.Impl() }
        catalog.entryPoint((any Docs.Logger).self)
        // A description that records no registration places, given apart from
        // the folder: the unused factory has no place but the folder's.
        var description = catalog.describe()
        for index in description.factories.indices { description.factories[index].registeredAt = nil }
        let elsewhere = try ManifestFolder(["catalog.json": String(decoding: description.jsonData(), as: UTF8.self)])
        let standard = Collected<String>()
        let status = PatchbayCommandLine().run(
            ["check", "--format", "json", "--catalog", elsewhere.file("catalog.json").path, folder.url.path],
            output: .init(standard: standard.append, error: { _ in }))
        #expect(status == 0)
        let document = try Self.json(standard.all.joined())
        guard case .array(let diagnostics)? = document.objectValue?["diagnostics"] else {
            Issue.record("not a check document: \(document)")
            return
        }
        #expect(diagnostics.contains { $0.objectValue?["severity"] == .string("note") }, "\(document)")
        #expect(diagnostics.contains { $0.objectValue?["line"] == .integer(0) }, "\(document)")
        #expect(document.objectValue?["summary"]?.objectValue?["notes"] == .integer(1), "\(document)")
        #expect(try Self.checker("check-output.schema.json").errors(document) == [])
    }

    /// What only the app reports, from a real container, through the check's encoder.
    @Test func theAppsOwnCodesMatchTheSchema() async throws {
        struct Failure: Error {}
        struct Closer: AsyncShutdown { func shutdown() async throws { throw Failure() } }
        var catalog = FactoryCatalog()
        catalog.register("closer", provides: Closer.self, lifetime: .singleton) { Closer() }
        catalog.register("broken", provides: (any Docs.Clock).self, lifetime: .singleton) { () throws -> Docs.Impl in throw Failure() }
        let folder = try ManifestFolder(["development.json": #"""
            { "format": 1, "bindings": [ { "protocol": "Closer", "factory": "closer" },
                                         { "protocol": "Clock", "factory": "broken" } ] }
            """#])
        let container = try Container(catalog: catalog, manifests: ManifestDirectory(url: folder.url))
        var found: [Diagnostic] = []
        do { try container.makeSingletons() } catch { found += error.diagnostics }
        let closer = try #require(container.binding(for: Closer.self))
        found.append(closer.diagnostic(.startUpFailed, "could not start: refused"))
        do { try await container.shutdown() } catch { found += error.diagnostics }
        #expect(Set(found.map(\.code)) == [.singletonFailed, .startUpFailed, .shutdownFailed], "\(found)")
        #expect(try Self.checker("check-output.schema.json").errors(Self.printed(found)) == [])
    }

    // MARK: - Manifests

    /// Every manifest a folder holds (not catalog.json, not a schema).
    static func manifestFiles(in folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter(ManifestDirectory.isManifestFileName).sorted().map { folder.appendingPathComponent($0) }
    }

    /// The shipped, catalog-aware schema accepts each of the example's manifests,
    /// and the schema of each other package's description accepts its own.
    @Test func everyManifestOfTheRepositoryMatchesItsSchema() throws {
        let shipped = try Self.checker("manifest.schema.json")
        let plain = JSONSchemaChecker(ManifestSchema.schema())
        let examples = Self.manifestFiles(in: Self.manifests)
        #expect(examples.count >= 5)
        for file in examples {
            let manifest = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: file))
            #expect(try shipped.errors(manifest) == [], "\(file.lastPathComponent) against Manifests/manifest.schema.json")
        }
        // The server example's, by the schema of its own catalog.json, and the fixtures meant to be valid.
        let server = repositoryRoot.appendingPathComponent("Examples/NotesServer/Manifests")
        let serverCatalog = try CatalogDescription(jsonData: Data(contentsOf: server.appendingPathComponent("catalog.json")))
        let serverSchema = JSONSchemaChecker(ManifestSchema.schema(catalog: serverCatalog))
        let serverFiles = Self.manifestFiles(in: server)
        #expect(serverFiles.count >= 4)
        for file in serverFiles {
            let manifest = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: file))
            #expect(try serverSchema.errors(manifest) == [], "\(file.path)")
            #expect(try plain.errors(manifest) == [], "\(file.path)")
        }
        let fixtures = repositoryRoot.appendingPathComponent("Tests/Fixtures/Environments")
        let fixtureFolders = (try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? []
        var fixtureCount = 0
        for name in fixtureFolders.sorted() {
            for file in Self.manifestFiles(in: fixtures.appendingPathComponent(name).appendingPathComponent("Manifests"))
                + Self.manifestFiles(in: fixtures.appendingPathComponent(name)) {
                fixtureCount += 1
                let manifest = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: file))
                #expect(try plain.errors(manifest) == [], "\(file.path)")
            }
        }
        #expect(fixtureCount > 0)
    }

    /// The articles' valid manifests and the README's tour, by the plain schema (each names its own catalog's types).
    @Test(arguments: ["README.md"] + Docs.articles.map { "Sources/Patchbay/Patchbay.docc/\($0)" })
    func everyDocumentedManifestMatchesThePlainSchema(path: String) throws {
        let plain = JSONSchemaChecker(ManifestSchema.schema())
        for block in try markedBlocks(in: repositoryRoot.appendingPathComponent(path))
        where block.label.hasPrefix("manifest: ") || block.label == "tour: Manifests/development.json" {
            let manifest = try JSONDecoder().decode(JSONValue.self, from: Data(block.text.utf8))
            #expect(try plain.errors(manifest) == [], "\(path):\(block.line)")
        }
    }
}
