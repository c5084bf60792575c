import Foundation

/// A JSON value as the manifest holds it: what a binding's `parameters` are
/// until they are decoded into the factory's parameter type.
///
/// ``decode(as:)`` turns it into any `Decodable` type, as `JSONDecoder`
/// with its default strategies would decode the same JSON.
public enum JSONValue: Hashable, Sendable, Codable, CustomStringConvertible {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number without fraction or exponent that fits in `Int`.
    case integer(Int)
    /// Any other number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object. Key order is not kept: JSON objects are unordered.
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        // Each wrong guess throws a DecodingError, so guess in the order
        // values are most common in manifests: strings, objects, arrays, numbers.
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else {
            self = .bool(try container.decode(Bool.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Decodes this value into `T`, as `JSONDecoder` with its default
    /// strategies decodes the same JSON.
    /// - Throws: `DecodingError` when it does not fit.
    public func decode<T: Decodable>(as type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: JSONEncoder().encode(self))
    }

    /// The JSON text, with sorted keys: equal values print equally.
    public var description: String { sortedJSON.map { String(decoding: $0, as: UTF8.self) } ?? "?" }

    /// The JSON text with sorted keys, so that the same value always makes the same text.
    var sortedJSON: Data? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try? encoder.encode(self)
    }

    /// The members, when this is an object.
    var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { members } else { nil }
    }
}

extension JSONValue {
    /// What JSON a Swift type is read from, with its article: "an integer", "an array".
    static func article(swiftType type: Any.Type) -> String {
        if type == String.self { return "a string" }
        if type == Bool.self { return "a boolean" }
        if type is any BinaryInteger.Type { return "an integer" }
        if type is any BinaryFloatingPoint.Type { return "a number" }
        let name = String(describing: type)
        if name.hasPrefix("Array<") { return "an array" }
        if name.hasPrefix("Dictionary<") { return "an object" }
        return "a value of type \(name)"
    }
}
