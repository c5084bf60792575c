/// Rule `invalid-parameters`: a binding's `parameters` against its factory's
/// parameter type, every bad field listed at its own line and column.
///
/// Two steps, in this order, with a live catalog and with a description:
///
/// 1. **The recorded shape.** Each field the catalog records (a dry run of the
///    type's `init(from:)` found them, see ``ParameterShapeProbe``) is checked:
///    required keys present, JSON types, nested objects, `null` only where the
///    field is optional. A value that was exactly one `${NAME}` reference is
///    converted here to the number or boolean the field takes (`"587"` → 587).
/// 2. **The real type** (live catalog only): the converted value is decoded
///    into the factory's parameter type, which may still reject it for its
///    own reasons (a range, a date format). That is the one thing only the
///    app can check; it is reported at the place the decoder names.
///
/// Step 2 runs only when step 1 found nothing, so the two sources report
/// the same problems at the same places wherever the shape is the cause.
struct ParameterCheck {
    let binding: Binding
    let factory: Int
    let catalog: CatalogIndex
    let manifestFile: String
    private(set) var diagnostics: [Diagnostic] = []

    init(binding: Binding, factory: Int, catalog: CatalogIndex, manifestFile: String) {
        self.binding = binding
        self.factory = factory
        self.catalog = catalog
        self.manifestFile = manifestFile
    }

    /// The decoded parameters (nil when the factory takes none, or with a
    /// description); check ``diagnostics`` for problems.
    mutating func run() -> (any Sendable)? {
        guard let spec = catalog.parameters(factory) else {
            checkNoneGiven()
            return nil
        }
        var value = binding.parameters ?? .object([:])
        if let fields = spec.fields { value = checked(value, against: fields, at: "") }
        // A value that comes from a variable unset here is known only where the app runs.
        guard diagnostics.isEmpty, binding.interpolation.unset.isEmpty else { return nil }
        do {
            return try catalog.decodeParameters(factory, value)
        } catch {
            reportDecodingError(error, typeName: spec.type, value: value)
            return nil
        }
    }

    /// A factory that takes no parameters is given none (or an empty object).
    private mutating func checkNoneGiven() {
        guard let given = binding.parameters?.objectValue, !given.isEmpty else { return }
        report("binding \(binding.displayKey) -> '\(binding.factory)' gives parameters "
            + given.keys.sorted().map { "'\($0)'" }.joined(separator: ", ")
            + ", but factory '\(catalog.factories[factory].name)' takes none; remove 'parameters'", at: "")
    }

    // MARK: - The recorded shape

    /// `value` (an object) with every whole-value reference converted to its field's type, after
    /// reporting each field that does not fit.
    private mutating func checked(
        _ value: JSONValue, against fields: [CatalogDescription.ParameterField], at pointer: String
    ) -> JSONValue {
        guard case .object(var members) = value else { return value }
        for field in fields {
            let fieldPointer = pointer + "/" + JSONPointer.escape(field.name)
            guard let member = members[field.name] else {
                if field.required {
                    report("\(parameter(fieldPointer)) is missing, but \(typeName) needs it (\(Self.article(field.type)))",
                        at: pointer)
                }
                continue
            }
            members[field.name] = checked(member, as: field, at: fieldPointer)
        }
        return .object(members)
    }

    /// One field's value, converted where it is a whole-value reference.
    private mutating func checked(
        _ value: JSONValue, as field: CatalogDescription.ParameterField, at pointer: String
    ) -> JSONValue {
        if binding.interpolation.unset[pointer] != nil { return value }
        if case .null = value {
            if field.required { reportMismatch(field, found: value, at: pointer) }
            return value
        }
        switch (field.type, value) {
        case ("string", .string), ("boolean", .bool), ("integer", .integer), ("number", .integer),
            ("number", .number), ("array", .array), ("any", _):
            return value
        case ("integer", .number(let number)) where Self.isWhole(number):
            return value
        case ("object", .object):
            return field.fields.map { checked(value, against: $0, at: pointer) } ?? value
        case ("integer", .string(let text)), ("number", .string(let text)), ("boolean", .string(let text)):
            guard let variable = binding.interpolation.wholeValues[pointer] else { break }
            if let converted = Self.convert(text, to: field.type) { return converted }
            report("\(parameter(pointer)) gets \"\(text)\" from environment variable \(variable), but \(typeName) "
                + "needs \(Self.article(field.type)) there; set \(variable) to "
                + (field.type == "boolean" ? "true or false" : "a number"), at: pointer)
            return value
        default:
            break
        }
        reportMismatch(field, found: value, at: pointer)
        return value
    }

    private mutating func reportMismatch(_ field: CatalogDescription.ParameterField, found value: JSONValue, at pointer: String) {
        report("\(parameter(pointer)) is \(value.foundDescription), but \(typeName) needs \(Self.article(field.type)) there",
            at: pointer)
    }

    /// The text of a whole-value reference as the JSON value a field of `type` takes.
    static func convert(_ text: String, to type: String) -> JSONValue? {
        switch type {
        case "integer": Int(text).map(JSONValue.integer)
        case "number": Int(text).map(JSONValue.integer) ?? Double(text).flatMap { $0.isFinite ? .number($0) : nil }
        case "boolean": text == "true" ? .bool(true) : text == "false" ? .bool(false) : nil
        default: nil
        }
    }

    private static func isWhole(_ number: Double) -> Bool {
        number == number.rounded() && abs(number) < 9.2e18
    }

    // MARK: - The real type

    /// A decoding failure, at the place the decoder names, in Patchbay's words.
    private mutating func reportDecodingError(_ error: any Error, typeName: String, value: JSONValue) {
        guard let error = error as? DecodingError, let keys = error.codingPathKeys else {
            report("the parameters of binding \(binding.displayKey) -> '\(binding.factory)' are not accepted by "
                + "\(typeName): \(error)", at: "")
            return
        }
        let pointer = keys.map { "/" + JSONPointer.escape($0) }.joined()
        switch error {
        case .keyNotFound(let key, _):
            let missing = pointer + "/" + JSONPointer.escape(key.intValue.map(String.init) ?? key.stringValue)
            report("\(parameter(missing)) is missing, but \(typeName) needs it", at: pointer)
        case .typeMismatch(let expected, _), .valueNotFound(let expected, _):
            let found = value.value(at: keys)?.foundDescription ?? "missing"
            report("\(parameter(pointer)) is \(found), but \(typeName) needs \(JSONValue.article(swiftType: expected)) there",
                at: pointer)
        case .dataCorrupted(let context):
            report("\(parameter(pointer)) is not accepted by \(typeName): \(context.debugDescription)", at: pointer)
        @unknown default:
            report("\(parameter(pointer)) is not accepted by \(typeName)", at: pointer)
        }
    }

    // MARK: - Words

    /// A JSON Pointer under `parameters` as a field's name: `server/port`.
    static func name(_ pointer: String) -> String {
        pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            .map { $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~") }
            .joined(separator: "/")
    }

    /// "an integer", "a string": a recorded JSON type with its article.
    static func article(_ type: String) -> String {
        switch type {
        case "integer": "an integer"
        case "object": "an object"
        case "array": "an array"
        case "any": "any value"
        default: "a \(type)"
        }
    }

    /// "parameter 'port' of binding Mailer -> 'smtp-mailer'": the start of every message.
    private func parameter(_ pointer: String) -> String {
        "parameter '\(Self.name(pointer))' of binding \(binding.displayKey) -> '\(binding.factory)'"
    }

    /// The factory's parameter type, for messages.
    private var typeName: String { catalog.parameters(factory)?.type ?? "its parameter type" }

    private mutating func report(_ message: String, at pointer: String) {
        diagnostics.append(binding.diagnostic(
            .invalidParameters, message, field: BindingKey.parameters.rawValue + pointer, fallbackFile: manifestFile))
    }
}

extension JSONValue {
    /// The value at a path of object keys and array indexes, if there is one.
    func value(at keys: [String]) -> JSONValue? {
        var current = self
        for key in keys {
            switch current {
            case .object(let members): guard let next = members[key] else { return nil }; current = next
            case .array(let elements): guard let index = Int(key), elements.indices.contains(index) else { return nil }
                current = elements[index]
            default: return nil
            }
        }
        return current
    }
}

extension JSONValue {
    /// What a manifest gave, for messages: `the string "587x"`, `the number 2.5`, `true`, `an array`.
    var foundDescription: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .integer(let value): "the number \(value)"
        case .number(let value): "the number \(value)"
        case .string(let text): "the string \"" + (text.count > 40 ? text.prefix(40) + "..." : text) + "\""
        case .array: "an array"
        case .object: "an object"
        }
    }
}
