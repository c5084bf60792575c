import Foundation

extension ParameterShapeProbe {
    /// The decoder handed to `init(from:)`: it holds no data, and records
    /// every request in `frame`.
    struct ProbeDecoder: Decoder {
        /// The dry run, for nested types.
        let run: Run
        /// Where this value's requests are recorded.
        let frame: Frame
        /// The keys from the parameters object to this value.
        let codingPath: [any CodingKey]
        /// Empty: the probe has no user info to offer.
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        /// Records an object; every keyed container of a value shares its
        /// frame, so a subclass and its superclass fill one field list.
        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            frame.claim(.keyed)
            return KeyedDecodingContainer(Keyed(decoder: self))
        }

        /// Records an array; its elements are not described.
        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            frame.claim(.unkeyed)
            return Unkeyed(decoder: self)
        }

        /// Records nothing yet: the scalar or type decoded from it says what the value is.
        func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(decoder: self) }

        /// A decoder whose requests are recorded nowhere, for array elements.
        func scratch(_ key: any CodingKey) -> ProbeDecoder {
            ProbeDecoder(run: run, frame: Frame(), codingPath: codingPath + [key])
        }
    }

    /// Records each key asked for. `contains` says yes and `decodeNil` no, so
    /// that code guarded by them goes on to decode, and so gets recorded.
    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        /// The decoder of the object.
        let decoder: ProbeDecoder
        /// The keys to the object.
        var codingPath: [any CodingKey] { decoder.codingPath }
        /// Empty, and marks the object's keys unknown: code that lists keys
        /// (dictionaries, enums with payloads) accepts keys not known here.
        var allKeys: [Key] {
            decoder.frame.keysUnknown = true
            return []
        }

        /// Yes, and a later `decode` of the key is recorded as optional.
        func contains(_ key: Key) -> Bool {
            decoder.frame.checkedKeys.insert(key.stringValue)
            return true
        }

        /// No, so that the value is decoded next.
        func decodeNil(forKey key: Key) throws -> Bool { false }

        /// Records `key` as required, unless `contains` asked for it first.
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            let shape = decoder.frame.entry(key.stringValue, required: true)
            return try decoder.run.value(of: type, into: shape, codingPath: codingPath + [key])
        }

        /// Records `key` as optional and says it is absent, so that checks of
        /// present values do not reject a placeholder.
        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            let shape = decoder.frame.entry(key.stringValue, required: false)
            _ = try? decoder.run.value(of: type, into: shape, codingPath: codingPath + [key])
            return nil
        }

        /// Records `key` as an object.
        func nestedContainer<Nested: CodingKey>(
            keyedBy type: Nested.Type, forKey key: Key
        ) throws -> KeyedDecodingContainer<Nested> {
            try child(key).container(keyedBy: type)
        }

        /// Records `key` as an array.
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try child(key).unkeyedContainer()
        }

        /// Records `super` as what the superclass asks for.
        func superDecoder() throws -> any Decoder { child(PlainKey(stringValue: "super")) }

        /// Records `key` as what the superclass asks for.
        func superDecoder(forKey key: Key) throws -> any Decoder { child(key) }

        /// A decoder for `key`'s value, recorded as a required entry.
        private func child(_ key: any CodingKey) -> ProbeDecoder {
            let shape = decoder.frame.entry(key.stringValue, required: true)
            return ProbeDecoder(run: decoder.run, frame: shape, codingPath: codingPath + [key])
        }

        // The scalar overloads have no default implementations; each goes
        // through the generic path, which knows every scalar's JSON type.
        func decode(_ t: Bool.Type, forKey k: Key) throws -> Bool { try decode(t, k) }
        func decode(_ t: String.Type, forKey k: Key) throws -> String { try decode(t, k) }
        func decode(_ t: Double.Type, forKey k: Key) throws -> Double { try decode(t, k) }
        func decode(_ t: Float.Type, forKey k: Key) throws -> Float { try decode(t, k) }
        func decode(_ t: Int.Type, forKey k: Key) throws -> Int { try decode(t, k) }
        func decode(_ t: Int8.Type, forKey k: Key) throws -> Int8 { try decode(t, k) }
        func decode(_ t: Int16.Type, forKey k: Key) throws -> Int16 { try decode(t, k) }
        func decode(_ t: Int32.Type, forKey k: Key) throws -> Int32 { try decode(t, k) }
        func decode(_ t: Int64.Type, forKey k: Key) throws -> Int64 { try decode(t, k) }
        func decode(_ t: UInt.Type, forKey k: Key) throws -> UInt { try decode(t, k) }
        func decode(_ t: UInt8.Type, forKey k: Key) throws -> UInt8 { try decode(t, k) }
        func decode(_ t: UInt16.Type, forKey k: Key) throws -> UInt16 { try decode(t, k) }
        func decode(_ t: UInt32.Type, forKey k: Key) throws -> UInt32 { try decode(t, k) }
        func decode(_ t: UInt64.Type, forKey k: Key) throws -> UInt64 { try decode(t, k) }
        // The defaults of these would return a placeholder instead of nil.
        func decodeIfPresent(_ t: Bool.Type, forKey k: Key) throws -> Bool? { try decodeIfPresent(t, k) }
        func decodeIfPresent(_ t: String.Type, forKey k: Key) throws -> String? { try decodeIfPresent(t, k) }
        func decodeIfPresent(_ t: Double.Type, forKey k: Key) throws -> Double? { try decodeIfPresent(t, k) }
        func decodeIfPresent(_ t: Float.Type, forKey k: Key) throws -> Float? { try decodeIfPresent(t, k) }
        func decodeIfPresent(_ t: Int.Type, forKey k: Key) throws -> Int? { try decodeIfPresent(t, k) }
        func decodeIfPresent(_ t: Int8.Type, forKey k: Key) throws -> Int8? { try decodeIfPresent(t, k) }
        func decodeIfPresent(_ t: Int16.Type, forKey k: Key) throws -> Int16? { try decodeIfPresent(t, k) }
        func decodeIfPresent(_ t: Int32.Type, forKey k: Key) throws -> Int32? { try decodeIfPresent(t, k) }
        func decodeIfPresent(_ t: Int64.Type, forKey k: Key) throws -> Int64? { try decodeIfPresent(t, k) }
        func decodeIfPresent(_ t: UInt.Type, forKey k: Key) throws -> UInt? { try decodeIfPresent(t, k) }
        func decodeIfPresent(_ t: UInt8.Type, forKey k: Key) throws -> UInt8? { try decodeIfPresent(t, k) }
        func decodeIfPresent(_ t: UInt16.Type, forKey k: Key) throws -> UInt16? { try decodeIfPresent(t, k) }
        func decodeIfPresent(_ t: UInt32.Type, forKey k: Key) throws -> UInt32? { try decodeIfPresent(t, k) }
        func decodeIfPresent(_ t: UInt64.Type, forKey k: Key) throws -> UInt64? { try decodeIfPresent(t, k) }
        // The 128-bit defaults throw a type mismatch.
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        func decode(_ t: Int128.Type, forKey k: Key) throws -> Int128 { try decode(t, k) }
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        func decode(_ t: UInt128.Type, forKey k: Key) throws -> UInt128 { try decode(t, k) }
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        func decodeIfPresent(_ t: Int128.Type, forKey k: Key) throws -> Int128? { try decodeIfPresent(t, k) }
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        func decodeIfPresent(_ t: UInt128.Type, forKey k: Key) throws -> UInt128? { try decodeIfPresent(t, k) }

        /// The generic `decode`, differently labelled so that the overloads
        /// above cannot call themselves.
        private func decode<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T { try decode(type, forKey: key) }
        /// The generic `decodeIfPresent`, labelled like ``decode(_:_:)``.
        private func decodeIfPresent<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
            try decodeIfPresent(type, forKey: key)
        }
    }

    /// An array the probe reports as empty: elements are not described, and
    /// stopping at once keeps arrays of the enclosing type from recursing.
    /// Code that reads a fixed number of elements anyway gets placeholders.
    /// A class, so that the scalar overloads it shares with ``Single``, which
    /// are not `mutating`, move it to the next element.
    final class Unkeyed: UnkeyedDecodingContainer, Scalars {
        /// The decoder of the array.
        let decoder: ProbeDecoder
        /// The keys to the array.
        var codingPath: [any CodingKey] { decoder.codingPath }
        /// Zero elements.
        var count: Int? { 0 }
        /// Always at the end.
        var isAtEnd: Bool { true }
        /// The index of the next element read anyway.
        private(set) var currentIndex = 0

        init(decoder: ProbeDecoder) { self.decoder = decoder }

        /// No, so that the element is decoded next.
        func decodeNil() throws -> Bool { false }

        /// A placeholder element, recorded nowhere.
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let element = next()
            return try element.run.value(of: type, into: element.frame, codingPath: element.codingPath)
        }

        /// A nested object, recorded nowhere.
        func nestedContainer<Nested: CodingKey>(
            keyedBy type: Nested.Type
        ) throws -> KeyedDecodingContainer<Nested> {
            try next().container(keyedBy: type)
        }

        /// A nested array, recorded nowhere.
        func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }

        /// A decoder recorded nowhere.
        func superDecoder() throws -> any Decoder { next() }

        /// A decoder for the next element, recorded nowhere.
        private func next() -> ProbeDecoder {
            defer { currentIndex += 1 }
            return decoder.scratch(PlainKey(intValue: currentIndex))
        }

        // The 128-bit defaults throw a type mismatch; these must be the type's own, to be preferred to them.
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        func decode(_ t: Int128.Type) throws -> Int128 { try decode(generic: t) }
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        func decode(_ t: UInt128.Type) throws -> UInt128 { try decode(generic: t) }
    }

    /// One value: what is decoded from it, a scalar or a type, is what the
    /// value is, recorded in the decoder's own frame.
    struct Single: SingleValueDecodingContainer, Scalars {
        /// The decoder of the value.
        let decoder: ProbeDecoder
        /// The keys to the value.
        var codingPath: [any CodingKey] { decoder.codingPath }

        /// No, so that an `Optional` goes on to decode its wrapped type.
        func decodeNil() -> Bool { false }

        /// Records the type's shape as this value's.
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try decoder.run.value(of: type, into: decoder.frame, codingPath: codingPath)
        }

        // The 128-bit defaults throw a type mismatch; these must be the type's own, to be preferred to them.
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        func decode(_ t: Int128.Type) throws -> Int128 { try decode(generic: t) }
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        func decode(_ t: UInt128.Type) throws -> UInt128 { try decode(generic: t) }
    }

    /// The scalar overloads of the unkeyed and single-value containers: their
    /// protocols give them no defaults; each takes the generic path.
    protocol Scalars {
        func decode<T: Decodable>(_ type: T.Type) throws -> T
    }
}

extension ParameterShapeProbe.Scalars {
    /// The generic `decode`, labelled so the scalar overloads reach it rather than themselves.
    func decode<T: Decodable>(generic type: T.Type) throws -> T { try decode(type) }
    func decode(_ t: Bool.Type) throws -> Bool { try decode(generic: t) }
    func decode(_ t: String.Type) throws -> String { try decode(generic: t) }
    func decode(_ t: Double.Type) throws -> Double { try decode(generic: t) }
    func decode(_ t: Float.Type) throws -> Float { try decode(generic: t) }
    func decode(_ t: Int.Type) throws -> Int { try decode(generic: t) }
    func decode(_ t: Int8.Type) throws -> Int8 { try decode(generic: t) }
    func decode(_ t: Int16.Type) throws -> Int16 { try decode(generic: t) }
    func decode(_ t: Int32.Type) throws -> Int32 { try decode(generic: t) }
    func decode(_ t: Int64.Type) throws -> Int64 { try decode(generic: t) }
    func decode(_ t: UInt.Type) throws -> UInt { try decode(generic: t) }
    func decode(_ t: UInt8.Type) throws -> UInt8 { try decode(generic: t) }
    func decode(_ t: UInt16.Type) throws -> UInt16 { try decode(generic: t) }
    func decode(_ t: UInt32.Type) throws -> UInt32 { try decode(generic: t) }
    func decode(_ t: UInt64.Type) throws -> UInt64 { try decode(generic: t) }
}
