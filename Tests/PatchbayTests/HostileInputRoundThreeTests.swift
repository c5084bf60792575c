import Foundation
import NotesKit
import Testing
@testable import Patchbay
@testable import PatchbayTools

/// The third round of hostile inputs, what the tools print and read: no printed line can be a CI
/// workflow command, and a catalog description's places and sources stay inside the package.
@Suite struct HostileInputRoundThreeTests {
    /// The lines a GitHub runner reads from `text`: split at a line feed and at a carriage return, each
    /// with its leading white space stripped.
    static func runnerLines(_ text: String) -> [String] {
        text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
            .map { String($0.drop { $0.isWhitespace }) }
    }

    /// Whether no line of `text` would be read as a workflow command.
    static func isInert(_ text: String) -> Bool {
        runnerLines(text).allSatisfy { !$0.hasPrefix("::") && !$0.contains("##[") }
    }

    /// A package in a temporary folder: `Package.swift`, the example's module sources, and the
    /// example's manifests with its catalog.json edited by `edit`.
    static func package(_ edit: (inout [String: Any]) -> Void) throws -> ManifestFolder {
        var files = ["Package.swift": "// swift-tools-version:6.0\n"]
        for file in try FileManager.default.contentsOfDirectory(atPath: exampleManifests.path) where file.hasSuffix(".json") {
            files["Manifests/" + file] = try String(contentsOf: exampleManifests.appendingPathComponent(file), encoding: .utf8)
        }
        let sources = repositoryRoot.appendingPathComponent("Sources/NotesKit")
        for file in try FileManager.default.contentsOfDirectory(atPath: sources.path) {
            files["Sources/NotesKit/" + file] = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
        }
        var catalog = try #require(
            JSONSerialization.jsonObject(with: Data(files["Manifests/catalog.json"]!.utf8)) as? [String: Any])
        edit(&catalog)
        files["Manifests/catalog.json"] = String(
            decoding: try JSONSerialization.data(withJSONObject: catalog, options: [.prettyPrinted, .sortedKeys]), as: UTF8.self)
        return try ManifestFolder(files)
    }

    /// Sets the `registeredAt` of the catalog's factory `name`.
    static func place(_ name: String, _ place: String) -> (inout [String: Any]) -> Void {
        { catalog in
            var factories = catalog["factories"] as! [[String: Any]]
            let offset = factories.firstIndex { $0["name"] as? String == name }!
            factories[offset]["registeredAt"] = place
            catalog["factories"] = factories
        }
    }

    // MARK: - The one function

    @Test func noLineOfTheEscapedTextIsAWorkflowCommand() throws {
        let cases = [
            "::error file=Package.swift,line=1,title=x::y", "  \t::warning::w", "ok\n::add-mask::secret", "x ##[error]y",
            "a\r::error::b", "\u{A0}\u{2003}::notice::n", "###[x]", ":: at the start, :: in the middle",
        ]
        for text in cases {
            let escaped = text.inertInWorkflowLogs()
            #expect(Self.isInert(escaped), "\(escaped)")
            #expect(!escaped.contains("\r"))
            // A line's own line breaks stay; nothing else moves.
            #expect(escaped.split(separator: "\n").count == text.split(separator: "\n").count)
        }
        #expect("::error x".inertInWorkflowLogs() == #"\u{3A}:error x"#)
        #expect("a ##[error] b".inertInWorkflowLogs() == #"a #\u{23}[error] b"#)
        #expect("a :: b # [c]".inertInWorkflowLogs() == "a :: b # [c]")  // not at a line's start: unchanged
        // Escaping twice changes nothing more: printers may pass on text that was escaped already.
        for text in cases { #expect(text.inertInWorkflowLogs().inertInWorkflowLogs() == text.inertInWorkflowLogs()) }
        // In JSON, `##[` is escaped as JSON escapes it: the document decodes to the same strings.
        let json = String(decoding: try JSONEncoder().encode(["name": "x ##[error]y"]), as: UTF8.self)
        let inert = json.inertInWorkflowLogs(json: true)
        #expect(Self.isInert(inert), "\(inert)")
        #expect(try JSONDecoder().decode([String: String].self, from: Data(inert.utf8)) == ["name": "x ##[error]y"])
    }

    // MARK: - Every printer

    @Test func aManifestFileNamedAsACommandPrintsNoCommand() throws {
        let folder = try ManifestFolder(["::error x.json": #"{ "format": 1, "bindings": [], "unknown": 1 }"#])
        let result = try runProduct("patchbay", ["check", "."], in: folder.url)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("error x.json"), "\(result.stdout)")
        #expect(Self.isInert(result.stdout) && Self.isInert(result.stderr), "\(result.stdout)\(result.stderr)")
        let json = try runProduct("patchbay", ["check", "--format", "json", "."], in: folder.url)
        #expect(Self.isInert(json.stdout), "\(json.stdout)")
    }

    @Test func aNameHoldingTheOlderCommandFormIsEscapedInEveryFormat() throws {
        let text = ###"{ "format": 1, "bindings": [ { "protocol": "Clock", "factory": "##[error]x" } ] }"###
        let folder = try ManifestFolder(["production.json": text])
        for format in ["text", "json"] {
            let result = try runProduct(
                "patchbay", ["check", "--catalog", exampleManifests.appendingPathComponent("catalog.json").path,
                    "--format", format, folder.url.path])
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stdout.contains("[error]x"), "\(result.stdout)")
            #expect(Self.isInert(result.stdout), "\(result.stdout)")
            if format == "json" {
                // Still JSON, holding the name as written.
                let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
                let messages = (document["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
                #expect(messages.contains { $0.contains("'##[error]x'") }, "\(messages)")
            }
        }
    }

    @Test func diffPrintsNoCommandFromATypesName() throws {
        let names = ["::error file=Package.swift,line=1::forged", "##[error]forged", "X\r::error::forged", "Y\n::error::forged"]
        for name in names {
            let quoted = String(decoding: try JSONEncoder().encode(name), as: UTF8.self)
            let before = try ManifestFolder(["production.json":
                #"{ "format": 1, "bindings": [ { "protocol": \#(quoted), "factory": "a" } ] }"#])
            let after = try ManifestFolder(["production.json":
                #"{ "format": 1, "bindings": [ { "protocol": \#(quoted), "factory": "b" } ] }"#])
            for format in ["text", "markdown", "json"] {
                let standard = Collected<String>(), error = Collected<String>()
                let status = PatchbayCommandLine().run(
                    ["diff", "--format", format, before.url.path, after.url.path, "--environment", "production"],
                    output: .init(standard: standard.append, error: error.append))
                let printed = standard.all.joined()
                #expect(status == 1, "\(error.all.joined())")
                #expect(printed.contains("forged"), "\(printed)")
                #expect(Self.isInert(printed) && Self.isInert(error.all.joined()), "\(format): \(printed)")
            }
        }
    }

    @Test func explainAndGraphPrintNoCommandFromAName() throws {
        let text = ###"{ "format": 1, "bindings": [ { "protocol": "::error::x", "factory": "##[warning]y" } ] }"###
        let folder = try ManifestFolder(["production.json": text])
        let manifest = folder.file("production.json").path
        for arguments in [["explain", "::error::x", "--manifest", manifest], ["graph", manifest], ["graph", "--format", "dot", manifest]] {
            let standard = Collected<String>(), error = Collected<String>()
            _ = PatchbayCommandLine().run(arguments, output: .init(standard: standard.append, error: error.append))
            let printed = standard.all.joined() + error.all.joined()
            #expect(printed.contains("warning]y"), "\(arguments): \(printed)")
            #expect(Self.isInert(printed), "\(arguments): \(printed)")
        }
    }

    @Test func standardErrorQuotingAnArgumentPrintsNoCommand() {
        let error = Collected<String>()
        let status = PatchbayCommandLine().run(
            ["::error::x"], output: .init(standard: { _ in }, error: error.append))
        #expect(status == 2)
        #expect(error.all.joined().contains("error::x"))
        #expect(Self.isInert(error.all.joined()), "\(error.all.joined())")
    }

    // MARK: - Places inside the package

    @Test func aCatalogPlaceThatIsACommandIsRefusedAtItsPlace() throws {
        let package = try Self.package(Self.place("console-logger", "::error file=Package.swift,line=1,title=x::y"))
        let result = try runProduct("patchbay", ["check", "Manifests"], in: package.url)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(Self.isInert(result.stdout) && Self.isInert(result.stderr), "\(result.stderr)")
        #expect(result.stderr.contains("[invalid-source-place]"), "\(result.stderr)")
        #expect(result.stderr.hasPrefix("Manifests/catalog.json:"), "\(result.stderr)")
    }

    @Test(arguments: ["../../../../../../../../etc/passwd:1", "/etc/passwd:3:2", "Sources/NotesKit:1:1", "Sources/../../x.swift:1:1"])
    func aPlaceOutsideThePackageOrNotAFileIsNeverPrinted(_ place: String) throws {
        let package = try Self.package(Self.place("outbox-mailer", place))
        let catalog = try String(contentsOf: package.file("Manifests/catalog.json"), encoding: .utf8)
        let line = catalog.split(separator: "\n", omittingEmptySubsequences: false)
            .firstIndex { $0.contains("\"registeredAt\" : \"\(place.replacingOccurrences(of: "/", with: "\\/"))\"")
                || $0.contains("\"registeredAt\" : \"\(place)\"") }
        let row = try #require(line) + 1
        for arguments in [["check", "Manifests"], ["explain", "Mailer", "--manifest", "Manifests/production.json"],
                          ["check", "--format", "github", "Manifests"]] {
            let result = try runProduct(
                "patchbay", arguments, in: package.url, environment: ["GITHUB_WORKSPACE": package.url.path])
            #expect(result.status == 2, "\(arguments): \(result.stdout)\(result.stderr)")
            let printed = result.stdout + result.stderr
            // The message quotes the value; no line, annotation or "registered at" names it as a place.
            #expect(!Self.runnerLines(printed).contains { $0.hasPrefix("/etc/") || $0.hasPrefix("Sources/NotesKit:") })
            #expect(!printed.contains("file=/etc") && !printed.contains("file=Sources/NotesKit,"), "\(printed)")
            #expect(!printed.contains("registered at"), "\(printed)")
            #expect(printed.contains("Manifests/catalog.json:\(row):"), "\(row) \(printed)")
            #expect(printed.contains("[invalid-source-place]"), "\(printed)")
        }
        // Read alone, with no package to look in, only the text is judged: a folder's name reads as a file's.
        let data = try Data(contentsOf: package.file("Manifests/catalog.json"))
        if place.hasPrefix("Sources/NotesKit:") {
            _ = try CatalogDescription(jsonData: data)
        } else {
            #expect(throws: ManifestError.self) { try CatalogDescription(jsonData: data) }
        }
    }

    @Test func aPlaceThatIsALinkMustLeadToAFileOfThePackage() throws {
        let outside = try Self.package(Self.place("outbox-mailer", "Sources/NotesKit/Outside.swift:1:1"))
        try FileManager.default.createSymbolicLink(
            atPath: outside.file("Sources/NotesKit/Outside.swift").path, withDestinationPath: "/etc/passwd")
        try Self.expectRefusedAsLeadingOutside(outside)
        // A link to one of the package's own files is a place like any other.
        let inside = try Self.package(Self.place("outbox-mailer", "Sources/NotesKit/Inside.swift:1:1"))
        try FileManager.default.createSymbolicLink(
            atPath: inside.file("Sources/NotesKit/Inside.swift").path, withDestinationPath: "Implementations.swift")
        let read = try runProduct("patchbay", ["check", "Manifests"], in: inside.url)
        #expect(!read.stderr.contains("invalid-source-place"), "\(read.stderr)")
        #expect(read.status != 2, "\(read.stdout)\(read.stderr)")
    }

    @Test func aSourcesFolderOutsideThePackageIsRefusedAndNotWalked() throws {
        let package = try Self.package { catalog in
            var sources = catalog["sources"] as! [String: Any]
            sources["folders"] = Array(repeating: "../../../../../../../../usr", count: 50) + ["/usr", "Sources/NotesKit", "Sources/NotesKit"]
            catalog["sources"] = sources
        }
        let result = try runProduct("patchbay", ["check", "Manifests"], in: package.url)
        #expect(result.status == 2, "\(result.stderr)")
        let codes = result.stderr.split(separator: "\n").filter { $0.hasSuffix("[invalid-source-folder]") }
        #expect(codes.count == 52, "\(result.stderr)")  // each folder outside, and the repeat
        #expect(!result.stderr.contains("stale-catalog"))
        // Listing the module folder twice is refused too, each folder read once.
        let twice = try Self.package { catalog in
            var sources = catalog["sources"] as! [String: Any]
            sources["folders"] = ["Sources/NotesKit", "Sources/NotesKit"]
            catalog["sources"] = sources
        }
        let repeated = try runProduct("patchbay", ["check", "Manifests"], in: twice.url)
        #expect(repeated.status == 2)
        #expect(repeated.stderr.contains("'sources.folders[1]' 'Sources/NotesKit' is listed twice"), "\(repeated.stderr)")
        // Over the limit: one diagnostic.
        let many = try Self.package { catalog in
            var sources = catalog["sources"] as! [String: Any]
            sources["folders"] = (0...CatalogDescriptionValidator.maxSourceFolders).map { "Sources/M\($0)" }
            catalog["sources"] = sources
        }
        let over = try runProduct("patchbay", ["check", "Manifests"], in: many.url)
        #expect(over.status == 2)
        #expect(over.stderr.contains("lists 1001 folders, over the limit of 1000"), "\(over.stderr)")
        // The example's own description, in its package, passes.
        let good = try Self.package { _ in }
        let passed = try runProduct("patchbay", ["check", "Manifests"], in: good.url)
        #expect(passed.status == 0, "\(passed.stdout)\(passed.stderr)")
    }

    @Test func aSourcesFolderThroughALinkOutOfThePackageIsRefusedAndNotWalked() throws {
        // `lib` a link to `/`: `lib/usr` has no `..`, and spelled five ways it walked /usr five times (15 s).
        let spellings = ["lib/usr", "lib/usr/", "./lib/usr", "lib//usr", "lib/./usr"]
        let package = try Self.package { catalog in
            var sources = catalog["sources"] as! [String: Any]
            sources["folders"] = ["Sources/NotesKit"] + spellings
            catalog["sources"] = sources
        }
        try FileManager.default.createSymbolicLink(atPath: package.file("lib").path, withDestinationPath: "/")
        let result = try runProduct("patchbay", ["check", "Manifests"], in: package.url)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        let refused = result.stderr.split(separator: "\n").filter { $0.hasSuffix("[invalid-source-folder]") }
        #expect(refused.count == spellings.count, "\(result.stderr)")
        #expect(result.stderr.contains("a path through a link that leads outside the package"), "\(result.stderr)")
        #expect(CatalogDescription.Sources.fingerprint(of: ["lib/usr"], root: package.url) == nil)
        // One module folder spelled twice is listed twice.
        let twice = try Self.package { catalog in
            var sources = catalog["sources"] as! [String: Any]
            sources["folders"] = ["Sources/NotesKit", "./Sources/NotesKit/"]
            catalog["sources"] = sources
        }
        let repeated = try runProduct("patchbay", ["check", "Manifests"], in: twice.url)
        #expect(repeated.status == 2, "\(repeated.stdout)\(repeated.stderr)")
        #expect(repeated.stderr.contains("is listed twice"), "\(repeated.stderr)")
    }

    @Test func aPlaceThroughAFolderLinkOutOfThePackageIsRefused() throws {
        // `Sources/NotesKit/etc` a link to /etc: `Sources/NotesKit/etc/passwd` is a regular file, outside.
        let package = try Self.package(Self.place("outbox-mailer", "Sources/NotesKit/etc/passwd:1:1"))
        try FileManager.default.createSymbolicLink(
            atPath: package.file("Sources/NotesKit/etc").path, withDestinationPath: "/etc")
        try Self.expectRefusedAsLeadingOutside(package)
    }

    /// `patchbay check Manifests` in `package` refuses its catalog description: a place leads outside.
    static func expectRefusedAsLeadingOutside(_ package: ManifestFolder) throws {
        let refused = try runProduct("patchbay", ["check", "Manifests"], in: package.url)
        #expect(refused.status == 2, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("a link that leads outside the package"), "\(refused.stderr)")
    }

    @Test func theFingerprintWalksEachFolderOnce() throws {
        let package = try Self.package { _ in }
        let folders = ["Sources/NotesKit"]
        #expect(CatalogDescription.Sources.fingerprint(of: folders + folders, root: package.url)
            == CatalogDescription.Sources.fingerprint(of: folders, root: package.url))
    }

    // MARK: - Weak items

    @Test func aVersionPastIntIsAnUnsupportedFormat() throws {
        let manifest = #"{ "format": 9223372036854775808, "bindings": [] }"#
        let found = try diagnostics(manifest, catalog: nil)
        #expect(found.map(\.code) == [.unsupportedFormat], "\(found)")
        #expect(found.first?.message.contains("format 9223372036854775808 is not supported") == true, "\(found)")
        let catalog = try String(contentsOf: exampleManifests.appendingPathComponent("catalog.json"), encoding: .utf8)
            .replacingOccurrences(of: #""version" : \#(CatalogDescription.currentVersion)"#, with: #""version" : 9223372036854775808"#)
        #expect(catalog.contains("9223372036854775808"))
        do {
            _ = try CatalogDescription(jsonData: Data(catalog.utf8))
            Issue.record("read")
        } catch {
            #expect(error.diagnostics.map(\.code) == [.unsupportedCatalogVersion])
            let message = error.diagnostics.first?.message ?? ""
            #expect(message.contains("format '9223372036854775808'"), "\(message)")
            #expect(!message.contains("e+18"), "\(message)")
        }
    }

    @Test func theCatalogSchemaAcceptsAWholeReferenceWhereCheckDoes() throws {
        let description = try ManifestChecker.readCatalog(exampleManifests.appendingPathComponent("catalog.json"))
        let checker = JSONSchemaChecker(ManifestSchema.schema(catalog: description))
        func valid(_ port: String) throws -> Bool {
            let text = #"{ "format": 1, "bindings": [ { "protocol": "Mailer", "factory": "smtp-mailer", "parameters": { "host": "h", "port": \#(port) } } ] }"#
            return try checker.accepts(JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)))
        }
        #expect(try valid(#""${SMTP_PORT:-587}""#))
        #expect(try valid(#""${SMTP_PORT}""#))
        #expect(try valid("587"))
        #expect(try !valid(#""587""#))  // a string that is no reference is still not an integer
        #expect(try !valid(#""${SMTP_PORT}0""#))
        // check agrees on each.
        for (port, passes) in [(#""${SMTP_PORT:-587}""#, true), (#""587""#, false)] {
            let text = #"{ "format": 1, "bindings": [ { "protocol": "Mailer", "factory": "smtp-mailer", "parameters": { "host": "h", "port": \#(port) } } ] }"#
            let found = try diagnostics(text, catalog: .notes).filter { $0.code == .invalidParameters }
            #expect(found.isEmpty == passes, "\(port): \(found)")
        }
    }
}
