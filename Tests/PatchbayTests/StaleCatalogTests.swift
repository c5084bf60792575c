// A catalog.json older than the code it describes: the check names it stale
// and judges names by it no longer (warnings, not errors), so that renaming a
// factory in the code and the manifest does not fail the build that must run
// the test which refreshes the description.
import Foundation
import Testing
@testable import PatchbayTools
@testable import Patchbay

@Suite struct StaleCatalogTests {
    /// A package in a temporary folder: Package.swift, one module whose
    /// main.swift registers `greeter` on line 3, and Manifests/ with a
    /// manifest binding `factory` and the description of that registration.
    struct Package {
        let root: URL
        var manifests: URL { root.appendingPathComponent("Manifests") }
        var main: URL { root.appendingPathComponent("Sources/App/main.swift") }

        /// - Parameter environments: The environments the description says `greeter` may be bound in.
        init(binding factory: String, environments: [String]? = nil) throws {
            let files = FileManager.default
            root = files.temporaryDirectory.appendingPathComponent("patchbay-stale-\(UUID().uuidString)")
            try files.createDirectory(at: root.appendingPathComponent("Sources/App"), withIntermediateDirectories: true)
            try files.createDirectory(at: root.appendingPathComponent("Manifests"), withIntermediateDirectories: true)
            try "// swift-tools-version:6.0\n".write(
                to: root.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
            try "import Patchbay\nvar catalog = FactoryCatalog()\n    catalog.register(\"greeter\", provides: String.self) { \"hi\" }\n"
                .write(to: main, atomically: true, encoding: .utf8)
            var catalog = FactoryCatalog()
            catalog.register("greeter", provides: String.self) { "hi" }
            catalog.entryPoint(String.self)
            var description = catalog.describe()
            // As the app's binary describes it: by #fileID.
            description.factories[0].registeredAt = "App/main.swift:3"
            description.entryPoints?[0].declaredAt = "App/main.swift:2"
            description.factories[0].environments = environments
            try description.locatingSources(in: root).jsonData()
                .write(to: manifests.appendingPathComponent("catalog.json"))
            try #"{ "format": 1, "bindings": [ { "protocol": "String", "factory": "\#(factory)" } ] }"#
                .write(to: manifests.appendingPathComponent("development.json"), atomically: true, encoding: .utf8)
        }
    }

    @Test func aDescriptionWrittenInItsPackageNamesItsFilesAndTheirFingerprint() throws {
        let package = try Package(binding: "greeter")
        defer { try? FileManager.default.removeItem(at: package.root) }
        let description = try CatalogDescription(
            jsonData: Data(contentsOf: package.manifests.appendingPathComponent("catalog.json")))
        // The column is where the call's line starts, past its indentation.
        #expect(description.factories[0].registeredAt == "Sources/App/main.swift:3:5")
        #expect(description.entryPoints?[0].declaredAt == "Sources/App/main.swift:2:1")
        #expect(description.sources?.folders == ["Sources/App"])
        #expect(description.sources?.fingerprint.hasPrefix("fnv1a64:") == true)
        #expect(description.sources?.isCurrent(root: package.root) == true)
        let report = try ManifestChecker().check([package.manifests])
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
    }

    @Test func aChangedSourceMakesTheDescriptionStaleAndItsVerdictsWarnings() throws {
        let package = try Package(binding: "greeter-renamed")
        defer { try? FileManager.default.removeItem(at: package.root) }
        // Current: the unknown name is an error (and the factory it names is unused).
        let current = try ManifestChecker().check([package.manifests])
        #expect(current.diagnostics.map(\.code) == [.unknownFactory, .unusedFactory])
        #expect(current.diagnostics.first?.severity == .error)

        // The code changed (the factory renamed): the description is stale.
        let code = try String(contentsOf: package.main, encoding: .utf8)
        try code.replacingOccurrences(of: "\"greeter\"", with: "\"greeter-renamed\"")
            .write(to: package.main, atomically: true, encoding: .utf8)
        let stale = try ManifestChecker().check([package.manifests])
        #expect(!stale.failed(), "\(stale.diagnostics)")
        #expect(stale.failed(strict: true))
        // No factory is called unused by a description whose factories may have been renamed.
        let codes = stale.diagnostics.map(\.code)
        #expect(codes == [.staleCatalog, .unknownFactory], "\(stale.diagnostics)")
        let warning = try #require(stale.diagnostics.first { $0.code == .staleCatalog })
        #expect(warning.file.hasSuffix("Manifests/catalog.json") && warning.line == 1 && warning.column == 1)
        #expect(warning.message.contains("Sources/App changed since it was written"))
        #expect(warning.message.contains("refresh it with `swift test`"))
        let name = try #require(stale.diagnostics.first { $0.code == .unknownFactory })
        #expect(name.severity == .warning)
        #expect(name.message.hasSuffix("(judged by a catalog.json older than the code: see stale-catalog)"))
    }

    @Test func whatNeedsNoCatalogStaysAnErrorWhenTheDescriptionIsStale() throws {
        let package = try Package(binding: "greeter")
        defer { try? FileManager.default.removeItem(at: package.root) }
        try "// changed\n".write(to: package.main, atomically: true, encoding: .utf8)
        try #"{ "format": 1, "bindings": [ { "protocol": "String", "factory": "greeter", "lifetime": "forever" } ] }"#
            .write(to: package.manifests.appendingPathComponent("development.json"), atomically: true, encoding: .utf8)
        let report = try ManifestChecker().check([package.manifests])
        #expect(report.diagnostics.first { $0.code == .unknownLifetime }?.severity == .error, "\(report.diagnostics)")
        #expect(report.diagnostics.contains { $0.code == .staleCatalog })
    }

    /// A stale rule may be wrong either way, and the wrong way serves a test double in production:
    /// `environment-not-allowed` stays an error whatever the description's age (it was a warning, and
    /// `check` without `--strict` passed, after one comment added to the code).
    @Test func aStaleDescriptionNeverSoftensAnEnvironmentRule() throws {
        let package = try Package(binding: "greeter", environments: ["test"])
        defer { try? FileManager.default.removeItem(at: package.root) }
        let current = try ManifestChecker().check([package.manifests])
        #expect(current.diagnostics.map(\.code) == [.environmentNotAllowed], "\(current.diagnostics)")
        try (String(contentsOf: package.main, encoding: .utf8) + "// a comment\n")
            .write(to: package.main, atomically: true, encoding: .utf8)
        let stale = try ManifestChecker().check([package.manifests])
        #expect(stale.failed(), "\(stale.diagnostics)")
        let rule = try #require(stale.diagnostics.first { $0.code == .environmentNotAllowed })
        #expect(rule.severity == .error)
        #expect(rule.message.contains("refresh the description with `swift test`"))
        let note = try #require(stale.diagnostics.first { $0.code == .staleCatalog })
        #expect(note.message.contains("except the environments a factory may be bound in"))
        // The same through the command, without --strict.
        let command = try runProduct("patchbay", ["check", package.manifests.path])
        #expect(command.status == 1, "\(command)")
        #expect(command.stdout.contains("error: factory 'greeter' may not be bound in environment 'development'"))
    }

    @Test func aDescriptionCopiedAwayFromItsSourcesIsJudgedAsItIs() throws {
        let package = try Package(binding: "greeter-renamed")
        defer { try? FileManager.default.removeItem(at: package.root) }
        // Without the package's Sources: nothing to compare with, so not stale.
        try FileManager.default.removeItem(at: package.root.appendingPathComponent("Sources"))
        let report = try ManifestChecker().check([package.manifests])
        #expect(report.diagnostics.map(\.code) == [.unknownFactory, .unusedFactory])
        #expect(report.diagnostics.first?.severity == .error)
    }

    @Test func refreshingRewritesAFingerprintAloneWithoutFailing() throws {
        let package = try Package(binding: "greeter")
        defer { try? FileManager.default.removeItem(at: package.root) }
        let file = package.manifests.appendingPathComponent("catalog.json")
        var catalog = FactoryCatalog()
        catalog.register("greeter", provides: String.self) { "hi" }
        // This registration's #fileID is this file's, PatchbayTests/StaleCatalogTests.swift:
        // the package gets a module of that name, so the description can name its file.
        let module = package.root.appendingPathComponent("Sources/PatchbayTests")
        try FileManager.default.createDirectory(at: module, withIntermediateDirectories: true)
        let source = module.appendingPathComponent("StaleCatalogTests.swift")
        try String(repeating: "\n", count: 400).write(to: source, atomically: true, encoding: .utf8)
        #expect(throws: ManifestError.self) { try catalog.refreshDescription(at: file) }
        try catalog.refreshDescription(at: file)
        let before = try CatalogDescription(jsonData: Data(contentsOf: file))
        #expect(before.sources?.folders == ["Sources/PatchbayTests"])
        #expect(before.factories[0].registeredAt?.hasPrefix("Sources/PatchbayTests/StaleCatalogTests.swift:") == true)
        // A change to the code that the description does not see: rewritten, no failure.
        try (String(repeating: "\n", count: 400) + "// a comment\n").write(to: source, atomically: true, encoding: .utf8)
        try catalog.refreshDescription(at: file)
        let after = try CatalogDescription(jsonData: Data(contentsOf: file))
        #expect(after.factories == before.factories)
        #expect(after.sources?.fingerprint != before.sources?.fingerprint)
        #expect(after.sources?.isCurrent(root: package.root) == true)
    }

    @Test func theSchemaIsWrittenBesideTheDescriptionAndFailsOnce() throws {
        let package = try Package(binding: "greeter")
        defer { try? FileManager.default.removeItem(at: package.root) }
        var catalog = FactoryCatalog()
        catalog.register("greeter", provides: String.self) { "hi" }
        let file = package.manifests.appendingPathComponent("catalog.json")
        let schema = package.manifests.appendingPathComponent("manifest.schema.json")
        try? catalog.refreshDescription(at: file)
        // The description is current; the schema is missing: written, and the test fails once.
        let refreshed = try #require(throws: ManifestError.self) {
            try catalog.refreshDescription(at: file, schema: schema)
        }
        let stale = try #require(refreshed.diagnostics.only(.staleCatalog), "\(refreshed)")
        #expect(stale.message.hasPrefix("did not exist") && stale.file.hasSuffix("manifest.schema.json"), "\(refreshed)")
        let text = try String(contentsOf: schema, encoding: .utf8)
        #expect(text.contains(#""greeter""#))
        #expect(try Data(contentsOf: schema) == ManifestSchema.jsonData(catalog: CatalogDescription(jsonData: Data(contentsOf: file))))
        try catalog.refreshDescription(at: file, schema: schema)
    }
}
