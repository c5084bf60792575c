// Rule `environment-not-allowed`: a factory registered for some environments
// only (the example's test doubles: `fixed-clock`, `outbox-mailer`,
// `sequential-ids`) is refused in a manifest of another environment, with the
// same code at the same place by `patchbay check` with catalog.json (offline),
// by the check with the live catalog, and by the app's activation; in any
// injector, directly or through `extends`.
import Foundation
import NotesKit
import Testing
@testable import Patchbay

@Suite struct EnvironmentRuleTests {
    /// A valid wiring of every NotesKit type with factories allowed everywhere.
    static let base = """
        {
          "format": 1,
          "environment": "base",
          "bindings": [
            { "protocol": "NoteService", "factory": "note-service" },
            { "protocol": "NoteStore", "factory": "in-memory-store" },
            { "protocol": "Clock", "factory": "system-clock" },
            { "protocol": "Logger", "factory": "json-logger" },
            { "protocol": "Mailer", "factory": "smtp-mailer", "parameters": { "host": "localhost", "port": 25 } },
            { "protocol": "IDGenerator", "factory": "uuid-ids" }
          ]
        }
        """

    /// A manifest extending base.json, with `bindings` added and the `environment` line given (or none).
    static func child(environment: String?, _ bindings: String) -> String {
        """
        {
          "format": 1,\(environment.map { "\n  \"environment\": \"\($0)\"," } ?? "")
          "extends": "base.json",
          "bindings": [
        \(bindings)
          ]
        }
        """
    }

    static let fixedClock = #"    { "protocol": "Clock", "factory": "fixed-clock", "parameters": { "iso8601": "2026-01-01T09:00:00Z" } }"#
    static let fixedClockInSecondary = #"    { "protocol": "Clock", "factory": "fixed-clock", "injector": "secondary", "parameters": { "iso8601": "2026-01-01T09:00:00Z" } }"#

    /// `code line:column file` of each diagnostic of the three checks of `environment` in `folder`.
    static func threeVerdicts(_ folder: ManifestFolder, environment: String, catalog: FactoryCatalog = .notes)
        throws -> (offline: [String], live: [String], activation: [String])
    {
        try catalog.describe().jsonData().write(to: folder.file("catalog.json"))
        let file = folder.file("\(environment).json")
        let loader = ManifestLoader(environment: [:])
        let offline = try ManifestChecker(loader: loader).check([file]).diagnostics
        let live = try ManifestChecker(catalog: catalog, loader: loader).check([file]).diagnostics
        var activation: [Diagnostic] = []
        do {
            _ = try Container(catalog: catalog, manifests: ManifestDirectory(url: folder.url, loader: loader),
                              environment: environment)
        } catch {
            activation = error.diagnostics
        }
        func places(_ diagnostics: [Diagnostic]) -> [String] {
            diagnostics.filter { $0.severity == .error }
                .map { "\($0.code) \($0.line):\($0.column) \(($0.file as NSString).lastPathComponent)" }.sorted()
        }
        return (places(offline), places(live), places(activation))
    }

    @Test func aTestDoubleInProductionFailsAllThreeChecksAtTheBinding() throws {
        let folder = try ManifestFolder([
            "base.json": Self.base, "production.json": Self.child(environment: "production", Self.fixedClock),
        ])
        let verdicts = try Self.threeVerdicts(folder, environment: "production")
        #expect(verdicts.offline == ["environment-not-allowed 6:39 production.json"])
        #expect(verdicts.live == verdicts.offline)
        #expect(verdicts.activation == verdicts.offline)
    }

    @Test func theMessageNamesTheAllowedEnvironmentsAndTheFactoriesThatMayServe() throws {
        let folder = try ManifestFolder([
            "base.json": Self.base, "production.json": Self.child(environment: "production", Self.fixedClock),
        ])
        let report = try ManifestChecker(catalog: .notes, loader: ManifestLoader(environment: [:]))
            .check([folder.file("production.json")])
        let diagnostic = try #require(report.diagnostics.first { $0.code == .environmentNotAllowed })
        #expect(diagnostic.message.hasPrefix(
            "factory 'fixed-clock' may not be bound in environment 'production': it may be bound only in "
                + "'development', 'test', registered at NotesKit/NotesCatalog.swift:"))
        #expect(diagnostic.message.contains("factories that may serve Clock in 'production': 'system-clock'."))
        #expect(diagnostic.suggestion == "system-clock")
        #expect(diagnostic.path == "/bindings/0/factory")
    }

    @Test func aTestDoubleInSecondaryFailsToo() throws {
        let folder = try ManifestFolder([
            "base.json": Self.base, "staging.json": Self.child(environment: "staging", Self.fixedClockInSecondary),
        ])
        let verdicts = try Self.threeVerdicts(folder, environment: "staging")
        #expect(verdicts.offline == ["environment-not-allowed 6:39 staging.json"])
        #expect(verdicts.live == verdicts.offline)
        #expect(verdicts.activation == verdicts.offline)
    }

    @Test func aSharedBaseIsJudgedAsEachFileThatExtendsIt() throws {
        // base.json names its own environment, "base"; it binds the test double, which test.json may
        // use and production.json may not: the error is at base.json's binding, through production only.
        let base = Self.base.replacingOccurrences(
            of: #"{ "protocol": "Clock", "factory": "system-clock" }"#,
            with: #"{ "protocol": "Clock", "factory": "fixed-clock", "parameters": { "iso8601": "2026-01-01T09:00:00Z" } }"#)
        let folder = try ManifestFolder([
            "base.json": base,
            "production.json": Self.child(environment: "production", ""),
            "test.json": Self.child(environment: "test", ""),
        ])
        let production = try Self.threeVerdicts(folder, environment: "production")
        #expect(production.offline == ["environment-not-allowed 7:39 base.json"])
        #expect(production.live == production.offline)
        #expect(production.activation == production.offline)
        let test = try Self.threeVerdicts(folder, environment: "test")
        #expect(test.offline.isEmpty && test.live.isEmpty && test.activation.isEmpty)
        // The folder check reports the base once, through production, and nothing through test.
        let folderCheck = try ManifestChecker(catalog: .notes, loader: ManifestLoader(environment: [:])).check([folder.url])
        #expect(folderCheck.diagnostics.filter { $0.code == .environmentNotAllowed }.map(\.file).map {
            ($0 as NSString).lastPathComponent } == ["base.json"])
    }

    @Test func aManifestWithoutEnvironmentIsJudgedAsTheEnvironmentItIsLoadedAs() throws {
        // No "environment" in production.json, and base.json's ("base") is not production.json's own.
        let folder = try ManifestFolder([
            "base.json": Self.base, "production.json": Self.child(environment: nil, Self.fixedClock),
            "development.json": Self.child(environment: nil, Self.fixedClock),
        ])
        let production = try Self.threeVerdicts(folder, environment: "production")
        #expect(production.offline == ["environment-not-allowed 5:39 production.json"])
        #expect(production.live == production.offline)
        #expect(production.activation == production.offline)
        let development = try Self.threeVerdicts(folder, environment: "development")
        #expect(development.offline.isEmpty && development.live.isEmpty && development.activation.isEmpty)
    }

    @Test func allowedBindingsPass() throws {
        let folder = try ManifestFolder([
            "base.json": Self.base,
            "development.json": Self.child(environment: "development", Self.fixedClock),
            "test.json": Self.child(environment: "test", Self.fixedClockInSecondary),
        ])
        for environment in ["development", "test"] {
            let verdicts = try Self.threeVerdicts(folder, environment: environment)
            #expect(verdicts.offline.isEmpty && verdicts.live.isEmpty && verdicts.activation.isEmpty)
        }
        let container = try Container(
            catalog: .notes, manifests: ManifestDirectory(url: folder.url, loader: ManifestLoader(environment: [:])),
            environment: "development")
        #expect(container.binding(for: (any Clock).self)?.factory == "fixed-clock")
    }

    /// A catalog of one type with an `.except` factory, or the same factory for every environment.
    static func exceptCatalog(restricted: Bool) -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("real-greeting", provides: (any Greeting).self) { TextGreeting(text: "hello") }
        catalog.register(
            "debug-greeting", provides: (any Greeting).self, environments: restricted ? .except("production") : .all
        ) { TextGreeting(text: "debug") }
        return catalog
    }

    static let greetingManifest = """
        { "format": 1, "bindings": [ { "protocol": "Greeting", "factory": "debug-greeting" } ] }
        """

    @Test func theExceptFormRefusesOnlyTheEnvironmentsItNames() throws {
        let folder = try ManifestFolder(["production.json": Self.greetingManifest, "preview.json": Self.greetingManifest])
        let catalog = Self.exceptCatalog(restricted: true)
        let production = try Self.threeVerdicts(folder, environment: "production", catalog: catalog)
        #expect(production.offline == ["environment-not-allowed 1:67 production.json"])
        #expect(production.live == production.offline)
        #expect(production.activation == production.offline)
        let preview = try Self.threeVerdicts(folder, environment: "preview", catalog: catalog)
        #expect(preview.offline.isEmpty && preview.live.isEmpty && preview.activation.isEmpty)
        let report = try ManifestChecker(catalog: catalog).check([folder.file("production.json")])
        #expect(report.diagnostics.first?.message.contains("it may be bound in every environment except 'production'") == true)
    }

    @Test func anElementOfACollectionIsJudgedToo() throws {
        let folder = try ManifestFolder(["production.json": """
            { "format": 1, "bindings": [
              { "collection": "Greeting", "factory": "real-greeting" },
              { "collection": "Greeting", "factory": "debug-greeting", "injector": "secondary" }
            ] }
            """])
        let verdicts = try Self.threeVerdicts(folder, environment: "production", catalog: Self.exceptCatalog(restricted: true))
        #expect(verdicts.offline == ["environment-not-allowed 3:42 production.json"])
        #expect(verdicts.live == verdicts.offline)
        #expect(verdicts.activation == verdicts.offline)
    }

    @Test func theOfflineCheckAgreesWithTheLiveOneWithAndWithoutTheField() throws {
        let folder = try ManifestFolder(["production.json": Self.greetingManifest])
        let file = folder.file("production.json")
        for restricted in [true, false] {
            let catalog = Self.exceptCatalog(restricted: restricted)
            let data = try catalog.describe().jsonData()
            #expect(String(decoding: data, as: UTF8.self).contains("\"exceptEnvironments\"") == restricted)
            // Read back from its JSON, as `check --catalog` reads it.
            let description = try CatalogDescription(jsonData: data)
            let live = try ManifestChecker(catalog: catalog).check([file])
            let offline = try ManifestChecker(description: description).check([file])
            #expect(OneVerdictTests.places(live) == OneVerdictTests.places(offline))
            #expect(live.failed() == restricted)
            #expect(offline.failed() == restricted)
        }
    }

    @Test func theDescriptionRecordsEachForm() throws {
        let description = FactoryCatalog.notes.describe()
        let byName = Dictionary(uniqueKeysWithValues: description.factories.map { ($0.name, $0) })
        for name in ["fixed-clock", "outbox-mailer", "sequential-ids"] {
            #expect(byName[name]?.environments == ["development", "test"], "\(name)")
            #expect(byName[name]?.exceptEnvironments == nil)
        }
        #expect(byName["system-clock"]?.environments == nil)
        let except = Self.exceptCatalog(restricted: true).describe().factories.first { $0.name == "debug-greeting" }
        #expect(except?.exceptEnvironments == ["production"])
        #expect(except?.environmentRule == .except("production"))
    }

    @Test func aManifestMadeInCodeWithoutEnvironmentIsNotJudged() throws {
        let catalog = Self.exceptCatalog(restricted: true)
        let binding = Binding(protocol: "Greeting", factory: "debug-greeting")
        let container = try Container(catalog: catalog, manifest: Manifest(bindings: [binding]))
        #expect(container.binding(for: (any Greeting).self)?.factory == "debug-greeting")
        #expect(throws: ManifestError.self) {
            _ = try Container(catalog: catalog, manifest: Manifest(environment: "production", bindings: [binding]))
        }
    }

    @Test func rulesReadAsTheyAreWritten() {
        let doubles: FactoryEnvironments = ["development", "test"]
        #expect(doubles.allows("test") && !doubles.allows("production") && doubles.allows(nil))
        #expect(!FactoryEnvironments.except("production").allows("production"))
        #expect(FactoryEnvironments.except("production").allows("preview"))
        #expect(FactoryEnvironments.all.isAll && !doubles.isAll)
        #expect(doubles.description == "only development, test")
    }
}
