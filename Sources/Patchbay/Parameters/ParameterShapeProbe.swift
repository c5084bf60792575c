import Foundation

/// Finds the fields of a `Decodable` parameter type without a value, by
/// running its `init(from:)` against a decoder that records what it asks for.
///
/// The dry run answers every request with a placeholder (`""`, `0`, `false`,
/// an empty array, a nested dry run's value) so that synthesized and
/// hand-written initializers walk through all their keys. Keys are recorded
/// in the order first asked for; `decodeIfPresent`, or `contains` before a
/// `decode`, makes a key optional. Foundation types are described as
/// `JSONDecoder` with its default strategies reads them, since that is how
/// ``JSONValue/decode(as:)`` decodes parameters: `URL`, `Data` and `UUID` are
/// strings, `Date` and `Decimal` numbers; ``JSONValue`` is `any`.
enum ParameterShapeProbe {
    /// How many nested types deep a dry run goes; deeper values are `any`.
    /// Stops generic types that grow at every level, which the recursion check
    /// (same type already being decoded) cannot catch.
    static let maxDepth = 16

    /// The fields, and whether they are all the type reads: the dry run
    /// finished, reading a JSON object with fixed keys. Only then is a key
    /// the type does not read a mistake (`unknown-parameter`); a type whose
    /// `init(from:)` threw part-way, or that reads keys it lists at run time
    /// (a dictionary, `allKeys`), is open.
    ///
    /// The fields are `nil` when the type's decoder cannot be dry-run or does
    /// not read a JSON object with fixed keys (a dictionary, an enum, an array);
    /// empty when it reads nothing. When `init(from:)` throws part-way
    /// (validation that rejects the placeholders, a nested enum whose raw value
    /// rejects `""`), they are the fields asked for before the throw, or `nil`
    /// if there were none: such a list may lack fields that the initializer
    /// would have read later.
    static func shape<P: Decodable>(
        of type: P.Type, decoding: ParameterDecoding = .default
    ) -> (fields: [CatalogDescription.ParameterField]?, isClosed: Bool) {
        let root = Frame()
        let finished = (try? Run(decoding: decoding).value(of: type, into: root, codingPath: [])) != nil
        guard finished || !root.entries.isEmpty else { return (nil, false) }
        // A type that asked for nothing (an empty struct) reads no keys.
        if finished && root.kind == nil { return ([], true) }
        return (root.fields, finished && root.fields != nil)
    }

    /// Thrown when the probe cannot make a value that was required: a type
    /// that contains itself, or one nested deeper than ``maxDepth``.
    struct Unanswerable: Error {}

    /// What one JSON value was asked for as. A class because a nested
    /// container is recorded in its parent before it is filled.
    final class Frame {
        /// The JSON shape a value was read as.
        enum Kind: Equatable {
            /// A keyed container: an object.
            case keyed
            /// An unkeyed container: an array.
            case unkeyed
            /// A single scalar, with its JSON type name.
            case scalar(String)
            /// Conflicting requests, or none: anything goes.
            case any
        }

        /// The first shape asked for; `nil` until the value asks for one.
        var kind: Kind?
        /// For an object: its keys in order of first request, with whether
        /// each must be present and what its value was asked for as.
        var entries: [(name: String, required: Bool, shape: Frame)] = []
        /// Keys asked about with `contains`: code that checks before it reads
        /// treats the key as optional.
        var checkedKeys: Set<String> = []
        /// Set when the keys cannot be listed: `allKeys` was read (a
        /// dictionary, an enum with payloads) or the type recursed.
        var keysUnknown = false
        /// For a fixed-width integer: its bits and whether it is signed.
        var integerWidth: (bits: Int, signed: Bool)?

        /// Notes a request; a second, different one makes the value `any`
        /// (a type that tries a string, then an object, accepts either).
        func claim(_ new: Kind) { kind = kind == nil || kind == new ? new : .any }

        /// The frame for `key`'s value. A key asked for again gets a
        /// throwaway frame, so only its first request is recorded.
        func entry(_ key: String, required: Bool) -> Frame {
            if entries.contains(where: { $0.name == key }) { return Frame() }
            let shape = Frame()
            entries.append((key, required && !checkedKeys.contains(key), shape))
            return shape
        }

        /// The JSON type name for ``CatalogDescription/ParameterField/type``.
        var typeName: String {
            switch kind {
            case .keyed: "object"
            case .unkeyed: "array"
            case .scalar(let name): name
            case .any, nil: "any"
            }
        }

        /// The fields of an object with known keys, else `nil`.
        var fields: [CatalogDescription.ParameterField]? {
            guard kind == .keyed, !keysUnknown else { return nil }
            return entries.map {
                let width = $0.shape.kind == .scalar("integer") ? $0.shape.integerWidth : nil
                return .init(
                    name: $0.name, type: $0.shape.typeName, required: $0.required, fields: $0.shape.fields,
                    bits: width?.bits, signed: width?.signed)
            }
        }
    }

    /// One dry run: the types being decoded, innermost last, so that a type
    /// met again inside itself is not dry-run forever.
    final class Run {
        /// The types whose `init(from:)` is running, with the frame each fills.
        private var stack: [(type: ObjectIdentifier, frame: Frame)] = []
        /// How the app's decoder reads dates and data.
        let decoding: ParameterDecoding

        init(decoding: ParameterDecoding) { self.decoding = decoding }

        /// A value of `type`, after recording in `frame` what it asks for.
        /// - Throws: what `init(from:)` throws, or ``Unanswerable``.
        func value<T: Decodable>(of type: T.Type, into frame: Frame, codingPath: [any CodingKey]) throws -> T {
            if let scalar = ParameterShapeProbe.scalar(type, decoding: decoding) {
                frame.claim(.scalar(scalar.name))
                // Recorded only when not a 64-bit signed integer, the range a field without them is checked against.
                if let integer = type as? any FixedWidthInteger.Type, integer.bitWidth < 64 || !integer.isSigned,
                   integer.bitWidth <= 64 {
                    frame.integerWidth = (integer.bitWidth, integer.isSigned)
                }
                return scalar.value
            }
            let id = ObjectIdentifier(type)
            if let ancestor = stack.last(where: { $0.type == id })?.frame {
                // The value looks like the enclosing one; its keys are that type's.
                frame.claim(ancestor.kind ?? .any)
                frame.keysUnknown = true
                throw Unanswerable()
            }
            guard stack.count < maxDepth else {
                frame.claim(.any)
                throw Unanswerable()
            }
            stack.append((id, frame))
            defer { stack.removeLast() }
            do {
                return try T(from: ProbeDecoder(run: self, frame: frame, codingPath: codingPath))
            } catch {
                // An enum whose raw value rejects the placeholder still has cases.
                if let cases = type as? any CaseIterable.Type, let value = first(of: cases) as? T { return value }
                throw error
            }
        }
    }

    /// The JSON type and a placeholder for a type `JSONDecoder` reads as one
    /// scalar; `nil` for other types, which are dry-run.
    static func scalar<T>(_ type: T.Type, decoding: ParameterDecoding = .default) -> (name: String, value: T)? {
        let found: (String, Any)? =
            if type == String.self { ("string", "") }
            else if type == Bool.self { ("boolean", false) }
            else if let integer = type as? any BinaryInteger.Type { ("integer", zero(integer)) }
            else if let real = type as? any BinaryFloatingPoint.Type { ("number", zero(real)) }
            else if type == Decimal.self { ("number", Decimal()) }
            // A number of seconds by default; a string under `.iso8601` (see ParameterDecoding).
            else if type == Date.self { (decoding.dateJSONType, Date(timeIntervalSinceReferenceDate: 0)) }
            // URL decodes itself as an object on Apple platforms; JSONDecoder reads a string.
            else if type == URL.self { ("string", URL(fileURLWithPath: "/")) }
            else if type == Data.self { ("string", Data()) }  // base64 or hex
            else if type == UUID.self { ("string", UUID()) }  // "" is not a UUID
            // It tries a string first, so a dry run would call it one; it takes any value.
            else if type == JSONValue.self { ("any", JSONValue.null) }
            else { nil }
        return found.flatMap { name, value in (value as? T).map { (name: name, value: $0) } }
    }

    /// Zero of a numeric type opened from an existential metatype.
    private static func zero<N: Numeric>(_: N.Type) -> N { 0 }

    /// The first case, as `Any` because the caller holds only `any CaseIterable.Type`.
    private static func first<C: CaseIterable>(of _: C.Type) -> Any? { C.allCases.first }
}
