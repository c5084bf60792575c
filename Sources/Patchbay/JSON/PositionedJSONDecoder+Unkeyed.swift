/// An array's elements, read in order.
extension PositionedJSONDecoder {
    struct UnkeyedContainer: UnkeyedDecodingContainer {
        /// The keys from the root to the array.
        let codingPath: [any CodingKey]
        /// How many elements there are.
        let count: Int?
        /// The index of the next element.
        private(set) var currentIndex = 0
        /// Walks the elements.
        private var elements: PositionedJSON.Elements.Iterator
        /// The next element, once looked at.
        private var upcoming: PositionedJSON?

        /// Reads `elements`, reached by `codingPath`.
        init(elements: PositionedJSON.Elements, codingPath: [any CodingKey]) {
            self.codingPath = codingPath
            count = elements.count
            self.elements = elements.makeIterator()
        }

        /// Whether every element has been read.
        var isAtEnd: Bool { currentIndex >= count ?? 0 }

        /// The coding path of the next element.
        private var path: [any CodingKey] { codingPath + [JSONCodingKey(intValue: currentIndex)] }

        /// The next element, without moving past it; nil at the end.
        private mutating func peek() -> PositionedJSON? {
            if upcoming == nil { upcoming = elements.next() }
            return upcoming
        }

        /// The next element; at the end, `valueNotFound` for `type`, as `JSONDecoder` words it.
        private mutating func next(for type: Any.Type, message: String = "Unkeyed container is at end.") throws
            -> PositionedJSON
        {
            guard let value = peek() else {
                throw DecodingError.valueNotFound(type, .init(codingPath: path, debugDescription: message))
            }
            return value
        }

        /// Moves past the element just read.
        private mutating func advance() {
            currentIndex += 1
            upcoming = nil
        }

        /// Reads the next element with `read`, and moves past it only if that succeeds.
        private mutating func read<T>(
            _ type: T.Type, _ read: (PositionedJSON, [any CodingKey]) throws -> T
        ) throws -> T {
            let result = try read(next(for: type), path)
            advance()
            return result
        }

        /// Whether the next element is `null`, moving past it if it is.
        mutating func decodeNil() throws -> Bool {
            guard try next(for: Never.self).isNull else { return false }
            advance()
            return true
        }

        /// The next element as a boolean.
        mutating func decode(_ type: Bool.Type) throws -> Bool { try read(type, PositionedJSONDecoder.bool) }
        /// The next element as a string.
        mutating func decode(_ type: String.Type) throws -> String { try read(type, PositionedJSONDecoder.string) }
        /// The next element as a `Double`.
        mutating func decode(_ type: Double.Type) throws -> Double { try read(type, PositionedJSONDecoder.floatingPoint) }
        /// The next element as a `Float`.
        mutating func decode(_ type: Float.Type) throws -> Float { try read(type, PositionedJSONDecoder.floatingPoint) }
        /// The next element as an `Int`.
        mutating func decode(_ type: Int.Type) throws -> Int { try read(type, PositionedJSONDecoder.integer) }
        /// The next element as an `Int8`.
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try read(type, PositionedJSONDecoder.integer) }
        /// The next element as an `Int16`.
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try read(type, PositionedJSONDecoder.integer) }
        /// The next element as an `Int32`.
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try read(type, PositionedJSONDecoder.integer) }
        /// The next element as an `Int64`.
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try read(type, PositionedJSONDecoder.integer) }
        /// The next element as a `UInt`.
        mutating func decode(_ type: UInt.Type) throws -> UInt { try read(type, PositionedJSONDecoder.integer) }
        /// The next element as a `UInt8`.
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try read(type, PositionedJSONDecoder.integer) }
        /// The next element as a `UInt16`.
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try read(type, PositionedJSONDecoder.integer) }
        /// The next element as a `UInt32`.
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try read(type, PositionedJSONDecoder.integer) }
        /// The next element as a `UInt64`.
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try read(type, PositionedJSONDecoder.integer) }
        /// The next element as an `Int128`.
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        mutating func decode(_ type: Int128.Type) throws -> Int128 { try read(type, PositionedJSONDecoder.integer) }
        /// The next element as a `UInt128`.
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try read(type, PositionedJSONDecoder.integer) }
        /// The next element as any `Decodable` type.
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try read(type) { try PositionedJSONDecoder.unwrap($0, as: type, at: $1) }
        }

        /// The next element as `type`, or nil when it is `null` or the array
        /// has ended; either way the index moves on, as with `JSONDecoder`.
        mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
            try readIfPresent(type) { try PositionedJSONDecoder.unwrap($0, as: type, at: $1) }
        }

        /// Reads the next element with `read` unless it is `null` or absent.
        private mutating func readIfPresent<T>(
            _ type: T.Type, _ read: (PositionedJSON, [any CodingKey]) throws -> T
        ) throws -> T? {
            guard let value = peek(), !value.isNull else {
                advance()
                return nil
            }
            let result = try read(value, path)
            advance()
            return result
        }

        // The typed forms, which would otherwise fall to the protocol's
        // defaults: those do not move past the end as `JSONDecoder` does.

        /// The next element as a boolean, or nil.
        mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? {
            try readIfPresent(type, PositionedJSONDecoder.bool)
        }
        /// The next element as a string, or nil.
        mutating func decodeIfPresent(_ type: String.Type) throws -> String? {
            try readIfPresent(type, PositionedJSONDecoder.string)
        }
        /// The next element as a `Double`, or nil.
        mutating func decodeIfPresent(_ type: Double.Type) throws -> Double? {
            try readIfPresent(type, PositionedJSONDecoder.floatingPoint)
        }
        /// The next element as a `Float`, or nil.
        mutating func decodeIfPresent(_ type: Float.Type) throws -> Float? {
            try readIfPresent(type, PositionedJSONDecoder.floatingPoint)
        }
        /// The next element as an `Int`, or nil.
        mutating func decodeIfPresent(_ type: Int.Type) throws -> Int? {
            try readIfPresent(type, PositionedJSONDecoder.integer)
        }
        /// The next element as an `Int8`, or nil.
        mutating func decodeIfPresent(_ type: Int8.Type) throws -> Int8? {
            try readIfPresent(type, PositionedJSONDecoder.integer)
        }
        /// The next element as an `Int16`, or nil.
        mutating func decodeIfPresent(_ type: Int16.Type) throws -> Int16? {
            try readIfPresent(type, PositionedJSONDecoder.integer)
        }
        /// The next element as an `Int32`, or nil.
        mutating func decodeIfPresent(_ type: Int32.Type) throws -> Int32? {
            try readIfPresent(type, PositionedJSONDecoder.integer)
        }
        /// The next element as an `Int64`, or nil.
        mutating func decodeIfPresent(_ type: Int64.Type) throws -> Int64? {
            try readIfPresent(type, PositionedJSONDecoder.integer)
        }
        /// The next element as a `UInt`, or nil.
        mutating func decodeIfPresent(_ type: UInt.Type) throws -> UInt? {
            try readIfPresent(type, PositionedJSONDecoder.integer)
        }
        /// The next element as a `UInt8`, or nil.
        mutating func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? {
            try readIfPresent(type, PositionedJSONDecoder.integer)
        }
        /// The next element as a `UInt16`, or nil.
        mutating func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? {
            try readIfPresent(type, PositionedJSONDecoder.integer)
        }
        /// The next element as a `UInt32`, or nil.
        mutating func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? {
            try readIfPresent(type, PositionedJSONDecoder.integer)
        }
        /// The next element as a `UInt64`, or nil.
        mutating func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? {
            try readIfPresent(type, PositionedJSONDecoder.integer)
        }

        /// The next element as an object.
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type
        ) throws -> KeyedDecodingContainer<NestedKey> {
            try read(KeyedDecodingContainer<NestedKey>.self) {
                try PositionedJSONDecoder($0, codingPath: $1).container(keyedBy: type)
            }
        }

        /// The next element as an array.
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            let value = try next(
                for: (any UnkeyedDecodingContainer).self,
                message: "Cannot get nested unkeyed container -- unkeyed container is at end.")
            let container = try PositionedJSONDecoder(value, codingPath: path).unkeyedContainer()
            advance()
            return container
        }

        /// A decoder of the next element.
        mutating func superDecoder() throws -> any Decoder {
            let value = try next(for: (any Decoder).self, message: "Cannot get superDecoder() -- unkeyed container is at end.")
            let decoder = PositionedJSONDecoder(value, codingPath: path)
            advance()
            return decoder
        }
    }
}
