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
        var value = binding.positionedParameters ?? .emptyObject
        if let fields = spec.fields {
            var conversions: [Int: JSONNodes.Payload] = [:]
            check(value, against: fields, at: "", converting: &conversions)
            if !conversions.isEmpty { value = PositionedJSON(value.nodes.subtree(value.node, changing: conversions)) }
        }
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
        guard let given = binding.positionedParameters?.members, !given.isEmpty else { return }
        report("binding \(binding.displayKey) -> '\(binding.factory)' gives parameters "
            + given.keys.sorted().map { "'\($0)'" }.joined(separator: ", ")
            + ", but factory '\(catalog.factories[factory].name)' takes none; remove '\(BindingKey.parameters)'", at: "")
    }

    // MARK: - The recorded shape

    /// Reports each field of `value` (an object) that does not fit, and notes
    /// in `conversions`, by node, each whole-value reference converted to its
    /// field's type.
    private mutating func check(
        _ value: PositionedJSON, against fields: [CatalogDescription.ParameterField], at pointer: String,
        converting conversions: inout [Int: JSONNodes.Payload]
    ) {
        guard let members = value.members else { return }
        for field in fields {
            let fieldPointer = pointer + "/" + JSONPointer.escape(field.name)
            guard let member = members[field.name] else {
                if field.required {
                    report("\(parameter(fieldPointer)) is missing, but \(typeName) needs it (\(Self.article(field.type)))",
                        at: pointer, position: value.position)
                }
                continue
            }
            check(member, as: field, at: fieldPointer, converting: &conversions)
        }
    }

    /// One field's value; a whole-value reference is converted where it can be.
    private mutating func check(
        _ value: PositionedJSON, as field: CatalogDescription.ParameterField, at pointer: String,
        converting conversions: inout [Int: JSONNodes.Payload]
    ) {
        if binding.interpolation.unset[pointer] != nil { return }
        if value.isNull {
            if field.required { reportMismatch(field, found: value, at: pointer) }
            return
        }
        switch (field.type, value.content) {
        case ("string", .string), ("boolean", .bool), ("number", .number), ("array", .array), ("any", _):
            return
        case ("integer", .number(let number)) where Self.isWhole(number):
            return
        case ("object", .object):
            if let fields = field.fields { check(value, against: fields, at: pointer, converting: &conversions) }
            return
        case ("integer", .string(let text)), ("number", .string(let text)), ("boolean", .string(let text)):
            guard let variable = binding.interpolation.wholeValues[pointer] else { break }
            if let converted = Self.convert(text, to: field.type) {
                conversions[value.node] = converted
                return
            }
            report("\(parameter(pointer)) gets \"\(text)\" from environment variable \(variable), but \(typeName) "
                + "needs \(Self.article(field.type)) there; set \(variable) to "
                + (field.type == "boolean" ? "true or false" : "a number"), at: pointer, position: value.position)
            return
        default:
            break
        }
        reportMismatch(field, found: value, at: pointer)
    }

    private mutating func reportMismatch(
        _ field: CatalogDescription.ParameterField, found value: PositionedJSON, at pointer: String
    ) {
        report("\(parameter(pointer)) is \(value.foundDescription), but \(typeName) needs \(Self.article(field.type)) "
            + "there", at: pointer, position: value.position)
    }

    /// The text of a whole-value reference as the JSON value a field of `type` takes.
    static func convert(_ text: String, to type: String) -> JSONNodes.Payload? {
        switch type {
        case "integer": Int(text).map { .number(JSONNumber($0)) }
        case "number":
            Int(text).map { .number(JSONNumber($0)) }
                ?? Double(text).flatMap { $0.isFinite ? .number(JSONNumber($0)) : nil }
        case "boolean": text == "true" ? .bool(true) : text == "false" ? .bool(false) : nil
        default: nil
        }
    }

    /// Whether a number is one an integer field takes: whole and within
    /// `Int`'s range, by the rule the decoder itself applies, so a catalog
    /// description's check and the app's decoding agree. (Read as a `Double`,
    /// `9999555555600001.5` would look whole.)
    private static func isWhole(_ number: JSONNumber) -> Bool {
        number.integer(as: Int.self) != nil
    }

    // MARK: - The real type

    /// A decoding failure, at the place the decoder names, in Patchbay's words.
    private mutating func reportDecodingError(_ error: any Error, typeName: String, value: PositionedJSON) {
        guard let error = error as? DecodingError, let keys = error.codingPathKeys else {
            report("the parameters of binding \(binding.displayKey) -> '\(binding.factory)' are not accepted by "
                + "\(typeName): \(error)", at: "")
            return
        }
        let pointer = keys.map { "/" + JSONPointer.escape($0) }.joined()
        // The value the path leads to (for a missing key, the object that lacks it) knows its position.
        let found = value.value(atPath: keys)
        switch error {
        case .keyNotFound(let key, _):
            let missing = pointer + "/" + JSONPointer.escape(key.intValue.map(String.init) ?? key.stringValue)
            report("\(parameter(missing)) is missing, but \(typeName) needs it", at: pointer, position: found?.position)
        case .typeMismatch(let expected, _), .valueNotFound(let expected, _):
            report("\(parameter(pointer)) is \(found?.foundDescription ?? "missing"), but \(typeName) needs "
                + "\(JSONValue.article(swiftType: expected)) there", at: pointer, position: found?.position)
        case .dataCorrupted(let context):
            report("\(parameter(pointer)) is not accepted by \(typeName): \(context.debugDescription)", at: pointer,
                position: found?.position)
        @unknown default:
            report("\(parameter(pointer)) is not accepted by \(typeName)", at: pointer, position: found?.position)
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

    /// Reports at `position`, or where `pointer` (under `parameters`) leads in the binding as read.
    private mutating func report(_ message: String, at pointer: String, position: SourcePosition? = nil) {
        diagnostics.append(binding.diagnostic(
            .invalidParameters, message, field: BindingKey.parameters.rawValue + pointer, position: position,
            fallbackFile: manifestFile))
    }
}

extension PositionedJSON {
    /// What a manifest gave, for messages: `the string "587x"`, `the number 2.5`, `true`, `an array`.
    var foundDescription: String {
        switch content {
        case .array: "an array"
        case .object: "an object"
        default: jsonValue.foundDescription
        }
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
