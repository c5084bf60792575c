import Foundation
import NotesKit
import Testing
@testable import Patchbay
@testable import PatchbayTools

/// Inputs written to break the check or the app: no crash, no hang, no
/// forged line, nothing read from outside the folder, a clear word for every path.
@Suite struct HostileInputTests {
    /// A chain of `count` manifests, `a0.json` extending `a1.json` and so on.
    static func chain(_ count: Int) throws -> ManifestFolder {
        var files: [String: String] = [:]
        for index in 0..<count {
            files["a\(index).json"] = index == count - 1
                ? #"{"format":1,"bindings":[]}"#
                : #"{"format":1,"extends":"a\#(index + 1).json","bindings":[]}"#
        }
        return try ManifestFolder(files)
    }

    @Test func aLongExtendsChainStopsAtTheLimitNotTheStack() throws {
        let folder = try Self.chain(200)  // the stack once gave out at 3,000; the limit stops at 32 whatever the length
        let loader = ManifestLoader(environment: [:])
        let (_, diagnostics) = loader.loadCollecting(contentsOf: folder.file("a0.json"), displayPath: "a0.json")
        let found = diagnostics.filter { $0.code == .extendsTooLong }
        #expect(found.count == 1, "\(diagnostics.prefix(3))")
        // At the `extends` that crosses the limit: the 32nd parent's.
        #expect(found.first?.file == "a32.json")
        #expect(found.first.map { "\($0.line):\($0.column)" } == "1:23", "\(found)")
        // The app says the same, and a chain within the limit loads.
        #expect(throws: ManifestError.self) { try loader.load(contentsOf: folder.file("a0.json")) }
        let short = try Self.chain(10)
        #expect(try loader.load(contentsOf: short.file("a0.json")).bindings.isEmpty)
    }

    @Test func aLimitRaisedFarIsFollowedInALoopNotOnTheStack() throws {
        // The message advises raising the limit, and an app may raise it far: a chain of thousands then
        // loads, each parent read in a loop, where a call per parent ran out of stack at 3,000 files.
        let folder = try Self.chain(5_000)
        try Data(#"{"format":1,"bindings":[{"protocol":"Base","factory":"f"}]}"#.utf8).write(to: folder.file("a4999.json"))
        try Data(#"{"format":1,"extends":"a1.json","bindings":[{"protocol":"Child","factory":"g"}]}"#.utf8)
            .write(to: folder.file("a0.json"))
        let loader = ManifestLoader(maxExtendsChain: 10_000, environment: [:])
        let manifest = try loader.load(contentsOf: folder.file("a0.json"))
        // The topmost parent's binding first, the child's last: the whole chain was merged.
        #expect(manifest.bindings.map(\.protocolName) == ["Base", "Child"])
        // A cycle at the end of a long chain is still found, and named with the whole chain.
        try Data(#"{"format":1,"extends":"a0.json","bindings":[]}"#.utf8).write(to: folder.file("a4999.json"))
        let (_, diagnostics) = loader.loadCollecting(contentsOf: folder.file("a0.json"), displayPath: "a0.json")
        #expect(diagnostics.map(\.code) == [.extendsCycle], "\(diagnostics.map(\.code))")
        #expect(diagnostics.first?.file == "a4999.json")
    }

    @Test func aFolderOfChainedFilesIsCheckedThroughTheManifestsAnAppLoads() throws {
        // Every file but a0.json is a parent, checked through a0.json's chain: one error, at the
        // `extends` that crosses the limit, not one chain of 32 loaded (and reported) per file.
        let checker = ManifestChecker(loader: ManifestLoader(environment: [:]))  // no catalog: no warnings
        let folder = try Self.chain(300)
        let report = try checker.check([folder.url])
        #expect(report.manifestCount == 300)
        #expect(report.diagnostics.map(\.code) == [.extendsTooLong], "\(report.diagnostics.prefix(3))")
        #expect(report.diagnostics.first?.file.hasSuffix("a32.json") == true)
        // A parent with a problem of its own is still reported, once.
        let broken = try Self.chain(5)
        try Data(#"{"format":1,"extends":"a3.json","bindings":[],"oops":1}"#.utf8).write(to: broken.file("a2.json"))
        let brokenReport = try checker.check([broken.url])
        #expect(brokenReport.diagnostics.map(\.code) == [.unknownKey], "\(brokenReport.diagnostics)")
        #expect(brokenReport.diagnostics.first?.file.hasSuffix("a2.json") == true)
    }

    @Test func aCycleOfParentsAloneIsStillReported() throws {
        // Every file of these folders is a parent: no child outside the cycle would follow it.
        let checker = ManifestChecker(loader: ManifestLoader(environment: [:]))
        let itself = try ManifestFolder(["a.json": #"{"format":1,"extends":"a.json","bindings":[]}"#])
        let pair = try ManifestFolder([
            "production.json": #"{"format":1,"extends":"base.json","bindings":[]}"#,
            "base.json": #"{"format":1,"extends":"production.json","bindings":[]}"#,
        ])
        for folder in [itself, pair] {
            let report = try checker.check([folder.url])
            #expect(report.diagnostics.map(\.code) == [.extendsCycle], "\(report.diagnostics)")
            #expect(report.failed())
            // As the app refuses it.
            let first = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()[0]
            #expect(throws: ManifestError.self) { try ManifestLoader(environment: [:]).load(contentsOf: folder.file(first)) }
        }
        // A cycle with a child outside it is reported through the child, once.
        let tail = try ManifestFolder([
            "app.json": #"{"format":1,"extends":"base.json","bindings":[]}"#,
            "base.json": #"{"format":1,"extends":"shared.json","bindings":[]}"#,
            "shared.json": #"{"format":1,"extends":"base.json","bindings":[]}"#,
        ])
        let tailReport = try checker.check([tail.url])
        #expect(tailReport.diagnostics.filter { $0.code == .extendsCycle }.count >= 1, "\(tailReport.diagnostics)")
        #expect(tailReport.failed())
    }

    @Test func controlCharactersFromTheInputNeverReachTheOutputRaw() throws {
        let forged = "x\n::error file=production.json,line=1,col=1::FORGED\u{1B}[2J"
        let text = #"{ "format": 1, "bindings": [ { "protocol": "Clock", "factory": ""#
            + forged.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\u{1B}", with: "\\u001b")
            + #"" } ] }"#
        let folder = try ManifestFolder(["production.json": text])
        let report = try ManifestChecker(catalog: FactoryCatalog.notes.ignoringEntryPoints).check([folder.url])
        let printed = report.diagnostics.map(\.description).joined(separator: "\n")
        #expect(report.diagnostics.contains { $0.code == .unknownFactory })
        #expect(!printed.contains("\n::error"))
        #expect(!printed.unicodeScalars.contains { $0.value == 0x1B })
        #expect(printed.contains(#"x\n::error file=production.json"#))
        #expect(printed.contains(#"\u{1B}[2J"#))
    }

    @Test func explainAndGraphPrintNamesFromTheManifestEscaped() throws {
        let folder = try ManifestFolder(["m.json": #"""
            { "format": 1, "environment": "e\n::error::FORGED",
              "bindings": [ { "protocol": "A\n::error::FORGED\u001b[2J", "factory": "x\nFORGED2" } ] }
            """#])
        let file = folder.file("m.json").path
        let forged = "A\n::error::FORGED\u{1B}[2J"
        for arguments in [["explain", "--manifest", file, forged], ["explain", "--manifest", file, "Missing"],
                          ["graph", file], ["graph", "--format", "dot", file]] {
            let standard = Collected<String>(), error = Collected<String>()
            let status = PatchbayCommandLine(loader: ManifestLoader(environment: [:]))
                .run(arguments, output: .init(standard: standard.append, error: error.append))
            let printed = standard.all.joined() + error.all.joined()
            #expect(status <= 1, "\(arguments): \(printed)")
            #expect(!printed.contains("\n::error") && !printed.contains("\nFORGED2"), "\(arguments): \(printed)")
            #expect(!printed.unicodeScalars.contains { $0.value == 0x1B }, "\(arguments): \(printed)")
            #expect(arguments[1] != "--manifest" || arguments[3] != forged || printed.contains(#"\u{1B}[2J"#),
                "\(arguments): \(printed)")
            // The binding is there, escaped, not dropped.
            #expect(arguments[0] != "graph" || printed.contains("::error::FORGED") && printed.contains("[2J"), "\(arguments): \(printed)")
        }
    }

    @Test func aLinkToAFileOutsideTheFolderIsNotRead() throws {
        let outside = try ManifestFolder(["secret.json": #"{ "format": 1, "bindings": [ { "protocol": "TOKEN-1234", "factory": "x" } ] }"#])
        let folder = try ManifestFolder(["good.json": #"{ "format": 1, "bindings": [] }"#])
        try FileManager.default.createSymbolicLink(
            at: folder.file("leak.json"), withDestinationURL: outside.file("secret.json"))
        let report = try ManifestChecker(catalog: FactoryCatalog.notes.ignoringEntryPoints).check([folder.url])
        let printed = report.diagnostics.map(\.description).joined(separator: "\n")
        #expect(!printed.contains("TOKEN-1234"))
        let refused = try #require(report.diagnostics.first { $0.file.hasSuffix("leak.json") })
        #expect(refused.code == .unreadable && refused.message.contains("outside the folder"))
        #expect(report.failed())
    }

    @Test func aCatalogLinkedFromOutsideTheFolderIsNotRead() throws {
        let outside = try ManifestFolder(["token": "ghp_SECRETTOKEN12345"])
        let folder = try ManifestFolder(["good.json": #"{ "format": 1, "bindings": [] }"#])
        try FileManager.default.createSymbolicLink(at: folder.file("catalog.json"), withDestinationURL: outside.file("token"))
        do {
            _ = try ManifestChecker().check([folder.url])
            Issue.record("a check read a catalog.json linked from outside its folder")
        } catch {
            #expect(!error.description.contains("SECRET") && error.problemsBeforeUnusable.isEmpty)
            #expect(error.description.contains("link leading outside its folder"), "\(error.description)")
        }
        let result = try runProduct("patchbay", ["check", folder.url.path])
        #expect(result.status == 2)
        #expect(!result.stderr.contains("SECRET") && !result.stdout.contains("SECRET"), "\(result.stderr)")
        // Named with --catalog, the file is read as the user asked (and refused here as no description).
        let named = try runProduct("patchbay", ["check", "--catalog", folder.file("catalog.json").path, folder.url.path])
        #expect(named.status == 2)
        #expect(named.stderr.contains("not a catalog description"), "\(named.stderr)")
    }

    @Test func aPathWithControlCharactersIsPrintedEscaped() throws {
        let folder = try ManifestFolder([:])
        let forged = folder.url.appendingPathComponent("no\n::error::FORGED\u{1B}[2J")
        try FileManager.default.createDirectory(at: forged, withIntermediateDirectories: true)
        try Data(#"{ "format": 1, "bindings": [] }"#.utf8).write(to: forged.appendingPathComponent("a.json"))
        for arguments in [["check", forged.path], ["check", forged.appendingPathComponent("missing").path],
                          ["check", forged.deletingLastPathComponent().appendingPathComponent("x\ny").path]] {
            let result = try runProduct("patchbay", arguments)
            let printed = result.stdout + result.stderr
            #expect(!printed.contains("\n::error") && !printed.unicodeScalars.contains { $0.value == 0x1B }, "\(printed)")
            #expect(printed.contains(#"no\n::error::FORGED\u{1B}[2J"#) || printed.contains(#"x\ny"#), "\(printed)")
        }
    }

    @Test func onlyRegularFilesAreReadAndNothingBlocks() throws {
        let folder = try ManifestFolder(["good.json": #"{ "format": 1, "bindings": [] }"#])
        try FileManager.default.createDirectory(at: folder.file("x.json"), withIntermediateDirectories: true)
        #expect(mkfifo(folder.file("pipe.json").path, 0o600) == 0)
        let report = try ManifestChecker(catalog: FactoryCatalog.notes.ignoringEntryPoints).check([folder.url])
        let unreadable = report.diagnostics.filter { $0.code == .unreadable }
        #expect(unreadable.map { ($0.file as NSString).lastPathComponent }.sorted() == ["pipe.json", "x.json"])
        #expect(unreadable.first { $0.file.hasSuffix("x.json") }?.message.contains("is a folder") == true)
        #expect(unreadable.first { $0.file.hasSuffix("pipe.json") }?.message.contains("not a regular file") == true)
        // Named directly, a FIFO is refused before anything reads it.
        #expect(throws: ManifestError.self) {
            try ManifestChecker(catalog: .notes).check([folder.file("pipe.json")])
        }
        // The app's loader says the same.
        #expect(throws: ManifestError.self) { try ManifestLoader().load(contentsOf: folder.file("pipe.json")) }
    }

    @Test func aCatalogThatIsNoRegularFileIsRefusedUnread() throws {
        let folder = try ManifestFolder(["good.json": #"{ "format": 1, "bindings": [] }"#])
        #expect(mkfifo(folder.file("catalog.json").path, 0o600) == 0)
        try FileManager.default.createDirectory(at: folder.file("dir-catalog.json"), withIntermediateDirectories: true)
        for (name, what) in [("catalog.json", "a FIFO"), ("dir-catalog.json", "a folder")] {
            do {
                _ = try ManifestChecker.readCatalog(folder.file(name))
                Issue.record("\(name) was read")
            } catch {
                #expect(error.description.contains("is not a regular file (\(what)"), "\(error.description)")
            }
        }
        // Found beside the manifests, the FIFO does not block the command either: it exits 2 naming it.
        let result = try runProduct("patchbay", ["check", folder.url.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("catalog.json is not a regular file"), "\(result.stderr)")
    }

    @Test func aCheckThatFindsNothingToCheckFailsNamingWhereItLooked() throws {
        let empty = try ManifestFolder([:])
        try FileManager.default.createDirectory(at: empty.url, withIntermediateDirectories: true)
        let onlyCatalog = try ManifestFolder([
            "catalog.json": String(decoding: try FactoryCatalog.notes.describe().jsonData(), as: UTF8.self)])
        for folder in [empty, onlyCatalog] {
            do {
                _ = try ManifestChecker(catalog: .notes).check([folder.url])
                Issue.record("a folder with no manifest passed")
            } catch {
                #expect(error.description.contains("no manifest to check in"))
                #expect(error.description.contains(folder.url.path))
            }
        }
        let result = try runProduct("patchbay", ["check", empty.url.path])
        #expect(result.status == 2)
    }

    @Test func aUTF16FileIsNamedAsOne() throws {
        let text = #"{ "format": 1, "bindings": [] }"#
        for data in [text.data(using: .utf16BigEndian)!, text.data(using: .utf16)!, text.data(using: .utf32LittleEndian)!] {
            let document = JSONScanner.scan(data)
            #expect(document.syntaxError?.message.contains("UTF-16 or UTF-32") == true, "\(document.syntaxError as Any)")
            #expect(document.syntaxError?.position == SourcePosition(line: 1, column: 1))
        }
    }

    /// `explain` once called itself per level and drew each level two spaces
    /// deeper: a chain 2,500 deep in a catalog.json overflowed the stack, and
    /// 2,000 deep printed 8 MB. The tree stops at the depth limit with a mark
    /// that says how to see the rest, and the rest is shown from there.
    @Test func aChainThousandsDeepIsExplainedToTheDepthLimitInFewLines() throws {
        let depth = 2_600
        let folder = try HostileGraphs.chain(depth: depth)
        let manifest = folder.file("app.json").path
        let result = try runProduct("patchbay", ["explain", "--manifest", manifest, HostileGraphs.type(0)])
        #expect(result.status == 0, "\(result.status): \(result.stderr.prefix(500))")
        let lines = result.stdout.split(separator: "\n")
        let limit = ManifestExplainer.depthLimit
        #expect(lines.count < limit + 20, "\(lines.count) lines")
        #expect((lines.map(\.count).max() ?? 0) < 4 * limit + 200, "indentation grows with the depth")
        // T1 ... T<limit> are shown; T<limit> is the first not expanded, and says how to go on.
        let marked = lines.filter { $0.contains("needs not shown past \(limit) levels") }
        #expect(marked.count == 1, "\(result.stdout.suffix(600))")
        #expect(marked.first?.contains("explain \(HostileGraphs.type(limit)) shows them") == true, "\(marked)")
        #expect(!result.stdout.contains(HostileGraphs.type(limit + 1)))
        // Explained from near the end, the chain's tail is shown whole, down to the factory that needs nothing.
        let tail = try runProduct("patchbay", ["explain", "--manifest", manifest, HostileGraphs.type(depth - 10)])
        #expect(tail.status == 0 && !tail.stdout.contains("needs not shown"), "\(tail.stdout.suffix(400))")
        #expect(tail.stdout.contains(HostileGraphs.type(depth - 1)))
        // The check and the graph walk it too, in a loop.
        let check = try runProduct("patchbay", ["check", folder.url.path])
        #expect(check.status == 0 && check.stdout.hasSuffix("0 errors, 1 warning in 1 manifest\n"), "\(check)")
        let graph = try runProduct("patchbay", ["graph", manifest])
        #expect(graph.status == 0 && graph.stdout.contains(HostileGraphs.type(depth - 1)), "\(graph.stderr.prefix(300))")
    }

    /// Factory i needs T(i+1) and every earlier T: one knot of n bindings and
    /// n²/2 needs, with more elementary loops than can be counted. Following
    /// each back edge drew n² loops of up to n names (37 s and 2.8 GB at 800);
    /// one loop is drawn per knot, found in time linear in the needs.
    @Test(arguments: [400, 900])
    func aKnotOfEveryEarlierTypeIsOneCycleDrawnOnce(count: Int) throws {
        let checker = ManifestChecker(loader: ManifestLoader(environment: [:]))
        let knot = try HostileGraphs.knot(count)
        let report = try checker.check([knot.url])
        let cycles = report.diagnostics.filter { $0.code == .dependencyCycle }
        #expect(report.diagnostics.filter { $0.severity == .error }.count == 1 && cycles.count == 1, "\(report.diagnostics.prefix(3))")
        let (first, second) = (HostileGraphs.type(0), HostileGraphs.type(1))
        #expect(cycles.first?.message.hasPrefix(
            "dependency cycle: \(first) -> \(second) -> \(first) (one loop among \(count) bindings that need one another);")
            == true, "\(cycles.first?.message.prefix(300) ?? "")")
        #expect(cycles.first?.dependencyPath == [first, second, first])
        #expect(cycles.first?.line == 2, "at the first binding of the knot")
        // Without the back edges it is a chain, and checks clean.
        let chain = try HostileGraphs.knot(count, backEdges: false)
        let clean = try checker.check([chain.url])
        #expect(!clean.diagnostics.containsErrors, "\(clean.diagnostics.prefix(3))")
    }

    /// Thirteen knots of two: the first ten drawn, then one diagnostic counts the rest.
    @Test func cyclesPastTheLimitAreCountedNotDrawn() throws {
        let knots = 13
        let folder = try HostileGraphs.folder(count: 2 * knots) { $0.isMultiple(of: 2) ? [$0 + 1] : [$0 - 1] }
        let report = try ManifestChecker(loader: ManifestLoader(environment: [:])).check([folder.url])
        let cycles = report.diagnostics.filter { $0.code == .dependencyCycle }
        #expect(report.diagnostics.filter { $0.severity == .error }.count == cycles.count)
        #expect(cycles.count == 11, "\(cycles.map(\.message))")
        for (offset, cycle) in cycles.prefix(10).enumerated() {
            let (a, b) = (HostileGraphs.type(2 * offset), HostileGraphs.type(2 * offset + 1))
            #expect(cycle.message.hasPrefix("dependency cycle: \(a) -> \(b) -> \(a); break it"), "\(cycle.message)")
        }
        #expect(cycles.last?.message == "dependency cycle: 3 more groups of bindings that need one another, the first "
            + "at \(HostileGraphs.type(20)) (26 bindings are in cycles in all), not drawn; break the cycles above and "
            + "check again")
        #expect(cycles.last?.line == 22, "at the first binding of the eleventh knot")
    }
}
