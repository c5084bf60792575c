import Foundation
import NotesKit
import Testing
@testable import Patchbay
import PatchbayTools

/// `JSONDecoder` ignores a key that a type does not read, so a typo in an
/// optional parameter fell back to its default without a word. The catalog
/// knows each parameter type's fields: a key outside them is `unknown-parameter`,
/// at the key, from catalog.json, live and at activation alike.
@Suite struct UnknownParameterTests {
    /// The places of every diagnostic of `text` as development.json (whose test doubles
    /// are allowed there), checked with the live
    /// catalog, with its description, and activated.
    static func verdicts(_ text: String, catalog: FactoryCatalog = .notes) throws
        -> (live: [String], offline: [String], activation: [String])
    {
        let folder = try ManifestFolder(["development.json": text])
        let (live, described) = try OneVerdictTests.bothChecks(of: [folder.file("development.json")], catalog: catalog)
        var activation: [String] = []
        do {
            _ = try Container(catalog: catalog, manifestAt: folder.file("development.json"), loader: ManifestLoader(environment: [:]))
        } catch {
            activation = error.diagnostics.map { "\($0.code) \($0.line):\($0.column) development.json" }.sorted()
        }
        return (OneVerdictTests.places(live), OneVerdictTests.places(described), activation)
    }

    /// The example's development bindings with `logger` as the Logger binding.
    static func manifest(logger: String, clock: String = #"{ "protocol": "Clock", "factory": "system-clock" }"#) -> String {
        """
        { "format": 1, "bindings": [
          { "protocol": "NoteService", "factory": "note-service" },
          { "protocol": "NoteStore", "factory": "in-memory-store" },
          \(clock),
          \(logger),
          { "protocol": "Mailer", "factory": "outbox-mailer" },
          { "protocol": "IDGenerator", "factory": "uuid-ids" }
        ] }
        """
    }

    @Test func aMisspelledKeyIsFoundAtTheKeyWithACorrection() throws {
        let text = Self.manifest(logger: #"{ "protocol": "Logger", "factory": "console-logger", "parameters": { "prefx": "[notes]" } }"#)
        let (line, column) = position(of: #""prefx""#, in: text)
        let expected = ["unknown-parameter \(line):\(column) development.json"]
        let verdicts = try Self.verdicts(text)
        #expect(verdicts.live.filter { !$0.hasPrefix("unused") } == expected)
        #expect(verdicts.offline == verdicts.live)
        #expect(verdicts.activation == expected)
        let manifest = try ManifestLoader(environment: [:]).load(data: Data(text.utf8), file: "development.json")
        let diagnostic = try #require(ManifestValidator(catalog: .notes).validate(manifest).first)
        #expect(diagnostic.suggestion == "prefix")
        #expect(diagnostic.message.contains("parameter 'prefx' of binding Logger -> 'console-logger' is not a field of "
            + "NotesKit.ConsoleLogger.Options, which would ignore it; did you mean 'prefix'?"))
    }

    @Test func aNestedMisspelledKeyIsFoundToo() throws {
        let text = """
            { "format": 1, "bindings": [
              { "protocol": "Notifier", "factory": "relay", "parameters": {
                "server": { "host": "relay.example.com", "port": 25, "prot": 26 }, "headers": [] } }
            ] }
            """
        let (line, column) = position(of: #""prot""#, in: text)
        let verdicts = try Self.verdicts(text, catalog: .corpus)
        #expect(verdicts.live.filter { !$0.hasPrefix("unused") && !$0.hasPrefix("no-entry") }
            == ["unknown-parameter \(line):\(column) development.json"])
        #expect(verdicts.offline == verdicts.live)
        #expect(verdicts.activation == ["unknown-parameter \(line):\(column) development.json"])
    }

    /// A dictionary reads the keys it finds, and `fixed-clock`'s options
    /// validate their date in `init(from:)`, which throws on the dry run's
    /// placeholder: both are open, and other keys pass.
    @Test func anOpenParameterTypeIsExempt() throws {
        struct Labels: Decodable, Sendable { var labels: [String: String] }
        let clock = #"{ "protocol": "Clock", "factory": "fixed-clock", "parameters": { "iso8601": "2026-01-01T00:00:00Z", "note": "x" } }"#
        let text = Self.manifest(logger: #"{ "protocol": "Logger", "factory": "json-logger" }"#, clock: clock)
        let verdicts = try Self.verdicts(text)
        #expect(!verdicts.live.contains { $0.hasPrefix("unknown-parameter") })
        #expect(verdicts.activation.isEmpty)
        #expect(FactoryCatalog.notes.describe().factories.first { $0.name == "fixed-clock" }?.parameters?.closed == nil)
        #expect(ParameterShapeProbe.shape(of: [String: String].self).isClosed == false)
        #expect(ParameterShapeProbe.shape(of: Labels.self).isClosed)  // its own keys are fixed; the dictionary's are not
    }

    @Test func theSchemaClosesTheParametersOfClosedTypes() throws {
        let schema = String(decoding: ManifestSchema.jsonData(catalog: FactoryCatalog.notes.describe()), as: UTF8.self)
        #expect(schema.contains(#""description" : "The parameters of factory 'console-logger'"#))
        // console-logger's options are closed; fixed-clock's are open.
        let consoleLogger = try #require(schema.range(of: "factory 'console-logger'"))
        let before = schema[..<consoleLogger.lowerBound].suffix(120)
        #expect(before.contains(#""additionalProperties" : false"#))
        let fixedClock = try #require(schema.range(of: "factory 'fixed-clock'"))
        #expect(!schema[..<fixedClock.lowerBound].suffix(120).contains("additionalProperties"))
    }

    /// `fixed-clock` with a date that is not one: refused when the manifest is
    /// activated (and by the live check), at the value, not when the clock is
    /// first resolved in the one environment that uses it.
    @Test func aBadDateIsRefusedAtActivation() throws {
        let clock = #"{ "protocol": "Clock", "factory": "fixed-clock", "parameters": { "iso8601": "yesterday" } }"#
        let text = Self.manifest(logger: #"{ "protocol": "Logger", "factory": "json-logger" }"#, clock: clock)
        let (line, column) = position(of: #""yesterday""#, in: text)
        let verdicts = try Self.verdicts(text)
        #expect(verdicts.activation == ["invalid-parameters \(line):\(column) development.json"])
        #expect(verdicts.live.filter { !$0.hasPrefix("unused") } == verdicts.activation)
        // Only the app's own type knows a date from a word: catalog.json records a string.
        #expect(!verdicts.offline.contains { $0.hasPrefix("invalid-parameters") })
    }
}
