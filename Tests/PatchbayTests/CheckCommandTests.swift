// End-to-end tests of `patchbay check`: the built binary is run as a user runs
// it, and its output and exit status are checked, as swift-argument-parser
// tests its example tools.
import Foundation
import NotesKit
import Testing
@testable import Patchbay
@testable import PatchbayTools

/// Runs a built executable (found as BuiltProducts.swift says) and returns its exit status and output.
func runProduct(_ name: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:])
    throws -> (status: Int32, stdout: String, stderr: String)
{
    let process = Process()
    process.executableURL = try builtProduct(name)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    if let directory { process.currentDirectoryURL = directory }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
}

/// The repository root, where `Manifests/` is.
let repositoryRoot = exampleManifests.deletingLastPathComponent()

@Suite struct CheckCommandTests {
    /// A copy of the example manifests with one file broken, for the command to read.
    func brokenFolder() throws -> ManifestFolder {
        var files: [String: String] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: exampleManifests.path) where file.hasSuffix(".json") {
            files[file] = try String(contentsOf: exampleManifests.appendingPathComponent(file), encoding: .utf8)
        }
        files["production.json"] = files["production.json"]!
            .replacingOccurrences(of: "\"factory\": \"file-store\",", with: "\"factory\": \"file-stor\",")
        files["staging.json"] = files["staging.json"]!
            .replacingOccurrences(of: "\"environment\": \"staging\",", with: "\"environment\": \"staging\", \"injector\": [],")
        return try ManifestFolder(files)
    }

    /// Run from another folder than the package's root, in text and, with
    /// `GITHUB_WORKSPACE` set as a GitHub job sets it, in GitHub's format:
    /// every place printed (manifests, the catalog's sources, "declared at")
    /// is a file that opens from where the command ran, or from the workspace.
    @Test func aCheckFromAnotherFolderPrintsPlacesThatOpen() throws {
        let files = FileManager.default
        let parent = files.temporaryDirectory.appendingPathComponent("patchbay-elsewhere-\(UUID().uuidString)")
        defer { try? files.removeItem(at: parent) }
        let workspace = parent.appendingPathComponent("workspace"), elsewhere = parent.appendingPathComponent("elsewhere")
        try files.createDirectory(at: workspace.appendingPathComponent("Sources"), withIntermediateDirectories: true)
        try files.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        for part in ["Package.swift", "Manifests", "Sources/NotesKit"] {
            try files.copyItem(at: repositoryRoot.appendingPathComponent(part), to: workspace.appendingPathComponent(part))
        }
        // A misspelled factory, json-logger bound nowhere (unused-factory, at its
        // registration), and NoteService bound nowhere (unbound-entry-point, "declared at").
        let manifests = workspace.appendingPathComponent("Manifests")
        for name in try files.contentsOfDirectory(atPath: manifests.path) where ManifestDirectory.isManifestFileName(name) {
            let url = manifests.appendingPathComponent(name)
            let text = try String(contentsOf: url, encoding: .utf8)
            try text.replacingOccurrences(of: #""factory": "file-store","#, with: #""factory": "file-stor","#)
                .replacingOccurrences(of: #""factory": "json-logger""#, with: #""factory": "console-logger""#)
                .replacingOccurrences(of: #"    { "protocol": "NoteService", "factory": "note-service", "lifetime": "singleton" },"#,
                                      with: "")
                .write(to: url, atomically: true, encoding: .utf8)
        }

        let text = try runProduct("patchbay", ["check", "../workspace/Manifests"], in: elsewhere)
        #expect(text.status == 1)
        let places = printedLocations(in: text.stdout)
        // Outside the current folder, a place is absolute.
        #expect(places.contains(manifests.appendingPathComponent("production.json").path), "\(text.stdout)")
        #expect(places.contains(workspace.appendingPathComponent("Sources/NotesKit/NotesCatalog.swift").path), "\(text.stdout)")
        #expect(Set(text.stdout.split(separator: "\n").map { $0.split(separator: " ")[0] }.filter { $0.hasSuffix(":") })
            .count >= 3, "\(text.stdout)")
        #expect(text.stdout.contains("declared at \(workspace.path)/Sources/NotesKit/NotesCatalog.swift:"), "\(text.stdout)")
        #expect(unopenableLocations(in: text.stdout, from: elsewhere).isEmpty, "\(text.stdout)")

        let github = try runProduct(
            "patchbay", ["check", "--format", "github", manifests.path], in: elsewhere,
            environment: ["GITHUB_WORKSPACE": workspace.path])
        #expect(github.status == 1)
        #expect(github.stdout.contains("::error file=Manifests/production.json,line=7,col=43,title=unknown-factory::"),
                "\(github.stdout)")
        // The registration's line, read from the source, so the test follows edits of the catalog.
        let catalogSource = try String(
            contentsOf: workspace.appendingPathComponent("Sources/NotesKit/NotesCatalog.swift"), encoding: .utf8)
        let jsonLoggerLine = try #require(
            catalogSource.split(separator: "\n", omittingEmptySubsequences: false)
                .firstIndex { $0.contains(#""json-logger""#) }) + 1
        #expect(github.stdout.contains(
            "::warning file=Sources/NotesKit/NotesCatalog.swift,line=\(jsonLoggerLine),col=9,title=unused-factory::"),
                "\(github.stdout)")
        #expect(unopenableLocations(in: github.stdout, from: workspace).isEmpty, "\(github.stdout)")
        #expect(!github.stdout.contains("file=catalog,") && !github.stdout.contains("file=/"), "\(github.stdout)")
    }

    @Test func theExampleFolderPassesWithOnlyTheSummary() throws {
        let result = try runProduct("patchbay", ["check", "Manifests"], in: repositoryRoot)
        #expect(result.status == 0)
        #expect(result.stdout == "0 errors, 0 warnings in 5 manifests\n")
        #expect(result.stderr.isEmpty)
    }

    @Test func problemsExitOneInTheCompilersFormat() throws {
        let folder = try brokenFolder()
        let result = try runProduct("patchbay", ["check", "."], in: folder.url)
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines == [
            "production.json:7:43: error: unknown factory 'file-stor' for NoteStore; did you mean 'file-store'? [unknown-factory]",
            "staging.json:4:29: error: unknown top-level key 'injector'; did you mean 'injectors'? [unknown-key]",
            // file-store is bound in other environments: not unused, though production misspells it.
            "2 errors, 0 warnings in 5 manifests",
        ])
    }

    /// macOS's case, made with a link on any system: under `$TMPDIR` a path
    /// says `/var/...` and the current folder is `/private/var/...`. Files
    /// below the current folder are named from it whichever way they were named.
    @Test func aFolderNamedThroughALinkPrintsPathsFromTheCurrentFolder() throws {
        let folder = try brokenFolder()
        let link = folder.url.deletingLastPathComponent().appendingPathComponent("patchbay-link-\(UUID().uuidString)")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: folder.url)
        defer { try? FileManager.default.removeItem(at: link) }
        let result = try runProduct("patchbay", ["check", link.path], in: folder.url)
        let expected: String = "production.json:7:43: error: unknown factory 'file-stor' for NoteStore; "
            + "did you mean 'file-store'? [unknown-factory]"
        #expect(result.status == 1)
        #expect(result.stdout.split(separator: "\n").first.map(String.init) == expected)
    }

    @Test func jsonFormatIsOneDocument() throws {
        let folder = try brokenFolder()
        let result = try runProduct("patchbay", ["check", "--format=json", "."], in: folder.url)
        #expect(result.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(document["version"] as? Int == 1)
        let summary = try #require(document["summary"] as? [String: Int])
        #expect(summary == ["errors": 2, "warnings": 0, "manifests": 5, "omitted": 0])
        let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.count == 2)
        let first = try #require(diagnostics.first { $0["code"] as? String == "unknown-factory" })
        #expect(first["line"] as? Int == 7 && first["column"] as? Int == 43)
        #expect(first["dependencyPath"] == nil)
        #expect(first["path"] as? String == "/bindings/0/factory")
        #expect(first["suggestion"] as? String == "file-store")
        #expect(first["severity"] as? String == "error" && first["file"] as? String == "production.json")
    }

    @Test func githubFormatIsWorkflowCommands() throws {
        let folder = try brokenFolder()
        let result = try runProduct("patchbay", ["check", "--format", "github", "production.json"], in: folder.url)
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("::error file=production.json,line=7,col=43,title=unknown-factory::unknown factory "
            + "'file-stor' for NoteStore; did you mean 'file-store'?"))
        // One file alone: unused factories are not judged.
        #expect(lines.count == 2)
        #expect(lines.last == "1 error, 0 warnings in 1 manifest")
    }

    @Test func strictFailsOnWarnings() throws {
        let folder = try ManifestFolder([
            "catalog.json": String(decoding: try FactoryCatalog.notes.describe().jsonData(), as: UTF8.self),
            // The example's entry point, NoteService, and its needs: 6 of the 11 factories, and no decorator.
            "development.json": """
                { "format": 1, "bindings": [
                  { "protocol": "NoteService", "factory": "note-service" },
                  { "protocol": "NoteStore", "factory": "in-memory-store" },
                  { "protocol": "Clock", "factory": "system-clock" },
                  { "protocol": "Logger", "factory": "json-logger" },
                  { "protocol": "Mailer", "factory": "outbox-mailer" },
                  { "protocol": "IDGenerator", "factory": "uuid-ids" }
                ] }
                """,
        ])
        let relaxed = try runProduct("patchbay", ["check", "."], in: folder.url)
        #expect(relaxed.status == 0 && relaxed.stdout.hasSuffix("0 errors, 6 warnings in 1 manifest\n"), "\(relaxed)")
        #expect(relaxed.stdout.contains("decorator 'timing-store' is not in the 'decorators' of any binding"), "\(relaxed)")
        let strict = try runProduct("patchbay", ["check", "--strict", "."], in: folder.url)
        #expect(strict.status == 1)
        // A single file cannot see the other environments: no unused factory, nothing to fail on.
        let single = try runProduct("patchbay", ["check", "--strict", "development.json"], in: folder.url)
        #expect(single.status == 0 && single.stdout == "0 errors, 0 warnings in 1 manifest\n")
    }

    @Test func theCatalogIsDiscoveredOrNamedOrAbsent() throws {
        let manifest = "{ \"format\": 1, \"bindings\": [ { \"protocol\": \"Clock\", \"factory\": \"sundial\" } ] }"
        let catalog = String(decoding: try FactoryCatalog.notes.describe().jsonData(), as: UTF8.self)
        let folder = try ManifestFolder(["m.json": manifest, "elsewhere/app-catalog.json": catalog])
        // No catalog: only what needs none is checked, and a note says so.
        let bare = try runProduct("patchbay", ["check", "m.json"], in: folder.url)
        #expect(bare.status == 0)
        // Once, with what was not checked and the command that writes the description.
        #expect(bare.stderr == """
            note: no catalog.json in ., so factory names, what they provide, parameters and the dependency graph \
            were not checked (only syntax, shape, keys, lifetimes, injectors, extends, env vars and duplicates). \
            Write it with `swift test`, from a test that calls `try catalog.refreshDescription(at: \
            URL(fileURLWithPath: "catalog.json"))` with the app's catalog; or pass --catalog FILE

            """, "\(bare.stderr)")
        // Named with --catalog.
        let named = try runProduct("patchbay", ["check", "--catalog", "elsewhere/app-catalog.json", "m.json"], in: folder.url)
        #expect(named.status == 1 && named.stdout.contains("unknown factory 'sundial' for Clock"))
        // Discovered beside the manifest.
        try Data(catalog.utf8).write(to: folder.file("catalog.json"))
        let discovered = try runProduct("patchbay", ["check", "m.json"], in: folder.url)
        #expect(discovered.status == 1 && discovered.stdout.contains("[unknown-factory]") && discovered.stderr.isEmpty)
    }

    @Test func commandMistakesExitTwo() throws {
        let unknownFlag = try runProduct("patchbay", ["check", "--stirct", "Manifests"], in: repositoryRoot)
        #expect(unknownFlag.status == 2 && unknownFlag.stderr.contains("unknown option '--stirct'; did you mean '--strict'?"))
        #expect(unknownFlag.stderr.contains("USAGE: patchbay check"))
        let noOperand = try runProduct("patchbay", ["check"], in: repositoryRoot)
        #expect(noOperand.status == 2 && noOperand.stderr.contains("missing PATH"))
        let missingPath = try runProduct("patchbay", ["check", "Manifests/nope.json"], in: repositoryRoot)
        #expect(missingPath.status == 2 && missingPath.stderr.contains("no such file or folder: Manifests/nope.json"))
        let missingCatalog = try runProduct("patchbay", ["check", "--catalog", "nope.json", "Manifests"], in: repositoryRoot)
        #expect(missingCatalog.status == 2 && missingCatalog.stderr.contains("cannot read the catalog nope.json"))
        let badFormat = try runProduct("patchbay", ["check", "--format", "xml", "Manifests"], in: repositoryRoot)
        #expect(badFormat.status == 2 && badFormat.stderr.contains("invalid value 'xml' for '--format'"))
        let missingValue = try runProduct("patchbay", ["check", "Manifests", "--catalog"], in: repositoryRoot)
        #expect(missingValue.status == 2 && missingValue.stderr.contains("missing value for '--catalog'"))
        let unknownSubcommand = try runProduct("patchbay", ["chek"], in: repositoryRoot)
        #expect(unknownSubcommand.status == 2 && unknownSubcommand.stderr.contains("did you mean 'check'?"))
        let nothing = try runProduct("patchbay", [], in: repositoryRoot)
        #expect(nothing.status == 2 && nothing.stderr.contains("USAGE: patchbay <subcommand>"))
    }

    @Test func aBrokenCatalogFileExitsTwo() throws {
        let folder = try ManifestFolder(["catalog.json": "{ \"factories\": 3 }", "m.json": "{ \"format\": 1, \"bindings\": [] }"])
        let result = try runProduct("patchbay", ["check", "m.json"], in: folder.url)
        #expect(result.status == 2 && result.stderr.contains("catalog.json is not a catalog description"))
    }

    @Test func helpAndVersion() throws {
        let version = try runProduct("patchbay", ["--version"])
        #expect(version.status == 0 && version.stdout == "patchbay \(PatchbayCommandLine.version)\n")
        let help = try runProduct("patchbay", ["check", "--help"])
        #expect(help.status == 0 && help.stdout.contains("--format FORMAT") && help.stdout.contains("EXIT STATUS"))
        let top = try runProduct("patchbay", ["--help"])
        #expect(top.status == 0 && top.stdout.contains("SUBCOMMANDS:"))
    }

    @Test func theAppExposesTheSameCommandWithItsLiveCatalog() throws {
        let folder = try brokenFolder()
        let result = try runProduct("notes-example", ["patchbay", "check", "."], in: folder.url)
        #expect(result.status == 1)
        #expect(result.stdout.contains("production.json:7:43: error: unknown factory 'file-stor'"))
        let catalog = try runProduct("notes-example", ["patchbay", "catalog"])
        #expect(catalog.status == 0)
        // Printed for the package it runs in: its places are that package's files.
        #expect(try CatalogDescription(jsonData: Data(catalog.stdout.utf8))
            == FactoryCatalog.notes.describe().locatingSources(in: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)))
    }

    /// The one command the docs give for refreshing catalog.json writes the committed file byte for byte.
    @Test func theDocumentedRegenerateCommandWritesTheCommittedCatalog() throws {
        let catalog = try runProduct("notes-example", ["patchbay", "catalog"])
        let committed = try String(contentsOf: exampleManifests.appendingPathComponent("catalog.json"), encoding: .utf8)
        #expect(catalog.status == 0 && catalog.stdout == committed,
            "Manifests/catalog.json is stale: swift run notes-example patchbay catalog > Manifests/catalog.json")
    }

    @Test func theExampleRunsEachEnvironmentFromOneBinary() throws {
        let notes = FileManager.default.temporaryDirectory.appendingPathComponent("patchbay-notes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: notes) }
        let development = try runProduct("notes-example", [], in: repositoryRoot, environment: ["NOTES_DIR": notes.path])
        let production = try runProduct("notes-example", ["--environment", "production"], in: repositoryRoot,
            environment: ["NOTES_DIR": notes.path])
        let staging = try runProduct("notes-example", [], in: repositoryRoot,
            environment: ["NOTES_DIR": notes.path, "PATCHBAY_ENV": "staging"])
        #expect(development.status == 0 && production.status == 0 && staging.status == 0)
        #expect(development.stdout.contains("NoteStore    in-memory-store (singleton)"))
        #expect(production.stdout.contains("NoteStore    file-store (singleton)"))
        #expect(production.stdout.contains("via smtp://smtp.example.com:587"))
        #expect(staging.stdout.contains("environment: staging"))
        let unknown = try runProduct("notes-example", ["--environment", "prod"], in: repositoryRoot)
        #expect(unknown.status == 1 && unknown.stderr.contains("environments found: base, development, production, staging, test"))
    }

    /// staging.json's one chain: the timing decorator around its file store logs, through staging's
    /// JSON logger, each call slower than `SLOW_STORE_MS` (0: every one), while the app runs as before.
    @Test func stagingLogsItsStoresSlowCallsThroughTheDecorator() throws {
        let notes = FileManager.default.temporaryDirectory.appendingPathComponent("patchbay-notes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: notes) }
        let staging = try runProduct("notes-example", [], in: repositoryRoot,
            environment: ["NOTES_DIR": notes.path, "PATCHBAY_ENV": "staging", "SLOW_STORE_MS": "0"])
        #expect(staging.status == 0, "\(staging.stderr)")
        let slow = staging.stdout.split(separator: "\n").filter { $0.hasPrefix(#"{"level":"info","message":"slow NoteStore."#) }
        // The note service saves, then counts the notes.
        #expect(slow.map { $0.split(separator: ":")[2] } == [#""slow NoteStore.save"#, #""slow NoteStore.all"#], "\(staging.stdout)")
        #expect(staging.stdout.contains("the store now holds 1 note"))
    }
}
