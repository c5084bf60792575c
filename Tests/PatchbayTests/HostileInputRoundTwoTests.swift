import Foundation
import NotesKit
import Testing
@testable import Patchbay
@testable import PatchbayTools

/// The second round of hostile inputs: limits that hold after interpolation, a cost proportional to what
/// is reported, messages that cannot mislead, and the small wrong verdicts (Unicode keys: `UnicodeKeyTests`).
@Suite struct HostileInputRoundTwoTests {
    /// One binding of the example's catalog with `parameters` as given.
    static func mailer(_ parameters: String, factory: String = "smtp-mailer") -> String {
        #"{ "format": 1, "bindings": [ { "protocol": "Mailer", "factory": "\#(factory)", "parameters": \#(parameters) } ] }"#
    }

    /// The diagnostics about parameters, of one binding checked against the example's catalog (whose other
    /// rules, such as its entry points, a one-binding manifest does not satisfy).
    static func parameterProblems(_ text: String, environment: [String: String] = [:]) throws -> [Diagnostic] {
        try diagnostics(text, catalog: .notes, environment: environment)
            .filter { [.invalidParameters, .unknownParameter, .tooLarge, .envVarMissing].contains($0.code) }
    }

    // MARK: - Limits after interpolation

    @Test func interpolationThatPassesTheSizeLimitIsRefusedWithoutBuildingTheText() throws {
        // `${X}` 200 times with X = 100 KB: 20 MB of text from a 1.4 KB file, over the 16 MiB limit.
        let references = Array(repeating: "${X}", count: 200).joined(separator: "")
        let text = Self.mailer(#"{ "host": "\#(references)", "port": 587 }"#)
        let value = String(repeating: "x", count: 100_000)
        let found = try diagnostics(text, catalog: .notes, environment: ["X": value])
        #expect(found.map(\.code) == [.tooLarge], "\(found.map(\.code))")
        let message = try #require(found.first?.message)
        #expect(message.contains("larger than the limit of 16777216 bytes"), "\(message)")
        #expect(message.contains("ManifestLoader.maxBytes"))
        #expect(found.first.map { "\($0.line):\($0.column)" } == "1:\(position(of: "\"${X}", in: text).column)")
        // The app refuses it too; what fits the limit still loads.
        #expect(throws: ManifestError.self) {
            try ManifestLoader(environment: ["X": value]).load(data: Data(text.utf8), file: "main.json")
        }
        #expect(try Self.parameterProblems(text, environment: ["X": "smtp"]).isEmpty)
        // A default counts as a variable's value does, and the room is the whole file's, not each string's.
        let limits = ManifestLoader(maxBytes: 400)
        let two = Self.mailer(#"{ "host": "${H:-\#(String(repeating: "h", count: 60))}", "user": "${H}", "port": 587 }"#)
        #expect(two.utf8.count < 220)
        #expect(try diagnostics(two, catalog: nil, environment: [:], loader: limits).map(\.code) == [.envVarMissing])
        let grown = try diagnostics(two, catalog: nil, environment: ["H": String(repeating: "y", count: 200)], loader: limits)
        #expect(grown.map(\.code) == [.tooLarge], "\(grown)")
        #expect(grown.first?.column == position(of: "\"${H}\"", in: two).column)  // the second string passes it
    }

    @Test func unknownKeysPastTheFirstFewAreCountedNotListed() throws {
        let keys = (0..<1_000).map { #""unknown\#($0)": 1"# }.joined(separator: ", ")
        let text = Self.mailer(#"{ "host": "h", "port": 587, \#(keys) }"#)
        let found = try diagnostics(text, catalog: .notes).with(.unknownParameter)
        #expect(found.count == UnknownKeyList.listedPerObject + 1, "\(found.count)")
        let rest = try #require(found.last)
        #expect(rest.message.contains("980 more unknown parameters in this object are not listed (only the first 20 are)"), "\(rest.message)")
        // At the first key not listed, in document order.
        #expect(rest.column == position(of: #""unknown20""#, in: text).column)
        // A binding's own keys are capped the same way.
        let bindingKeys = (0..<100).map { #""k\#($0)": 1"# }.joined(separator: ", ")
        let binding = #"{ "format": 1, "bindings": [ { "protocol": "Mailer", "factory": "outbox-mailer", \#(bindingKeys) } ] }"#
        let unknown = try diagnostics(binding, catalog: nil).with(.unknownKey)
        #expect(unknown.count == UnknownKeyList.listedPerObject + 1)
        #expect(unknown.last?.message.hasPrefix("80 more unknown binding keys in this object are not listed") == true)
    }

    // MARK: - Messages that cannot mislead

    @Test func aLookAlikeSuggestionSaysWhichCharacterItIs() throws {
        let text = #"{ "format": 1, "bindings": [ { "protocol": "NoteStore", "factory": "file-\#u{455}tore" } ] }"#
        let found = try diagnostics(text, catalog: .notes).with(.unknownFactory)
        let message = try #require(found.first?.message)
        #expect(found.first?.suggestion == "file-store")
        #expect(message.contains("did you mean 'file-store'? '\u{455}' (Cyrillic Small Letter Dze, U+0455) looks like "
            + "'s' (Latin Small Letter S), but it is not"), "\(message)")
        // An ordinary typo gets no such note; two look-alikes are both counted.
        let typo = try diagnostics(#"{ "format": 1, "bindings": [ { "protocol": "NoteStore", "factory": "file-stor" } ] }"#, catalog: .notes)
        #expect(typo.with(.unknownFactory).first?.message.contains("looks like") == false)
        #expect(LookAlikes.note(written: "f\u{456}le-\u{455}tore", meant: "file-store")?.hasSuffix("nor is one other in the name") == true)
        #expect(LookAlikes.note(written: "file-stor", meant: "file-store") == nil)
    }

    @Test func invisibleAndBidiCharactersAreEscapedInEveryFormat() throws {
        let name = "file\u{202E}erots\u{200B}x"
        let folder = try ManifestFolder(["app.json": #"{ "format": 1, "bindings": [ { "protocol": "NoteStore", "factory": "\#(name)" } ] }"#])
        let report = try ManifestChecker(catalog: .notes, loader: ManifestLoader(environment: [:])).check([folder.file("app.json")])
        for output in [report.text(), report.github(), report.json()] {
            #expect(!output.unicodeScalars.contains { $0.value == 0x202E || $0.value == 0x200B }, "\(output)")
        }
        #expect(report.text().contains(#"unknown factory 'file\u{202E}erots\u{200B}x'"#), "\(report.text())")
    }

    @Test func aLineBreakAndABackslashNPrintDifferently() throws {
        func message(_ factory: String) throws -> String {
            let json = String(decoding: try JSONEncoder().encode(factory), as: UTF8.self)
            let text = #"{ "format": 1, "bindings": [ { "protocol": "NoteStore", "factory": \#(json) } ] }"#
            return try #require(diagnostics(text, catalog: .notes).with(.unknownFactory).first?.message)
        }
        let newline = try message("a\nb"), backslash = try message("a\\nb")
        #expect(newline.contains(#"'a\nb'"#), "\(newline)")
        #expect(backslash.contains(#"'a\\nb'"#), "\(backslash)")
        #expect(newline != backslash)
    }

    @Test func aLongNameIsCutInMessages() throws {
        let long = String(repeating: "f", count: 1_000_000)
        let text = #"{ "format": 1, "bindings": [ { "protocol": "NoteStore", "factory": "\#(long)" } ] }"#
        let found = try diagnostics(text, catalog: .notes)
        let message = try #require(found.with(.unknownFactory).first?.message)
        #expect(message.utf8.count < 1_000, "\(message.utf8.count)")
        #expect(message.contains("... (1000000 characters)"))
    }

    @Test func anInterpolatedFactoryNameIsToldFactoriesAreNotInterpolated() throws {
        let text = #"{ "format": 1, "bindings": [ { "protocol": "NoteStore", "factory": "${F:-file-store}" } ] }"#
        let folder = try ManifestFolder(["app.json": text])
        // Checked against catalog.json, where an unknown name was blamed on a stale description.
        let description = FactoryCatalog.notes.describe()
        let report = try ManifestChecker(source: .description(description), loader: ManifestLoader(environment: [:]))
            .check([folder.file("app.json")])
        let message = try #require(report.diagnostics.with(.unknownFactory).first?.message)
        #expect(message.contains("A factory name is not interpolated"), "\(message)")
        #expect(!message.contains("stale"))
    }

    @Test func theUnsetVariablesNoteIsCapped() throws {
        let parameters = (0..<1_000).map { #""k\#($0)": "${V\#($0)}""# }.joined(separator: ", ")
        let folder = try ManifestFolder(["app.json": Self.mailer("{ \(parameters) }", factory: "outbox-mailer")])
        let report = try ManifestChecker(loader: ManifestLoader(environment: [:])).check([folder.file("app.json")])
        let note = try #require(report.notes.first { $0.contains("must provide") })
        #expect(note.contains("and \(1_000 - Diagnostic.defaultPrintLimit) more"), "\(note.prefix(200))")
        #expect(note.utf8.count < 40_000)
        #expect(report.requiredVariables.count == 1_000)
    }

    // MARK: - Small wrong verdicts

    @Test(arguments: ["catalog", "manifest.schema"])
    func anEnvironmentNamingAFileThatIsNoManifestIsRefused(name: String) throws {
        let folder = ManifestDirectory(url: exampleManifests, loader: ManifestLoader(environment: ["PATCHBAY_ENV": name]))
        #expect(!folder.environments().contains(name))
        do {
            _ = try folder.load()
            Issue.record("loaded \(name).json as a manifest")
        } catch {
            #expect(error.diagnostics.map(\.code) == [.unknownEnvironment], "\(error.diagnostics)")
            #expect(error.diagnostics.first?.message.contains("is not an environment") == true)
            #expect(error.diagnostics.first?.message.contains("environments found: base, development") == true)
        }
    }

    @Test func oneFileNamedManyWaysIsOneManifest() throws {
        let folder = try ManifestFolder([
            "a.json": #"{ "format": 1, "bindings": [] }"#, "sub/b.json": #"{ "format": 1, "bindings": [] }"#,
        ])
        let checker = ManifestChecker(loader: ManifestLoader(environment: [:]))
        let a = folder.file("a.json")
        let ways = [a, folder.url.appendingPathComponent("./a.json"), folder.url.appendingPathComponent("sub/../a.json"), a]
        #expect(try checker.check(ways).manifestCount == 1)
        #expect(try checker.check([folder.url, folder.url, folder.url]).manifestCount == 1)
        #expect(try checker.check([folder.url.appendingPathComponent("sub"), folder.url, folder.file("sub/b.json")]).manifestCount == 2)
    }

    @Test func aSymbolicLinkLoopIsNamedAsOne() throws {
        let folder = try ManifestFolder(["good.json": #"{ "format": 1, "bindings": [] }"#])
        try FileManager.default.createSymbolicLink(atPath: folder.file("loop.json").path, withDestinationPath: "loop.json")
        // In a folder: a link, not "a FIFO, a socket or a device".
        let report = try ManifestChecker(loader: ManifestLoader(environment: [:])).check([folder.url])
        let unreadable = try #require(report.diagnostics.with(.unreadable).first)
        #expect(unreadable.message.contains("symbolic link that leads to no file"), "\(unreadable.message)")
        // Alone: the same words, not "no such file".
        let alone = #expect(throws: ManifestError.self) {
            try ManifestChecker(loader: ManifestLoader(environment: [:])).check([folder.file("loop.json")])
        }
        #expect(alone?.description.contains("symbolic link that leads to no file") == true, "\(String(describing: alone))")
        // And the app lists no environment it cannot load.
        #expect(ManifestDirectory(url: folder.url).environments() == ["good"])
    }

    @Test func aWholeNumberWithAnExponentFromTheEnvironmentIsTheLiteral() throws {
        // `"port": 5.87e2` written is accepted; the same text from PORT was refused.
        let literal = try Self.parameterProblems(Self.mailer(#"{ "host": "h", "port": 5.87e2 }"#))
        #expect(literal.isEmpty, "\(literal)")
        let variable = try Self.parameterProblems(Self.mailer(#"{ "host": "h", "port": "${PORT}" }"#), environment: ["PORT": "5.87e2"])
        #expect(variable.isEmpty, "\(variable)")
        // A fraction is still not an integer, and hex is no JSON number.
        for text in ["5.875e2", "0x24B", "587 "] {
            let refused = try Self.parameterProblems(Self.mailer(#"{ "host": "h", "port": "${PORT}" }"#), environment: ["PORT": text])
            #expect(refused.map(\.code) == [.invalidParameters], "\(text): \(refused)")
        }
    }

    @Test func aNonASCIIVariableNameIsToldNamesAreASCII() throws {
        let found = try Self.parameterProblems(Self.mailer(#"{ "host": "${\#u{C4}B}", "port": 587 }"#))
        let message = try #require(found.first?.message)
        #expect(message.contains("names are ASCII letters (A-Z, a-z), digits and '_'"), "\(message)")
    }
}

/// End to end: the built command.
@Suite struct HostileInputRoundTwoCommandTests {
    @Test func anEmptyPathIsRefusedNotTheCurrentFolder() throws {
        let result = try runProduct("patchbay", ["check", ""], in: repositoryRoot)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("an empty PATH names no file"), "\(result.stderr)")
    }

    @Test func aLookAlikeAndABidiOverrideReachTheOutputNamedAndEscaped() throws {
        let folder = try ManifestFolder([
            "catalog.json": try String(contentsOf: exampleManifests.appendingPathComponent("catalog.json"), encoding: .utf8),
            "app.json": #"{ "format": 1, "bindings": [ { "protocol": "NoteStore", "factory": "file-\#u{455}tore" }, "#
                + #"{ "protocol": "Logger", "factory": "a\#u{202E}b" } ] }"#,
        ])
        for format in ["text", "github"] {
            let result = try runProduct("patchbay", ["check", "--format", format, "app.json"], in: folder.url)
            #expect(result.status == 1)
            #expect(result.stdout.contains("(Cyrillic Small Letter Dze, U+0455) looks like 's' (Latin Small Letter S), but it is not"),
                "\(result.stdout)")
            #expect(result.stdout.contains(#"a\u{202E}b"#))
            #expect(!result.stdout.unicodeScalars.contains { $0.value == 0x202E })
        }
    }

    @Test func notesAreCappedAsDiagnosticsAre() throws {
        // Three folders without a catalog.json: a note each, listed as many as --max-diagnostics says.
        let folder = try ManifestFolder(Dictionary(uniqueKeysWithValues: (0..<3).map {
            ("f\($0)/app.json", #"{ "format": 1, "bindings": [] }"#)
        }))
        let capped = try runProduct("patchbay", ["check", "--max-diagnostics", "2", "f0", "f1", "f2"], in: folder.url)
        #expect(capped.status == 0, "\(capped)")
        let notes = capped.stderr.split(separator: "\n").filter { $0.hasPrefix("note: ") }
        #expect(notes.count == 3, "\(capped.stderr)")
        #expect(notes.last == "note: ... and 1 more notes not shown; --max-diagnostics N lists N, 0 lists all")
        let all = try runProduct("patchbay", ["check", "--max-diagnostics", "0", "f0", "f1", "f2"], in: folder.url)
        #expect(all.stderr.split(separator: "\n").filter { $0.hasPrefix("note: no catalog.json") }.count == 3, "\(all.stderr)")
    }

    @Test func oneFileNamedFourWaysIsOneManifest() throws {
        let result = try runProduct(
            "patchbay", ["check", "Manifests/production.json", "./Manifests/production.json",
                "Manifests/../Manifests/production.json", repositoryRoot.path + "/Manifests/production.json"],
            in: repositoryRoot)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "0 errors, 0 warnings in 1 manifest\n")
        let thrice = try runProduct("patchbay", ["check", "Manifests", "Manifests", "Manifests/"], in: repositoryRoot)
        #expect(thrice.stdout == "0 errors, 0 warnings in 5 manifests\n")
    }
}
