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

    enum CodingKeys: String, CodingKey {
        case schema = "$schema", format, environment, extends, injectors, bindings
    }

    struct TypedBinding: Decodable {
        let `protocol`: String?
        let factory: String?
        let lifetime: String?
        let injector: String?
        let parameters: [String: JSONValue]?

        var value: JSONValue {
            var members: [String: JSONValue] = [:]
            if let `protocol` { members["protocol"] = .string(`protocol`) }
            if let factory { members["factory"] = .string(factory) }
            if let lifetime { members["lifetime"] = .string(lifetime) }
            if let injector { members["injector"] = .string(injector) }
            if let parameters { members["parameters"] = .object(parameters) }
            return .object(members)
        }
    }

    /// The document as the general path would have decoded it, less unknown keys.
    var root: JSONValue {
        var members: [String: JSONValue] = [:]
        if let schema { members["$schema"] = .string(schema) }
        if let format { members["format"] = .integer(format) }
        if let environment { members["environment"] = .string(environment) }
        if let extends { members["extends"] = .string(extends) }
        if let injectors { members["injectors"] = .array(injectors.map(JSONValue.string)) }
        if let bindings { members["bindings"] = .array(bindings.map(\.value)) }
        return .object(members)
    }
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
