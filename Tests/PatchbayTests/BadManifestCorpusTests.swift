// The bad-manifest corpus: every file under Tests/Fixtures/BadManifests/ is
// loaded and checked, and must produce exactly the diagnostics its `.expected`
// file lists (code, line, column, file). See the README.md there for the
// format. Generated cases too large to commit (10,000-deep nesting, a 20 MiB
// file, 1 MB strings) are made here at run time and checked the same way.
//
// The corpus lives outside the test target's folder: inside it, SwiftPM would
// warn about every file that is neither source nor declared resource, and the
// target declares none (files are read through `#filePath`).
import Foundation
import NotesKit
import Testing
@testable import Patchbay

/// One diagnostic a case must produce.
struct ExpectedDiagnostic: Hashable, Sendable, CustomStringConvertible {
    var code: String
    var line: Int
    var column: Int
    /// The file as diagnostics name it; the case's entry when the line gives none.
    var file: String
    /// `nil`: not checked; `.some(nil)`: must have no suggestion.
    var suggestion: String??

    /// The part every actual diagnostic is compared on.
    var place: String { "\(code) \(line):\(column) \(file)" }
    var description: String { place + (suggestion.map { " suggestion=\($0 ?? "")" } ?? "") }
}

/// One broken manifest and what it must produce.
struct BadManifestCase: Sendable, CustomTestStringConvertible {
    enum CatalogChoice: String, Sendable {
        case corpus, notes, none

        var catalog: FactoryCatalog? {
            switch self {
            case .corpus: .corpus
            case .notes: .notes
            case .none: nil
            }
        }
    }

    var name: String
    /// The file loaded first.
    var entry: URL
    /// How diagnostics name the entry: its path below the corpus folder.
    var displayPath: String
    var catalog = CatalogChoice.corpus
    var environment: [String: String] = [:]
    /// The limits the case is read with (`limits bytes=N depth=N`).
    var maxBytes = ManifestLoader().maxBytes, maxDepth = ManifestLoader().maxDepth
    /// The environment the app names when it loads the case (`environment NAME`); nil: loaded alone.
    var loadedAs: String?
    var expected: [ExpectedDiagnostic] = []

    var testDescription: String { name }

    /// The loader the case is read with: its limits and variables.
    var loader: ManifestLoader { ManifestLoader(maxBytes: maxBytes, maxDepth: maxDepth, environment: environment) }
}

enum BadManifestCorpus {
    /// The corpus folder, found from this file: the test target declares no resources.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/BadManifests", isDirectory: true)

    /// Every case of the corpus folder, by name. A case is `NAME.expected` with
    /// `NAME.json` beside it, or a folder `NAME/` holding its files.
    static let cases: [BadManifestCase] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".expected") }.sorted().map { name in
            let base = String(name.dropLast(".expected".count))
            let text = (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? ""
            return parse(expected: text, name: base)
        }
    }()

    /// Reads an `.expected` file. Unknown directives make the case fail rather than be skipped.
    static func parse(expected text: String, name: String) -> BadManifestCase {
        var isFolder: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path, isDirectory: &isFolder)
        var entry = isFolder.boolValue ? "main.json" : nil
        var result = BadManifestCase(name: name, entry: folder, displayPath: "")
        var lines: [[Substring]] = []
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let words = line.split(separator: " ")
            switch words.first {
            case "entry"?: entry = words.dropFirst().joined(separator: " ")
            case "environment"?: result.loadedAs = words.dropFirst().joined(separator: " ")
            case "catalog"?: result.catalog = BadManifestCase.CatalogChoice(rawValue: String(words.last!)) ?? .corpus
            case "env"?:
                let pair = words.dropFirst().joined(separator: " ").split(separator: "=", maxSplits: 1)
                result.environment[String(pair[0])] = pair.count > 1 ? String(pair[1]) : ""
            case "limits"?:
                for setting in words.dropFirst() {
                    let pair = setting.split(separator: "=")
                    let value = Int(pair.last!) ?? 0
                    if pair.first == "bytes" { result.maxBytes = value } else { result.maxDepth = value }
                }
            case nil: continue
            default: lines.append(words)
            }
        }
        result.displayPath = entry.map { name + "/" + $0 } ?? name + ".json"
        result.entry = folder.appendingPathComponent(result.displayPath)
        result.expected = lines.map { words in
            let place = words[1].split(separator: ":")
            var diagnostic = ExpectedDiagnostic(
                code: String(words[0]), line: Int(place[0]) ?? 0, column: Int(place.last!) ?? 0,
                file: result.displayPath)
            for word in words.dropFirst(2) {
                if word.hasPrefix("suggestion=") {
                    let suggestion = String(word.dropFirst("suggestion=".count))
                    diagnostic.suggestion = .some(suggestion.isEmpty ? nil : suggestion)
                } else {
                    diagnostic.file = String(word)
                }
            }
            return diagnostic
        }
        return result
    }

    /// Loads a case as an app would, then validates it as activation does:
    /// what loading found, and what validation found.
    static func diagnostics(of testCase: BadManifestCase) -> (loaded: [Diagnostic], validated: [Diagnostic]) {
        let loader = testCase.loader
        let (read, loaded) = loader.loadCollecting(contentsOf: testCase.entry, displayPath: testCase.displayPath)
        guard let manifest = read?.judged(as: testCase.loadedAs) else { return (loaded, []) }
        let validator = testCase.catalog.catalog.map(ManifestValidator.init(catalog:)) ?? ManifestValidator()
        return (loaded, validator.validate(manifest))
    }

    /// `unused-factory` and `unused-decorator` warnings are compared only where
    /// a case expects some of that code: elsewhere they would repeat every
    /// unbound factory or unnamed decorator of the catalog.
    static func comparable(_ diagnostics: [Diagnostic], for testCase: BadManifestCase) -> [Diagnostic] {
        let unused: [DiagnosticCode] = [.unusedFactory, .unusedDecorator]
        let wanted = Set(unused.filter { code in testCase.expected.contains { $0.code == code.rawValue } })
        return diagnostics.filter { !unused.contains($0.code) || wanted.contains($0.code) }
    }

    static func place(_ diagnostic: Diagnostic) -> String {
        "\(diagnostic.code) \(diagnostic.line):\(diagnostic.column) \(diagnostic.file)"
    }
}

@Suite struct BadManifestCorpusTests {
    @Test func theCorpusIsLargeAndCoversEveryCode() throws {
        let cases = BadManifestCorpus.cases
        #expect(cases.count >= 60, "only \(cases.count) cases in \(BadManifestCorpus.folder.path)")
        let codes = Set(cases.flatMap { $0.expected.map(\.code) })
        let spec: [DiagnosticCode] = [
            .syntax, .tooLarge, .tooDeep, .unsupportedFormat, .unknownKey, .missingKey, .wrongType, .duplicateKey,
            .unknownLifetime, .unknownFactory, .unknownProtocol, .ambiguousProtocol, .factoryDoesNotProvide,
            .duplicateBinding, .undeclaredInjector, .duplicateInjector, .extendsNotFound, .extendsCycle,
            .extendsOutside, .missingDependency, .dependencyCycle, .captiveDependency, .weakUnchecked,
            .invalidParameters, .envVarMissing, .argumentRequired, .collectionAndProtocol,
            .collectionElementTakesArgument, .duplicateCollectionElement, .environmentNotAllowed,
            .environmentLabelMismatch,
        ]
        // `unused-factory` is judged over a folder of environments, never one
        // file: UnusedFactoryTests checks it. `weak-value-type` needs a
        // catalog description that says a product is no class, which a live
        // catalog never can (TypeConformance): ManifestDiagnosticsTests checks it.
        for code in spec {
            #expect(codes.contains(code.rawValue), "no case of the corpus produces [\(code)]")
        }
        // Every manifest file belongs to a case, so none is silently never loaded.
        let files = try FileManager.default.contentsOfDirectory(atPath: BadManifestCorpus.folder.path)
        let names = Set(cases.map(\.name))
        for file in files where file.hasSuffix(".json") {
            #expect(names.contains(String(file.dropLast(".json".count))), "\(file) has no .expected file")
        }
    }

    @Test(arguments: BadManifestCorpus.cases)
    func producesExactlyTheExpectedDiagnostics(_ testCase: BadManifestCase) throws {
        #expect(!testCase.expected.isEmpty, "a bad manifest must produce at least one diagnostic")
        #expect(FileManager.default.fileExists(atPath: testCase.entry.path), "no file \(testCase.entry.path)")
        try checkCase(testCase)
    }

    /// Cases too large to commit, made in a temporary folder.
    @Test(arguments: GeneratedBadManifest.allCases)
    func generatedCaseProducesExactlyTheExpectedDiagnostics(_ generated: GeneratedBadManifest) throws {
        let folder = try ManifestFolder([:])
        let made = try generated.make(in: folder.url)
        try checkCase(made)
        // The same bytes handed over in memory give what loading the file gave
        // (`extends` aside, which in memory is relative to the current folder).
        guard generated != .extendsThroughSymlink else { return }
        let data = try Data(contentsOf: made.entry)
        let loader = made.loader
        let fromFile = BadManifestCorpus.diagnostics(of: made).loaded.map(BadManifestCorpus.place)
        do {
            _ = try loader.load(data: data, file: made.displayPath)
            #expect(fromFile.isEmpty)
        } catch {
            #expect(error.diagnostics.map(BadManifestCorpus.place).sorted() == fromFile.sorted())
        }
    }
}

/// Loads, validates and activates one case, and compares what it reports with what it expects.
func checkCase(_ testCase: BadManifestCase, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let (loadedDiagnostics, validated) = BadManifestCorpus.diagnostics(of: testCase)
    let all = loadedDiagnostics + validated
    let actual = BadManifestCorpus.comparable(all, for: testCase)
    // Exactly the expected diagnostics, as many times each.
    let got = actual.map(BadManifestCorpus.place).sorted()
    let want = testCase.expected.map(\.place).sorted()
    if got != want {
        // The first differences only: a generated case has thousands of diagnostics.
        let (gotSet, wantSet) = (Set(got), Set(want))
        let missing = want.filter { !gotSet.contains($0) }.prefix(20)
        let unexpected = actual.filter { !wantSet.contains(BadManifestCorpus.place($0)) }.prefix(20)
        Issue.record("""
            \(testCase.name): \(got.count) diagnostics, \(want.count) expected
            expected, not found:
            \(missing.joined(separator: "\n"))
            found, not expected:
            \(unexpected.map { String($0.description.prefix(400)) }.joined(separator: "\n"))
            """, sourceLocation: sourceLocation)
    }
    for expected in testCase.expected {
        guard let suggestion = expected.suggestion else { continue }
        let matching = actual.filter { BadManifestCorpus.place($0) == expected.place }
        #expect(matching.contains { $0.suggestion == suggestion },
            "\(testCase.name): \(expected) has suggestions \(matching.map(\.suggestion))", sourceLocation: sourceLocation)
    }
    // Messages stay proportionate to the file: none lists every other place.
    let size = (try? FileManager.default.attributesOfItem(atPath: testCase.entry.path)[.size] as? Int) ?? 0
    let text = all.reduce(0) { $0 + $1.message.utf8.count }
    #expect(text <= 8 * size + 4_096, "\(testCase.name): \(text) bytes of messages", sourceLocation: sourceLocation)
    // Every diagnostic can be acted on: a message, a 1-based place in a named file.
    for diagnostic in all {
        #expect(!diagnostic.message.isEmpty && !diagnostic.file.isEmpty, "\(diagnostic)", sourceLocation: sourceLocation)
        #expect(diagnostic.line >= 1 && diagnostic.column >= 1, "\(diagnostic)", sourceLocation: sourceLocation)
    }

    // Loading throws exactly when loading found an error, with what it found.
    let loader = testCase.loader
    let loaded: Manifest?
    do {
        loaded = try loader.load(contentsOf: testCase.entry, displayPath: testCase.displayPath).judged(as: testCase.loadedAs)
        #expect(!loadedDiagnostics.containsErrors, "\(testCase.name): loading should have thrown",
            sourceLocation: sourceLocation)
    } catch {
        loaded = nil
        #expect(error.diagnostics.map(BadManifestCorpus.place).sorted()
            == loadedDiagnostics.map(BadManifestCorpus.place).sorted(),
            "\(testCase.name): loading threw \(error)", sourceLocation: sourceLocation)
    }
    // Activation refuses the manifest with exactly the validation errors, and a
    // running container keeps its manifest.
    if let loaded, let catalog = testCase.catalog.catalog {
        let errors = actual.filter { $0.severity == .error }.map(BadManifestCorpus.place).sorted()
        do {
            _ = try Container(catalog: catalog, manifest: loaded)
            #expect(errors.isEmpty, "\(testCase.name): activation accepted it", sourceLocation: sourceLocation)
        } catch {
            #expect(error.diagnostics.errors.map(BadManifestCorpus.place).sorted() == errors,
                "\(testCase.name): activation reported \(error)", sourceLocation: sourceLocation)
        }
        // In a running container: refused, and the running manifest stays (warnings alone do not refuse).
        // (The example's catalog declares an entry point, which an empty manifest cannot start with.)
        if let running = try? Container(catalog: catalog, manifest: Manifest(bindings: [])) {
            #expect((try? running.activate(loaded)) == nil ? !errors.isEmpty : errors.isEmpty, sourceLocation: sourceLocation)
            #expect(running.manifest == (errors.isEmpty ? loaded : Manifest(bindings: [])), sourceLocation: sourceLocation)
        }
    }
    // `patchbay check`'s library call agrees (its file names are relative to
    // the current folder, so only their last component is compared).
    if let catalog = testCase.catalog.catalog {
        // As strict about unset variables as the app: the corpus's cases run with an empty environment.
        var checker = ManifestChecker(catalog: catalog, loader: loader, requiresEnvironment: true)
        checker.environmentName = testCase.loadedAs
        let report = try checker.check([testCase.entry])
        func short(_ place: String) -> String {
            let parts = place.split(separator: " ")
            return parts.dropLast().joined(separator: " ") + " " + (parts.last!.split(separator: "/").last ?? "")
        }
        // The corpus's catalogs declare no entry points, so check adds its one
        // `no-entry-points` warning, about the catalog rather than the case (see EntryPointTests).
        let aboutTheCase = report.diagnostics.filter { $0.code != .noEntryPoints }
        #expect(report.diagnostics.count - aboutTheCase.count <= 1, sourceLocation: sourceLocation)
        let checked = BadManifestCorpus.comparable(aboutTheCase, for: testCase).map(BadManifestCorpus.place)
        #expect(Set(checked.map(short)) == Set(got.map(short)),
            "\(testCase.name): check reported \(report.diagnostics)", sourceLocation: sourceLocation)
        #expect(report.failed() == all.containsErrors, sourceLocation: sourceLocation)
        #expect(report.failed(strict: true), sourceLocation: sourceLocation)
    }
}

/// The cases made at run time: too large to commit, or needing a symbolic link.
enum GeneratedBadManifest: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case nesting10000Deep
    case nesting10000DeepInParameters
    case file20MiB
    case oneMegabyteStringThenAnError
    case oneMegabyteOfMultibyteCharactersThenAnError
    case oneMegabyteUnknownKey
    case oneMegabyteUnterminatedString
    case oneMegabyteParameterWithUnterminatedReference
    case fiveThousandBindingsWithADuplicate
    case extendsThroughSymlink
    // Scale: work and message size must grow linearly with the file, never as
    // its square (each of these took minutes, or gigabytes, before).
    case thirtyThousandInjectors
    case twentyThousandMissingDependencies
    case twentyThousandDuplicateBindings
    case undeclaredInjectorsWithLongNames

    var testDescription: String { rawValue }

    /// Writes the case into `folder` and says what it must produce.
    func make(in folder: URL) throws -> BadManifestCase {
        let megabyte = 1 << 20
        var files: [String: Data] = [:]
        var testCase = BadManifestCase(name: rawValue, entry: folder, displayPath: "main.json")
        func expect(_ code: DiagnosticCode, _ line: Int, _ column: Int, file: String = "main.json") {
            testCase.expected.append(ExpectedDiagnostic(code: code.rawValue, line: line, column: column, file: file))
        }
        switch self {
        case .nesting10000Deep:
            files["main.json"] = Data((String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)).utf8)
            expect(.tooDeep, 1, 65)  // the bracket that opens level 65
        case .nesting10000DeepInParameters:
            let prefix = #"{"format": 1, "bindings": [{"protocol": "OrderStore", "factory": "memory-orders", "parameters": "#
            let text = prefix + String(repeating: #"{"a": "#, count: 10_000) + "1" + String(repeating: "}", count: 10_001)
                + "]}"
            files["main.json"] = Data(text.utf8)
            // Levels 1-3 are the root, bindings and the binding; the first {"a": is
            // the parameters, level 4, and the 62nd opens level 65.
            expect(.tooDeep, 1, prefix.count + 61 * 6 + 1)
        case .file20MiB:
            let text = #"{"format": 1, "bindings": [], "environment": ""# + String(repeating: "x", count: 20 * megabyte) + #""}"#
            files["main.json"] = Data(text.utf8)
            expect(.tooLarge, 1, 1)
        case .oneMegabyteStringThenAnError:
            let prefix = #"{"format": 1, "bindings": [], "environment": ""# + String(repeating: "x", count: megabyte) + #"", "#
            files["main.json"] = Data((prefix + #""extends": 7}"#).utf8)
            expect(.wrongType, 1, prefix.count + 12)
        case .oneMegabyteOfMultibyteCharactersThenAnError:
            // 2-, 3- and 4-byte characters: columns count Unicode scalars, not bytes.
            let text = String(repeating: "é日😀", count: megabyte / 9)
            let prefix = #"{"format": 1, "bindings": [], "environment": ""# + text + #"", "#
            files["main.json"] = Data((prefix + #""enviroment": 7}"#).utf8)
            expect(.unknownKey, 1, prefix.unicodeScalars.count + 1)
        case .oneMegabyteUnknownKey:
            let key = String(repeating: "k", count: megabyte)
            files["main.json"] = Data("{\n  \"format\": 1,\n  \"bindings\": [],\n  \"\(key)\": 1\n}\n".utf8)
            expect(.unknownKey, 4, 3)
        case .oneMegabyteUnterminatedString:
            files["main.json"] = Data(("{\n  \"format\": 1,\n  \"environment\": \"" + String(repeating: "x", count: megabyte)).utf8)
            expect(.syntax, 3, 18)  // at the opening quote
        case .oneMegabyteParameterWithUnterminatedReference:
            let value = String(repeating: "x", count: megabyte) + "${UNCLOSED"
            files["main.json"] = Data(("{\n  \"format\": 1,\n  \"bindings\": [\n    { \"protocol\": \"Notifier\", "
                + "\"factory\": \"webhook\",\n      \"parameters\": { \"url\": \"\(value)\", \"retries\": 3 } }\n  ]\n}\n").utf8)
            expect(.invalidParameters, 5, 30)
        case .fiveThousandBindingsWithADuplicate:
            var lines = (0..<5_000).map { #"    { "protocol": "OrderStore", "factory": "memory-orders", "injector": "i\#($0)" },"# }
            lines.append(#"    { "protocol": "OrderStore", "factory": "memory-orders", "injector": "i4321" }"#)
            files["main.json"] = Data(("{\n  \"format\": 1,\n  \"bindings\": [\n" + lines.joined(separator: "\n") + "\n  ]\n}\n").utf8)
            expect(.duplicateBinding, 4 + 4321, 5)
            expect(.duplicateBinding, 4 + 5_000, 5)
        case .thirtyThousandInjectors:
            // Every OrderStore's Connection is found by falling back to the last injector.
            var lines = (0..<30_000).map {
                #"    { "protocol": "OrderStore", "factory": "sql-orders", "parameters": { "path": "/db" }, "injector": "i\#($0)" },"#
            }
            lines.append(#"    { "protocol": "Connection", "factory": "pg-connection", "injector": "last" },"#)
            lines.append(#"    { "protocol": "Connection", "factory": "pg", "injector": "i7" }"#)
            files["main.json"] = Data(("{\n  \"format\": 1,\n  \"bindings\": [\n" + lines.joined(separator: "\n") + "\n  ]\n}\n").utf8)
            expect(.unknownFactory, 4 + 30_001, 44)
        case .twentyThousandMissingDependencies:
            let lines = (0..<20_000).map {
                #"    { "protocol": "OrderStore", "factory": "sql-orders", "parameters": { "path": "/db" }, "injector": "i\#($0)" }"#
            }
            files["main.json"] = Data(("{\n  \"format\": 1,\n  \"bindings\": [\n" + lines.joined(separator: ",\n") + "\n  ]\n}\n").utf8)
            for line in 4..<4 + 20_000 { expect(.missingDependency, line, 44) }
        case .twentyThousandDuplicateBindings:
            let lines = Array(repeating: #"    { "protocol": "OrderStore", "factory": "memory-orders" }"#, count: 20_000)
            files["main.json"] = Data(("{\n  \"format\": 1,\n  \"bindings\": [\n" + lines.joined(separator: ",\n") + "\n  ]\n}\n").utf8)
            for line in 4..<4 + 20_000 { expect(.duplicateBinding, line, 5) }
        case .undeclaredInjectorsWithLongNames:
            // Suggesting a declared name compares every pair: with names of 200 KB, 4 * 10^10 steps.
            let declared = String(repeating: "a", count: 200_000)
            let used = String(repeating: "a", count: 199_999) + "b"
            files["main.json"] = Data(("{\n  \"format\": 1,\n  \"injectors\": [\"\(declared)\"],\n  \"bindings\": [\n"
                + "    { \"protocol\": \"OrderStore\", \"factory\": \"memory-orders\", \"injector\": \"\(used)\" }\n  ]\n}\n").utf8)
            expect(.undeclaredInjector, 5, 73)
        case .extendsThroughSymlink:
            // A link inside the folder to a manifest outside it: outside, by where it leads.
            files["outside.json"] = Data(#"{ "format": 1, "bindings": [] }"#.utf8)
            files["app/main.json"] = Data("{\n  \"format\": 1,\n  \"extends\": \"link.json\",\n  \"bindings\": []\n}\n".utf8)
            testCase.displayPath = "app/main.json"
            expect(.extendsOutside, 3, 14, file: "app/main.json")
        }
        for (name, data) in files {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        if self == .extendsThroughSymlink {
            try FileManager.default.createSymbolicLink(
                atPath: folder.appendingPathComponent("app/link.json").path, withDestinationPath: "../outside.json")
        }
        testCase.entry = folder.appendingPathComponent(testCase.displayPath)
        return testCase
    }
}
