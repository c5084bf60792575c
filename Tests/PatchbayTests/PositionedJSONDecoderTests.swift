import Foundation
import Testing
@testable import Patchbay

/// Parameters are decoded from the reader's positioned values, not by
/// `JSONDecoder`; apps' parameter types were written against `JSONDecoder`,
/// so each case here is decoded both ways and must come out the same: the
/// same value, or the same kind of error at the same coding path.
@Suite struct PositionedJSONDecoderTests {
    /// What a decoding came to, comparable across the two decoders.
    enum Outcome<T: Equatable>: Equatable, CustomStringConvertible {
        case value(T)
        case failure(kind: String, path: [String], detail: String)

        var description: String {
            switch self {
            case .value(let value): "value \(value)"
            case .failure(let kind, let path, let detail): "\(kind) at \(path): \(detail)"
            }
        }
    }

    /// Decodes `text` with `decode`, as an outcome.
    static func outcome<T: Equatable>(_ decode: () throws -> T) -> Outcome<T> {
        do {
            return .value(try decode())
        } catch let error as DecodingError {
            let path = (error.codingPathKeys ?? [])
            switch error {
            case .typeMismatch(let type, let context):
                return .failure(kind: "typeMismatch \(type)", path: path, detail: context.debugDescription)
            case .valueNotFound(let type, let context):
                return .failure(kind: "valueNotFound \(type)", path: path, detail: context.debugDescription)
            case .keyNotFound(let key, let context):
                return .failure(kind: "keyNotFound \(key.stringValue)", path: path, detail: context.debugDescription)
            case .dataCorrupted(let context):
                return .failure(kind: "dataCorrupted", path: path, detail: context.debugDescription)
            @unknown default:
                return .failure(kind: "unknown", path: path, detail: "")
            }
        } catch {
            return .failure(kind: "other", path: [], detail: "\(error)")
        }
    }

    /// Decodes `text` both ways; they must agree.
    func agree<T: Decodable & Equatable>(
        _ type: T.Type, _ text: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let document = JSONReader.read(text.utf8)
        let root = try #require(document.root, "\(text) did not read", sourceLocation: sourceLocation)
        #expect(!document.isUnusable, sourceLocation: sourceLocation)
        let ours = Self.outcome { try root.decode(as: type) }
        let foundation = Self.outcome { try JSONDecoder().decode(type, from: Data(text.utf8)) }
        switch (ours, foundation) {
        case (.failure(let kind, _, _), .failure("dataCorrupted", [], "The given data was not valid JSON.")):
            // JSONDecoder reports a number out of range as the whole document
            // being invalid; it is reported at the number here.
            #expect(kind == "dataCorrupted", "\(text) as \(type): \(ours)", sourceLocation: sourceLocation)
        default:
            #if canImport(Darwin)
            // Apple's Foundation may word its messages differently: compare kind and place.
            func place(_ outcome: Outcome<T>) -> Outcome<T> {
                if case .failure(let kind, let path, _) = outcome { return .failure(kind: kind, path: path, detail: "") }
                return outcome
            }
            #expect(place(ours) == place(foundation), "\(text) as \(type)", sourceLocation: sourceLocation)
            #else
            #expect(ours == foundation, "\(text) as \(type)", sourceLocation: sourceLocation)
            #endif
        }
    }

    @Test func integersFromWholeNumbersInRange() throws {
        for text in ["0", "-0", "42", "-7", "1.0", "1e2", "1E+2", "100e-2", "2.50e1", "1.0000000000000001", "0.5", "1.5",
                     "9223372036854775807", "-9223372036854775808", "9223372036854775808", "1e19", "1e-400",
                     "12345678901234567890", "9007199254740993.0", "\"1\"", "true", "null", "[]", "{}"] {
            try agree(Int.self, text)
        }
        for text in ["255", "256", "-1", "-0", "2.55e2"] { try agree(UInt8.self, text) }
        for text in ["127", "128", "-128", "-129"] { try agree(Int8.self, text) }
        for text in ["18446744073709551615", "18446744073709551616", "-1"] { try agree(UInt64.self, text) }
        // Read from its digits, where JSONDecoder rounds it to a Double (2^64) first and rejects it.
        let exact = try #require(JSONReader.read("1.8446744073709551615e19".utf8).root)
        #expect(try exact.decode(as: UInt64.self) == .max)
        for text in ["-9223372036854775808", "-9223372036854775809"] { try agree(Int64.self, text) }
        for text in ["32767", "32768"] { try agree(Int16.self, text) }
        for text in ["4294967295", "4294967296"] { try agree(UInt32.self, text) }
    }

    @Test func floatingPointNumbers() throws {
        for text in ["0", "-0.0", "1.5", "1e308", "-2.5e-3", "1e-320", "1e-400", "0e-400", "123456789012345678901234567890",
                     "\"1.5\"", "null", "false"] {
            try agree(Double.self, text)
        }
        for text in ["1.5", "3.4e38", "1e39", "1e-46", "0.1"] { try agree(Float.self, text) }
    }

    /// Found by the fuzzer: JSONDecoder's floating-point path rejects `0e9`
    /// as "not valid JSON" (its integer path reads it); RFC 8259 allows a
    /// zero integer part before an exponent, and the reader follows it.
    @Test func aZeroBeforeAnExponentIsANumber() throws {
        let root = try #require(JSONReader.read("{\"igs\": [0e9, -0E1, 99]}".utf8).root)
        #expect(try root.decode(as: [String: [Float?]].self) == ["igs": [0, 0, 99]])
        #expect(try root.decode(as: [String: [Double]].self) == ["igs": [0, 0, 99]])
    }

    @Test func booleansAndStrings() throws {
        for text in ["true", "false", "1", "null", "\"true\""] { try agree(Bool.self, text) }
        for text in [#""plain""#, #""esc\u00e9\n\"""#, #""\ud83d\ude00""#, "1", "null", "[]"] { try agree(String.self, text) }
    }

    @Test func foundationTypesAsJSONDecoderReadsThem() throws {
        // Date: deferredToDate, seconds since 2001 as a number.
        for text in ["0", "-1.5", "1e9", "\"2026-01-01\"", "null"] { try agree(Date.self, text) }
        // Data: base64 in a string.
        for text in [#""aGVsbG8=""#, #""""#, #""!!""#, "[104, 105]", "null"] { try agree(Data.self, text) }
        // URL: from a string.
        for text in [#""https://example.com/a?b=c""#, #""relative/path""#, #""""#, "7", "null"] { try agree(URL.self, text) }
        // Decimal: from a number's digits.
        for text in ["1.25", "0.1", "-3", "1e10", "1e200", "-1e-200", "12345678901234567890.123", "\"1\"", "null"] {
            try agree(Decimal.self, text)
        }
    }

    struct Server: Decodable, Equatable {
        var host: String
        var port: Int
        var secure: Bool?
        var tags: [String] = []
        enum CodingKeys: CodingKey { case host, port, secure, tags }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            host = try container.decode(String.self, forKey: .host)
            port = try container.decode(Int.self, forKey: .port)
            secure = try container.decodeIfPresent(Bool.self, forKey: .secure)
            tags = try container.decodeIfPresent([String].self, forKey: .tags) ?? []
        }
    }

    struct Options: Decodable, Equatable {
        enum Mode: String, Decodable { case fast, safe }
        var server: Server
        var mode: Mode
        var limits: [String: Int]
        var weights: [Double?]
        var retries: UInt8?
    }

    @Test func structsArraysDictionariesAndOptionals() throws {
        let good = #"""
            {"server": {"host": "h", "port": 80, "secure": null}, "mode": "safe",
             "limits": {"a": 1, "b": 2}, "weights": [1.5, null, 2], "retries": 3, "extra": {"ignored": [true]}}
            """#
        try agree(Options.self, good)
        for text in [
            #"{"server": {"host": "h"}, "mode": "safe", "limits": {}, "weights": []}"#,
            #"{"server": {"host": "h", "port": "80"}, "mode": "safe", "limits": {}, "weights": []}"#,
            #"{"server": {"host": "h", "port": 80, "tags": [1]}, "mode": "safe", "limits": {}, "weights": []}"#,
            #"{"server": {"host": "h", "port": 80}, "mode": "slow", "limits": {}, "weights": []}"#,
            #"{"server": {"host": "h", "port": 80}, "mode": "safe", "limits": {"a": "x"}, "weights": []}"#,
            #"{"server": {"host": "h", "port": 80}, "mode": "safe", "limits": {}, "weights": [true]}"#,
            #"{"server": {"host": "h", "port": 80}, "mode": "safe", "limits": {}, "weights": [], "retries": 300}"#,
            #"{"server": null, "mode": "safe", "limits": {}, "weights": []}"#,
            #"{"server": [], "mode": "safe", "limits": {}, "weights": []}"#,
            #"{"server": {"host": "h", "port": 80}, "mode": "safe", "limits": null, "weights": []}"#,
            #"{"server": {"host": "h", "port": 80}, "mode": "safe", "limits": {}, "weights": {}}"#,
            #"[]"#, "null",
        ] {
            try agree(Options.self, text)
        }
        try agree([Int: String].self, #"{"1": "a", "20": "b"}"#)
        try agree([Int: String].self, #"{"x": "a"}"#)
        try agree(Set<String>.self, #"["a", "b", "a"]"#)
        try agree([[Int]].self, "[[1], [], [2, 3]]")
        try agree([String: [String: Bool]].self, #"{"a": {"b": true}, "c": {}}"#)
    }

    @Test func theFirstOfRepeatedKeysIsRead() throws {
        try agree([String: Int].self, #"{"a": 1, "a": 2, "b": 3}"#)
        try agree(Server.self, #"{"host": "first", "port": 1, "host": "second"}"#)
    }

    /// A type that uses every container operation by hand.
    struct Handwritten: Decodable, Equatable {
        var values: [String] = []

        enum Key: String, CodingKey { case a, b, missing, nested, list }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            values.append("keys \(container.allKeys.map(\.stringValue).sorted())")
            values.append("contains missing \(container.contains(.missing))")
            values.append("a is nil \(try container.decodeNil(forKey: .a))")
            values.append("b \(try container.decodeIfPresent(Int.self, forKey: .b) as Any)")
            values.append("missing \(try container.decodeIfPresent(String.self, forKey: .missing) as Any)")
            let nested = try container.nestedContainer(keyedBy: Key.self, forKey: .nested)
            values.append("nested a \(try nested.decode(Double.self, forKey: .a))")
            var list = try container.nestedUnkeyedContainer(forKey: .list)
            values.append("count \(list.count as Any) at end \(list.isAtEnd)")
            values.append("first nil \(try list.decodeNil())")
            values.append("second \(try list.decode(Int16.self)) index \(list.currentIndex)")
            values.append("third nil \(try list.decodeNil())")
            var inner = try list.nestedUnkeyedContainer()
            values.append("inner \(try inner.decode(String.self))")
            let object = try list.nestedContainer(keyedBy: Key.self)
            values.append("object b \(try object.decode(Bool.self, forKey: .b))")
            let element = try list.superDecoder()
            values.append("super element \(try element.singleValueContainer().decode(UInt.self))")
            values.append("if present at end \(try list.decodeIfPresent(Int.self) as Any) at end \(list.isAtEnd)")
            let missing = try container.superDecoder(forKey: .missing)
            values.append("super missing is nil \(try missing.singleValueContainer().decodeNil())")
            values.append("super path \(missing.codingPath.map(\.stringValue))")
            let superDecoder = try container.superDecoder()
            values.append("super nil \(try superDecoder.singleValueContainer().decodeNil())")
            do {
                _ = try list.decode(Int.self)
            } catch let error as DecodingError {
                values.append("past the end \(error.codingPathKeys ?? [])")
            }
        }
    }

    @Test func everyContainerOperation() throws {
        try agree(Handwritten.self, #"""
            {"a": null, "b": 2, "nested": {"a": 0.5}, "list": [null, 7, ["s"], {"b": false}, 9], "super": null}
            """#)
        try agree(Handwritten.self, #"{"a": 1, "nested": {"a": 1}, "list": [1]}"#)
        try agree(Handwritten.self, #"{"a": 1, "nested": [], "list": []}"#)
    }

    class Base: Decodable {
        let name: String
        private enum Key: CodingKey { case name }
        required init(from decoder: any Decoder) throws {
            name = try decoder.container(keyedBy: Key.self).decode(String.self, forKey: .name)
        }
    }

    final class Derived: Base, Equatable {
        let size: Int
        private enum Key: CodingKey { case size }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            size = try container.decode(Int.self, forKey: .size)
            try super.init(from: container.superDecoder())
        }
        static func == (lhs: Derived, rhs: Derived) -> Bool { lhs.name == rhs.name && lhs.size == rhs.size }
    }

    @Test func superDecoderForAClassHierarchy() throws {
        try agree(Derived.self, #"{"size": 2, "super": {"name": "n"}}"#)
        try agree(Derived.self, #"{"size": 2}"#)
        try agree(Derived.self, #"{"size": 2, "super": {"name": 5}}"#)
    }

    @Test func jsonValueDecodesThroughTheSameRules() throws {
        let value = JSONValue.object([
            "server": .object(["host": .string("h"), "port": .integer(80)]), "mode": .string("fast"),
            "limits": .object(["x": .number(2)]), "weights": .array([.null, .number(0.25)]),
        ])
        let options = try value.decode(as: Options.self)
        #expect(options.server.port == 80 && options.limits == ["x": 2] && options.weights == [nil, 0.25])
        #expect(throws: DecodingError.self) { try JSONValue.number(.infinity).decode(as: Double.self) }
        #expect(try JSONValue.number(1e300).decode(as: Double.self) == 1e300)
        #expect(try JSONValue.integer(Int.min).decode(as: Int.self) == Int.min)
    }

    struct Exact: Decodable, Sendable {
        var big: Int64
        var price: Decimal
        var issued: Date
    }

    /// A binding's parameters reach the factory from the values as read:
    /// no Double on the way rounds 2^53 + 1 or a Decimal.
    @Test func parametersReachTheFactoryExactly() throws {
        var catalog = FactoryCatalog()
        catalog.register("exact", provides: (any Widget).self, parameters: Exact.self) { exact in
            Part(tag: "\(exact.big) \(exact.price) \(exact.issued.timeIntervalSinceReferenceDate)")
        }
        let text = #"""
            { "format": 1, "bindings": [ { "protocol": "Widget", "factory": "exact",
              "parameters": { "big": 9007199254740993, "price": 0.1, "issued": 86400 } } ] }
            """#
        let manifest = try ManifestLoader(environment: [:]).load(data: Data(text.utf8), file: "m.json")
        #expect(manifest.bindings[0].positionedParameters?.value(at: "/big")?.position == SourcePosition(line: 2, column: 26))
        let container = try Container(catalog: catalog, manifest: manifest)
        #expect(try container.resolve((any Widget).self).tag == "9007199254740993 0.1 86400.0")
    }

    @Test func errorsLeadBackToTheValueAtFault() throws {
        let text = "{\n  \"server\": {\"host\": \"h\", \"port\": \"80\"},\n  \"mode\": \"fast\", \"limits\": {}, \"weights\": []\n}"
        let root = try #require(JSONReader.read(text.utf8).root)
        do {
            _ = try root.decode(as: Options.self)
            Issue.record("decoded a string as a port")
        } catch let error as DecodingError {
            let path = try #require(error.codingPathKeys)
            #expect(path == ["server", "port"])
            #expect(root.value(atPath: path)?.position == SourcePosition(line: 2, column: 35))
        }
    }
}

@Suite struct JSONNumberTests {
    @Test func exactIntegersFromTheDigits() {
        #expect(JSONNumber.exactInteger("-9223372036854775808", as: Int.self) == .min)
        #expect(JSONNumber.exactInteger("18446744073709551615", as: UInt64.self) == .max)
        #expect(JSONNumber.exactInteger("1.8446744073709551615e19", as: UInt64.self) == .max)
        #expect(JSONNumber.exactInteger("12300e-2", as: Int.self) == 123)
        #expect(JSONNumber.exactInteger("0.000e999999999999999", as: Int.self) == 0)
        #expect(JSONNumber.exactInteger("-0", as: UInt.self) == 0)
        #expect(JSONNumber.exactInteger("1e999999999999999999999", as: Int.self) == nil)
        #expect(JSONNumber.exactInteger("1e-999999999999999999999", as: Int.self) == nil)
        #expect(JSONNumber.exactInteger("1.5", as: Int.self) == nil)
        #expect(JSONNumber.exactInteger("-1", as: UInt8.self) == nil)
        #expect(JSONNumber.exactInteger("inf", as: Int.self) == nil)
        #expect(JSONNumber.exactInteger("1" + String(repeating: "0", count: 100_000) + "e-100000", as: Int.self) == 1)
    }

    @Test func numbersMadeInCodeReadBack() {
        #expect(JSONNumber(0.1).floatingPoint(as: Double.self) == 0.1)
        #expect(JSONNumber(1e-5).floatingPoint(as: Double.self) == 1e-5)
        #expect(JSONNumber(.infinity).floatingPoint(as: Double.self) == nil)
        #expect(JSONNumber(Int.max).integer(as: Int.self) == .max)
        #expect(JSONNumber(2.0).jsonValue == .integer(2))
        #expect(JSONNumber(text: "2.5").jsonValue == .number(2.5))
        #expect(JSONNumber(text: "12345678901234567890").jsonValue == .number(1.2345678901234567e19))
    }
}
