import Foundation

/// A JSON Schema (draft 2020-12) for manifests, as `patchbay schema` prints it,
/// so editors validate and autocomplete manifests as they are typed: what
/// PatchbayTools' public `ManifestSchema` returns, here so that
/// ``FactoryCatalog/refreshDescription(at:schema:)`` can write the
/// catalog-aware one beside `catalog.json`.
///
/// Without a catalog the schema checks shape: the keys (unknown ones are
/// rejected), which are required, their types, the lifetimes, `format` 1.
/// With a catalog it also lists the legal names: `protocol` (or `collection`)
/// is one of the types some factory provides (module-qualified, and short
/// where the short name is not ambiguous), `factory` is one of the factories
/// that provide the binding's type, and `parameters` has the keys and JSON types the
/// factory's parameter type reads, where the catalog knows them (extra keys
/// are allowed, as the factory's decoder ignores them).
///
/// The schema describes one file: it cannot see the `extends` chain nor the
/// dependency graph, which `patchbay check` validates.
package enum ManifestSchemaBuilder {
    /// The JSON Schema dialect: draft 2020-12.
    package static let dialect = "https://json-schema.org/draft/2020-12/schema"

    /// The schema as a JSON value.
    /// - Parameter catalog: The catalog whose names the schema lists; `nil` for the plain schema.
    package static func schema(catalog: CatalogDescription? = nil) -> JSONValue {
        var binding = bindingSchema()
        var decorate = decorateSchema()
        var description = "A Patchbay manifest (format 1): which factory serves each protocol, with which "
            + "lifetime, in which injector."
        if let catalog {
            add(catalog, to: &binding)
            add(catalog, toDecorate: &decorate)
            description += " Names are those of a catalog of \(catalog.factories.count) factories."
        }
        return .object([
            "$schema": .string(dialect),
            "title": .string("Patchbay manifest"),
            "description": .string(description),
            "type": .string("object"),
            "additionalProperties": .bool(false),
            "required": strings([ManifestKey.format, .bindings].map(\.rawValue)),
            "properties": .object([
                ManifestKey.schema.rawValue: described("Ignored by the loader; lets editors find this schema.", aString),
                ManifestKey.format.rawValue: described("The manifest format; this build understands 1.", [
                    "type": .string("integer"), "const": .integer(1),
                ]),
                ManifestKey.environment.rawValue: described(
                    "A label shown in diagnostics and 'patchbay explain' output.", aString),
                ManifestKey.extends.rawValue: described("The parent manifest's path, relative to this file's folder; this file's "
                    + "bindings replace the parent's with the same protocol and injector.", aString),
                ManifestKey.injectors.rawValue: described("The fallback order of custom injectors, after primary and secondary; "
                    + "when present it lists every custom injector the bindings use.", [
                        "type": .string("array"), "uniqueItems": .bool(true),
                        "items": .object(aName),
                    ]),
                ManifestKey.bindings.rawValue: described("Which factory serves each protocol; may be empty.", [
                    "type": .string("array"), "items": .object(["$ref": .string("#/$defs/binding")]),
                ]),
                ManifestKey.decorate.rawValue: described("Edits of the chains of decorators of the bindings this file "
                    + "inherits (or writes), without restating them; each file's apply after its parents'.", [
                        "type": .string("array"), "items": .object(["$ref": .string("#/$defs/decorate")]),
                    ]),
            ]),
            "$defs": .object(["binding": .object(binding), "decorate": .object(decorate)]),
        ])
    }

    /// The schema as pretty-printed JSON with sorted keys and a final newline, stable from run to run.
    package static func jsonData(catalog: CatalogDescription? = nil) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding a JSONValue cannot fail: it holds only JSON.
        let data = (try? encoder.encode(schema(catalog: catalog))) ?? Data("{}".utf8)
        // Printed by `patchbay schema` into CI logs: a catalog's name holding `##[` is escaped as JSON escapes it.
        return Data((String(decoding: data, as: UTF8.self) + "\n").inertInWorkflowLogs(json: true).utf8)
    }

    // MARK: - Bindings

    private static func bindingSchema() -> [String: JSONValue] {
        [
            "description": .string("Serve 'protocol' with 'factory'. One binding per protocol and injector in a file. "
                + "With 'collection' instead of 'protocol': one element, made by 'factory', of that type's collection."),
            "type": .string("object"),
            "additionalProperties": .bool(false),
            "required": strings([BindingKey.factory.rawValue]),
            // Exactly one of the two: a type's single binding, or an element of its collection,
            // which names no decorator (`decorator-not-supported`; an empty chain is no chain).
            "oneOf": .array([
                .object(["required": strings([BindingKey.protocol.rawValue])]),
                .object([
                    "required": strings([BindingKey.collection.rawValue]),
                    "properties": .object([BindingKey.decorators.rawValue: described(
                        "A collection's element cannot be decorated yet.", ["maxItems": .integer(0)])]),
                ]),
            ]),
            "properties": .object([
                BindingKey.protocol.rawValue: described("The requested type's name: short (UserRepository) or module-qualified "
                    + "(App.UserRepository).", aName),
                BindingKey.collection.rawValue: described("Instead of 'protocol': the element type's name. The binding is one "
                    + "element of that type's collection, resolved as [T] with the others in manifest order; a file "
                    + "that lists any element of it replaces the parent's whole collection for that injector.", aName),
                BindingKey.factory.rawValue: described("The name of a catalog factory that provides the protocol.", aName),
                BindingKey.lifetime.rawValue: described("How long an instance lives; when absent, the factory's default lifetime, "
                    + "else transient.", [
                        "type": .string("string"), "enum": strings(Lifetime.allCases.map(\.rawValue)),
                    ]),
                BindingKey.injector.rawValue: described(
                    "primary (the default), secondary, or the name of a custom injector.", aName),
                BindingKey.parameters.rawValue: described("Decoded into the factory's parameter type. A string may contain ${NAME} "
                    + "or ${NAME:-default}, replaced by the environment variable.", ["type": .string("object")]),
                BindingKey.decorators.rawValue: described("The decorators around the factory's product, in order: the first "
                    + "wraps the product, the last is what callers get. Each is a catalog decorator's name, or an object "
                    + "with its name and parameters.", [
                        "type": .string("array"), "items": decoratorSchema,
                    ]),
            ]),
        ]
    }

    // MARK: - Decorate

    /// An entry of `decorate`: the type, perhaps an injector, and what it removes and adds.
    private static func decorateSchema() -> [String: JSONValue] {
        [
            "description": .string("Edit the chain of the binding of 'protocol' in effect where this file stands: in "
                + "'injector', or in every injector that binds it. 'remove' first, then 'add', appended outermost in order."),
            "type": .string("object"),
            "additionalProperties": .bool(false),
            "required": strings([DecorateKey.protocol.rawValue]),
            // `add`, or else `remove`: an entry that edits nothing is `missing-key`.
            "if": .object(["required": strings([DecorateKey.add.rawValue])]),
            "else": .object(["required": strings([DecorateKey.remove.rawValue])]),
            "properties": .object([
                DecorateKey.protocol.rawValue: described("The bound type's name, short or module-qualified: the bindings "
                    + "of that type are edited however they spell it.", aName),
                DecorateKey.injector.rawValue: described("The one injector whose binding is edited; every injector's "
                    + "when absent.", aName),
                DecorateKey.remove.rawValue: described("Decorators taken out of the chain, by name.", [
                    "type": .string("array"), "minItems": .integer(1), "items": .object(aName),
                ]),
                DecorateKey.add.rawValue: described("Decorators appended to the chain, in order, the last outermost: "
                    + "each a catalog decorator's name, or an object with its name and parameters.", [
                        "type": .string("array"), "minItems": .integer(1), "items": decoratorSchema,
                    ]),
            ]),
        ]
    }

    /// How a manifest may name `type`: module-qualified, and short when no other catalog type has that short name.
    private static func spellings(of type: String, in index: CatalogIndex) -> [String] {
        let short = index.display(type)
        return short != type && index.types(named: short).count == 1 ? [type, short] : [type]
    }

    /// Adds the catalog's names to an entry of `decorate`: its `protocol` is a
    /// type some factory provides, and per type, `add` and `remove` name that
    /// type's decorators; an added decorator's `parameters` as in a chain.
    private static func add(_ catalog: CatalogDescription, toDecorate decorate: inout [String: JSONValue]) {
        let index = CatalogIndex(catalog)
        var names: [String] = []
        var rules: [JSONValue] = []
        for type in index.providedQualifiedNames {
            let spellings = spellings(of: type, in: index)
            names += spellings
            let decorators = index.type(qualified: type).map(index.decorators(of:)) ?? []
            rules.append(.object([
                "if": .object([
                    "required": strings([DecorateKey.protocol.rawValue]),
                    "properties": .object([DecorateKey.protocol.rawValue: .object(["enum": strings(spellings.sorted())])]),
                ]),
                "then": .object(["properties": .object([
                    DecorateKey.add.rawValue: decoratorNames(decorators),
                    DecorateKey.remove.rawValue: decorators.isEmpty ? decoratorNames(decorators)
                        : .object(["items": .object(["enum": strings(decorators)])]),
                ])]),
            ]))
        }
        guard case .object(var properties)? = decorate["properties"] else { return }
        properties[DecorateKey.protocol.rawValue] = described(
            "The bound type: one that a catalog factory provides, short or module-qualified.",
            ["type": .string("string"), "enum": strings(names.sorted())])
        if case .object(var added)? = properties[DecorateKey.add.rawValue] {
            added["items"] = linkSchema(catalog)
            properties[DecorateKey.add.rawValue] = .object(added)
        }
        decorate["properties"] = .object(properties)
        decorate["allOf"] = .array(rules)
    }

    // MARK: - Decorators

    /// One entry of a binding's `decorators`: a name, or `{ "decorator": ..., "parameters": {...} }`.
    private static let decoratorSchema: JSONValue = .object(["oneOf": .array([
        described("A catalog decorator's name.", aName),
        described("A catalog decorator, with the parameters decoded into its parameter type.", [
            "type": .string("object"), "additionalProperties": .bool(false),
            "required": strings([DecoratorKey.decorator.rawValue]),
            "properties": .object([
                DecoratorKey.decorator.rawValue: described("A catalog decorator's name.", aName),
                DecoratorKey.parameters.rawValue: described("Decoded into the decorator's parameter type.",
                    ["type": .string("object")]),
            ]),
        ]),
    ])])

    /// The entries of `decorators` a binding of a type may name: its decorators.
    private static func decoratorNames(_ names: [String]) -> JSONValue {
        // A type no decorator decorates: no entry fits (`"enum": []` would say so less clearly).
        guard !names.isEmpty else {
            return .object(["items": described("No decorator of the catalog decorates this type.", ["not": .object([:])])])
        }
        return .object(["items": .object(["oneOf": .array([
            .object(["type": .string("string"), "enum": strings(names)]),
            .object(["type": .string("object"), "properties": .object([
                DecoratorKey.decorator.rawValue: .object(["enum": strings(names)]),
            ])]),
        ])])])
    }

    /// Adds the catalog's names: the protocols, and per protocol its factories,
    /// per factory its parameters.
    private static func add(_ catalog: CatalogDescription, to binding: inout [String: JSONValue]) {
        let index = CatalogIndex(catalog)
        var names: [String] = []
        var rules: [JSONValue] = []
        for type in index.providedQualifiedNames {
            let spellings = spellings(of: type, in: index)
            names += spellings
            // The same factories for the type's single binding and for its collection's elements.
            let factories: JSONValue = .object([
                "properties": .object([
                    BindingKey.factory.rawValue: .object(["enum": strings(index.providers(of: type) ?? [])]),
                ]),
            ])
            // A type's single binding may also name the decorators of its type, and no others.
            let typeID = index.type(qualified: type)
            let decorators = typeID.map(index.decorators(of:)) ?? []
            rules.append(rule(if: .protocol, is: ["enum": strings(spellings.sorted())], then: .object([
                "properties": .object([
                    BindingKey.factory.rawValue: .object(["enum": strings(index.providers(of: type) ?? [])]),
                    BindingKey.decorators.rawValue: decoratorNames(decorators),
                ]),
            ])))
            rules.append(rule(if: .collection, is: ["enum": strings(spellings.sorted())], then: factories))
        }
        for factory in catalog.factories.sorted(by: { $0.name < $1.name }) {
            guard let then = parametersRule(factory) else { continue }
            rules.append(rule(if: .factory, is: ["const": .string(factory.name)], then: then))
        }
        guard case .object(var properties)? = binding["properties"] else { return }
        if case .object(var decorators)? = properties[BindingKey.decorators.rawValue] {
            decorators["items"] = linkSchema(catalog)
            properties[BindingKey.decorators.rawValue] = .object(decorators)
        }
        let typeNames: [String: JSONValue] = ["type": .string("string"), "enum": strings(names.sorted())]
        properties[BindingKey.protocol.rawValue] = described(
            "The requested type: one that a catalog factory provides, short or module-qualified.", typeNames)
        properties[BindingKey.collection.rawValue] = described(
            "Instead of 'protocol': the element type, one that a catalog factory provides, short or module-qualified.",
            typeNames)
        properties[BindingKey.factory.rawValue] = described(
            "The name of a catalog factory that provides the protocol.",
            ["type": .string("string"), "enum": strings(catalog.factories.map(\.name).sorted())])
        binding["properties"] = .object(properties)
        binding["allOf"] = .array(rules)
    }

    /// An entry of a chain (a binding's `decorators`, a `decorate`'s `add`) by
    /// a catalog: a decorator's `parameters` as a factory's in a binding.
    private static func linkSchema(_ catalog: CatalogDescription) -> JSONValue {
        var linkRules: [JSONValue] = []
        // A decorator with required parameter fields cannot be named alone: its entry is the object, with `parameters`.
        let needParameters = (catalog.decorators ?? []).filter { $0.parameters?.fields?.contains(where: \.required) == true }
            .map(\.name).sorted()
        if !needParameters.isEmpty {
            linkRules.append(described("A decorator whose parameters have required fields is written as an object "
                + "with its 'parameters', not as its name alone.", ["not": .object(["enum": strings(needParameters)])]))
        }
        for decorator in (catalog.decorators ?? []).sorted(by: { $0.name < $1.name }) {
            guard let then = parametersRule(decorator, of: "decorator") else { continue }
            linkRules.append(.object([
                "if": .object([
                    "type": .string("object"), "required": strings([DecoratorKey.decorator.rawValue]),
                    "properties": .object([DecoratorKey.decorator.rawValue: .object(["const": .string(decorator.name)])]),
                ]),
                "then": then,
            ]))
        }
        return linkRules.isEmpty ? decoratorSchema : .object(["allOf": .array([decoratorSchema] + linkRules)])
    }

    /// A rule of `allOf`: a binding whose `key` is a value `value` allows must also match `then`.
    private static func rule(if key: BindingKey, is value: [String: JSONValue], then: JSONValue) -> JSONValue {
        .object([
            "if": .object([
                "required": strings([key.rawValue]), "properties": .object([key.rawValue: .object(value)]),
            ]),
            "then": then,
        ])
    }

    /// What the binding's `parameters` must be for `factory` (or a chain's
    /// entry's, for a decorator: `what` names it); `nil` when the catalog cannot say.
    private static func parametersRule(_ factory: CatalogDescription.Factory, of what: String = "factory") -> JSONValue? {
        guard let parameters = factory.parameters else {
            return .object(["properties": .object([BindingKey.parameters.rawValue: described(
                "\(what.prefix(1).uppercased() + what.dropFirst()) '\(factory.name)' takes no parameters.",
                ["maxProperties": .integer(0)])])])
        }
        guard let fields = parameters.fields else { return nil }
        var shape = objectShape(fields, closed: parameters.closed == true)
        shape["description"] = .string("The parameters of \(what) '\(factory.name)' (\(parameters.type)).")
        var rule: [String: JSONValue] = ["properties": .object([BindingKey.parameters.rawValue: .object(shape)])]
        if fields.contains(where: \.required) { rule["required"] = strings([BindingKey.parameters.rawValue]) }
        return .object(rule)
    }

    /// The keys of an object with known fields; other keys are allowed only
    /// when the type is open (`unknown-parameter` refuses them otherwise).
    private static func objectShape(_ fields: [CatalogDescription.ParameterField], closed: Bool) -> [String: JSONValue] {
        var shape: [String: JSONValue] = [
            "properties": .object(Dictionary(fields.map { ($0.name, fieldSchema($0, closed: closed)) }) { first, _ in first }),
        ]
        if closed { shape["additionalProperties"] = .bool(false) }
        let required = fields.filter(\.required).map(\.name)
        if !required.isEmpty { shape["required"] = strings(required.sorted()) }
        return shape
    }

    /// One field: its JSON type (or null too, when it may be absent), and its own fields.
    private static func fieldSchema(_ field: CatalogDescription.ParameterField, closed: Bool) -> JSONValue {
        let known = ["string", "integer", "number", "boolean", "object", "array"]
        guard known.contains(field.type) else { return .object([:]) }
        var schema: [String: JSONValue] = [
            "type": field.required ? .string(field.type) : strings([field.type, "null"]),
        ]
        if field.type == "object", let fields = field.fields {
            schema.merge(objectShape(fields, closed: closed)) { _, new in new }
        }
        guard ["integer", "number", "boolean"].contains(field.type) else { return .object(schema) }
        // `"port": "${SMTP_PORT:-587}"`: a string that is one whole reference is converted to the field's type,
        // as `patchbay check` and the app convert it; the schema accepts what they accept.
        return .object(["oneOf": .array([.object(schema), .object([
            "type": .string("string"), "pattern": .string(wholeReferencePattern),
            "description": .string("${NAME} or ${NAME:-default}, whose value is converted to \(field.type)."),
        ])])])
    }

    /// A string that is one whole `${NAME}` or `${NAME:-default}` reference (``Interpolation/wholeReference(_:)``).
    static let wholeReferencePattern = #"^\$\{[A-Za-z_][A-Za-z0-9_]*(:-[^}$]*)?\}$"#

    // MARK: - Building JSON

    /// A string's schema, and a non-empty one's: a name's.
    private static let aString: [String: JSONValue] = ["type": .string("string")]
    private static let aName: [String: JSONValue] = ["type": .string("string"), "minLength": .integer(1)]

    private static func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }

    private static func described(_ description: String, _ members: [String: JSONValue]) -> JSONValue {
        .object(members.merging(["description": .string(description)]) { _, new in new })
    }
}
