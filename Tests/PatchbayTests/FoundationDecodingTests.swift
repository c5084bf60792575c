import Foundation
import Testing
@testable import Patchbay

/// Parameters are decoded by Foundation's `JSONDecoder` itself; where it
/// reports badly (or not at all), Patchbay checks first, with the same
/// verdict live, from a catalog description and at activation.
@Suite struct FoundationDecodingTests {
    protocol Widget: Sendable {}

    struct Timing: Decodable, Sendable, Widget {
        var start: Date
        var key: Data
    }

    struct Sizes: Decodable, Sendable, Widget {
        var small: Int8
        var count: Int
        var ratio: Double
        var big: UInt64?
    }

    static func catalog(_ decoding: ParameterDecoding = .default) -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.parameterDecoding = decoding
        catalog.register("timing", provides: (any Widget).self, parameters: Timing.self) { (options: Timing) in options }
        catalog.register("sizes", provides: (any Widget).self, parameters: Sizes.self) { (options: Sizes) in options }
        return catalog
    }

    /// `line:column` of a position.
    func place(_ position: (line: Int, column: Int)) -> String { "\(position.line):\(position.column)" }

    static func manifest(_ factory: String, _ parameters: String) -> String {
        """
        {
          "format": 1,
          "bindings": [
            { "protocol": "Widget", "factory": "\(factory)", "lifetime": "singleton",
              "parameters": \(parameters) }
          ]
        }
        """
    }

    /// The diagnostics of `text`, validated live and against the catalog's description (written and read back).
    static func verdicts(_ text: String, catalog: FactoryCatalog) throws -> (live: [Diagnostic], offline: [Diagnostic]) {
        let manifest = try ManifestLoader(environment: [:]).load(data: Data(text.utf8), file: "m.json")
        let description = try CatalogDescription(jsonData: catalog.describe().jsonData())
        return (ManifestValidator(catalog: catalog).validate(manifest),
                ManifestValidator(description: description).validate(manifest))
    }

    @Test func theCatalogChoosesDateAndDataStrategies() throws {
        let catalog = Self.catalog(ParameterDecoding(dates: .iso8601, data: .hex))
        let text = Self.manifest("timing", #"{ "start": "2026-11-25T09:30:00Z", "key": "00ff10" }"#)
        let verdicts = try Self.verdicts(text, catalog: catalog)
        #expect(verdicts.live.isEmpty && verdicts.offline.isEmpty, "\(verdicts)")
        let container = try Container(catalog: catalog, manifest: ManifestLoader(environment: [:]).load(data: Data(text.utf8)))
        let timing = try #require(try container.resolve((any Widget).self) as? Timing)
        #expect(timing.key == Data([0x00, 0xFF, 0x10]))
        #expect(timing.start == ISO8601DateFormatter().date(from: "2026-11-25T09:30:00Z"))
        // The description says how dates are written, so the offline check expects a string there too.
        let description = catalog.describe()
        #expect(description.parameterDecoding == ParameterDecoding(dates: .iso8601, data: .hex))
        #expect(description.factories.first { $0.name == "timing" }?.parameters?.fields?.first?.type == "string")
    }

    @Test func aDateWrittenTheOtherWayIsOneVerdictEverywhere() throws {
        let catalog = Self.catalog(ParameterDecoding(dates: .iso8601))
        let text = Self.manifest("timing", #"{ "start": 12345, "key": "AAEC" }"#)
        let verdicts = try Self.verdicts(text, catalog: catalog)
        let where12345 = position(of: "12345", in: text)
        for found in [verdicts.live, verdicts.offline] {
            #expect(found.map(\.code) == [.invalidParameters])
            #expect(found.first.map { "\($0.line):\($0.column)" } == place(where12345))
        }
        // Under the default strategy the same number is a date.
        #expect(try Self.verdicts(text, catalog: Self.catalog()).live.isEmpty)
    }

    @Test func badHexIsReportedAtTheValue() throws {
        let text = Self.manifest("timing", #"{ "start": "2026-11-25T09:30:00Z", "key": "0g" }"#)
        let found = try Self.verdicts(text, catalog: Self.catalog(ParameterDecoding(dates: .iso8601, data: .hex))).live
        #expect(found.map(\.code) == [.invalidParameters])
        #expect(found.first.map { "\($0.line):\($0.column)" } == place(position(of: #""0g""#, in: text)))
        #expect(found.first?.message.contains("not hexadecimal") == true, "\(found)")
    }

    /// JSONDecoder says only "The given data was not valid JSON." for these,
    /// with no coding path; Patchbay says which value, where, and why.
    @Test(arguments: [
        (#""small": 300"#, "300", "out of range", "-128 to 127"),
        (#""count": 99999999999999999999"#, "99999999999999999999", "out of range", "9223372036854775807"),
        (#""ratio": 1e-400"#, "1e-400", "too small", "read as 0"),
        (#""count": 2.5"#, "2.5", "needs an integer", "2.5"),
        // JSONDecoder truncates this one into an Int without a word.
        (#""count": 9999555555600001.999"#, "9999555555600001.999", "needs an integer", "the number 9999555555600001.999"),
    ])
    func numbersFoundationReportsBadly(member: String, token: String, says: String, alsoSays: String) throws {
        var members = [#""small": 1"#, #""count": 2"#, #""ratio": 0.5"#]
        members.removeAll { $0.hasPrefix(String(member.prefix(7))) }
        let text = Self.manifest("sizes", "{ " + (members + [member]).joined(separator: ", ") + " }")
        let verdicts = try Self.verdicts(text, catalog: Self.catalog())
        for found in [verdicts.live, verdicts.offline] {
            #expect(found.map(\.code) == [.invalidParameters], "\(found)")
            #expect(found.first.map { "\($0.line):\($0.column)" } == place(position(of: token, in: text)))
            #expect(found.first?.message.contains(says) == true, "\(found)")
            #expect(found.first?.message.contains(alsoSays) == true, "\(found)")
        }
    }

    @Test func aZeroWithAnExponentIsZero() throws {
        // JSON allows `0e9`; JSONDecoder's floating-point path refuses it.
        let text = Self.manifest("sizes", #"{ "small": 1, "count": 2, "ratio": 0e9, "big": 18446744073709551615 }"#)
        let catalog = Self.catalog()
        #expect(try Self.verdicts(text, catalog: catalog).live.isEmpty)
        let container = try Container(catalog: catalog, manifest: ManifestLoader(environment: [:]).load(data: Data(text.utf8)))
        let sizes = try #require(try container.resolve((any Widget).self) as? Sizes)
        #expect(sizes.ratio == 0 && sizes.big == .max)
    }

    /// The digits decide, not `Int` or `Double`: the same verdict on 32- and 64-bit platforms.
    @Test func integersBeyond2To31And2To53() {
        #expect(JSONNumber.fits("4294967296", bits: 64, signed: true) && !JSONNumber.fits("4294967296", bits: 32, signed: true))
        #expect(JSONNumber.fits("-9223372036854775808", bits: 64, signed: true))
        #expect(!JSONNumber.fits("-9223372036854775809", bits: 64, signed: true))
        #expect(JSONNumber.fits("18446744073709551615", bits: 64, signed: false))
        #expect(!JSONNumber.fits("18446744073709551616", bits: 64, signed: false))
        #expect(JSONNumber.fits("2147483647", bits: 32, signed: true))
        #expect(!JSONNumber.fits("2147483648", bits: 32, signed: true))
        #expect(JSONNumber.isWhole("1e30") && JSONNumber.isWhole("2.000") && !JSONNumber.isWhole("9999555555600001.999"))
        #expect(JSONNumber.range(bits: 8, signed: false).map { ["\($0.lowest)", "\($0.highest)"] } == ["0", "255"])
        #expect(JSONNumber.range(bits: 64, signed: true).map { ["\($0.lowest)", "\($0.highest)"] }
            == ["-9223372036854775808", "9223372036854775807"])
    }
}
