import Foundation

/// The rules for one value, shared by the three kinds of container: what
/// JSON each Swift type is read from, and the error when it is not there.
/// The error texts are `JSONDecoder`'s, so code that shows them reads the same.
extension PositionedJSONDecoder {
    /// `value` as `type`: the types `JSONDecoder` reads its own way, else the type's `init(from:)`.
    static func unwrap<T: Decodable>(_ value: PositionedJSON, as type: T.Type, at path: [any CodingKey]) throws -> T {
        if type == Data.self { return try data(value, at: path) as! T }
        if type == Date.self {
            try checkNotNull(value, Date.self, at: path)
            return try Date(from: PositionedJSONDecoder(value, codingPath: path)) as! T
        }
        if type == URL.self { return try url(value, at: path) as! T }
        if type == Decimal.self { return try decimal(value, at: path) as! T }
        return try T(from: PositionedJSONDecoder(value, codingPath: path))
    }

    /// `value` as a boolean; `null` is a mismatch too, as for `JSONDecoder`.
    static func bool(_ value: PositionedJSON, at path: [any CodingKey]) throws -> Bool {
        guard case .bool(let bool) = value.content else { throw typeMismatch(Bool.self, value, at: path) }
        return bool
    }

    /// `value` as a string.
    static func string(_ value: PositionedJSON, at path: [any CodingKey]) throws -> String {
        try checkNotNull(value, String.self, at: path)
        guard let text = value.stringValue else { throw typeMismatch(String.self, value, at: path) }
        return text
    }

    /// `value` as an integer: any whole number within `T`'s range.
    static func integer<T: FixedWidthInteger>(_ value: PositionedJSON, at path: [any CodingKey]) throws -> T {
        try checkNotNull(value, T.self, at: path)
        guard case .number(let number) = value.content else { throw typeMismatch(T.self, value, at: path) }
        guard let integer = number.integer(as: T.self) else { throw doesNotFit(number, T.self, at: path) }
        return integer
    }

    /// `value` as a floating-point number.
    static func floatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(
        _ value: PositionedJSON, at path: [any CodingKey]
    ) throws -> T {
        try checkNotNull(value, T.self, at: path)
        guard case .number(let number) = value.content else { throw typeMismatch(T.self, value, at: path) }
        guard let result = number.floatingPoint(as: T.self) else { throw doesNotFit(number, T.self, at: path) }
        return result
    }

    /// `value` as `Data`, from a base64 string (`JSONDecoder`'s default `.base64`).
    private static func data(_ value: PositionedJSON, at path: [any CodingKey]) throws -> Data {
        try parsedString(value, at: path, as: Data.self, "Encountered Data is not valid Base64.") {
            Data(base64Encoded: $0)
        }
    }

    /// `value` as a `URL`, from a string (`URL`'s own `init(from:)` reads an object on Apple platforms).
    private static func url(_ value: PositionedJSON, at path: [any CodingKey]) throws -> URL {
        try parsedString(value, at: path, as: URL.self, "Invalid URL string.") { URL(string: $0) }
    }

    /// `value` as a `T` read from a string by `parse`, failing as `JSONDecoder`
    /// does: a type mismatch for a non-string, `message` for a string `parse` refuses.
    private static func parsedString<T>(
        _ value: PositionedJSON, at path: [any CodingKey], as _: T.Type, _ message: String,
        parse: (String) -> T?
    ) throws -> T {
        try checkNotNull(value, T.self, at: path)
        guard let text = value.stringValue else { throw typeMismatch(String.self, value, at: path) }
        guard let parsed = parse(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: message))
        }
        return parsed
    }

    /// `value` as a `Decimal`, from a number's digits, with no `Double` between to round them.
    private static func decimal(_ value: PositionedJSON, at path: [any CodingKey]) throws -> Decimal {
        try checkNotNull(value, Decimal.self, at: path)
        guard case .number(let number) = value.content else {
            throw DecodingError.typeMismatch(Decimal.self, .init(codingPath: path, debugDescription: ""))
        }
        guard let decimal = number.decimal else { throw doesNotFit(number, Decimal.self, at: path) }
        return decimal
    }

    // MARK: - Errors

    /// Throws `valueNotFound` when `value` is `null`.
    static func checkNotNull(_ value: PositionedJSON, _ type: Any.Type, at path: [any CodingKey]) throws {
        guard value.isNull else { return }
        throw DecodingError.valueNotFound(type, .init(
            codingPath: path, debugDescription: "Cannot get value of type \(type) -- found null value instead"))
    }

    /// `value` is not the JSON `type` is read from.
    static func typeMismatch(_ type: Any.Type, _ value: PositionedJSON, at path: [any CodingKey]) -> DecodingError {
        .typeMismatch(type, .init(
            codingPath: path, debugDescription: "Expected to decode \(type) but found \(found(value)) instead."))
    }

    /// `value` is not an object (`[String: Any]`) or an array (`[Any]`), as a container needs.
    static func containerMismatch(
        _ type: Any.Type, _ value: PositionedJSON, at path: [any CodingKey], kind: String
    ) -> DecodingError {
        guard !value.isNull else {
            return .valueNotFound(type, .init(
                codingPath: path, debugDescription: "Cannot get \(kind) decoding container -- found null value instead"))
        }
        return typeMismatch(type, value, at: path)
    }

    /// `number` is out of `type`'s range, or not whole for an integer type.
    static func doesNotFit(_ number: JSONNumber, _ type: Any.Type, at path: [any CodingKey]) -> DecodingError {
        .dataCorrupted(.init(codingPath: path, debugDescription: "Parsed JSON number <\(number)> does not fit in \(type)."))
    }

    /// What was found, in `JSONDecoder`'s words.
    private static func found(_ value: PositionedJSON) -> String {
        switch value.content {
        case .null: "null"
        case .bool: "bool"
        case .number: "number"
        case .string: "a string"
        case .array: "an array"
        case .object: "a dictionary"
        }
    }
}
