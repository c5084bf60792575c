/// The fast path: a manifest whose every value has its expected type decodes
/// straight into this typed shape, which costs `JSONDecoder` about half of
/// walking each object's keys. Unknown keys are invisible here; the parser
/// finds them in the position index, which has seen every key. When any value
/// has the wrong type this decode throws, and the parser takes the general
/// path below, which reports exactly what is wrong.
struct TypedManifestDocument: Decodable {
    let schema: String?
    let format: Int?
    let environment: String?
    let extends: String?
    let injectors: [String]?
    let bindings: [TypedBinding]?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case schema = "$schema", format, environment, extends, injectors, bindings
    }

    struct TypedBinding: Decodable {
        let `protocol`: String?
        let factory: String?
        let lifetime: String?
        let injector: String?
        let parameters: [String: JSONValue]?

    }

}

/// A JSON object as the parser reads it: a decoded ``JSONValue`` object, or one
/// of the typed fast-path documents, read without building dictionaries.
protocol ManifestObject {
    /// The member `key`, as a JSON value.
    subscript(key: String) -> JSONValue? { get }
    /// The keys present.
    var memberNames: [String] { get }
}

extension Dictionary: ManifestObject where Key == String, Value == JSONValue {
    var memberNames: [String] { Array(keys) }
}

extension TypedManifestDocument: ManifestObject {
    subscript(key: String) -> JSONValue? {
        switch key {
        case "$schema": schema.map(JSONValue.string)
        case "format": format.map(JSONValue.integer)
        case "environment": environment.map(JSONValue.string)
        case "extends": extends.map(JSONValue.string)
        case "injectors": injectors.map { .array($0.map(JSONValue.string)) }
        default: nil  // bindings are read as typed values
        }
    }

    var memberNames: [String] {
        CodingKeys.allCases.filter { self[$0.rawValue] != nil || ($0 == .bindings && bindings != nil) }.map(\.rawValue)
    }
}

extension TypedManifestDocument.TypedBinding: ManifestObject {
    subscript(key: String) -> JSONValue? {
        switch key {
        case "protocol": `protocol`.map(JSONValue.string)
        case "factory": factory.map(JSONValue.string)
        case "lifetime": lifetime.map(JSONValue.string)
        case "injector": injector.map(JSONValue.string)
        case "parameters": parameters.map(JSONValue.object)
        default: nil
        }
    }

    var memberNames: [String] { ["protocol", "factory", "lifetime", "injector", "parameters"].filter { self[$0] != nil } }
}

/// Decodes a manifest document into a ``JSONValue`` with `JSONDecoder`, asking
/// for the JSON type each key is expected to have before anything else.
///
/// ``JSONValue/init(from:)`` has to guess a value's type by trying each in
/// turn, and every wrong guess costs a thrown `DecodingError`. In a valid
/// manifest the type of almost every value is known from its key (`protocol`
/// is a string, each element of `bindings` an object), so guessing that first
/// means no error is thrown on the happy path. A value of an unexpected type
/// falls back to the general decoding, and the shape check reports it.
struct ManifestDocument: Decodable {
    let root: JSONValue

    init(from decoder: any Decoder) throws {
        guard let container = try? decoder.container(keyedBy: AnyKey.self) else {
            root = try JSONValue(from: decoder)  // not an object: the parser says so
            return
        }
        var members: [String: JSONValue] = [:]
        for key in container.allKeys {
            switch key.stringValue {
            case "bindings":
                if let bindings = try? container.decode([BindingDocument].self, forKey: key) {
                    members[key.stringValue] = .array(bindings.map(\.value))
                    continue
                }
            case "format":
                if let format = try? container.decode(Int.self, forKey: key) {
                    members[key.stringValue] = .integer(format)
                    continue
                }
            case "$schema", "environment", "extends":
                if let text = try? container.decode(String.self, forKey: key) {
                    members[key.stringValue] = .string(text)
                    continue
                }
            default:
                break
            }
            members[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
        }
        root = .object(members)
    }
}

/// One element of `bindings`, decoded with its keys' expected types first.
struct BindingDocument: Decodable {
    let value: JSONValue

    static let stringKeys: Set<String> = ["protocol", "factory", "lifetime", "injector"]

    init(from decoder: any Decoder) throws {
        guard let container = try? decoder.container(keyedBy: AnyKey.self) else {
            value = try JSONValue(from: decoder)
            return
        }
        var members: [String: JSONValue] = [:]
        for key in container.allKeys {
            if Self.stringKeys.contains(key.stringValue), let text = try? container.decode(String.self, forKey: key) {
                members[key.stringValue] = .string(text)
            } else {
                members[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
            }
        }
        value = .object(members)
    }
}

/// A coding key for any string.
struct AnyKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
