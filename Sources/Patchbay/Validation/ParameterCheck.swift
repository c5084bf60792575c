import Foundation

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

    /// Whose parameters a message speaks of: `binding Mailer -> 'smtp-mailer'`,
    /// or, for a link of a chain, `decorator 'timing-store' in the chain of NoteStore`.
    private var owner: String {
        factory < catalog.decoratorStart ? "binding \(binding.displayKey) -> '\(binding.displayFactory)'"
            : "decorator '\(binding.displayFactory)' in the chain of \(binding.displayKey)"
    }
    let manifestFile: String
    /// The decoder the validation run shares; nil with a description, which decodes nothing.
    let decoder: JSONDecoder?
    private(set) var diagnostics: [Diagnostic] = []
    /// Suggestions among the fields of each object of a parameter type, by
    /// factory and JSON Pointer: made once per validation run, however many
    /// bindings misspell a key (the run hands them from check to check).
    var fieldSuggestions: [String: SuggestionIndex] = [:]

    /// The decoded parameters (nil when the factory takes none, or with a
    /// description); check ``diagnostics`` for problems.
    mutating func run() -> (any Sendable)? {
        guard let spec = catalog.parameters(factory) else {
            // A factory that takes no parameters is given none (or an empty object).
            if let given = binding.parameterSource?.place.members, !given.isEmpty {
                report("\(owner) gives parameters "
                    + given.map(\.key).sorted().map { "'\($0)'" }.joined(separator: ", ")
                    + ", but \(factory < catalog.decoratorStart ? "factory" : "decorator") "
                    + "'\(catalog.factories[factory].name)' takes none; remove '\(BindingKey.parameters)'", at: "")
            }
            return nil
        }
        var parameters = binding.parameterSource ?? .emptyObject
        if let fields = spec.fields {
            check(parameters.place, against: fields, at: "", in: &parameters, closed: spec.closed == true)
        }
        // A value that comes from a variable unset here is known only where the app runs;
        // one whose interpolation was refused has its problem reported already.
        guard diagnostics.isEmpty, binding.interpolation.unset.isEmpty, binding.interpolation.refused.isEmpty else {
            return nil
        }
        do {
            guard let decoder else { return nil }
            return try catalog.decodeParameters(factory, parameters.json, with: decoder)
        } catch {
            reportDecodingError(error, typeName: spec.type, value: parameters)
            return nil
        }
    }

    // MARK: - The recorded shape

    /// Reports each field of `value` (an object) that does not fit, and
    /// replaces in `parameters` each whole-value reference converted to its
    /// field's type.
    private mutating func check(
        _ value: JSONPlace, against fields: [CatalogDescription.ParameterField], at pointer: String,
        in parameters: inout BindingParameters, closed: Bool
    ) {
        guard value.kind == .object else { return }
        var present = 0
        defer { if closed { checkUnknownKeys(of: value, against: fields, present: present, at: pointer) } }
        for index in fields.indices {
            guard let member = value.child(named: fields[index].name) else {
                if fields[index].required {
                    let fieldPointer = pointer + "/" + JSONPointer.escape(fields[index].name)
                    report("\(parameter(fieldPointer)) is missing, but \(typeName) needs it (\(Self.article(fields[index].type)))",
                        at: pointer, position: value.position)
                }
                continue
            }
            present += 1
            check(member, as: fields[index], in: pointer, in: &parameters, closed: closed)
        }
    }

    /// One field's value; a whole-value reference is converted where it can be.
    private mutating func check(
        _ value: JSONPlace, as field: CatalogDescription.ParameterField, in object: String,
        in parameters: inout BindingParameters, closed: Bool
    ) {
        // Made when needed: most fields fit, and need neither a message nor a lookup by pointer.
        var pointer: String { object + "/" + JSONPointer.escape(field.name) }
        let interpolation = binding.interpolation
        if !interpolation.unset.isEmpty || !interpolation.refused.isEmpty {
            let pointer = pointer
            if interpolation.unset[pointer] != nil || interpolation.refused.contains(pointer) { return }
        }
        let bits = field.bits ?? 64, signed = field.signed ?? true
        switch (field.type, value.kind) {
        case (_, .null) where !field.required:
            return
        case (_, .null):
            break  // a field that is required, whatever its type: the mismatch below
        case ("string", .string), ("boolean", .bool), ("array", .array), ("any", _):
            return
        case ("number", .number):
            // Only an exponent or a long fraction can make a number round to 0.
            let hasExponent = value.mayHold(UInt8(ascii: "e"), UInt8(ascii: "E"))
            guard hasExponent || value.layout.nodes[value.node].bytes.count > 24 else { return }
            if JSONNumber.underflows(value.text) {
                report("\(parameter(pointer)) is \(value.text), which is too small for a 64-bit floating-point number "
                    + "(it would be read as 0); write 0, or a number of at least about 4.9e-324 (the least above 0 that one holds)", at: pointer,
                    position: value.position)
            } else if hasExponent, Double(value.text) == 0 {
                // JSONDecoder's floating-point path refuses a zero with an exponent (`0e9`): give it plain zero.
                parameters.replace(value, with: .literal("0"))
            }
            return
        case ("integer", .number):
            if JSONNumber.fits(value.text, bits: bits, signed: signed) { return }
            guard JSONNumber.isWhole(value.text), let range = JSONNumber.range(bits: bits, signed: signed) else {
                break  // a fraction: the type mismatch below
            }
            report("\(parameter(pointer)) is the number \(value.text), which is out of range: \(typeName) needs an "
                + "integer from \(range.lowest) to \(range.highest) there", at: pointer, position: value.position)
            return
        case ("object", .object):
            if let fields = field.fields { check(value, against: fields, at: pointer, in: &parameters, closed: closed) }
            return
        case ("integer", .string), ("number", .string), ("boolean", .string):
            guard !interpolation.wholeValues.isEmpty, let reference = interpolation.wholeValues[pointer],
                  let text = parameters.string(at: value) else { break }
            let converted = Self.convert(text, to: field.type)
            // An integer out of the field's range is named as such, wherever it came from.
            let range = field.type == "integer" ? JSONNumber.range(bits: bits, signed: signed) : nil
            let outOfRange = converted.map { range != nil && !JSONNumber.fits($0, bits: bits, signed: signed) } ?? false
            if let converted, !outOfRange {
                parameters.replace(value, with: .literal(converted))
                return
            }
            let wanted = outOfRange ? "a number in that range" : field.type == "boolean" ? "true or false" : "a number"
            let variable = reference.variable
            // The fix depends on who gave the text: the deployment's variable, or the manifest's own default.
            let source = reference.fromDefault
                ? "from the default written in the manifest (\(variable) is unset here)"
                : "from environment variable \(variable)"
            let fix = reference.fromDefault
                ? "write \(wanted) as the default (${\(variable):-...}), or set \(variable)"
                : "set \(variable) to \(wanted)"
            let problem = outOfRange
                ? "which is out of range: \(typeName) needs an integer from \(range!.lowest) to \(range!.highest) there"
                : "but \(typeName) needs \(Self.article(field.type)) there"
            report("\(parameter(pointer)) gets \"\(text)\" \(source), \(problem); \(fix)", at: pointer,
                position: value.position)
            return
        default:
            break
        }
        report("\(parameter(pointer)) is \(value.foundDescription(in: parameters)), but \(typeName) needs "
            + "\(Self.article(field.type)) there", at: pointer, position: value.position)
    }

    /// Rule `unknown-parameter`: a key the type does not read, which
    /// `JSONDecoder` would ignore, leaving the field it was meant for at its default.
    private mutating func checkUnknownKeys(
        of value: JSONPlace, against fields: [CatalogDescription.ParameterField], present: Int, at pointer: String
    ) {
        // Usually every key is a field: the count of fields found says so, with no key made into a string.
        guard present != value.layout.nodes[value.node].count else { return }
        let known = Set(fields.map(\.name))
        let place = "\(factory)\(pointer)"
        var listed = 0, unlisted = 0, firstUnlisted: JSONPlace?
        for member in value.members where !known.contains(member.key) {
            guard listed < UnknownKeyList.listedPerObject else {  // counted, not listed: see UnknownKeyList
                if unlisted == 0 { firstUnlisted = member }
                unlisted += 1
                continue
            }
            listed += 1
            let key = pointer + "/" + JSONPointer.escape(member.key)
            if fieldSuggestions[place] == nil { fieldSuggestions[place] = SuggestionIndex(fields.map(\.name)) }
            let suggestion = fieldSuggestions[place]?.suggestions(for: member.key, limit: 1).first
            diagnostics.append(binding.diagnostic(
                .unknownParameter, "\(parameter(key)) is not a field of \(typeName), which would ignore it"
                    + (suggestion.map { MessageText.didYouMean($0, for: member.key) }
                        ?? "; its fields are " + fields.map { "'\($0.name)'" }.joined(separator: ", ")),
                field: BindingKey.parameters.rawValue + key, position: member.keyPosition, suggestion: suggestion,
                fallbackFile: manifestFile))
        }
        if let firstUnlisted {
            let key = pointer + "/" + JSONPointer.escape(firstUnlisted.key)
            diagnostics.append(binding.diagnostic(
                .unknownParameter, "\(owner): "
                    + UnknownKeyList.rest(unlisted, what: "parameter", fix: "\(typeName) reads only "
                        + fields.prefix(20).map { "'\($0.name)'" }.joined(separator: ", ")
                        + (fields.count > 20 ? " and \(fields.count - 20) more" : "")),
                field: BindingKey.parameters.rawValue + key, position: firstUnlisted.keyPosition,
                fallbackFile: manifestFile))
        }
    }

    /// The text of a whole-value reference as the JSON text of the value a field of `type` takes.
    static func convert(_ text: String, to type: String) -> String? {
        switch type {
        // Digits of any length: a value beyond 64 bits is then refused as out of range, not as no number.
        case "integer": Int64(text).map { String($0) } ?? UInt64(text).map { String($0) } ?? (isDigits(text) ? text : nil)
            ?? (isJSONNumber(text) && JSONNumber.isWhole(text) ? text : nil)  // `5.87e2`, as the literal is read
        case "number": Int64(text).map { String($0) } ?? Double(text).flatMap { $0.isFinite ? "\($0)" : nil }
        case "boolean": text == "true" || text == "false" ? text : nil
        default: nil
        }
    }

    /// Whether `text` is one JSON number, by the scanner's grammar: a variable's text is then read as the
    /// same number written in the manifest would be.
    private static func isJSONNumber(_ text: String) -> Bool {
        guard !text.contains(where: \.isWhitespace) else { return false }  // JSON's whitespace around it: not a number
        let document = JSONScanner.scan(Data(text.utf8), maxBytes: 64)
        return document.root?.kind == .number && !document.isUnusable
    }

    /// Whether `text` is an optional `-` and one or more ASCII digits.
    private static func isDigits(_ text: String) -> Bool {
        let digits = text.utf8.first == UInt8(ascii: "-") ? text.utf8.dropFirst() : text.utf8[...]
        return !digits.isEmpty && digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }


    // MARK: - The real type

    /// A decoding failure, at the place the decoder names, in Patchbay's words.
    private mutating func reportDecodingError(_ error: any Error, typeName: String, value: BindingParameters) {
        guard let error = error as? DecodingError, let keys = error.codingPathKeys else {
            report("the parameters of \(owner) are not accepted by "
                + "\(typeName): \(error)", at: "")
            return
        }
        let pointer = keys.map { "/" + JSONPointer.escape($0) }.joined()
        // The value the path leads to (for a missing key, the object that lacks it) knows its position.
        let found = value.place.value(atPath: keys)
        switch error {
        case .keyNotFound(let key, _):
            let missing = pointer + "/" + JSONPointer.escape(key.intValue.map(String.init) ?? key.stringValue)
            report("\(parameter(missing)) is missing, but \(typeName) needs it", at: pointer, position: found?.position)
        case .typeMismatch(let expected, _), .valueNotFound(let expected, _):
            report("\(parameter(pointer)) is \(found?.foundDescription(in: value) ?? "missing"), but \(typeName) needs "
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
        "parameter '\(MessageText.name(Self.name(pointer)))' of \(owner)"
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

extension JSONPlace {
    /// What a manifest gave, for messages: `the string "587x"`, `the number 2.5`, `true`, `an array`;
    /// a string as interpolated in `parameters`, a number, `true`, `false` and `null` as written.
    func foundDescription(in parameters: BindingParameters) -> String {
        func cut(_ text: String) -> String { text.count > 40 ? text.prefix(40) + "..." : text }
        switch kind {
        case .string: return "the string \"" + cut(parameters.string(at: self) ?? "") + "\""
        case .number: return "the number " + cut(text)
        case .null, .bool: return text
        case .array, .object: return kindDescription
        }
    }
}
