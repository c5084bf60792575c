// The bad-catalog corpus: each folder under Tests/Fixtures/BadCatalogs/ holds
// a broken catalog description, `catalog.json`, and `expected.txt`: exactly
// what `patchbay check --catalog catalog.json ../manifest.json` prints on
// standard error run in that folder (it exits 2 and prints nothing else). The
// library (`CatalogDescription(jsonData:file:)`, `ManifestChecker`) and the
// app's own command must give the same verdict. See the README.md there.
import Foundation
import NotesKit
import Testing
@testable import Patchbay

enum BadCatalogCorpus {
    /// The corpus folder, found from this file: the test target declares no resources.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/BadCatalogs", isDirectory: true)

    /// Every case: a folder of the corpus.
    static let cases: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { name in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path, isDirectory: &isFolder)
                && isFolder.boolValue
        }.sorted()
    }()

    static func url(_ testCase: String, _ file: String) -> URL {
        folder.appendingPathComponent(testCase).appendingPathComponent(file)
    }

    /// The expected standard error, line by line: the diagnostics, then the `Error:` line.
    static func expected(_ testCase: String) throws -> [String] {
        try String(contentsOf: url(testCase, "expected.txt"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
    }

    /// The expected diagnostics: every line but the last.
    static func expectedDiagnostics(_ testCase: String) throws -> [String] {
        try expected(testCase).filter { !$0.hasPrefix("Error: ") }
    }
}

@Suite struct BadCatalogCorpusTests {
    @Test func theCorpusCoversEveryRuleOfADescription() throws {
        #expect(BadCatalogCorpus.cases.count >= 20, "only \(BadCatalogCorpus.cases.count) cases")
        var codes: Set<String> = []
        for testCase in BadCatalogCorpus.cases {
            for line in try BadCatalogCorpus.expectedDiagnostics(testCase) {
                if let code = line.firstMatch(of: /\[([a-z-]+)\]$/)?.output.1 { codes.insert(String(code)) }
            }
        }
        let rules: [DiagnosticCode] = [
            .syntax, .tooDeep, .duplicateKey, .wrongType, .missingKey, .unsupportedCatalogVersion, .unknownLifetime,
            .unknownExecution, .unknownParameterDecoding, .unknownNeedKind, .unknownFieldType, .invalidName,
            .duplicateName, .undeclaredType, .conflictingEnvironments, .invalidSourcePlace, .invalidSourceFolder,
        ]
        for code in rules {
            #expect(codes.contains(code.rawValue), "no case of the corpus produces [\(code)]")
        }
    }

    /// The description every case breaks in one way is itself valid, so each case shows its one problem.
    @Test func theBaseOfTheCasesIsValid() throws {
        let good = try Data(contentsOf: BadCatalogCorpus.folder.appendingPathComponent("good.json"))
        _ = try CatalogDescription(jsonData: good, file: "good.json")
        let result = try runProduct(
            "patchbay", ["check", "--catalog", "good.json", "manifest.json"], in: BadCatalogCorpus.folder)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test(arguments: BadCatalogCorpus.cases)
    func checkExitsTwoWithExactlyTheExpectedOutput(_ testCase: String) throws {
        let expected = try BadCatalogCorpus.expected(testCase)
        #expect(expected.last?.hasPrefix("Error: catalog.json is not a catalog description this build can read") == true)
        #expect(expected.count >= 2, "a bad description produces at least one diagnostic")
        let folder = BadCatalogCorpus.folder.appendingPathComponent(testCase)
        let arguments = ["check", "--catalog", "catalog.json", "../manifest.json"]
        let result = try runProduct("patchbay", arguments, in: folder)
        #expect(result.status == 2 && result.stdout.isEmpty)
        #expect(result.stderr.split(separator: "\n").map(String.init) == expected, "\(result.stderr)")
        // The app's own command, with its live catalog, reads a named description the same way.
        let app = try runProduct("notes-example", ["patchbay"] + arguments, in: folder)
        #expect(app.status == 2 && app.stderr == result.stderr, "\(app.stderr)")
        // No Swift or Foundation wording leaks through.
        for phrase in ["Cannot initialize", "The given data", "DecodingError", "Swift.", "codingPath", "Is it stale"] {
            #expect(!result.stderr.contains(phrase), "\(phrase)")
        }
    }

    @Test(arguments: BadCatalogCorpus.cases)
    func theLibraryGivesTheSameVerdict(_ testCase: String) throws {
        let expected = try BadCatalogCorpus.expectedDiagnostics(testCase)
        let data = try Data(contentsOf: BadCatalogCorpus.url(testCase, "catalog.json"))
        do {
            _ = try CatalogDescription(jsonData: data, file: "catalog.json")
            Issue.record("\(testCase) was read")
        } catch {
            #expect(error.diagnostics.map(\.description) == expected)
        }
        // Discovered beside a manifest by the checker, and named in the diagnostics as its path.
        let folder = try ManifestFolder([
            "catalog.json": String(decoding: data, as: UTF8.self),
            "manifest.json": try String(contentsOf: BadCatalogCorpus.folder.appendingPathComponent("manifest.json"), encoding: .utf8),
        ])
        do {
            _ = try ManifestChecker().check([folder.url])
            Issue.record("\(testCase) was used")
        } catch {
            let file = folder.file("catalog.json").relativePath
            #expect(error.problemsBeforeUnusable.map { $0.description.replacingOccurrences(of: file, with: "catalog.json") }
                == expected)
            #expect(error.unusablePath?.message.contains("is not a catalog description this build can read") == true)
        }
    }

    /// A file of many bad names keeps every problem, each at its own line (the
    /// array's elements are indexed once, so this is not a walk of it per
    /// problem); the command prints as many as a check lists, then how many more.
    @Test func aHostileDescriptionKeepsEveryProblemAndTheCommandPrintsTheFirst() throws {
        let count = 20_000
        let factories = (0..<count).map { _ in
            #"{ "name": "", "provides": [], "productType": "T", "productIsClass": false }"#
        }
        let text = #"{ "version": 3, "types": [], "factories": [\#n"# + factories.joined(separator: ",\n") + "\n] }"
        do {
            _ = try CatalogDescription(jsonData: Data(text.utf8), file: "big.json")
            Issue.record("\(count) empty names were read")
        } catch {
            let listed = error.diagnostics.filter { $0.code == .invalidName }
            #expect(listed.count == count)
            #expect(Set(listed.map(\.line)).count == count, "each at its own line")
        }
        let folder = try ManifestFolder([
            "catalog.json": text, "good.json": #"{ "format": 1, "bindings": [] }"#])
        let result = try runProduct("patchbay", ["check", folder.url.path])
        #expect(result.status == 2)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.filter { $0.contains("invalid-name") }.count == Diagnostic.defaultPrintLimit)
        #expect(lines.contains { $0.hasPrefix("... and \(count - Diagnostic.defaultPrintLimit) more not shown") })
    }

    /// A long name or value is quoted cut, with its length: a message quotes, it does not copy.
    @Test func longNamesAndValuesAreQuotedCut() throws {
        let long = String(repeating: "x", count: 5_000)
        let text = #"{ "version": 3, "types": [], "factories": [ { "name": "\#(long)\n", "provides": [], "#
            + #""productType": "T", "productIsClass": "\#(long)" } ] }"#
        do {
            _ = try CatalogDescription(jsonData: Data(text.utf8))
            Issue.record("a control character and a string for a boolean were read")
        } catch {
            let messages = error.diagnostics.map(\.message)
            #expect(messages.count == 2)
            #expect(messages.contains { $0.hasPrefix("factory name '\(long.prefix(64))...' (5001 bytes) holds") })
            #expect(messages.contains { $0.contains("found the string \"\(long.prefix(64))...\" (5000 bytes)") })
            #expect(messages.allSatisfy { $0.utf8.count < 400 })
        }
    }

    /// What `describe()` writes reads back as itself, for every catalog the tests know.
    @Test func everyCatalogsOwnDescriptionReadsBack() throws {
        for catalog in [FactoryCatalog.notes, .corpus, Docs.catalog, Plugins.catalog()] {
            let description = catalog.describe()
            #expect(try CatalogDescription(jsonData: description.jsonData()) == description)
        }
    }

    /// A key this build does not know is ignored, so a later build may record more of a factory without a new version.
    @Test func keysThisBuildDoesNotKnowAreIgnored() throws {
        let good = try String(contentsOf: BadCatalogCorpus.folder.appendingPathComponent("good.json"), encoding: .utf8)
        let later = good.replacingOccurrences(of: #""name" : "console","#, with: #""name" : "console", "inlined" : true,"#)
        #expect(later != good)
        let description = try CatalogDescription(jsonData: Data(later.utf8))
        #expect(description.factories.map(\.name) == ["console", "friendly"])
    }

    /// Decoded by a plain `JSONDecoder`, with no validation run listening, the first problem throws as before.
    @Test func aPlainDecoderStillThrowsAtTheFirstProblem() throws {
        let data = Data(#"{ "version": 3, "types": [], "factories": [ { "name": "x" } ] }"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(CatalogDescription.self, from: data) }
        let good = try Data(contentsOf: BadCatalogCorpus.folder.appendingPathComponent("good.json"))
        #expect(try JSONDecoder().decode(CatalogDescription.self, from: good) == CatalogDescription(jsonData: good))
    }

    /// Registration refuses a name a description could not hold, so what `describe()` writes always reads back.
    @Test func registrationRefusesANameADescriptionCouldNotHold() throws {
        for name in ["", "a\nb", "tab\there", "nul\u{0}"] {
            let definition = FactoryDefinition(
                name: name, product: Part.self, provides: [], dependencies: [], defaultLifetime: nil,
                registeredAt: CodeLocation(fileID: "App/Catalog.swift", line: 3),
                buildInto: FactoryDefinition.alwaysBoxed, buildsInto: false) { _ in Part(tag: "w") }
            var catalog = FactoryCatalog()
            let error = try #require(throws: RegistrationError.self) { try catalog.add(definition) }
            #expect(error == .invalidName && error.code == "invalid-name" && error.factory == name)
            #expect(error.description.contains("registered at App/Catalog.swift:3"))
            #expect(error.description.contains("give it a plain, non-empty name"))
            #expect(!error.description.contains("\n"), "the name is escaped in the message")
            #expect(catalog.factoryNames.isEmpty)
        }
    }

    /// The rule list at the top of the validator names every code it reports.
    @Test func everyCodeTheValidatorReportsIsInItsRuleList() throws {
        let sources = repositoryRoot.appendingPathComponent("Sources/Patchbay")
        let codes = try String(contentsOf: sources.appendingPathComponent("Diagnostics/DiagnosticCode.swift"), encoding: .utf8)
        var spelled: [String: String] = [:]
        for match in codes.matches(of: /static let (\w+): Self = "([a-z-]+)"/) {
            spelled[String(match.output.1)] = String(match.output.2)
        }
        let validator = try String(
            contentsOf: sources.appendingPathComponent("CatalogDescription/CatalogDescriptionValidator.swift"), encoding: .utf8)
        let list = try #require(validator.components(separatedBy: "struct CatalogDescriptionValidator {").first)
        var reported: Set<String> = []
        for match in validator.matches(of: /\.(\w+)\b/) {
            if let code = spelled[String(match.output.1)] { reported.insert(code) }
        }
        #expect(reported.contains("undeclared-type"), "the scan found the rules' codes")
        for code in reported.sorted() {
            #expect(list.contains("`\(code)`"), "'\(code)' is reported by the validator but missing from its rule list")
        }
    }
}
