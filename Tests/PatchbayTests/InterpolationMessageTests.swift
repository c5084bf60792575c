// What `${...}` messages say: where a value came from, one diagnostic per
// problem, and a reference nested in a default refused (#28). The corpus
// cases interpolation-from-default, -refused-once and -nested-default hold
// the places; these tests hold the words, the app's and the command's.
import Foundation
import NotesKit
import Testing
@testable import Patchbay
@testable import PatchbayTools

@Suite struct InterpolationMessageTests {
    /// A manifest whose Mailer port (an integer field) is `port`, with the example's catalog beside it.
    static func mailer(port: String) throws -> ManifestFolder {
        try ManifestFolder([
            "catalog.json": String(decoding: try FactoryCatalog.notes.describe().jsonData(), as: UTF8.self),
            "production.json": """
                {
                  "format": 1,
                  "bindings": [
                    { "protocol": "NoteService", "factory": "note-service" },
                    { "protocol": "NoteStore", "factory": "in-memory-store" },
                    { "protocol": "Clock", "factory": "system-clock" },
                    { "protocol": "Logger", "factory": "console-logger" },
                    { "protocol": "IDGenerator", "factory": "uuid-ids" },
                    { "protocol": "Mailer", "factory": "smtp-mailer",
                      "parameters": { "host": "smtp.example.com", "port": "\(port)" } }
                  ]
                }
                """,
        ])
    }

    /// What the app reports loading and activating the manifest, and what `patchbay check` prints.
    static func verdicts(port: String, environment: [String: String] = [:], requireEnv: Bool = true) throws
        -> (app: [Diagnostic], check: [String], status: Int32)
    {
        let folder = try mailer(port: port)
        let file = folder.file("production.json")
        let loader = ManifestLoader(environment: environment)
        var app: [Diagnostic] = []
        do {
            _ = try Container(catalog: .notes, manifest: try loader.load(contentsOf: file))
        } catch {
            app = error.diagnostics
        }
        let standard = Collected<String>()
        let status = PatchbayCommandLine(loader: loader).run(
            ["check"] + (requireEnv ? ["--require-env"] : []) + [file.path],
            output: .init(standard: standard.append, error: { _ in }))
        let lines = standard.all.joined().split(separator: "\n").map(String.init)
        return (app, lines.dropLast().map { $0 }, status)
    }

    @Test func aValueFromTheDefaultIsBlamedOnTheDefault() throws {
        let (app, check, status) = try Self.verdicts(port: "${PORT_UNSET:-abc}")
        let diagnostic = try #require(app.first)
        #expect(app.count == 1 && diagnostic.code == .invalidParameters, "\(app)")
        #expect(diagnostic.message.contains("gets \"abc\" from the default written in the manifest"), "\(diagnostic)")
        #expect(diagnostic.message.contains("PORT_UNSET is unset"), "\(diagnostic)")
        #expect(!diagnostic.message.contains("from environment variable"), "\(diagnostic)")
        #expect(check.count == 1 && check[0].contains(diagnostic.message), "\(check)")
        #expect(status == 1)
    }

    @Test func aValueFromTheVariableIsBlamedOnTheVariable() throws {
        let (app, check, status) = try Self.verdicts(port: "${PORT_SET:-587}", environment: ["PORT_SET": "x"])
        let diagnostic = try #require(app.first)
        #expect(app.count == 1 && diagnostic.code == .invalidParameters, "\(app)")
        #expect(diagnostic.message.contains("gets \"x\" from environment variable PORT_SET"), "\(diagnostic)")
        #expect(diagnostic.message.contains("set PORT_SET to a number"), "\(diagnostic)")
        #expect(check.count == 1 && check[0].contains(diagnostic.message), "\(check)")
        #expect(status == 1)
        // Set to a number, the same reference is fine in both.
        let fine = try Self.verdicts(port: "${PORT_SET:-587}", environment: ["PORT_SET": "2525"])
        #expect(fine.app.isEmpty && fine.check.isEmpty && fine.status == 0, "\(fine)")
    }

    @Test func anIntegerOutOfRangeFromAVariableOrADefaultSaysSo() throws {
        for (port, environment, source) in [
            ("${PORT_SET}", ["PORT_SET": "99999999999999999999"], "from environment variable PORT_SET"),
            ("${PORT_UNSET:-99999999999999999999}", [:], "from the default written in the manifest"),
            ("${PORT_SET}", ["PORT_SET": "-9223372036854775809"], "from environment variable PORT_SET"),
        ] {
            let (app, check, status) = try Self.verdicts(port: port, environment: environment)
            let message = app.first?.message ?? ""
            #expect(app.map(\.code) == [.invalidParameters], "\(port): \(app)")
            #expect(message.contains(source) && message.contains("which is out of range"), "\(message)")
            #expect(message.contains("from -9223372036854775808 to 9223372036854775807"), "\(message)")
            #expect(!message.contains("needs an integer there"), "\(message)")
            #expect(check.count == 1 && check[0].contains(message) && status == 1, "\(check)")
        }
        // The largest Int is still converted and accepted.
        let fine = try Self.verdicts(port: "${PORT_SET}", environment: ["PORT_SET": "9223372036854775807"])
        #expect(fine.check.isEmpty && fine.status == 0, "\(fine.check)")
    }

    @Test func anUnsetVariableUnderRequireEnvIsOneDiagnostic() throws {
        let (app, check, status) = try Self.verdicts(port: "${PORT}")
        #expect(app.map(\.code) == [.envVarMissing], "\(app)")
        #expect(check.count == 1 && check[0].hasSuffix("[env-var-missing]"), "\(check)")
        #expect(status == 1)
        // Without --require-env the check lists the variable instead, and passes.
        let lenient = try Self.verdicts(port: "${PORT}", requireEnv: false)
        #expect(lenient.check.isEmpty && lenient.status == 0, "\(lenient.check)")
    }

    @Test func aMalformedReferenceInAnIntegerFieldIsOneDiagnostic() throws {
        let (app, check, status) = try Self.verdicts(port: "${9PORT}")
        #expect(app.map(\.code) == [.invalidParameters], "\(app)")
        #expect(app.first?.message.contains("not a valid reference") == true)
        #expect(check.count == 1 && status == 1, "\(check)")
    }

    @Test func aReferenceNestedInADefaultIsRefusedWithAMessage() throws {
        for (port, environment) in [("${A:-${B}}", [:]), ("${A:-${B}}", ["A": "25", "B": "26"]), ("${A:-$${B}}", [:])] {
            let (app, check, status) = try Self.verdicts(port: port, environment: environment)
            #expect(app.map(\.code) == [.invalidParameters], "\(port) \(environment): \(app)")
            let message = app.first?.message ?? ""
            #expect(message.contains("'\(port)' puts '${' inside the default of ${A}, which is not supported"), "\(message)")
            #expect(check.count == 1 && status == 1, "\(check)")
        }
    }

    @Test func nestingIsRefusedOncePerReferenceAndReadingResumesAfterIt() throws {
        let interpolation = Interpolation(environment: ["X": "x"])
        guard case .failure(let found) = interpolation.interpolate("${A:-${B:-${C}}} and ${X} and ${D:-${E}") else {
            Issue.record("a nested default was accepted")
            return
        }
        // The balanced one is quoted whole; the unbalanced one up to its first '}'.
        #expect(found.list.count == 2, "\(found.list)")
        #expect(found.list.first == .malformed("'${A:-${B:-${C}}}' puts '${' inside the default of ${A}, which is not "
            + "supported: a default is plain text up to the first '}'; write the default value itself (${A:-value})"))
        if case .malformed(let text) = found.list.last { #expect(text.hasPrefix("'${D:-${E}' puts")) }
        // A default that only holds '}' or ':-' is still plain text.
        #expect(try interpolation.interpolate("${Y:-a:-b}").get() == "a:-b")
        #expect(try interpolation.interpolate("${Y:-$}").get() == "$")
    }

    @Test func manyUnbalancedNestingsAreReadInLinearTime() {
        // Each looks for its balancing '}' in a bounded stretch, not to the end
        // of the string: 20,000 of them would otherwise rescan 180 KB each.
        let text = String(repeating: "${A:-${B}", count: 20_000)
        guard case .failure(let found) = Interpolation(environment: [:]).interpolate(text) else {
            Issue.record("accepted")
            return
        }
        #expect(found.list.count == 20_000)
        #expect(found.list.first == .malformed("'${A:-${B}' puts '${' inside the default of ${A}, which is not "
            + "supported: a default is plain text up to the first '}'; write the default value itself (${A:-value})"))
        // A long default is quoted short.
        guard case .failure(let long) = Interpolation(environment: [:]).interpolate(
            "${A:-${" + String(repeating: "x", count: 100_000) + "}}") else { return }
        if case .malformed(let message) = long.list.first { #expect(message.count < 400, "\(message.count)") }
    }
}
