import Foundation
import NotesKit
import Testing

@testable import Patchbay

private typealias Field = CatalogDescription.ParameterField

// MARK: - Types probed

private struct Plain: Decodable {
    var name: String
    var count: Int
    var ratio: Double
    var enabled: Bool
    var note: String?
    var small: UInt8
    var scale: Float?
}

private struct Outer: Decodable {
    struct Inner: Decodable {
        var host: String
        var port: Int?
    }
    var inner: Inner
    var fallback: Inner?
    var label: String
}

private struct Lists: Decodable {
    var tags: [String]
    var matrix: [[Int]]?
    var servers: [Outer.Inner]
    var lookup: [String: Int]
    var unique: Set<String>
}

private enum Level: String, Decodable { case debug, info }
private enum Mode: String, Decodable, CaseIterable { case fast, safe }
private enum Priority: Int, Decodable { case low, high }

private struct WithCaseIterableEnum: Decodable {
    var mode: Mode
    var priority: Priority
    var after: Int
}

private struct WithPlainEnum: Decodable {
    var name: String
    var level: Level
    var after: Int
}

private struct Foundations: Decodable {
    var homepage: URL
    var created: Date
    var payload: Data?
    var amount: Decimal
    var id: UUID
}

/// Validates after reading both keys: the placeholders (0, 0) fail the check.
private struct Bounds: Decodable {
    var min: Int
    var max: Int
    enum CodingKeys: String, CodingKey { case min, max }
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        min = try container.decode(Int.self, forKey: .min)
        max = try container.decode(Int.self, forKey: .max)
        guard min < max else {
            throw DecodingError.dataCorruptedError(forKey: .max, in: container, debugDescription: "max <= min")
        }
    }
}

private struct Refuses: Decodable {
    struct Nope: Error {}
    init(from decoder: any Decoder) throws { throw Nope() }
}

/// Hand-written: `contains` before `decode`, nested containers, a repeated key.
private struct HandWritten: Decodable {
    enum Keys: String, CodingKey { case retries, timeout, limits, hosts }
    enum LimitKeys: String, CodingKey { case max }
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        if container.contains(.retries) { _ = try container.decode(Int.self, forKey: .retries) }
        if let timeout = try container.decodeIfPresent(Double.self, forKey: .timeout), timeout <= 0 {
            throw DecodingError.dataCorruptedError(forKey: .timeout, in: container, debugDescription: "not positive")
        }
        let limits = try container.nestedContainer(keyedBy: LimitKeys.self, forKey: .limits)
        _ = try limits.decode(Int64.self, forKey: .max)
        var hosts = try container.nestedUnkeyedContainer(forKey: .hosts)
        while !hosts.isAtEnd { _ = try hosts.decode(String.self) }
        _ = try container.decode(Int.self, forKey: .retries)
    }
}

/// Wraps a scalar through a single-value container.
private struct Port: Decodable {
    var value: Int
    init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(Int.self) }
}

private struct WithWrapper: Decodable {
    var port: Port
    var ports: [Port]?
}

private final class TreeNode: Decodable {
    let name: String
    let children: [TreeNode]
    let parent: TreeNode?
}

private indirect enum Expression: Decodable {
    case number(Double)
    case sum(Expression, Expression)
}

private struct Formula: Decodable {
    var label: String
    var expression: Expression
    var after: Int
}

private struct Empty: Decodable {}

private class Base: Decodable {
    var id: Int
}

/// Reads its own key, then hands the same decoder to its superclass.
private final class Derived: Base, @unchecked Sendable {
    var extra: String
    enum Keys: String, CodingKey { case extra }
    required init(from decoder: any Decoder) throws {
        extra = try decoder.container(keyedBy: Keys.self).decode(String.self, forKey: .extra)
        try super.init(from: decoder)
    }
}

private struct Assorted: Decodable {
    var free: JSONValue
    var nothing: Empty?
}

/// The 128-bit integers are as new as the OS releases of 2024; the test
/// target's minimums are the package's, so this type says so too.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
private struct Wide: Decodable {
    var huge: Int128
    var huger: UInt128?
}

/// A generic type that makes a new type at every level, `Grow<[T]>`,
/// `Grow<[[T]]>`…: only the depth limit stops it.
private struct Grow<T: Decodable>: Decodable {
    enum Keys: String, CodingKey { case more }
    init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: Keys.self).decodeIfPresent(Grow<[T]>.self, forKey: .more)
    }
}

// MARK: - Tests

@Suite struct ParameterShapeProbeTests {
    @Test func plainStruct() {
        #expect(ParameterShapeProbe.shape(of: Plain.self).fields == [
            Field(name: "name", type: "string", required: true),
            Field(name: "count", type: "integer", required: true),
            Field(name: "ratio", type: "number", required: true),
            Field(name: "enabled", type: "boolean", required: true),
            Field(name: "note", type: "string", required: false),
            // Its width is recorded, so a number beyond 255 is found before decoding.
            Field(name: "small", type: "integer", required: true, bits: 8, signed: false),
            Field(name: "scale", type: "number", required: false),
        ])
    }

    @Test func nestedStruct() {
        let inner = [
            Field(name: "host", type: "string", required: true),
            Field(name: "port", type: "integer", required: false),
        ]
        #expect(ParameterShapeProbe.shape(of: Outer.self).fields == [
            Field(name: "inner", type: "object", required: true, fields: inner),
            Field(name: "fallback", type: "object", required: false, fields: inner),
            Field(name: "label", type: "string", required: true),
        ])
    }

    @Test func arraysAndDictionaries() {
        #expect(ParameterShapeProbe.shape(of: Lists.self).fields == [
            Field(name: "tags", type: "array", required: true),
            Field(name: "matrix", type: "array", required: false),
            Field(name: "servers", type: "array", required: true),
            // A dictionary lists its keys: any key goes, so no fields.
            Field(name: "lookup", type: "object", required: true),
            Field(name: "unique", type: "array", required: true),
        ])
    }

    @Test func caseIterableEnumsAndIntRawValuesKeepGoing() {
        #expect(ParameterShapeProbe.shape(of: WithCaseIterableEnum.self).fields == [
            Field(name: "mode", type: "string", required: true),
            Field(name: "priority", type: "integer", required: true),
            Field(name: "after", type: "integer", required: true),
        ])
    }

    @Test func stringEnumThatRejectsThePlaceholderStopsThere() {
        // `Level("")` throws and `Level` has no cases to offer instead: the
        // dry run ends at `level`, so `after` is missing from the partial list.
        #expect(ParameterShapeProbe.shape(of: WithPlainEnum.self).fields == [
            Field(name: "name", type: "string", required: true),
            Field(name: "level", type: "string", required: true),
        ])
    }

    @Test func topLevelNonObjectsHaveNoFields() {
        #expect(ParameterShapeProbe.shape(of: Level.self).fields == nil)
        #expect(ParameterShapeProbe.shape(of: Mode.self).fields == nil)
        #expect(ParameterShapeProbe.shape(of: [String].self).fields == nil)
        #expect(ParameterShapeProbe.shape(of: [String: String].self).fields == nil)
        #expect(ParameterShapeProbe.shape(of: Int.self).fields == nil)
    }

    @Test func foundationTypesAsJSONDecoderReadsThem() {
        #expect(ParameterShapeProbe.shape(of: Foundations.self).fields == [
            Field(name: "homepage", type: "string", required: true),
            Field(name: "created", type: "number", required: true),
            Field(name: "payload", type: "string", required: false),
            Field(name: "amount", type: "number", required: true),
            Field(name: "id", type: "string", required: true),
        ])
    }

    @Test func validationAfterReadingKeepsWhatWasRead() {
        #expect(ParameterShapeProbe.shape(of: Bounds.self).fields == [
            Field(name: "min", type: "integer", required: true),
            Field(name: "max", type: "integer", required: true),
        ])
    }

    @Test func throwingBeforeReadingGivesNil() {
        #expect(ParameterShapeProbe.shape(of: Refuses.self).fields == nil)
    }

    @Test func handWrittenDecoder() {
        #expect(ParameterShapeProbe.shape(of: HandWritten.self).fields == [
            Field(name: "retries", type: "integer", required: false),
            Field(name: "timeout", type: "number", required: false),
            Field(
                name: "limits", type: "object", required: true,
                fields: [Field(name: "max", type: "integer", required: true)]),
            Field(name: "hosts", type: "array", required: true),
        ])
    }

    @Test func singleValueWrapper() {
        #expect(ParameterShapeProbe.shape(of: WithWrapper.self).fields == [
            Field(name: "port", type: "integer", required: true),
            Field(name: "ports", type: "array", required: false),
        ])
    }

    @Test func recursiveTypesEnd() {
        #expect(ParameterShapeProbe.shape(of: TreeNode.self).fields == [
            Field(name: "name", type: "string", required: true),
            Field(name: "children", type: "array", required: true),
            // Like the enclosing object, whose keys are not repeated.
            Field(name: "parent", type: "object", required: false),
        ])
        // An enum with payloads lists its keys, finds none and throws.
        #expect(ParameterShapeProbe.shape(of: Formula.self).fields == [
            Field(name: "label", type: "string", required: true),
            Field(name: "expression", type: "object", required: true),
        ])
    }

    @Test func endlesslyGrowingGenericStopsAtTheDepthLimit() throws {
        var fields = try #require(ParameterShapeProbe.shape(of: Grow<Int>.self).fields)
        var depth = 1
        while let more = fields.first, more.type == "object", let next = more.fields {
            fields = next
            depth += 1
        }
        #expect(depth == ParameterShapeProbe.maxDepth)
        #expect(fields == [Field(name: "more", type: "any", required: false)])
    }

    @Test func emptySubclassAndOddTypes() {
        #expect(ParameterShapeProbe.shape(of: Empty.self).fields == [])
        #expect(ParameterShapeProbe.shape(of: Derived.self).fields == [
            Field(name: "extra", type: "string", required: true),
            Field(name: "id", type: "integer", required: true),
        ])
        #expect(ParameterShapeProbe.shape(of: Assorted.self).fields == [
            Field(name: "free", type: "any", required: true),
            Field(name: "nothing", type: "any", required: false),
        ])
    }

    // Skipped on an Apple OS older than these, where the types do not exist.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    @Test func wideIntegers() {
        #expect(ParameterShapeProbe.shape(of: Wide.self).fields == [
            Field(name: "huge", type: "integer", required: true),
            Field(name: "huger", type: "integer", required: false),
        ])
    }

    @Test func notesExampleParameters() {
        #expect(ParameterShapeProbe.shape(of: FileNoteStore.Options.self).fields == [
            Field(name: "path", type: "string", required: true)
        ])
        #expect(ParameterShapeProbe.shape(of: SMTPMailer.Options.self).fields == [
            Field(name: "host", type: "string", required: true),
            Field(name: "port", type: "integer", required: true),
        ])
        #expect(ParameterShapeProbe.shape(of: FixedClock.Options.self).fields == [
            Field(name: "iso8601", type: "string", required: true)
        ])
        #expect(ParameterShapeProbe.shape(of: ConsoleLogger.Options.self).fields == [
            Field(name: "prefix", type: "string", required: false)
        ])
        #expect(ParameterShapeProbe.shape(of: SequentialIDGenerator.Options.self).fields == [
            Field(name: "prefix", type: "string", required: false)
        ])
    }

    @Test func nestedFieldsRoundTripThroughJSON() throws {
        let field = Field(
            name: "limits", type: "object", required: true, fields: [Field(name: "max", type: "integer", required: true)])
        let data = try JSONEncoder().encode(field)
        #expect(try JSONDecoder().decode(Field.self, from: data) == field)
        // A field without nested fields writes no `fields` key.
        let flat = try JSONEncoder().encode(Field(name: "path", type: "string", required: true))
        #expect(String(decoding: flat, as: UTF8.self).contains("fields") == false)
    }
}
