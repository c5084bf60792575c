import Foundation

/// What a ``FactoryCatalog`` says of itself as JSON: every factory's name, the
/// types it provides and needs, its default lifetime, whether its product is
/// a class, its parameter and argument types.
///
/// `patchbay check --catalog catalog.json` reads this file to validate
/// manifests without building the app, on a Linux CI runner for an iOS app, say.
/// Reading one checks it as a manifest is checked, every problem at its line
/// and column (``init(jsonData:file:)``), so a broken description is refused
/// as itself rather than blamed on the manifests.
///
///     try catalog.describe().jsonData().write(to: URL(fileURLWithPath: "Manifests/catalog.json"))
// Its types are made with their memberwise initializers: only this module
// (`describe()`, the decoding in CatalogDescription+Decoding.swift) and its
// tests make them; the tools read them.
public struct CatalogDescription: Codable, Sendable, Hashable {
    /// The description format; this build writes and reads ``currentVersion``.
    package var version: Int = currentVersion
    /// Every type named in the catalog, with its short and module-qualified names.
    package var types: [TypeName]
    /// The factories, sorted by name.
    package var factories: [Factory]
    /// The decorators, sorted by name, each described as a factory that
    /// provides the one type it decorates and needs what its closure takes
    /// after the instance it wraps, with its ``Factory/execution`` (`async`
    /// from format 4); absent when the catalog has none (and in descriptions
    /// written before decorators). A build that predates format 4 refuses a
    /// format-4 description whole (`unsupported-catalog-version`), where it
    /// would refuse an `async` decorator as a shape no app writes.
    package var decorators: [Factory]? = nil
    /// How the app's `JSONDecoder` reads dates and data in parameters; absent
    /// for `JSONDecoder`'s defaults (and in descriptions written before).
    package var parameterDecoding: ParameterDecoding?
    /// The types the app resolves itself, in the order declared: the roots the
    /// entry-point rule checks. Absent in descriptions of format 1.
    package var entryPoints: [EntryPointDescription]? = []
    /// The module folders the factories were registered in and a fingerprint
    /// of their Swift files, so a check can tell that the code changed since
    /// the description was written; absent when the description was not
    /// written in its package (``FactoryCatalog/refreshDescription(at:schema:)`` writes it).
    package var sources: Sources?

    /// A type the app resolves itself (see ``FactoryCatalog/entryPoint(_:from:optional:fileID:line:)``).
    package struct EntryPointDescription: Codable, Sendable, Hashable {
        /// The module-qualified type.
        package var type: String
        /// The injector it is requested from; absent for primary.
        package var injector: String?
        /// Whether the app copes with it being unbound; absent for false.
        package var optional: Bool?
        /// Where the app declared it: `Sources/NotesKit/NotesCatalog.swift:18:9`,
        /// relative to the package's root, when the description was written in
        /// its package; else the `#fileID` and line (`NotesKit/NotesCatalog.swift:18`).
        package var declaredAt: String?
    }

    /// A type's two names.
    package struct TypeName: Codable, Sendable, Hashable {
        /// `NotesKit.Clock`.
        package var qualified: String
        /// `Clock`.
        package var name: String
    }

    /// One factory.
    package struct Factory: Codable, Sendable, Hashable {
        /// The name manifests use.
        package var name: String
        /// The module-qualified names of the types it provides.
        package var provides: [String]
        /// What it needs, in order; `nil` when it resolves by hand (unknown to static checks).
        package var needs: [Need]?
        /// The lifetime when a binding names none.
        package var defaultLifetime: Lifetime?
        /// The product's type: the concrete type when known, else the provided type.
        package var productType: String
        /// Whether the product is a class instance (needed for `weak`): `true`
        /// for a class; absent (`nil`) when the types alone cannot tell (a
        /// protocol, or a value type), so the factory's first value is
        /// checked when it is made; `false` only in descriptions written
        /// by hand or before the answer could be unknown.
        package var productIsClass: Bool?
        /// The parameter type, when the factory takes parameters.
        package var parameters: Parameters?
        /// The module-qualified resolve-time argument type, when it takes one.
        package var argument: String?
        /// Where it was registered, as ``EntryPointDescription/declaredAt`` says it.
        package var registeredAt: String?
        /// `main-actor` or `async` when its closure is one; absent for a
        /// nonisolated, synchronous factory (and in descriptions written before).
        package var execution: FactoryExecution?
        /// The only environments a manifest may bind it in; absent for any
        /// (and in descriptions written before format 3).
        package var environments: [String]?
        /// The environments a manifest may not bind it in; absent for none.
        package var exceptEnvironments: [String]?

        /// The environments a manifest may bind it in, as registered.
        package var environmentRule: FactoryEnvironments {
            if let environments { return .only(environments) }
            return exceptEnvironments.map { .except($0) } ?? .all
        }
    }

    /// A dependency of a factory.
    package struct Need: Codable, Sendable, Hashable {
        /// The module-qualified type.
        package var type: String
        /// `direct` (must be bound), `optional` (`T?`), `lazy` (``Lazy``, resolved on first use),
        /// `provider` (``Provider``, resolved at each call, checked as `lazy` is),
        /// `collection` (`[T]`, the elements of `T`'s collection; `type` is the element type) or
        /// `lazy-collection` (`Lazy<[T]>` or `Provider<[T]>`, the same, read later, so no edge of a
        /// cycle). A kind this build does not know makes the description unreadable
        /// (`unknown-need-kind`, naming the kinds it knows): a build that predates a kind refuses
        /// a description that uses it, and reads every other description of the same ``CatalogDescription/version``.
        package var kind: String = "direct"
    }

    /// A factory's parameter type.
    package struct Parameters: Codable, Sendable, Hashable {
        /// The module-qualified type name.
        package var type: String
        /// Its fields, when a dry run of its decoder could tell; `nil` when unknown.
        package var fields: [ParameterField]?
        /// True when `fields` are every key the type reads, so another key is
        /// a mistake (`unknown-parameter`); absent when the type is open (its
        /// dry run did not finish, or it reads keys listed at run time).
        package var closed: Bool?
    }

    /// A field of a parameter type.
    package struct ParameterField: Codable, Sendable, Hashable {
        /// The JSON key.
        package var name: String
        /// The JSON type: `string`, `integer`, `number`, `boolean`, `object`, `array` or `any`.
        package var type: String
        /// Whether the key must be present.
        package var required: Bool
        /// For an `object` whose keys are known: its fields; `nil` otherwise,
        /// and for objects that take any keys (dictionaries).
        package var fields: [ParameterField]?
        /// For an `integer` of a fixed width other than a signed 64-bit one: the
        /// Swift type's bits (8, 16, 32, 64), so a number beyond its range is found
        /// before `JSONDecoder` rejects it without saying where. Absent for a
        /// signed 64-bit integer (`Int` on 64-bit platforms), for other fields,
        /// and in descriptions written before.
        package var bits: Int?
        /// For an `integer` with ``bits``: whether the Swift type is signed.
        package var signed: Bool?
    }
}

extension CatalogDescription {
    /// The description as pretty-printed JSON with sorted keys, stable from run to run.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(contentsOf: Array("\n".utf8))
        return data
    }

    /// The format this build writes and reads (`unsupported-catalog-version`
    /// for any other): 2 since descriptions record entry points, so a
    /// description without them is refused as out of date rather than
    /// checked without the entry-point rule; 3 since they record the sources
    /// they were made from (``sources``), places as files of the package,
    /// and the environments a factory may be bound in, so that a description
    /// older than its code is known to be, and a build that would ignore the
    /// environments (and pass a test double in production) refuses the
    /// description rather than misjudging it; 4 since ``decorators`` are
    /// described, with where each runs (`async` ones too), so a build that
    /// predates them says to update it rather than refusing an `async`
    /// decorator as a malformed one.
    package static let currentVersion = 4

    /// The formats this build reads: the one it writes, and format 3, which
    /// differs only in having no `async` decorator (one there is
    /// `wrong-type`, as no build that wrote format 3 could register one).
    package static let readableVersions = 3...currentVersion

    /// ``readableVersions`` for messages: `formats 3 and 4`.
    static var readableVersionsText: String {
        "formats " + readableVersions.map(String.init).joined(separator: " and ")
    }

    /// How an app refreshes its description, for messages that find one out of date.
    package static func howToRegenerate(_ file: String) -> String {
        "Regenerate it with `swift test` (a test that calls `catalog.refreshDescription(at:)` rewrites it) "
            + "or with the app's `catalog` subcommand (PatchbayCommandLine), e.g. `swift run my-app patchbay catalog > \(file)`"
    }

    /// Reads a description written by ``jsonData()``, and checks it as a
    /// manifest is checked: syntax, shape, its `version`, its names, need
    /// kinds and field types, and that every type it names is in its `types`.
    ///
    ///     let description = try CatalogDescription(jsonData: Data(contentsOf: url), file: "Manifests/catalog.json")
    ///
    /// - Parameters:
    ///   - data: The description's bytes.
    ///   - file: The file as diagnostics name it, as the user named it.
    /// - Throws: ``ManifestError`` with every problem, each at its line and column in `file`.
    public init(jsonData data: Data, file: String = "catalog.json") throws(ManifestError) {
        try self.init(jsonData: data, file: file, packageRoot: nil)
    }

    /// Reads a description as ``init(jsonData:file:)`` does, in the package at
    /// `packageRoot`, whose files its places must name (no folder among them).
    package init(jsonData data: Data, file: String, packageRoot: URL?) throws(ManifestError) {
        var validator = CatalogDescriptionValidator(file: file)
        validator.packageRoot = packageRoot
        let (description, diagnostics) = validator.validate(data)
        guard let description else { throw ManifestError(diagnostics: diagnostics) }
        self = description
    }
}

extension FactoryCatalog {
    /// Describes the catalog for `patchbay check --catalog` and for tools:
    /// factories sorted by name, each type listed once.
    public func describe() -> CatalogDescription {
        var types: [TypeKey] = []
        var seen: Set<TypeKey> = []
        for definition in definitions + decorators.map(\.definition) {
            let named = definition.provides.map(\.key) + (definition.dependencies ?? []).map(\.key)
                + (definition.argument.map { [$0] } ?? [])
            for key in named where seen.insert(key).inserted { types.append(key) }
        }
        for entry in entryPoints where seen.insert(entry.key).inserted { types.append(entry.key) }
        return CatalogDescription(
            types: types.map { CatalogDescription.TypeName(qualified: $0.qualifiedName, name: $0.name) }
                .sorted { $0.qualified < $1.qualified },
            factories: definitions.map {
                CatalogDescription.Factory($0, decoding: parameterDecoding, environments: environments(ofFactory: $0.name))
            }
                .sorted { $0.name < $1.name },
            decorators: decorators.isEmpty ? nil : decorators.map {
                CatalogDescription.Factory(
                    $0.definition, decoding: parameterDecoding, environments: environments(ofFactory: $0.definition.name))
            }
                .sorted { $0.name < $1.name },
            parameterDecoding: parameterDecoding == .default ? nil : parameterDecoding,
            entryPoints: entryPoints.map {
                .init(type: $0.key.qualifiedName, injector: $0.injector == .primary ? nil : $0.injector.rawValue,
                      optional: $0.isOptional ? true : nil, declaredAt: $0.declaredAt.description)
            })
    }
}

extension CatalogDescription.Factory {
    /// What the description says of a registered factory, with where it was registered.
    init(_ definition: FactoryDefinition, decoding: ParameterDecoding, environments: FactoryEnvironments) {
        self.init(
            name: definition.name,
            provides: definition.provides.map(\.key.qualifiedName),
            needs: definition.dependencies?.map { .init(type: $0.key.qualifiedName, kind: $0.kind.rawValue) },
            defaultLifetime: definition.defaultLifetime,
            productType: definition.productTypeName,
            productIsClass: definition.productIsClass,
            parameters: definition.parameters.map { $0.described(for: decoding) },
            argument: definition.argument?.qualifiedName,
            registeredAt: definition.registeredAt.description,
            execution: definition.execution == .synchronous ? nil : definition.execution,
            environments: environments.allowed,
            exceptEnvironments: environments.excluded.isEmpty ? nil : environments.excluded)
    }
}
