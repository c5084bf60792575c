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
    var bindings: [Lenient<BindingDocument>]??

    init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: ManifestKey.self)
        format = object.contains(.format) ? (try? object.decode(Int.self, forKey: .format)) : nil
        environment = object.contains(.environment) ? (try? object.decode(String.self, forKey: .environment)) : nil
        extends = object.contains(.extends) ? (try? object.decode(String.self, forKey: .extends)) : nil
        bindings = object.contains(.bindings) ? (try? object.decode([Lenient<BindingDocument>].self, forKey: .bindings)) : nil
    }
}

/// One binding's values as `JSONDecoder` decodes them (see ``ManifestDocument``).
struct BindingDocument: Decodable {
    var protocolName, collection, factory, lifetime, injector: String??

    init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: BindingKey.self)
        func string(_ key: BindingKey) -> String?? {
            object.contains(key) ? (try? object.decode(String.self, forKey: key)) : nil
        }
        protocolName = string(.protocol)
        collection = string(.collection)
        factory = string(.factory)
        lifetime = string(.lifetime)
        injector = string(.injector)
    }
}

/// A value decoded when it is a `T`, and `nil` when it is not, without
/// failing the container it is in.
struct Lenient<T: Decodable>: Decodable {
    let value: T?

    init(from decoder: any Decoder) {
        value = try? T(from: decoder)
    }
}

extension ManifestKey: CodingKey {}
extension BindingKey: CodingKey {}
