/// Decodes `Decodable` types straight from positioned values, as
/// `JSONDecoder` with its default strategies decodes the same JSON: how a
/// binding's parameters become the factory's parameter type, with no
/// encoding to bytes and decoding again in between.
///
/// Apps' parameter types were written against `JSONDecoder`, so its rules
/// are kept: integers from any whole number in range, `Date` as seconds
/// since 2001 (`deferredToDate`), `Data` from base64, `URL` from a string,
/// `Decimal` from a number's digits, the first of repeated keys. Failures
/// are `DecodingError`s with the coding path of the value at fault, which
/// ``PositionedJSON/value(atPath:)`` turns back into the value and its
/// position. Where `JSONDecoder` reports a number out of range as the whole
/// document being invalid, this reports it at the number.
final class PositionedJSONDecoder: Decoder {
    /// The value being decoded.
    let value: PositionedJSON
    /// The keys from the root to `value`.
    let codingPath: [any CodingKey]
    /// Nothing: parameter types get no context beyond their JSON.
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// A decoder of `value`, reached by `codingPath`.
    init(_ value: PositionedJSON, codingPath: [any CodingKey]) {
        self.value = value
        self.codingPath = codingPath
    }

    /// Decodes `type` from `value`.
    /// - Throws: `DecodingError` when it does not fit.
    static func decode<T: Decodable>(_ type: T.Type, from value: PositionedJSON) throws -> T {
        try unwrap(value, as: type, at: [])
    }

    /// Reads `value` as an object.
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard let members = value.members else {
            throw Self.containerMismatch([String: Any].self, value, at: codingPath, kind: "keyed")
        }
        return KeyedDecodingContainer(KeyedContainer<Key>(members: members, codingPath: codingPath))
    }

    /// Reads `value` as an array.
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value.content else {
            throw Self.containerMismatch([Any].self, value, at: codingPath, kind: "unkeyed")
        }
        return UnkeyedContainer(elements: elements, codingPath: codingPath)
    }

    /// Reads `value` as one value.
    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        self
    }
}

extension PositionedJSONDecoder: SingleValueDecodingContainer {
    /// Whether the value is `null`.
    func decodeNil() -> Bool { value.isNull }

    /// The value as a boolean.
    func decode(_ type: Bool.Type) throws -> Bool { try Self.bool(value, at: codingPath) }
    /// The value as a string.
    func decode(_ type: String.Type) throws -> String { try Self.string(value, at: codingPath) }
    /// The value as a `Double`.
    func decode(_ type: Double.Type) throws -> Double { try Self.floatingPoint(value, at: codingPath) }
    /// The value as a `Float`.
    func decode(_ type: Float.Type) throws -> Float { try Self.floatingPoint(value, at: codingPath) }
    /// The value as an `Int`.
    func decode(_ type: Int.Type) throws -> Int { try Self.integer(value, at: codingPath) }
    /// The value as an `Int8`.
    func decode(_ type: Int8.Type) throws -> Int8 { try Self.integer(value, at: codingPath) }
    /// The value as an `Int16`.
    func decode(_ type: Int16.Type) throws -> Int16 { try Self.integer(value, at: codingPath) }
    /// The value as an `Int32`.
    func decode(_ type: Int32.Type) throws -> Int32 { try Self.integer(value, at: codingPath) }
    /// The value as an `Int64`.
    func decode(_ type: Int64.Type) throws -> Int64 { try Self.integer(value, at: codingPath) }
    /// The value as a `UInt`.
    func decode(_ type: UInt.Type) throws -> UInt { try Self.integer(value, at: codingPath) }
    /// The value as a `UInt8`.
    func decode(_ type: UInt8.Type) throws -> UInt8 { try Self.integer(value, at: codingPath) }
    /// The value as a `UInt16`.
    func decode(_ type: UInt16.Type) throws -> UInt16 { try Self.integer(value, at: codingPath) }
    /// The value as a `UInt32`.
    func decode(_ type: UInt32.Type) throws -> UInt32 { try Self.integer(value, at: codingPath) }
    /// The value as a `UInt64`.
    func decode(_ type: UInt64.Type) throws -> UInt64 { try Self.integer(value, at: codingPath) }
    /// The value as an `Int128`.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type) throws -> Int128 { try Self.integer(value, at: codingPath) }
    /// The value as a `UInt128`.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type) throws -> UInt128 { try Self.integer(value, at: codingPath) }
    /// The value as any `Decodable` type.
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try Self.unwrap(value, as: type, at: codingPath) }
}
