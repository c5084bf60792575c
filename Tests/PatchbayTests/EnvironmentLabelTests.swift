// Which environment a manifest is judged as: the one the app loads it as
// (its file's name in a folder, the name the app gives), never its
// `environment` label. A label that disagrees is `environment-label-mismatch`,
// and the test doubles it tried to let in are refused as the environment
// judged: by `patchbay check`, by the app's own check, at start-up, by a
// watched file's reload and by `patchbay diff`. (`production.json` labelled
// `test` passed all of them, and the app served a clock stuck in 2000.)
import Foundation
import NotesKit
import Testing
@testable import Patchbay

@Suite struct EnvironmentLabelTests {
    /// Labels that name another environment than `production`, as JSON text:
    /// the test doubles' own, a case, a trailing space, the empty name, a
    /// short form, and one with a zero-width space inside.
    static let otherLabels = [#""test""#, #""Production""#, #""production ""#, #""""#, #""prod""#, #""pro\u200Bduction""#]

    /// The example's manifests, with production.json labelled `label` (JSON
    /// text) and binding the three test doubles, the clock stuck in 2000.
    static func attackedExample(label: String) throws -> ManifestFolder {
        var files: [String: String] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: exampleManifests.path) where file.hasSuffix(".json") {
            files[file] = try String(contentsOf: exampleManifests.appendingPathComponent(file), encoding: .utf8)
        }
        files["production.json"] = """
            {
              "format": 1,
              "environment": \(label),
              "extends": "base.json",
              "bindings": [
                { "protocol": "NoteStore", "factory": "in-memory-store" },
                { "protocol": "Clock", "factory": "fixed-clock", "lifetime": "singleton",
                  "parameters": { "iso8601": "2000-01-01T00:00:00Z" } },
                { "protocol": "Logger", "factory": "console-logger", "parameters": { "prefix": "[x]" } },
                { "protocol": "Mailer", "factory": "outbox-mailer" },
                { "protocol": "IDGenerator", "factory": "sequential-ids", "parameters": { "prefix": "x-" } }
              ]
            }
            """
        return try ManifestFolder(files)
    }

    /// env-label, end to end: the check with catalog.json, the app's own check
    /// and the app itself all refuse production.json whatever its label says.
    @Test(arguments: otherLabels)
    func envLabelTheAppRefusesTestDoublesInProductionWhateverTheLabel(label: String) throws {
        let folder = try Self.attackedExample(label: label)
        let offline = try runProduct("patchbay", ["check", "--strict", "."], in: folder.url)
        #expect(offline.status == 1, "\(offline)")
        #expect(offline.stdout.contains("production.json:3:18: error: this manifest's 'environment' says"), "\(offline)")
        #expect(offline.stdout.components(separatedBy: "[environment-not-allowed]").count - 1 == 3, "\(offline)")
        let live = try runProduct("notes-example", ["patchbay", "check", "--strict", "."], in: folder.url)
        #expect(live.status == 1, "\(live)")
        #expect(live.stdout.contains("[environment-label-mismatch]"), "\(live)")
        #expect(live.stdout.components(separatedBy: "[environment-not-allowed]").count - 1 == 3, "\(live)")
        // The app, told the environment by PATCHBAY_ENV: refuses to start, serves nothing.
        let app = try runProduct("notes-example", ["--manifests", "."], in: folder.url,
            environment: ["PATCHBAY_ENV": "production"])
        #expect(app.status == 1, "\(app)")
        #expect(!app.stdout.contains("2000-01-01") && !app.stdout.contains("environment: production"), "\(app)")
        #expect(app.stderr.contains("[environment-label-mismatch]"), "\(app)")
        #expect(app.stderr.contains("factory 'fixed-clock' may not be bound in environment 'production'"), "\(app)")
        // The same through the 'environment:' argument.
        let named = try runProduct("notes-example", ["--manifests", ".", "--environment", "production"], in: folder.url)
        #expect(named.status == 1 && named.stderr.contains("[environment-label-mismatch]"), "\(named)")
    }

    /// `patchbay diff` judges each side as the environment named: it compared a
    /// production.json labelled `test` as if it passed, and `--from ""` read `.json`.
    @Test func diffJudgesEachSideAsTheEnvironmentNamed() throws {
        let folder = try Self.attackedExample(label: #""test""#)
        let diff = try runProduct("patchbay", ["diff", ".", "--from", "staging", "--to", "production"], in: folder.url)
        #expect(diff.status == 2, "\(diff)")
        #expect(diff.stderr.contains("[environment-label-mismatch]") && diff.stderr.contains("[environment-not-allowed]"))
        try #"{ "format": 1, "bindings": [] }"#.write(to: folder.file(".json"), atomically: true, encoding: .utf8)
        let empty = try runProduct("patchbay", ["diff", ".", "--from", "", "--to", "staging"], in: folder.url)
        #expect(empty.status == 2 && empty.stderr.contains("the empty name is not an environment"), "\(empty)")
    }

    /// The label that matches (escaped or not), or none, is no problem: production starts.
    @Test func aMatchingLabelOrNoneStarts() throws {
        for label in [#""environment": "production","#, #""environment": "produc\u0074ion","#, ""] {
            let folder = try Self.attackedExample(label: #""x""#)
            try """
                { "format": 1, \(label) "extends": "base.json", "bindings": [
                  { "protocol": "NoteStore", "factory": "in-memory-store" },
                  { "protocol": "Mailer", "factory": "smtp-mailer", "parameters": { "host": "h", "port": 25 } },
                  { "protocol": "IDGenerator", "factory": "uuid-ids" }
                ] }
                """.write(to: folder.file("production.json"), atomically: true, encoding: .utf8)
            let app = try runProduct("notes-example", ["--manifests", "."], in: folder.url,
                environment: ["PATCHBAY_ENV": "production"])
            #expect(app.status == 0, "\(app)")
            #expect(app.stdout.contains("environment: production"))
        }
    }

    /// A folder of one `.except(["production"])` factory, bound in production.json labelled `label`.
    static func exceptFolder(label: String) throws -> ManifestFolder {
        try ManifestFolder(["production.json": """
            { "format": 1, "environment": \(label),
              "bindings": [ { "protocol": "Greeting", "factory": "debug-greeting" } ] }
            """])
    }

    /// The `.except` form: every label but `production` let the factory in (the label was judged).
    @Test(arguments: otherLabels)
    func theExceptFormJudgesTheFileNotTheLabel(label: String) throws {
        let folder = try Self.exceptFolder(label: label)
        let catalog = EnvironmentRuleTests.exceptCatalog(restricted: true)
        let loader = ManifestLoader(environment: ["PATCHBAY_ENV": "production"])
        // The folder check, live and offline (catalog.json beside the manifest).
        let live = try ManifestChecker(catalog: catalog, loader: loader).check([folder.url])
        try catalog.describe().jsonData().write(to: folder.file("catalog.json"))
        let offline = try ManifestChecker(loader: loader).check([folder.url])
        for report in [live, offline] {
            let errors = report.diagnostics.filter { $0.severity == .error }.map { "\($0.code) \($0.line):\($0.column)" }
            #expect(errors.sorted() == ["environment-label-mismatch 1:31", "environment-not-allowed 2:54"], "\(report.diagnostics)")
        }
        // Activation: PATCHBAY_ENV, and the 'environment:' argument.
        let directory = ManifestDirectory(url: folder.url, loader: loader)
        let started = try #require(throws: ManifestError.self) {
            try Container(catalog: catalog, manifests: directory)
        }
        #expect(started.diagnostics.map(\.code.rawValue).sorted() == ["environment-label-mismatch", "environment-not-allowed"])
        #expect(throws: ManifestError.self) {
            try Container(catalog: catalog, manifests: ManifestDirectory(url: folder.url), environment: "production")
        }
        // Loaded, then activated: still judged as the name it was loaded by.
        let loaded = try directory.load()
        #expect(throws: ManifestError.self) { try Container(catalog: catalog, manifest: loaded) }
    }

    @Test func theMismatchNamesBothEnvironmentsAndTheFix() throws {
        let folder = try Self.exceptFolder(label: #""pro\u200Bduction""#)
        let report = try ManifestChecker(catalog: EnvironmentRuleTests.exceptCatalog(restricted: true))
            .check([folder.url])
        let mismatch = try #require(report.diagnostics.first { $0.code == .environmentLabelMismatch })
        // The zero-width space is shown, escaped, so the two names do not look the same.
        #expect(mismatch.message.hasPrefix(
            "this manifest's 'environment' says 'pro\\u{200B}duction', but it is loaded, and judged, as environment 'production'"),
            "\(mismatch.message)")
        #expect(mismatch.message.contains(#"Set "environment" to "production" or remove it"#))
        #expect(mismatch.path == "/environment" && mismatch.suggestion == "production")
    }

    /// A file loaded alone by its URL, no environment named, is judged as its
    /// label, else its name; a shared base's label is never judged.
    @Test func aLoneFileIsJudgedAsItsLabelElseItsName() throws {
        let catalog = EnvironmentRuleTests.exceptCatalog(restricted: true)
        let folder = try ManifestFolder([
            "app.json": #"{ "format": 1, "environment": "production", "bindings": [ { "protocol": "Greeting", "factory": "debug-greeting" } ] }"#,
            "production.JSON": #"{ "format": 1, "bindings": [ { "protocol": "Greeting", "factory": "debug-greeting" } ] }"#,
            "preview.json": #"{ "format": 1, "environment": "preview", "bindings": [ { "protocol": "Greeting", "factory": "debug-greeting" } ] }"#,
        ])
        for name in ["app.json", "production.JSON"] {
            let refused = try #require(throws: ManifestError.self) {
                try Container(catalog: catalog, manifestAt: folder.file(name))
            }
            #expect(refused.diagnostics.map(\.code) == [.environmentNotAllowed], "\(name)")
        }
        _ = try Container(catalog: catalog, manifestAt: folder.file("preview.json"))
    }

    /// A shared base labelled as another environment is judged as each file that extends it.
    @Test func aSharedBasesLabelIsNotJudged() throws {
        let folder = try ManifestFolder([
            "base.json": Self.base(label: "staging"),
            "production.json": #"{ "format": 1, "extends": "base.json", "bindings": [] }"#,
        ])
        let catalog = EnvironmentRuleTests.exceptCatalog(restricted: true)
        let report = try ManifestChecker(catalog: catalog).check([folder.url])
        #expect(report.diagnostics.filter { $0.severity == .error }.map(\.code) == [.environmentNotAllowed])
        #expect(report.diagnostics.first { $0.code == .environmentNotAllowed }?.file.hasSuffix("base.json") == true)
    }

    /// Known gap (found in #52's review): a file that another file of the folder
    /// extends is checked only through its children, yet the app loads it as
    /// its own environment by its name. `test.json` extending a `production.json`
    /// that binds the test doubles: both checks pass `--strict` (production.json is
    /// judged only as `test`), and `PATCHBAY_ENV=production` refuses to start,
    /// so the checks and the app give two verdicts. The app serves nothing; the
    /// CI check is green for a production that will not start.
    @Test func aProductionFileThatAnotherExtendsIsJudgedAsProduction() throws {
        var files: [String: String] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: exampleManifests.path) where file.hasSuffix(".json") {
            files[file] = try String(contentsOf: exampleManifests.appendingPathComponent(file), encoding: .utf8)
        }
        files["production.json"] = """
            { "format": 1, "extends": "base.json", "bindings": [
                { "protocol": "NoteStore", "factory": "in-memory-store" },
                { "protocol": "Clock", "factory": "fixed-clock", "parameters": { "iso8601": "2000-01-01T00:00:00Z" } },
                { "protocol": "Mailer", "factory": "outbox-mailer" },
                { "protocol": "IDGenerator", "factory": "sequential-ids", "parameters": { "prefix": "x-" } } ] }
            """
        files["test.json"] = #"{ "format": 1, "environment": "test", "extends": "production.json", "bindings": [] }"#
        let folder = try ManifestFolder(files)
        let app = try runProduct("notes-example", ["--manifests", "."], in: folder.url,
            environment: ["PATCHBAY_ENV": "production"])
        #expect(app.status == 1 && app.stderr.contains("[environment-not-allowed]"), "\(app)")
        let offline = try runProduct("patchbay", ["check", "--strict", "."], in: folder.url)
        withKnownIssue("a parent file is not judged as its own environment (see the doc comment)") {
            #expect(offline.status == 1, "\(offline)")
            #expect(offline.stdout.contains("[environment-not-allowed]"), "\(offline)")
        }
    }

    static func base(label: String) -> String {
        #"{ "format": 1, "environment": "\#(label)", "bindings": [ { "protocol": "Greeting", "factory": "debug-greeting" } ] }"#
    }

    /// Every file of a folder is judged as some environment, or refused by name:
    /// `.json` and `x.JSON` were checked and never judged (no environment loads them).
    @Test func aFileWhoseNameLoadsNoEnvironmentIsRefused() throws {
        let manifest = #"{ "format": 1, "bindings": [ { "protocol": "Greeting", "factory": "debug-greeting" } ] }"#
        let folder = try ManifestFolder([".json": manifest, "production.JSON": manifest, "preview.json": manifest])
        let report = try ManifestChecker(catalog: EnvironmentRuleTests.exceptCatalog(restricted: true)).check([folder.url])
        let refused = report.diagnostics.filter { $0.code == .environmentFileName }
        #expect(refused.map { ($0.file as NSString).lastPathComponent }.sorted() == [".json", "production.JSON"])
        #expect(refused.allSatisfy { $0.severity == .error })
        #expect(refused.first { $0.file.hasSuffix("production.JSON") }?.message.contains("rename it production.json") == true)
        #expect(report.manifestCount == 3)
        // The app: no environment name loads either of them.
        let directory = ManifestDirectory(url: folder.url)
        #expect(directory.environments() == ["preview"])
        for name in ["", "production", "Production"] {
            let error = try #require(throws: ManifestError.self) { try directory.url(forEnvironment: name) }
            #expect(error.diagnostics.map(\.code) == [.unknownEnvironment], "\(name)")
        }
    }

    /// One rule for names on every disk: the file is found by listing the
    /// folder, so `Production` finds no `production.json` on macOS's
    /// case-insensitive disk either, and `café` composed finds it decomposed.
    @Test func environmentNamesCompareExactlyAndByCanonicalEquivalence() throws {
        let manifest = #"{ "format": 1, "bindings": [] }"#
        let folder = try ManifestFolder(["production.json": manifest])
        try Data(manifest.utf8).write(to: folder.file("cafe\u{301}.json"))
        let directory = ManifestDirectory(url: folder.url)
        let error = try #require(throws: ManifestError.self) { try directory.url(forEnvironment: "Production") }
        #expect(error.diagnostics.first?.suggestion == "production")
        #expect(error.diagnostics.first?.message.contains("compare exactly, case included") == true)
        #expect(try directory.url(forEnvironment: "caf\u{E9}").lastPathComponent.unicodeScalars.count == "cafe\u{301}.json".unicodeScalars.count)
        // A label in the other normal form is the same environment: no mismatch.
        let labelled = try ManifestFolder(["caf\u{E9}.json": #"{ "format": 1, "environment": "cafe\u0301", "bindings": [] }"#])
        let report = try ManifestChecker().check([labelled.url])
        #expect(!report.diagnostics.contains { $0.code == .environmentLabelMismatch }, "\(report.diagnostics)")
    }

    /// `café` composed and decomposed is one environment: listed once in a
    /// rule, and two files of one environment in a folder are refused.
    @Test func oneEnvironmentInTwoNormalFormsIsOne() throws {
        let rule = FactoryEnvironments.only("caf\u{E9}", "cafe\u{301}")
        #expect(rule.allowed?.count == 1 && rule.description == "only caf\u{E9}")
        #expect(FactoryEnvironments.except(["caf\u{E9}", "cafe\u{301}"]).excluded.count == 1)
        let manifest = #"{ "format": 1, "bindings": [] }"#
        let folder = try ManifestFolder(["caf\u{E9}.json": manifest])
        try Data(manifest.utf8).write(to: folder.file("cafe\u{301}.json"))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        // A disk that normalizes names (macOS's HFS+) keeps one file; Linux's keep two.
        guard names.count == 2 else { return }
        #expect(ManifestDirectory(url: folder.url).environments().count == 1)
        let report = try ManifestChecker().check([folder.url])
        #expect(report.diagnostics.filter { $0.code == .environmentFileName }.count == 1, "\(report.diagnostics)")
    }

    /// The empty list reads as what it means.
    @Test func anEmptyListReadsAsNoManifestMayBindIt() throws {
        var catalog = FactoryCatalog()
        catalog.register("nowhere", provides: (any Greeting).self, environments: []) { TextGreeting(text: "x") }
        let folder = try ManifestFolder(["production.json": #"{ "format": 1, "bindings": [ { "protocol": "Greeting", "factory": "nowhere" } ] }"#])
        let report = try ManifestChecker(catalog: catalog).check([folder.url])
        let message = try #require(report.diagnostics.first { $0.code == .environmentNotAllowed }).message
        #expect(message.contains("may not be bound in environment 'production': it is limited to no environment, so no manifest may bind it"), "\(message)")
        #expect(FactoryEnvironments.only([]).description == "limited to no environment")
    }

    /// A watched file's reload is judged as the environment the app named, whatever its new label says.
    @Test func aReloadIsJudgedAsTheEnvironmentTheAppNamed() async throws {
        let folder = try ManifestFolder(["production.json": Self.greeting("real-greeting", label: "production")])
        let catalog = EnvironmentRuleTests.exceptCatalog(restricted: true)
        let container = try Container(catalog: catalog, manifests: ManifestDirectory(url: folder.url), environment: "production")
        let rejected = RejectedReloads()
        let watch = container.watch(folder.file("production.json"), onChange: rejected.note)
        defer { watch.cancel() }
        try Data(Self.greeting("debug-greeting", label: "preview").utf8).write(to: folder.file("production.json"))
        let deadline = Date().addingTimeInterval(10)
        while rejected.codes.isEmpty, Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(rejected.codes.sorted { $0.rawValue < $1.rawValue } == [.environmentLabelMismatch, .environmentNotAllowed])
        #expect(container.binding(for: (any Greeting).self)?.factory == "real-greeting")
    }

    /// A file loaded alone by its URL is judged as its label, else its name, at start-up, and each
    /// reload as what it started as: editing one word of a running production's file
    /// (`"environment": "preview"`) must not make it serve a test double (found in #52's review).
    @Test(arguments: [#""production""#, "null"])
    func aReloadOfAFileLoadedAloneIsJudgedAsTheEnvironmentItStartedAs(label: String) async throws {
        let started = label == "null"
            ? #"{ "format": 1, "bindings": [ { "protocol": "Greeting", "factory": "real-greeting" } ] }"#
            : Self.greeting("real-greeting", label: "production")
        let folder = try ManifestFolder(["production.json": started])
        let catalog = EnvironmentRuleTests.exceptCatalog(restricted: true)
        let container = try Container(catalog: catalog, manifestAt: folder.file("production.json"))
        let rejected = RejectedReloads()
        let watch = container.watch(folder.file("production.json"), onChange: rejected.note)
        defer { watch.cancel() }
        try Data(Self.greeting("debug-greeting", label: "preview").utf8).write(to: folder.file("production.json"))
        let deadline = Date().addingTimeInterval(10)
        while rejected.codes.isEmpty, container.binding(for: (any Greeting).self)?.factory == "real-greeting",
            Date() < deadline {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        #expect(rejected.codes.sorted { $0.rawValue < $1.rawValue } == [.environmentLabelMismatch, .environmentNotAllowed])
        #expect(container.binding(for: (any Greeting).self)?.factory == "real-greeting")
    }

    static func greeting(_ factory: String, label: String) -> String {
        #"{ "format": 1, "environment": "\#(label)", "bindings": [ { "protocol": "Greeting", "factory": "\#(factory)" } ] }"#
    }
}

/// The codes of the first reload a watch rejected, from its queue.
private final class RejectedReloads: Sendable {
    private let stored = Locked<[DiagnosticCode]>([])
    var codes: [DiagnosticCode] { stored.withLock { $0 } }

    @Sendable func note(_ event: ManifestReloadEvent) {
        guard case .rejected(let diagnostics) = event else { return }
        stored.withLock { if $0.isEmpty { $0 = diagnostics.errors.map(\.code) } }
    }
}
