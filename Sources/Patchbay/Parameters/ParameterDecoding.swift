import Foundation

/// How `JSONDecoder` reads dates and data in a catalog's parameter types:
/// the two strategies of `JSONDecoder` an app may want in a manifest.
///
///     var catalog = FactoryCatalog()
///     catalog.parameterDecoding = ParameterDecoding(dates: .iso8601, data: .hex)
///
/// Recorded in the catalog description, so `patchbay check --catalog` checks
/// a date field for a string under `.iso8601` and for a number otherwise, as
/// the app decodes it. There are no key strategies: a parameter's key is the
/// key in the manifest, so diagnostics and the catalog's field list name the
/// keys the manifest's author wrote.
public struct ParameterDecoding: Sendable, Hashable, Codable {
    /// How a `Date` is written in a manifest.
    public enum Dates: String, Sendable, Hashable, Codable, CaseIterable {
        /// Seconds since 1 January 2001, `JSONDecoder`'s default.
        case deferredToDate = "seconds-since-2001"
        /// Seconds since 1 January 1970.
        case secondsSince1970 = "seconds-since-1970"
        /// Milliseconds since 1 January 1970.
        case millisecondsSince1970 = "milliseconds-since-1970"
        /// An ISO 8601 string: `"2026-11-25T09:30:00Z"`.
        case iso8601
    }

    /// How `Data` is written in a manifest: always as a string.
    public enum DataEncoding: String, Sendable, Hashable, Codable, CaseIterable {
        /// Base64, `JSONDecoder`'s default.
        case base64
        /// Hexadecimal digits, two per byte, either case: `"00ff"`.
        case hex
    }

    /// How dates are written.
    public var dates: Dates
    /// How data is written.
    public var data: DataEncoding

    /// Creates a setting; the defaults are `JSONDecoder`'s.
    public init(dates: Dates = .deferredToDate, data: DataEncoding = .base64) {
        self.dates = dates
        self.data = data
    }

    /// `JSONDecoder`'s defaults.
    public static let `default` = ParameterDecoding()

    /// The JSON type a `Date` is written as: what the catalog records for a date field.
    var dateJSONType: String { dates == .iso8601 ? "string" : "number" }

    /// A `JSONDecoder` set up with these strategies.
    func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        switch dates {
        case .deferredToDate: decoder.dateDecodingStrategy = .deferredToDate
        case .secondsSince1970: decoder.dateDecodingStrategy = .secondsSince1970
        case .millisecondsSince1970: decoder.dateDecodingStrategy = .millisecondsSince1970
        case .iso8601: decoder.dateDecodingStrategy = .iso8601
        }
        switch data {
        case .base64: decoder.dataDecodingStrategy = .base64
        case .hex: decoder.dataDecodingStrategy = .custom(Self.decodeHex)
        }
        return decoder
    }

    /// Reads a string of hex digits as bytes.
    private static func decodeHex(_ decoder: any Decoder) throws -> Data {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        var bytes = Data(capacity: text.utf8.count / 2)
        var high: UInt8?
        for unit in text.utf8 {
            guard let digit = UInt8(String(UnicodeScalar(unit)), radix: 16) else { high = 0xFF; break }
            if let first = high { bytes.append(first << 4 | digit); high = nil } else { high = digit }
        }
        guard high == nil else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text)' is not hexadecimal data (two hex digits per byte)")
        }
        return bytes
    }
}
