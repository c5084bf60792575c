// `patchbay diff` and the library call behind it (ManifestDiffer): two
// environments of one folder, one environment in two folders, a change seen
// only once `extends` is merged, an injector fallback that changes, the three
// formats and the exit statuses.
import Foundation
import NotesKit
import Testing
@testable import Patchbay
@testable import PatchbayTools

@Suite struct DiffCommandTests {
    struct Run {
        let status: Int32
        let standard: String
        let error: String
    }

    func run(_ arguments: [String], catalog: FactoryCatalog? = nil) -> Run {
        let standard = Collected<String>(), error = Collected<String>()
        let status = PatchbayCommandLine(catalog: catalog, loader: ManifestLoader(environment: ["NOTES_DIR": "/srv"]))
            .run(arguments, output: .init(standard: standard.append, error: error.append))
        return Run(status: status, standard: standard.all.joined(), error: error.all.joined())
    }

    /// A copy of the example's manifests (and catalog.json), with `edit` applied to the named files' text.
    static func exampleCopy(_ edits: [String: (String) -> String] = [:]) throws -> ManifestFolder {
        var files: [String: String] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: exampleManifests.path) where file.hasSuffix(".json") {
            let text = try String(contentsOf: exampleManifests.appendingPathComponent(file), encoding: .utf8)
            files[file] = edits[file].map { $0(text) } ?? text
        }
        return try ManifestFolder(files)
    }

    /// The example's folder, and its files as diagnostics and the diff name them.
    static let folder = exampleManifests.path
    static func display(_ environment: String) -> String {
        ManifestLoader.displayPath(for: exampleManifests.appendingPathComponent("\(environment).json"))
    }

    // MARK: - What is compared

    @Test func twoEnvironmentsOfTheExample() throws {
        let diff = try ManifestDiffer(catalog: .notes).diff(folder: exampleManifests, from: "staging", to: "production")
        #expect(!diff.isEqual)
        #expect(diff.from.label == "staging" && diff.to.label == "production")
        // The store's path differs as written: ${NOTES_DIR:-...} stays, the environment is not read.
        let store = try #require(diff.changes.first { $0.displayType == "NoteStore" && $0.injector == "primary" })
        #expect(store.kind == "changed")
        #expect(store.before?.bindings.first?.parameters == .object(["path": .string("${NOTES_DIR:-/tmp/patchbay-notes}/staging.json")]))
        #expect(store.after?.bindings.first?.parameters == .object(["path": .string("${NOTES_DIR:-/tmp/patchbay-notes}/production.json")]))
        // The mailer's host, in primary and in secondary, which falls back to primary.
        #expect(diff.changes.filter { $0.displayType == "Mailer" }.map(\.injector) == ["primary", "secondary"])
        // What both wire alike is not listed.
        #expect(!diff.changes.contains { $0.displayType == "Clock" || $0.displayType == "NoteService" })
        // Each side on its own: the full wiring, every type from every injector.
        #expect(diff.to.entries.count == 12)
        #expect(diff.to.injectors == ["primary", "secondary"])
    }

    @Test func anEnvironmentComparedWithItselfIsEqual() throws {
        let diff = try ManifestDiffer(catalog: .notes).diff(folder: exampleManifests, from: "production", to: "production")
        #expect(diff.isEqual)
        #expect(diff.changes.isEmpty)
        #expect(diff.summary == "no differences")
    }

    @Test func oneEnvironmentInTwoFolders() throws {
        let old = try Self.exampleCopy()
        let new = try Self.exampleCopy(["production.json": {
            $0.replacingOccurrences(
                of: #"{ "protocol": "IDGenerator", "factory": "uuid-ids" }"#,
                with: #"{ "protocol": "IDGenerator", "factory": "uuid-ids", "lifetime": "singleton" }"#)
        }])
        let differ = ManifestDiffer()  // catalog.json beside each side
        let diff = try differ.diff(from: old.url, to: new.url, environment: "production")
        #expect(diff.from.label.hasSuffix("production.json") && diff.from.label != diff.to.label)
        // The lifetime changed in primary, and so for secondary, which falls back to it.
        #expect(diff.changes.map { "\($0.displayType) \($0.injector) \($0.kind)" }
            == ["IDGenerator primary changed", "IDGenerator secondary changed"])
        #expect(diff.changes[0].before?.bindings.first?.lifetime == "transient")
        #expect(diff.changes[0].after?.bindings.first?.lifetime == "singleton")
        #expect(try differ.diff(from: old.url, to: old.url, environment: "production").isEqual)
    }

    @Test func aChangeOnlyVisibleAfterExtends() throws {
        // base.json's logger prefix changes: no environment file changed, but development (which
        // keeps base's Logger) is wired differently; production (which replaces it) is not.
        let old = try Self.exampleCopy()
        let new = try Self.exampleCopy(["base.json": { $0.replacingOccurrences(of: "[notes]", with: "[notes-v2]") }])
        let differ = ManifestDiffer(catalog: .notes)
        let development = try differ.diff(from: old.url, to: new.url, environment: "development")
        let logger = try #require(development.changes.first)
        #expect(development.changes.count == 1)
        #expect(logger.displayType == "Logger" && logger.injector == "primary")
        #expect(logger.before?.bindings.first?.parameters == .object(["prefix": .string("[notes]")]))
        #expect(logger.after?.bindings.first?.parameters == .object(["prefix": .string("[notes-v2]")]))
        #expect(try differ.diff(from: old.url, to: new.url, environment: "production").isEqual)
    }

    @Test func anInjectorFallbackThatChanges() throws {
        // Production's secondary NoteStore is removed: a request from secondary now falls back to primary.
        let old = try Self.exampleCopy()
        let new = try Self.exampleCopy(["production.json": {
            $0.replacingOccurrences(
                of: #"    { "protocol": "NoteStore", "factory": "in-memory-store", "injector": "secondary" },"# + "\n",
                with: "")
        }])
        let diff = try ManifestDiffer(catalog: .notes).diff(from: old.url, to: new.url, environment: "production")
        #expect(diff.changes.count == 1)
        let change = try #require(diff.changes.first)
        #expect(change.displayType == "NoteStore" && change.injector == "secondary")
        #expect(change.before?.servedFrom == "secondary" && change.before?.bindings.first?.factory == "in-memory-store")
        #expect(change.after?.servedFrom == "primary" && change.after?.bindings.first?.factory == "file-store")
    }

    @Test func aCollectionAndACustomInjector() throws {
        // test.json has a custom injector, `fixtures`; adding one to production changes its injector order.
        let old = try Self.exampleCopy()
        let new = try Self.exampleCopy(["production.json": {
            $0.replacingOccurrences(of: #""extends": "base.json","#,
                                    with: #""extends": "base.json", "injectors": ["primary", "secondary", "audit"],"#)
        }])
        let diff = try ManifestDiffer(catalog: .notes).diff(from: old.url, to: new.url, environment: "production")
        #expect(!diff.isEqual)
        #expect(diff.to.injectors == ["primary", "secondary", "audit"])
        // Every type is now requested from `audit` too, each falling back to primary.
        #expect(diff.changes.allSatisfy { $0.kind == "added" && $0.injector == "audit" && $0.after?.servedFrom == "primary" })
        #expect(diff.changes.count == 6)
        #expect(diff.summary == "7 differences (6 added, injector order changed)")
    }

    @Test func aCollectionsElementsAreComparedInOrder() throws {
        let old = try ManifestFolder(["production.json": CollectionTests.pluginsManifest])
        let new = try ManifestFolder(["production.json": CollectionTests.pluginsManifest.replacingOccurrences(
            of: #""rate": 5"#, with: #""rate": "${RATE:-7}""#)])
        let differ = ManifestDiffer(catalog: Plugins.catalog())
        let diff = try differ.diff(from: old.url, to: new.url, environment: "production")
        let change = try #require(diff.changes.first)
        // From primary, and from secondary, which has no elements of its own and falls back to primary's.
        #expect(diff.changes.map(\.injector) == ["primary", "secondary"])
        #expect(diff.changes[1].after?.servedFrom == "primary")
        #expect(change.displayType == "[Plugin]" && change.injector == "primary")
        #expect(change.after?.isCollection == true)
        #expect(change.before?.bindings.map(\.factory) == ["audit-plugin", "metrics-plugin", "console-plugin"])
        #expect(change.after?.bindings[1].parameters == .object(["rate": .string("${RATE:-7}")]))
        #expect(diff.text().contains("""
            [Plugin] from primary
              - audit-plugin (singleton, from primary)
              - metrics-plugin (transient, from primary) {"rate":5}
              - console-plugin (transient, from primary)
              + audit-plugin (singleton, from primary)
              + metrics-plugin (transient, from primary) {"rate":"${RATE:-7}"}
            """))
    }

    // MARK: - Formats

    @Test func textFormat() {
        let result = run(["diff", Self.folder, "--from", "staging", "--to", "production"], catalog: .notes)
        #expect(result.status == 1)
        #expect(result.standard.hasPrefix("""
            --- staging (\(Self.display("staging")))
            +++ production (\(Self.display("production")))
            Logger from secondary
              - console-logger (transient, from secondary) {"prefix":"[staging]"}
              + console-logger (transient, from secondary) {"prefix":"[fallback]"}
            Mailer from primary
              - smtp-mailer (transient, from primary) {"host":"smtp.staging.example.com","port":587}
              + smtp-mailer (transient, from primary) {"host":"${SMTP_HOST:-smtp.example.com}","port":587}

            """), "\(result.standard)")
        #expect(result.standard.hasSuffix("4 differences (4 changed)\n"))
        #expect(result.error.isEmpty)
    }

    @Test func markdownFormat() {
        let result = run(["diff", Self.folder, "--from", "staging", "--to", "production", "--format", "markdown"],
                         catalog: .notes)
        #expect(result.status == 1)
        let lines = result.standard.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "### Wiring: <code>staging</code> → <code>production</code>")
        #expect(lines.contains("| Type | Requested from | <code>staging</code> | <code>production</code> |"))
        #expect(lines.contains(
            "| <code>Logger</code> | <code>secondary</code> | "
                + "<code>console-logger (transient, from secondary) {&quot;prefix&quot;:&quot;&#91;staging&#93;&quot;}</code> | "
                + "<code>console-logger (transient, from secondary) {&quot;prefix&quot;:&quot;&#91;fallback&#93;&quot;}</code> |"))
        // One row per difference, after the header and its rule.
        #expect(lines.filter { $0.hasPrefix("| <code>") }.count == 4)
    }

    @Test func markdownEscapesWhatAManifestWrites() {
        let text = WiringDiff.code("a|b`c<script>\n")
        #expect(text == "<code>a&#124;b&#96;c&lt;script&gt;&#92;n</code>")
    }

    @Test func jsonFormat() throws {
        let result = run(["diff", "--format=json", Self.folder, "--from", "staging", "--to", "production"], catalog: .notes)
        #expect(result.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standard.utf8)) as? [String: Any])
        #expect(object["equal"] as? Bool == false)
        #expect((object["from"] as? [String: Any])?["label"] as? String == "staging")
        let differences = try #require(object["differences"] as? [[String: Any]])
        #expect(differences.count == 4)
        let logger = try #require(differences.first { $0["displayType"] as? String == "Logger" })
        #expect(logger["type"] as? String == "NotesKit.Logger")
        #expect(logger["change"] as? String == "changed")
        let to = try #require(logger["to"] as? [String: Any])
        #expect(to["servedFrom"] as? String == "secondary")
        let served = try #require((to["bindings"] as? [[String: Any]])?.first)
        #expect(served["factory"] as? String == "console-logger")
        #expect((served["parameters"] as? [String: Any])?["prefix"] as? String == "[fallback]")
    }

    // MARK: - Exit statuses

    @Test func equalExitsZeroWithTheSummary() {
        let result = run(["diff", Self.folder, "--from", "production", "--to", "production"])
        #expect(result.status == 0)
        #expect(result.standard.hasSuffix("no differences\n"))
    }

    @Test func aManifestThatFailsTheCheckPrintsItsDiagnosticsAndExitsTwo() throws {
        let broken = try Self.exampleCopy(["production.json": {
            $0.replacingOccurrences(
                of: #"{ "protocol": "IDGenerator", "factory": "uuid-ids" }"#,
                with: #"{ "protocol": "IDGenerator", "factory": "sequential-ids" }"#)
        }])
        let result = run(["diff", broken.url.path, "--from", "staging", "--to", "production"])
        #expect(result.status == 2)
        #expect(result.standard.isEmpty)
        #expect(result.error.contains("production.json:12:45: error: factory 'sequential-ids' may not be bound in "
            + "environment 'production'"), "\(result.error)")
        #expect(result.error.contains("[environment-not-allowed]"))
        #expect(result.error.contains("Error: "))
        #expect(result.error.contains("does not pass the check (1 error), so its wiring cannot be compared"))
    }

    @Test func couldNotRunExitsTwo() {
        let unknown = run(["diff", Self.folder, "--from", "staging", "--to", "prod"])
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("did you mean 'production'?"))
        let noEnvironment = run(["diff", "a", "b"])
        #expect(noEnvironment.status == 2)
        #expect(noEnvironment.error.contains("name the environment to compare with --environment ENV"))
        let badFormat = run(["diff", Self.folder, "--from", "a", "--to", "b", "--format", "html"])
        #expect(badFormat.status == 2)
        #expect(badFormat.error.contains("invalid value 'html' for '--format'"))
        let help = run(["diff", "--help"])
        #expect(help.status == 0 && help.standard.contains("EXIT STATUS: 0 the wirings are the same; 1 they differ; 2"))
    }
}
