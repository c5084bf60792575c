import Foundation

/// A manifest's values as `JSONDecoder` decodes them, in one pass over the
/// file, before the parser checks their shape against the scanner's map.
///
/// Lenient on purpose: a value of the wrong type decodes as `nil` rather
/// than failing the document, so every such problem is reported, each at its
/// place, instead of the first alone. Whether a key is present at all, and
/// what a wrong value is, the parser reads from the scanner's map.
/// `parameters` is not decoded here: its text is decoded into the factory's
/// parameter type, later.
struct ManifestDocument: Decodable {
    /// Each field's value; nil when absent, `null` or of another type. Not the
    /// `format`, which is checked as a number before it is decoded from its place.
    var environment, extends: String?
    var bindings: [BindingDocument]?

    init(environment: String?, extends: String?, bindings: [BindingDocument]?) {
        (self.environment, self.extends, self.bindings) = (environment, extends, bindings)
    }

    init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: ManifestKey.self)
        environment = try? object.decodeIfPresent(String.self, forKey: .environment)
        extends = try? object.decodeIfPresent(String.self, forKey: .extends)
        bindings = try? object.decodeIfPresent([BindingDocument].self, forKey: .bindings)
    }
}

/// One binding's values as `JSONDecoder` decodes them (see ``ManifestDocument``).
/// Each field is nil when absent, `null` or of another type, and every field
/// is nil when the binding is not an object, which the parser reports;
/// ``isDecoded`` is false when the document was not decoded (the empty
/// document, ``notDecoded``). One lookup per field, as a plain `Decodable`
/// struct makes; `collection`, which few bindings have, is decoded from its
/// place when present, since asking for an absent key costs as much as for a
/// present one. Plain optionals and a flag, not double optionals: the parser
/// reads every binding's fields, and a `String??` was copied through the
/// runtime's generic witnesses, a copy each several times a retain.
struct BindingDocument: Decodable {
    private(set) var isDecoded = true
    var protocolName, factory, lifetime, injector: String?

    /// Nothing decoded: the parser reads each value from its place.
    static let notDecoded = BindingDocument(isDecoded: false)

    private init(isDecoded: Bool) { self.isDecoded = isDecoded }

    init(from decoder: any Decoder) {
        guard let object = try? decoder.container(keyedBy: BindingKey.self) else { return }
        protocolName = try? object.decodeIfPresent(String.self, forKey: .protocol)
        factory = try? object.decodeIfPresent(String.self, forKey: .factory)
        lifetime = try? object.decodeIfPresent(String.self, forKey: .lifetime)
        injector = try? object.decodeIfPresent(String.self, forKey: .injector)
    }

    /// A field as the parser's checks take it: nil outside when the document was not decoded, nil
    /// inside when the field is absent, `null` or of another type.
    func read(_ field: KeyPath<BindingDocument, String?>) -> String?? { isDecoded ? .some(self[keyPath: field]) : nil }
}

extension ManifestKey: CodingKey {}
extension BindingKey: CodingKey {}
