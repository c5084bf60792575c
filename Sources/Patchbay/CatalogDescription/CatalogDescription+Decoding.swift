import Foundation

// How a catalog description decodes. `JSONDecoder` stops at the first value
// that does not fit and says so in its own words; a description can come
// from anyone (a pull request, a merge gone wrong), and `patchbay check`
// must name every problem of it at once, at its place, in Patchbay's words.
//
// So each type of the description reads its members through the few helpers
// below. When a validation run listens (a ``ShapeProblems`` in the decoder's
// `userInfo`, see ``CatalogDescriptionValidator``), a member that is missing
// or does not fit is noted with its coding path and what was found there, a
// placeholder takes its place, and decoding goes on: one pass of
// `JSONDecoder` finds every problem of shape. With a plain `JSONDecoder`
// (no listener), the first problem throws, as synthesized decoding would.
//
// Each member is read by its name (``PlainKey``), which is the name of its
// stored property: the name synthesized encoding writes it under.

extension CodingUserInfoKey {
    /// Where a validation run listens for the problems of shape that decoding a description meets.
    static let catalogShapeProblems = CodingUserInfoKey(rawValue: "Patchbay.CatalogShapeProblems")!
}

/// The problems of shape met while decoding one catalog description.
final class ShapeProblems: Sendable {
    /// What did not fit.
    enum Kind: Sendable, Hashable {
        /// A required key is absent.
        case missing(key: String)
        /// A value of another JSON type (or `null`, or a number that is not an integer).
        case mismatch(expected: String, found: String)
        /// A string that is not one of the values the format names.
        case notOneOf(choices: [String], found: String)
    }

    /// One problem, at the JSON Pointer segments of the value it is about
    /// (for a missing key, of the object that lacks it).
    struct Problem: Sendable, Hashable {
        var path: [String]
        var kind: Kind
    }

    private let noted = Locked<[Problem]>([])

    /// Every problem, in the order decoding met them (document order).
    var all: [Problem] { noted.withLock { $0 } }

    func note(_ kind: Kind, at path: [any CodingKey]) {
        // An array element's index, else the key: the pointer's segments.
        let problem = Problem(path: path.map { $0.intValue.map(String.init) ?? $0.stringValue }, kind: kind)
        noted.withLock { $0.append(problem) }
    }
}

extension Decoder {
    /// An object's members, and the validation run that listens for their problems, if one does.
    func checkedMembers() throws -> (KeyedDecodingContainer<PlainKey>, ShapeProblems?) {
        (try container(keyedBy: PlainKey.self), userInfo[.catalogShapeProblems] as? ShapeProblems)
    }
}

/// A coding key made from its text or an array index: a description's member,
/// named as its stored property is (the name synthesized encoding writes it
/// under), and the keys the parameter probe makes itself (`super`, an index).
struct PlainKey: CodingKey, ExpressibleByStringLiteral {
    let stringValue: String
    let intValue: Int?
    init(stringValue: String) { (self.stringValue, intValue) = (stringValue, nil) }
    init(stringLiteral name: String) { self.init(stringValue: name) }
    init(intValue: Int) { (stringValue, self.intValue) = ("\(intValue)", intValue) }
}

/// A value that notes, rather than throws, that it does not fit: decoding
/// goes on past it, and ``value`` is nil.
struct Checked<Value: Decodable>: Decodable {
    var value: Value?  // nil, unless it decodes

    init(from decoder: any Decoder) throws {
        do {
            value = try Value(from: decoder)
        } catch {
            // No listener: a plain `JSONDecoder`.
            guard let problems = decoder.userInfo[.catalogShapeProblems] as? ShapeProblems else { throw error }
            // The value's own place: every member below it is itself checked,
            // so what failed here is this value's JSON type.
            problems.note(.mismatch(expected: Self.expected, found: FoundValue.words(decoder)), at: decoder.codingPath)
        }
    }

    /// The JSON type `Value` is read from: the description's own types are objects.
    private static var expected: String {
        if Value.self == String.self { return "a string" }
        if Value.self == Bool.self { return "a boolean" }
        if Value.self is any BinaryInteger.Type { return "an integer" }
        return Value.self is any Collection.Type ? "an array" : "an object"
    }
}

/// How a value that did not fit is named in messages. A long string is cut: a message quotes, it does not copy.
enum FoundValue {
    /// `null`, `the number 1.5`, `the string "2"`, `an array`.
    static func words(_ decoder: any Decoder) -> String {
        if let single = try? decoder.singleValueContainer() {
            if single.decodeNil() { return "null" }
            if let flag = try? single.decode(Bool.self) { return "the boolean \(flag)" }
            if let text = try? single.decode(String.self) { return "the string " + quoted(text) }
            if let number = try? single.decode(Int.self) { return "the number \(number)" }
            if let number = try? single.decode(Double.self) { return "the number \(number)" }
        }
        return (try? decoder.unkeyedContainer()) != nil ? "an array" : "an object"
    }

    /// The longest text quoted in a message, in characters.
    static let longestQuoted = 64

    /// `"text"` (or `'text'` with that `mark`), cut after ``longestQuoted`` characters with the full length said.
    static func quoted(_ text: String, mark: String = "\"") -> String {
        guard text.count > longestQuoted else { return mark + text + mark }
        return mark + text.prefix(longestQuoted) + "..." + mark + " (\(text.utf8.count) bytes)"
    }
}

extension KeyedDecodingContainer {
    /// A required member; with a listener, `placeholder` after noting that it is missing or does not fit.
    /// (With no listener, ``Checked`` throws what decoding `T` throws, as `decode` would.)
    func required<T: Decodable>(_ key: Key, or placeholder: T, _ problems: ShapeProblems?) throws -> T {
        guard contains(key) || problems == nil else {
            problems?.note(.missing(key: key.stringValue), at: codingPath)
            return placeholder
        }
        return try decode(Checked<T>.self, forKey: key).value ?? placeholder
    }

    /// An optional member (absent or `null` is nil); with a listener, nil after noting that it does not fit
    /// (``Checked`` notes it, in the listener it finds in the decoder).
    func optional<T: Decodable>(_ key: Key) throws -> T? {
        try decodeIfPresent(Checked<T>.self, forKey: key)?.value
    }

    /// A required array whose elements are each checked: one bad element is
    /// noted at its own index, and `placeholder` keeps the others at theirs.
    func requiredList<T: Decodable>(_ key: Key, each placeholder: T, _ problems: ShapeProblems?) throws -> [T] {
        // With no listener, the first element that does not fit throws, from `Checked`.
        try required(key, or: [Checked<T>](), problems).map { $0.value ?? placeholder }
    }

    /// An optional array whose elements are each checked (see ``requiredList(_:each:_:)``).
    func optionalList<T: Decodable>(_ key: Key, each placeholder: T) throws -> [T]? {
        try optional(key).map { (list: [Checked<T>]) in list.map { $0.value ?? placeholder } }
    }

    /// An optional member that names one of `T`'s cases; with a listener, nil
    /// after noting a string that names none (the validator says which rule).
    func optionalChoice<T>(_ key: Key, _ problems: ShapeProblems?) throws -> T?
    where T: RawRepresentable & CaseIterable & Decodable, T.RawValue == String {
        guard let problems else { return try decodeIfPresent(T.self, forKey: key) }
        guard let text: String = try optional(key) else { return nil }
        guard let value = T(rawValue: text) else {
            problems.note(.notOneOf(choices: T.allCases.map(\.rawValue), found: text),
                at: codingPath + [key])
            return nil
        }
        return value
    }

    /// A required member that names one of `T`'s cases (see ``optionalChoice(_:_:)``); missing, or read
    /// with no listener, it is any required member.
    func requiredChoice<T>(_ key: Key, or placeholder: T, _ problems: ShapeProblems?) throws -> T
    where T: RawRepresentable & CaseIterable & Decodable, T.RawValue == String {
        guard let problems, contains(key) else { return try required(key, or: placeholder, problems) }
        return try optionalChoice(key, problems) ?? placeholder
    }
}

extension CatalogDescription {
    /// Reads a description, each member checked (see the top of this file).
    public init(from decoder: any Decoder) throws {
        let (object, problems) = try decoder.checkedMembers()
        version = try object.required("version", or: 0, problems)
        types = try object.requiredList("types", each: TypeName(qualified: "", name: ""), problems)
        factories = try object.requiredList("factories", each: .placeholder, problems)
        decorators = try object.optionalList("decorators", each: .placeholder)
        parameterDecoding = try object.optional("parameterDecoding")
        entryPoints = try object.optionalList("entryPoints", each: EntryPointDescription(type: ""))
        sources = try object.optional("sources")
    }
}

extension CatalogDescription.Sources {
    /// Reads the sources' record, each member checked.
    package init(from decoder: any Decoder) throws {
        let (object, problems) = try decoder.checkedMembers()
        folders = try object.requiredList("folders", each: "", problems)
        fingerprint = try object.required("fingerprint", or: "", problems)
    }
}

extension CatalogDescription.TypeName {
    /// Reads a type's names, each checked.
    package init(from decoder: any Decoder) throws {
        let (object, problems) = try decoder.checkedMembers()
        qualified = try object.required("qualified", or: "", problems)
        name = try object.required("name", or: "", problems)
    }
}

extension CatalogDescription.EntryPointDescription {
    /// Reads an entry point, each member checked.
    package init(from decoder: any Decoder) throws {
        let (object, problems) = try decoder.checkedMembers()
        type = try object.required("type", or: "", problems)
        injector = try object.optional("injector")
        optional = try object.optional("optional")
        declaredAt = try object.optional("declaredAt")
    }
}

extension CatalogDescription.Factory {
    /// What stands in for a factory that is not an object, so the next keeps its index.
    static let placeholder = Self(name: "", provides: [], needs: nil, productType: "", productIsClass: false)

    /// Reads a factory, each member checked.
    package init(from decoder: any Decoder) throws {
        let (object, problems) = try decoder.checkedMembers()
        name = try object.required("name", or: "", problems)
        provides = try object.requiredList("provides", each: "", problems)
        needs = try object.optionalList("needs", each: CatalogDescription.Need(type: ""))
        defaultLifetime = try object.optionalChoice("defaultLifetime", problems)
        productType = try object.required("productType", or: "", problems)
        productIsClass = try object.optional("productIsClass")
        parameters = try object.optional("parameters")
        argument = try object.optional("argument")
        registeredAt = try object.optional("registeredAt")
        execution = try object.optionalChoice("execution", problems)
        environments = try object.optionalList("environments", each: "")
        exceptEnvironments = try object.optionalList("exceptEnvironments", each: "")
    }
}

extension CatalogDescription.Need {
    /// Reads a need, each member checked. Its kind is a string here, checked by the validator.
    package init(from decoder: any Decoder) throws {
        let (object, problems) = try decoder.checkedMembers()
        type = try object.required("type", or: "", problems)
        kind = try object.required("kind", or: "direct", problems)
    }
}

extension CatalogDescription.Parameters {
    /// Reads a parameter type, each member checked.
    package init(from decoder: any Decoder) throws {
        let (object, problems) = try decoder.checkedMembers()
        type = try object.required("type", or: "", problems)
        fields = try object.optionalList("fields", each: .placeholder)
        closed = try object.optional("closed")
    }
}

extension CatalogDescription.ParameterField {
    /// What stands in for a field that is not an object.
    static let placeholder = Self(name: "", type: "any", required: false)

    /// Reads a field, each member checked; nested fields the same way (the
    /// scanner's depth limit bounds the nesting before this runs).
    package init(from decoder: any Decoder) throws {
        let (object, problems) = try decoder.checkedMembers()
        name = try object.required("name", or: "", problems)
        type = try object.required("type", or: "any", problems)
        required = try object.required("required", or: false, problems)
        fields = try object.optionalList("fields", each: .placeholder)
        bits = try object.optional("bits")
        signed = try object.optional("signed")
    }
}

extension ParameterDecoding {
    /// Reads the strategies; a strategy this build does not know is noted,
    /// under a validation run, rather than told in the decoder's words.
    public init(from decoder: any Decoder) throws {
        let (object, problems) = try decoder.checkedMembers()
        dates = try object.requiredChoice("dates", or: .deferredToDate, problems)
        data = try object.requiredChoice("data", or: .base64, problems)
    }
}
