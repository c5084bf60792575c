/// An object's members, read by key.
extension PositionedJSONDecoder {
    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        /// The object's members; a repeated key's first value only.
        let members: PositionedJSON.Members
        /// The keys from the root to the object.
        let codingPath: [any CodingKey]

        /// The keys present that `Key` has a case for, in document order.
        var allKeys: [Key] { members.compactMap { Key(stringValue: $0.key) } }

        /// Whether the object has a member named `key`.
        func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

        /// The member's value; `keyNotFound` when there is none.
        private func value(_ key: some CodingKey) throws -> PositionedJSON {
            guard let value = members[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(
                    codingPath: codingPath, debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
            }
            return value
        }

        /// The coding path of the member `key`.
        private func path(_ key: some CodingKey) -> [any CodingKey] { codingPath + [key] }

        /// Whether the member is `null`; `keyNotFound` when it is absent.
        func decodeNil(forKey key: Key) throws -> Bool { try value(key).isNull }

        /// The member as a boolean.
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try bool(value(key), at: path(key)) }
        /// The member as a string.
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try string(value(key), at: path(key)) }
        /// The member as a `Double`.
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
            try floatingPoint(value(key), at: path(key))
        }
        /// The member as a `Float`.
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try floatingPoint(value(key), at: path(key)) }
        /// The member as an `Int`.
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(value(key), at: path(key)) }
        /// The member as an `Int8`.
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(value(key), at: path(key)) }
        /// The member as an `Int16`.
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(value(key), at: path(key)) }
        /// The member as an `Int32`.
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(value(key), at: path(key)) }
        /// The member as an `Int64`.
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(value(key), at: path(key)) }
        /// The member as a `UInt`.
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(value(key), at: path(key)) }
        /// The member as a `UInt8`.
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(value(key), at: path(key)) }
        /// The member as a `UInt16`.
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(value(key), at: path(key)) }
        /// The member as a `UInt32`.
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(value(key), at: path(key)) }
        /// The member as a `UInt64`.
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(value(key), at: path(key)) }
        /// The member as an `Int128`.
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try integer(value(key), at: path(key)) }
        /// The member as a `UInt128`.
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try integer(value(key), at: path(key)) }
        /// The member as any `Decodable` type.
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try unwrap(value(key), as: type, at: path(key))
        }

        /// The member as `type`, or nil when it is absent or `null`.
        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            guard let value = members[key.stringValue], !value.isNull else { return nil }
            return try unwrap(value, as: type, at: path(key))
        }

        /// The member as an object.
        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type, forKey key: Key
        ) throws -> KeyedDecodingContainer<NestedKey> {
            try PositionedJSONDecoder(value(key), codingPath: path(key)).container(keyedBy: type)
        }

        /// The member as an array.
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try PositionedJSONDecoder(value(key), codingPath: path(key)).unkeyedContainer()
        }

        /// A decoder of the member `super`; of `null` when there is none.
        func superDecoder() throws -> any Decoder { decoder(JSONCodingKey.super) }

        /// A decoder of the member `key`; of `null` when there is none.
        func superDecoder(forKey key: Key) throws -> any Decoder { decoder(key) }

        /// A decoder of the member `key`, or of `null`, as `JSONDecoder` gives.
        private func decoder(_ key: some CodingKey) -> PositionedJSONDecoder {
            PositionedJSONDecoder(members[key.stringValue] ?? PositionedJSON.null, codingPath: path(key))
        }

        // Shorthands for the shared rules.
        private func bool(_ value: PositionedJSON, at path: [any CodingKey]) throws -> Bool {
            try PositionedJSONDecoder.bool(value, at: path)
        }
        private func string(_ value: PositionedJSON, at path: [any CodingKey]) throws -> String {
            try PositionedJSONDecoder.string(value, at: path)
        }
        private func integer<T: FixedWidthInteger>(_ value: PositionedJSON, at path: [any CodingKey]) throws -> T {
            try PositionedJSONDecoder.integer(value, at: path)
        }
        private func floatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(
            _ value: PositionedJSON, at path: [any CodingKey]
        ) throws -> T {
            try PositionedJSONDecoder.floatingPoint(value, at: path)
        }
        private func unwrap<T: Decodable>(_ value: PositionedJSON, as type: T.Type, at path: [any CodingKey]) throws -> T {
            try PositionedJSONDecoder.unwrap(value, as: type, at: path)
        }
    }
}
