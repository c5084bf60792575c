import Foundation

/// A manifest's values as `JSONDecoder` decodes them, in one pass over the
/// file, before the parser checks their shape against the scanner's map.
///
/// Lenient on purpose: a value of the wrong type decodes as `.some(nil)`
/// rather than failing the document, so every such problem is reported, each
/// at its place, instead of the first alone. `parameters` is not decoded
/// here: its text is decoded into the factory's parameter type, later.
struct ManifestDocument: Decodable {
    /// Each field: absent (`nil`), present but of another type (`.some(nil)`), or its value.
    var format: Int??
    var environment, extends: String??
    var bindings: [BindingDocument]??

    init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: ManifestKey.self)
        format = object.lenient(Int.self, .format)
        environment = object.lenient(String.self, .environment)
        extends = object.lenient(String.self, .extends)
        bindings = object.lenient([BindingDocument].self, .bindings)
    }
}

/// One binding's values as `JSONDecoder` decodes them (see ``ManifestDocument``);
/// every field absent when the binding is not an object, which the parser reports.
struct BindingDocument: Decodable {
    var protocolName, collection, factory, lifetime, injector: String??
    /// Whether `parameters` is present, of whatever type.
    var hasParameters = false

    init(from decoder: any Decoder) {
        guard let object = try? decoder.container(keyedBy: BindingKey.self) else { return }
        protocolName = object.lenient(String.self, .protocol)
        collection = object.lenient(String.self, .collection)
        factory = object.lenient(String.self, .factory)
        lifetime = object.lenient(String.self, .lifetime)
        injector = object.lenient(String.self, .injector)
        hasParameters = object.contains(.parameters)
    }

    /// How many of the binding's keys the format defines: with the object's
    /// member count, whether it has a key that it does not.
    var knownKeyCount: Int {
        [protocolName, collection, factory, lifetime, injector].count { $0 != nil } + (hasParameters ? 1 : 0)
    }
}

extension KeyedDecodingContainer {
    /// The value of `key`: nil when absent, `.some(nil)` when present but not
    /// a `T` (`null` included). One lookup when present, as is usual.
    func lenient<T: Decodable>(_ type: T.Type, _ key: Key) -> T?? {
        do {
            if let value = try decodeIfPresent(type, forKey: key) { return value }
        } catch {
            return .some(nil)
        }
        return contains(key) ? .some(nil) : nil
    }
}

extension ManifestKey: CodingKey {}
extension BindingKey: CodingKey {}
