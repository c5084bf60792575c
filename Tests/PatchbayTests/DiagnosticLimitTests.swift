// A check that finds thousands of problems lists the first of them, then one
// line with how many more, in every format; the counts, the exit status and
// the library's reports keep every one (#28).
import Foundation
import NotesKit
import Testing
@testable import Patchbay
@testable import PatchbayTools

@Suite struct DiagnosticLimitTests {
    /// A manifest of `count` bindings of unknown protocols to an unknown
    /// factory (two errors each), with the example's catalog beside it.
    static func broken(_ count: Int) throws -> ManifestFolder {
        let bindings = (0..<count).map { #"    { "protocol": "P\#($0)", "factory": "f" }"# }
        return try ManifestFolder([
            "catalog.json": String(decoding: try FactoryCatalog.notes.describe().jsonData(), as: UTF8.self),
            "hostile.json": "{\n  \"format\": 1,\n  \"bindings\": [\n" + bindings.joined(separator: ",\n") + "\n  ]\n}\n",
        ])
    }

    /// Runs `patchbay check` in-process: exit status, standard output's lines.
    static func check(_ arguments: [String], catalog: FactoryCatalog? = nil) -> (status: Int32, lines: [String]) {
        let standard = Collected<String>()
        let status = PatchbayCommandLine(catalog: catalog, loader: ManifestLoader(environment: [:]))
            .run(["check"] + arguments, output: .init(standard: standard.append, error: { _ in }))
        return (status, standard.all.joined().split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init))
    }

    @Test func textListsTheLimitThenOneLineWithHowManyMore() throws {
        let folder = try Self.broken(300)
        let file = folder.file("hostile.json").path
        // 300 x (unknown protocol, unknown factory), and NoteService, the entry point, unbound.
        let report = try ManifestChecker(loader: ManifestLoader(environment: [:])).check([folder.file("hostile.json")])
        #expect(report.diagnostics.count == 601 && report.diagnostics.errors.count == 601)
        let all = report.diagnostics.map(\.description)

        let (status, lines) = Self.check([file])
        #expect(status == 1)
        #expect(lines.count == 200 + 2, "\(lines.count) lines")
        #expect(Array(lines.prefix(200)) == Array(all.prefix(200)))
        #expect(lines[200] == "... and 401 more not shown (401 errors, 0 warnings); --max-diagnostics N lists N, 0 lists all")
        #expect(lines[201] == "601 errors, 0 warnings in 1 manifest")

        let five = Self.check(["--max-diagnostics", "5", file])
        #expect(five.status == 1 && five.lines == Array(all.prefix(5)) + [
            "... and 596 more not shown (596 errors, 0 warnings); --max-diagnostics N lists N, 0 lists all",
            "601 errors, 0 warnings in 1 manifest",
        ])
        let every = Self.check(["--max-diagnostics=0", file])
        #expect(every.status == 1 && every.lines == all + ["601 errors, 0 warnings in 1 manifest"])
        // At or under the limit, no line about more.
        let exact = Self.check(["--max-diagnostics", "601", file])
        #expect(exact.lines == all + ["601 errors, 0 warnings in 1 manifest"])
    }

    @Test func jsonListsTheLimitAndCountsWhatItLeftOut() throws {
        let folder = try Self.broken(300)
        let file = folder.file("hostile.json").path
        for (arguments, listed) in [([String](), 200), (["--max-diagnostics", "7"], 7), (["--max-diagnostics", "0"], 601)] {
            let (status, lines) = Self.check(["--format", "json"] + arguments + [file])
            #expect(status == 1)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(lines.joined(separator: "\n").utf8)) as? [String: Any])
            let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
            let summary = try #require(document["summary"] as? [String: Int])
            #expect(diagnostics.count == listed, "\(arguments)")
            #expect(summary == ["errors": 601, "warnings": 0, "manifests": 1, "omitted": 601 - listed], "\(summary)")
            // In the text format's order: the unbound entry point (at the bindings' key), then each binding's two.
            #expect(diagnostics.prefix(3).compactMap { $0["code"] as? String }
                == ["unbound-entry-point", "unknown-protocol", "unknown-factory"])
        }
    }

    @Test func aLongReportWrittenInPiecesIsTheDocumentWrittenWhole() throws {
        let folder = try Self.broken(30)
        let report = try ManifestChecker(loader: ManifestLoader(environment: [:])).check([folder.file("hostile.json")])
        #expect(report.diagnostics.count == 61)
        func written(_ write: ((String) -> Void) -> Void) -> (text: String, pieces: Int) {
            var text = "", pieces = 0
            write { text += $0; pieces += 1 }
            return (text, pieces)
        }
        for limit in [nil, 0, 1, 7, 14, 60, 61] as [Int?] {
            // A piece of 7 diagnostics sets them in the document; pieces as large as the list write it whole.
            let pieces = written { report.writeJSON(maxDiagnostics: limit, piece: 7, to: $0) }
            let whole = written { report.writeJSON(maxDiagnostics: limit, piece: .max, to: $0) }
            #expect(pieces.text == whole.text, "limit \(String(describing: limit))")
            #expect(whole.pieces == 1)
            #expect((try? JSONSerialization.jsonObject(with: Data(pieces.text.utf8))) != nil)
            let text = written { report.writeText(maxDiagnostics: limit, piece: 7, to: $0) }
            #expect(text.text == report.text(maxDiagnostics: limit))
            let github = written { report.writeGitHub(maxDiagnostics: limit, piece: 7, to: $0) }
            #expect(github.text == report.github(maxDiagnostics: limit))
            if limit == nil { #expect(pieces.pieces > 8 && text.pieces > 8) }
        }
        // And the whole document is JSONEncoder's, as it was before it was written in pieces.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        struct Summary: Encodable { let errors = 61, warnings = 0, manifests = 1, omitted = 0 }
        struct Document: Encodable { let version = 1; let diagnostics: [Diagnostic]; let summary = Summary() }
        let expected = String(decoding: try encoder.encode(Document(diagnostics: report.diagnostics)), as: UTF8.self) + "\n"
        #expect(written { report.writeJSON(maxDiagnostics: nil, piece: 7, to: $0) }.text == expected)
    }

    @Test func githubListsTheLimitThenOneLineWithHowManyMore() throws {
        let folder = try Self.broken(300)
        let (status, lines) = Self.check(["--format", "github", folder.file("hostile.json").path])
        #expect(status == 1)
        #expect(lines.count == 202)
        #expect(lines.prefix(200).allSatisfy { $0.hasPrefix("::error file=") })
        #expect(lines[200] == "... and 401 more not shown (401 errors, 0 warnings); --max-diagnostics N lists N, 0 lists all")
        #expect(lines[201] == "601 errors, 0 warnings in 1 manifest")
    }

    @Test func theExitStatusCountsWarningsThatWereNotListed() throws {
        // Only warnings: 30 repeated collection elements, and the corpus catalog's `no-entry-points`.
        let elements = Array(repeating: #"{ "collection": "Interceptor", "factory": "logging-interceptor" }"#, count: 31)
        let folder = try ManifestFolder(["main.json": #"{ "format": 1, "bindings": [ { "protocol": "Pipeline", "factory": "pipeline" }, "#
            + elements.joined(separator: ", ") + " ] }"])
        let file = folder.file("main.json").path
        let lenient = Self.check(["--max-diagnostics", "1", file], catalog: .corpus)
        #expect(lenient.status == 0 && lenient.lines.count == 3, "\(lenient.lines)")
        #expect(lenient.lines[1] == "... and 30 more not shown (0 errors, 30 warnings); --max-diagnostics N lists N, 0 lists all")
        #expect(lenient.lines[2] == "0 errors, 31 warnings in 1 manifest")
        let strict = Self.check(["--strict", "--max-diagnostics", "1", file], catalog: .corpus)
        #expect(strict.status == 1 && strict.lines == lenient.lines)
    }

    @Test func aLimitThatIsNotAWholeNumberIsAMistakeInTheArguments() throws {
        let folder = try Self.broken(1)
        for value in ["-1", "many", "1.5", ""] {
            let error = Collected<String>()
            let status = PatchbayCommandLine().run(["check", "--max-diagnostics", value, folder.url.path],
                output: .init(standard: { _ in }, error: error.append))
            #expect(status == 2, "\(value)")
            #expect(error.all.joined().contains("invalid value '\(value)' for '--max-diagnostics'"), "\(error.all)")
        }
    }

    @Test func theAppsErrorKeepsEveryProblemAndPrintsTheFirst() throws {
        let folder = try Self.broken(300)
        let manifest = try ManifestLoader(environment: [:]).load(contentsOf: folder.file("hostile.json"))
        let error = try #require(throws: ManifestError.self) { try Container(catalog: .notes, manifest: manifest) }
        #expect(error.diagnostics.count == 601)
        let lines = error.description.split(separator: "\n").map(String.init)
        #expect(lines.count == 202)
        #expect(Array(lines.prefix(200)) == error.diagnostics.prefix(200).map(\.description))
        #expect(lines[200] == "... and 401 more not shown (401 errors, 0 warnings); ManifestError.diagnostics lists every one")
        #expect(lines[201] == "601 errors, 0 warnings")
    }
}
