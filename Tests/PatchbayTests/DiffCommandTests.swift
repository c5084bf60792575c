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
        // The mailer's host, in primary: one difference, requested from primary and from
        // secondary, which falls back to primary.
        #expect(diff.changes.filter { $0.displayType == "Mailer" }.map(\.injectors) == [["primary", "secondary"]])
        // What both wire alike is not listed.
        #expect(!diff.changes.contains { $0.displayType == "Clock" || $0.displayType == "NoteService" })
        // Each side on its own: each injector's own bindings; the rest falls back.
        #expect(diff.to.injectors == ["primary", "secondary"])
        #expect(diff.to.entries.allSatisfy { $0.servedFrom == $0.injector })
        let mailer = try #require(diff.to.entry(for: "NotesKit.Mailer", from: "secondary"))
        #expect(mailer.injector == "secondary" && mailer.servedFrom == "primary" && mailer.bindings.first?.factory == "smtp-mailer")
        #expect(diff.to.entry(for: "NotesKit.Mailer", from: "fixtures") == nil)
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
        // The lifetime changed in primary, and so for secondary, which falls back to it: one difference.
        #expect(diff.changes.map { "\($0.displayType) \($0.injectors) \($0.kind)" }
            == [#"IDGenerator ["primary", "secondary"] changed"#])
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
        #expect(diff.changes.map(\.injectors) == [["primary", "secondary"]])
        #expect(diff.changes[0].after?.servedFrom == "primary")
        #expect(change.displayType == "[Plugin]" && change.injector == "primary")
        #expect(change.after?.isCollection == true)
        #expect(change.before?.bindings.map(\.factory) == ["audit-plugin", "metrics-plugin", "console-plugin"])
        #expect(change.after?.bindings[1].parameters == .object(["rate": .string("${RATE:-7}")]))
        #expect(diff.text().contains("""
            [Plugin] from primary, secondary
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
            Mailer from primary, secondary
              - smtp-mailer (transient, from primary) {"host":"smtp.staging.example.com","port":587}
              + smtp-mailer (transient, from primary) {"host":"${SMTP_HOST:-smtp.example.com}","port":587}

            """), "\(result.standard)")
        #expect(result.standard.hasSuffix("3 differences (3 changed)\n"))
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
        #expect(lines.filter { $0.hasPrefix("| <code>") }.count == 3)
        #expect(lines.contains { $0.hasPrefix("| <code>Mailer</code> | <code>primary, secondary</code> | ") })
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
        #expect(differences.count == 3)
        #expect(object["omitted"] as? Int == 0)
        let mailer = try #require(differences.first { $0["displayType"] as? String == "Mailer" })
        #expect(mailer["injector"] as? String == "primary" && mailer["injectors"] as? [String] == ["primary", "secondary"])
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

    // MARK: - The built command: what it reads, how much it prints (#52)

    /// Runs the built `patchbay` in `folder`.
    func patchbay(_ arguments: [String], in folder: URL? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProduct("patchbay", arguments, in: folder)
    }

    /// `types` types, each bound in primary alone, and primary, secondary and `injectors` custom ones:
    /// staging binds each to `old-<n>`, production to `new-<n>`, mirror as staging does. What
    /// `Benchmarks/Scripts/diff-amplification.py` writes at 1,000 × 1,000 for the benchmark.
    static func fanOut(types: Int, injectors: Int, extra: [String: String] = [:]) throws -> ManifestFolder {
        func manifest(_ environment: String, _ factory: String) -> String {
            let names = ["primary", "secondary"] + (0..<injectors).map { "c-" + Self.padded($0) }
            let bindings = (0..<types).map {
                #"    { "protocol": "T\#(Self.padded($0))", "factory": "\#(factory)-\#(Self.padded($0))", "parameters": { "value": \#($0) } }"#
            } + (extra[environment].map { [$0] } ?? [])
            return #"{ "format": 1, "environment": "\#(environment)", "injectors": ["#
                + names.map { "\"\($0)\"" }.joined(separator: ", ") + "],\n  \"bindings\": [\n"
                + bindings.joined(separator: ",\n") + "\n  ]\n}\n"
        }
        return try ManifestFolder([
            "staging.json": manifest("staging", "old"), "production.json": manifest("production", "new"),
            "mirror.json": manifest("mirror", "old"),
        ])
    }

    static func padded(_ number: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// The example's manifests in `root/Manifests`, but production.json, which is `production`.
    static func exampleBeside(_ root: URL, production: (URL) throws -> Void) throws -> URL {
        let manifests = root.appendingPathComponent("Manifests")
        try FileManager.default.createDirectory(at: manifests, withIntermediateDirectories: true)
        for file in try FileManager.default.contentsOfDirectory(atPath: exampleManifests.path)
        where file.hasSuffix(".json") && file != "production.json" {
            try FileManager.default.copyItem(
                at: exampleManifests.appendingPathComponent(file), to: manifests.appendingPathComponent(file))
        }
        try production(manifests.appendingPathComponent("production.json"))
        return manifests
    }

    /// The line `patchbay check Manifests` prints about production.json, run in `root`.
    func checksLine(aboutProductionIn root: URL) throws -> String {
        let check = try patchbay(["check", "Manifests"], in: root)
        #expect(check.status == 1)
        return try #require((check.stdout + check.stderr).split(separator: "\n").map(String.init).first {
            $0.contains("production.json") && $0.contains("error")
        }, "\(check)")
    }

    /// Check's line about `production.json` in `root`'s folder, which must say `reason`, and a diff
    /// from staging to production, which must refuse the file with exit 2 and that same line.
    func diffRefusesAsCheck(in root: URL, saying reason: String) throws -> (refusal: String, diff: (status: Int32, stdout: String, stderr: String)) {
        let refusal = try checksLine(aboutProductionIn: root)
        #expect(refusal.contains(reason), "\(refusal)")
        let diff = try patchbay(["diff", "Manifests", "--from", "staging", "--to", "production"], in: root)
        #expect(diff.status == 2)
        #expect(diff.stderr.contains(refusal + "\n"), "\(diff.stderr)")
        return (refusal, diff)
    }

    @Test func aManifestLinkedOutsideTheFolderIsNotReadAsCheckDoesNotReadIt() throws {
        let root = try ManifestFolder([
            "secret/creds.json": #"{ "format": 1, "bindings": [ { "protocol": "Clock", "factory": "hunter2-db-password" } ] }"#,
        ])
        _ = try Self.exampleBeside(root.url) {
            try FileManager.default.createSymbolicLink(atPath: $0.path, withDestinationPath: "../secret/creds.json")
        }
        // Check's own words, and nothing of the file outside.
        let (refusal, diff) = try diffRefusesAsCheck(in: root.url, saying: "not read: it is a link to a place outside the folder")
        #expect(!(diff.stdout + diff.stderr).contains("hunter2"))
        // The command it says to run is the folder's check, which refuses the link too: the file's
        // own check (`patchbay check Manifests/production.json`) follows it and printed "hunter2".
        #expect(diff.stderr.contains("fix it (`patchbay check Manifests`"), "\(diff.stderr)")
        let suggested = try patchbay(["check", "Manifests"], in: root.url)
        #expect(!(suggested.stdout + suggested.stderr).contains("hunter2"))
        // The other way round too, and one environment in two folders.
        let reversed = try patchbay(["diff", "Manifests", "--from", "production", "--to", "staging"], in: root.url)
        #expect(reversed.status == 2 && reversed.stderr.contains(refusal) && !reversed.stderr.contains("hunter2"))
        let twoFolders = try patchbay(["diff", exampleManifests.path, "Manifests", "--environment", "production"], in: root.url)
        #expect(twoFolders.status == 2 && twoFolders.stderr.contains(refusal) && !twoFolders.stderr.contains("hunter2"))
    }

    @Test func aManifestThatIsNoRegularFileIsRefusedAsCheckRefusesIt() throws {
        let root = try ManifestFolder([:])
        _ = try Self.exampleBeside(root.url) { fifo in
            let make = Process()
            make.executableURL = URL(fileURLWithPath: "/usr/bin/mkfifo")
            make.arguments = [fifo.path]
            try make.run()
            make.waitUntilExit()
            #expect(make.terminationStatus == 0)
        }
        _ = try diffRefusesAsCheck(in: root.url, saying: "not a regular file")
    }

    @Test func aLinkToNoFileIsReportedAsCheckReportsIt() throws {
        let root = try ManifestFolder([:])
        _ = try Self.exampleBeside(root.url) {
            try FileManager.default.createSymbolicLink(atPath: $0.path, withDestinationPath: "nowhere.json")
        }
        _ = try diffRefusesAsCheck(in: root.url, saying: "symbolic link that leads to no file")
    }

    @Test(arguments: ["text", "markdown", "json"])
    func theDifferencesListedAreBoundedInEveryFormat(format: String) throws {
        let folder = try Self.fanOut(types: 30, injectors: 8)
        let diff = try patchbay([
            "diff", folder.url.path, "--from", "staging", "--to", "production", "--format", format, "--max-differences", "4",
        ])
        #expect(diff.status == 1)
        let more = "... and 26 more differences not shown (26 changed); "
        switch format {
        case "json":
            let object = try #require(try JSONSerialization.jsonObject(with: Data(diff.stdout.utf8)) as? [String: Any])
            #expect((object["differences"] as? [Any])?.count == 4)
            #expect(object["omitted"] as? Int == 26)
            #expect(object["summary"] as? String == "30 differences (30 changed)")
        case "markdown":
            let lines = diff.stdout.split(separator: "\n").map(String.init)
            #expect(lines.filter { $0.hasPrefix("| <code>T00") }.count == 4)
            #expect(lines.contains(more + "`--max-differences N` lists N, `0` lists all."), "\(diff.stdout)")
            #expect(diff.stdout.contains("30 differences (30 changed)"))
        default:
            let lines = diff.stdout.split(separator: "\n").map(String.init)
            #expect(lines.filter { $0.hasPrefix("T00") }
                == (0..<4).map { "T000\($0) from primary, secondary, c-0000, c-0001, c-0002 and 5 more injectors" })
            #expect(lines.suffix(2) == [more + "--max-differences N lists N, 0 lists all", "30 differences (30 changed)"])
        }
    }

    @Test func theDefaultListsFiftyAndZeroListsAll() throws {
        let folder = try Self.fanOut(types: 60, injectors: 0)
        let arguments = ["diff", folder.url.path, "--from", "staging", "--to", "production"]
        let bounded = try patchbay(arguments)
        #expect(bounded.status == 1)
        #expect(bounded.stdout.split(separator: "\n").filter { $0.hasPrefix("T00") }.count == 50)
        #expect(bounded.stdout.contains("... and 10 more differences not shown (10 changed)"))
        let all = try patchbay(arguments + ["--max-differences", "0"])
        #expect(all.stdout.split(separator: "\n").filter { $0.hasPrefix("T00") }.count == 60)
        #expect(!all.stdout.contains("not shown") && all.stdout.hasSuffix("60 differences (60 changed)\n"))
        let wrong = try patchbay(arguments + ["--max-differences", "-1"])
        #expect(wrong.status == 2 && wrong.stderr.contains("invalid value '-1' for '--max-differences'"))
    }

    @Test func aDifferenceIsCountedOncePerTypeAndBindingNotPerInjector() throws {
        // T0001 is also bound by c-0003 in production: requests from it get another pair.
        let folder = try Self.fanOut(types: 3, injectors: 10, extra: [
            "production": #"    { "protocol": "T0001", "factory": "new-x", "injector": "c-0003" }"#,
        ])
        let diff = try patchbay(["diff", folder.url.path, "--from", "staging", "--to", "production", "--format", "json"])
        #expect(diff.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(diff.stdout.utf8)) as? [String: Any])
        let differences = try #require(object["differences"] as? [[String: Any]])
        let all = ["primary", "secondary"] + (0..<10).map { "c-000\($0)" }
        #expect(differences.map { "\($0["displayType"]!) \(($0["injectors"] as? [String])?.count ?? -1)" }
            == ["T0000 12", "T0001 11", "T0001 1", "T0002 12"])
        #expect(differences[0]["injectors"] as? [String] == all)
        #expect(differences[2]["injectors"] as? [String] == ["c-0003"])
        #expect(((differences[2]["to"] as? [String: Any])?["servedFrom"]) as? String == "c-0003")
        #expect(object["summary"] as? String == "4 differences (4 changed)")
        // Each side holds what its manifest binds, not every type from every injector.
        let wiring = try ManifestDiffer().diff(folder: folder.url, from: "staging", to: "production")
        #expect(wiring.from.entries.count == 3 && wiring.to.entries.count == 4)
        #expect(try ManifestDiffer().diff(folder: folder.url, from: "staging", to: "mirror").isEqual)
    }

    @Test func aCatalogOnOneSideOnlyComparesByQualifiedNames() throws {
        let old = try Self.exampleCopy()
        let new = try Self.exampleCopy()
        try FileManager.default.removeItem(at: new.file("catalog.json"))
        for (from, to) in [(old, new), (new, old)] {
            let diff = try patchbay(["diff", from.url.path, to.url.path, "--environment", "production"])
            #expect(diff.status == 0, "\(diff.stdout)")
            #expect(diff.stdout.hasSuffix("no differences\n"))
        }
        // A real change is still one, named as the catalog names it.
        let changed = try Self.exampleCopy(["production.json": {
            $0.replacingOccurrences(
                of: #"{ "protocol": "IDGenerator", "factory": "uuid-ids" }"#,
                with: #"{ "protocol": "IDGenerator", "factory": "uuid-ids", "lifetime": "singleton" }"#)
        }])
        try FileManager.default.removeItem(at: changed.file("catalog.json"))
        let diff = try patchbay(["diff", old.url.path, changed.url.path, "--environment", "production", "--format", "json"])
        #expect(diff.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(diff.stdout.utf8)) as? [String: Any])
        let differences = try #require(object["differences"] as? [[String: Any]])
        #expect(differences.map { $0["type"] as? String } == ["NotesKit.IDGenerator"])
    }

    @Test func anEmptyEnvironmentNameIsRefused() throws {
        let folder = try Self.exampleCopy()
        try FileManager.default.copyItem(at: folder.file("production.json"), to: folder.file(".json"))
        for arguments in [["--from", "", "--to", "production"], ["--from", "production", "--to", ""]] {
            let diff = try patchbay(["diff", folder.url.path] + arguments)
            #expect(diff.status == 2, "\(diff)")
            #expect(diff.stdout.isEmpty)
            #expect(diff.stderr.contains("the environment name is empty"), "\(diff.stderr)")
        }
        let twoFolders = try patchbay(["diff", folder.url.path, folder.url.path, "--environment", ""])
        #expect(twoFolders.status == 2 && twoFolders.stderr.contains("the environment name is empty"))
    }
}
