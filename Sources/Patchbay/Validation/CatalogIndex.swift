import Foundation

/// What validation knows of a catalog, built the same way from the app's
/// live ``FactoryCatalog`` and from a ``CatalogDescription`` read from a file.
///
/// Both sources are reduced to names: every type is interned under its
/// module-qualified name as a small integer, and a factory's provided types,
/// needs and argument become those integers. So the one validator sees the
/// same index whether it runs in the app at activation or in `patchbay check`
/// on a CI runner, and gives one verdict; and once a manifest's names are
/// looked up, every later step compares integers.
///
/// What only messages read (a factory's product type, its parameter type's
/// name, where it was registered, which factories provide a type) is read
/// from the source when a message asks for it.
package struct CatalogIndex: Sendable {
    /// A type's place in ``types``.
    package typealias TypeID = Int

    /// A type's two names.
    package struct TypeInfo: Sendable {
        /// `NotesKit.Clock`.
        package let qualified: String
        /// `Clock`.
        package let short: String
    }

    /// One factory, as validation reads it.
    struct Factory: Sendable {
        let name: String
        /// Its provided types, a range of ``CatalogIndex/providedTypes``, in the factory's order.
        let provides: Range<Int>
        /// Its needs, a range of ``CatalogIndex/needs``; nil when it resolves
        /// by hand, so its needs are unknown to static checks.
        let needs: Range<Int>?
        let argument: TypeID?
        let defaultLifetime: Lifetime?
        let productIsClass: Bool?
        /// Whether it takes `parameters`.
        let takesParameters: Bool
        /// Where its closure runs, which decides who may need it.
        let execution: FactoryExecution
    }

    /// A type the app resolves itself (see ``FactoryCatalog/entryPoint(_:from:optional:fileID:line:)``).
    struct EntryPoint: Sendable {
        let type: TypeID
        let injector: InjectorName
        let isOptional: Bool
        /// Where the app declared it, when known.
        let declaredAt: String?
    }

    /// One need of a factory.
    struct Need: Sendable {
        let type: TypeID
        let kind: DependencySpec.Kind
    }

    /// Where the index came from, for what only messages and parameter decoding read.
    enum Source: Sendable {
        case live(FactoryCatalog)
        case description(CatalogDescription)
    }

    let source: Source
    package private(set) var types: [TypeInfo] = []
    /// The factories, in the source's order (registration order for a live
    /// catalog), then the decorators, from ``decoratorStart`` on: a
    /// decorator is read as a factory that provides the type it decorates,
    /// so the rules of factories (parameters, needs, environments) read it
    /// by its place as they read one.
    private(set) var factories: [Factory] = []
    /// Where the decorators begin in ``factories``; the factories are the places before it.
    private(set) var decoratorStart = 0
    /// Where the decorators' types begin in ``providedTypes``: the types factories provide are those before it.
    private(set) var factoryProvidedEnd = 0
    /// The place in ``factories`` of each decorator, by name.
    private var decoratorOffsets = NameTable<Int>()
    /// Every factory's provided types, one run per factory (see ``Factory/provides``).
    private(set) var providedTypes: [TypeID] = []
    /// Every factory's needs, one run per factory (see ``Factory/needs``).
    private(set) var needs: [Need] = []
    /// The types the app resolves itself, in the order declared.
    private(set) var entryPoints: [EntryPoint] = []
    /// The environments a factory may be bound in, by place in ``factories``,
    /// for the factories that name some: most catalogs have none, and a
    /// binding then pays one check of an empty table.
    private(set) var environmentRules: [Int: FactoryEnvironments] = [:]
    private var factoryOffsets: NameTable<Int>
    private var typesByShortName: NameTable<InlineList<TypeID>>
    /// Qualified name -> type: made when first asked for (a manifest that
    /// names types by their short names, the usual one, never asks).
    private let typesByQualifiedName = InstanceCell()
    /// What messages about unknown names look up, made when the first such
    /// message is: a valid manifest never pays for it, a manifest with
    /// thousands of unknown names pays for it once.
    private let messageTables = InstanceCell()
    /// Each type under the key of its qualified name and of its short name
    /// (``TypeNameSyntax/lookupKey(_:)``), for a name spelled another way
    /// than the catalog's: made when the first such name is looked up.
    let typesBySpelling = InstanceCell()

    /// What a name spelled another way than the catalog's is looked up in.
    struct SpellingTables: Sendable {
        /// Each type under the keys of its names.
        var types: [String: [TypeID]] = [:]
        /// The short names of provided generic types by their name before
        /// `<` (`GPair`), sorted: what a name with the right head but
        /// arguments written another way is offered.
        var providedByHead: [String: [String]] = [:]
    }
    /// Whether some qualified name has no dot (`Any`): otherwise a manifest
    /// name without one, the usual short name, is looked up as short only.
    private var hasDotlessTypeNames = false

    /// Indexes the app's live catalog.
    package init(_ catalog: FactoryCatalog) {
        let definitions = catalog.definitions
        source = .live(catalog)
        factoryOffsets = catalog.offsetsByName
        typesByShortName = NameTable(capacity: definitions.count)
        factories.reserveCapacity(definitions.count)
        providedTypes.reserveCapacity(definitions.count)
        for definition in definitions {
            let providedStart = providedTypes.count
            for provided in definition.provides { providedTypes.append(intern(provided.key)) }
            var needRange: Range<Int>?
            if let dependencies = definition.dependencies {
                let needStart = needs.count
                for need in dependencies { needs.append(Need(type: intern(need.key), kind: need.kind)) }
                needRange = needStart..<needs.count
            }
            factories.append(Factory(
                name: definition.name, provides: providedStart..<providedTypes.count, needs: needRange,
                argument: definition.argument.map { intern($0) },
                defaultLifetime: definition.defaultLifetime, productIsClass: definition.productIsClass,
                takesParameters: definition.parameters != nil, execution: definition.execution))
        }
        decoratorStart = factories.count
        factoryProvidedEnd = providedTypes.count
        for decorator in catalog.decorators {
            let definition = decorator.definition
            decoratorOffsets.update(definition.name, initial: factories.count) { _ in }
            let providedStart = providedTypes.count
            providedTypes.append(intern(definition.provides[0].key))
            let needStart = needs.count
            for need in definition.dependencies ?? [] { needs.append(Need(type: intern(need.key), kind: need.kind)) }
            factories.append(Factory(
                name: definition.name, provides: providedStart..<providedTypes.count, needs: needStart..<needs.count,
                argument: nil, defaultLifetime: nil, productIsClass: definition.productIsClass,
                takesParameters: definition.parameters != nil, execution: definition.execution))
        }
        for (name, rule) in catalog.environmentRules {
            if let offset = factoryOffsets[name] ?? decoratorOffsets[name] { environmentRules[offset] = rule }
        }
        for entry in catalog.entryPoints {
            entryPoints.append(EntryPoint(
                type: intern(entry.key), injector: entry.injector, isOptional: entry.isOptional,
                declaredAt: entry.declaredAt.description))
        }
    }

    /// Indexes a catalog description. A type the description's `types` list
    /// does not name is known by its qualified name alone.
    package init(_ description: CatalogDescription) {
        source = .description(description)
        factoryOffsets = NameTable(capacity: description.factories.count)
        typesByShortName = NameTable(capacity: description.types.count)
        // Factories name types by their qualified names; a type's first listing gives its short name.
        var shortNames: [String: String] = [:]
        for type in description.types where shortNames[type.qualified] == nil {
            shortNames[type.qualified] = type.name
        }
        func intern(_ name: String) -> TypeID { self.intern(name, short: shortNames[name] ?? name) }
        for type in description.types { _ = intern(type.qualified) }
        for (offset, factory) in description.factories.enumerated() {
            // A description read from a file never repeats a name (`duplicate-name`);
            // one made in code that does: the last one is the factory of that name.
            factoryOffsets.update(factory.name, initial: offset) { $0 = offset }
            let providedStart = providedTypes.count
            for provided in factory.provides { providedTypes.append(intern(provided)) }
            var needRange: Range<Int>?
            if let described = factory.needs {
                let needStart = needs.count
                for need in described {
                    // A file's kinds are known (`unknown-need-kind`); one made in code may not be: a direct need.
                    let kind = DependencySpec.Kind(rawValue: need.kind) ?? .direct
                    needs.append(Need(type: intern(need.type), kind: kind))
                }
                needRange = needStart..<needs.count
            }
            factories.append(Factory(
                name: factory.name, provides: providedStart..<providedTypes.count, needs: needRange,
                argument: factory.argument.map(intern), defaultLifetime: factory.defaultLifetime,
                productIsClass: factory.productIsClass, takesParameters: factory.parameters != nil,
                execution: factory.execution ?? .synchronous))
            let rule = factory.environmentRule
            if !rule.isAll { environmentRules[offset] = rule }
        }
        decoratorStart = factories.count
        factoryProvidedEnd = providedTypes.count
        for decorator in description.decorators ?? [] {
            let offset = factories.count
            decoratorOffsets.update(decorator.name, initial: offset) { $0 = offset }
            let providedStart = providedTypes.count
            for provided in decorator.provides { providedTypes.append(intern(provided)) }
            let needStart = needs.count
            for need in decorator.needs ?? [] {
                needs.append(Need(type: intern(need.type), kind: DependencySpec.Kind(rawValue: need.kind) ?? .direct))
            }
            factories.append(Factory(
                name: decorator.name, provides: providedStart..<providedTypes.count, needs: needStart..<needs.count,
                argument: nil, defaultLifetime: nil, productIsClass: decorator.productIsClass,
                takesParameters: decorator.parameters != nil, execution: decorator.execution ?? .synchronous))
            let rule = decorator.environmentRule
            if !rule.isAll { environmentRules[offset] = rule }
        }
        for entry in description.entryPoints ?? [] {
            entryPoints.append(EntryPoint(
                type: intern(entry.type), injector: entry.injector.map { InjectorName($0) } ?? .primary,
                isOptional: entry.optional ?? false, declaredAt: entry.declaredAt))
        }
    }

    /// The type of a live catalog's key (see ``intern(_:short:)``).
    private mutating func intern(_ key: TypeKey) -> TypeID { intern(key.qualifiedName, short: key.name) }

    /// The type of that qualified name, added the first time it is met.
    /// Looked up by short name, then compared by qualified name: one hash per mention.
    private mutating func intern(_ qualified: String, short: String) -> TypeID {
        let id = Self.find(qualified, short: short, next: types.count, in: &typesByShortName, types: types)
        guard id == types.count else { return id }
        types.append(TypeInfo(qualified: qualified, short: short))
        if !qualified.containsByte(UInt8(ascii: ".")) { hasDotlessTypeNames = true }
        return id
    }

    /// The type of that qualified name among those of short name `short`;
    /// `next`, listed under `short`, when there is none.
    private static func find(
        _ qualified: String, short: String, next: TypeID, in table: inout NameTable<InlineList<TypeID>>,
        types: [TypeInfo]
    ) -> TypeID {
        table.update(short, initial: InlineList(next)) { list in
            if list.first == next { return next }  // just listed: a new short name
            if types[list.first].qualified == qualified { return list.first }
            if let known = list.rest.first(where: { types[$0].qualified == qualified }) { return known }
            list.append(next)
            return next
        }
    }

    /// Where the app declared the type of that qualified name an entry point; nil when it is not one.
    package func entryPointDeclaration(of qualified: String) -> String? {
        guard let id = type(qualified: qualified) else { return nil }
        return entryPoints.first { $0.type == id }.map { $0.declaredAt ?? "its catalog" }
    }

    // MARK: - Factories

    /// The place in ``factories`` of the factory of that name.
    package func factoryOffset(named name: String) -> Int? { factoryOffsets[name] }

    /// The place in ``factories`` of the decorator of that name.
    package func decoratorOffset(named name: String) -> Int? { decoratorOffsets[name] }

    /// Where a binding of the factory named `factory` whose chain names
    /// `decorators` is made (``FactoryExecution/ofChain(_:links:)``); nil
    /// when the catalog has no such factory.
    package func execution(ofFactory factory: String, chain decorators: [String]) -> FactoryExecution? {
        guard let offset = factoryOffset(named: factory) else { return nil }
        let links = decorators.compactMap { decoratorOffset(named: $0).map { factories[$0].execution } }
        return FactoryExecution.ofChain(factories[offset].execution, links: links)
    }

    /// The type a decorator (by place in ``factories``) decorates.
    func decorates(_ decorator: Int) -> TypeID? { provides(decorator).first }

    /// The names of the decorators of a type, sorted; for suggestions and messages.
    package func decorators(of type: TypeID) -> [String] {
        factories[decoratorStart...].indices.filter { decorates($0) == type }.map { factories[$0].name }.sorted()
    }

    /// The names of every decorator, sorted.
    package var decoratorNames: [String] { factories[decoratorStart...].map(\.name).sorted() }

    /// The provided types of a factory.
    package func provides(_ factory: Int) -> ArraySlice<TypeID> { providedTypes[factories[factory].provides] }

    /// The needs of a factory; nil when it resolves by hand.
    func needs(_ factory: Int) -> ArraySlice<Need>? { factories[factory].needs.map { needs[$0] } }

    /// The factory's product type, for messages: the concrete type when known.
    package func productTypeName(_ factory: Int) -> String {
        switch source {
        case .live(let catalog): display(liveDefinition(factory, in: catalog).productTypeName)
        case .description(let description): display(described(factory, in: description).productType)
        }
    }

    /// The factory's parameter type name and what is known of its fields; nil when it takes none.
    package func parameters(_ factory: Int) -> CatalogDescription.Parameters? {
        switch source {
        case .live(let catalog):
            liveDefinition(factory, in: catalog).parameters.map { $0.described(for: catalog.parameterDecoding) }
        case .description(let description): described(factory, in: description).parameters
        }
    }

    /// Decodes a factory's parameters (their JSON text) into their real type: a live catalog only.
    func decodeParameters(_ factory: Int, _ json: Data, with decoder: JSONDecoder) throws -> (any Sendable)? {
        guard case .live(let catalog) = source, let spec = liveDefinition(factory, in: catalog).parameters else {
            return nil
        }
        return try spec.decode(json, decoder)
    }

    /// The live definition at a place of ``factories``: a factory's, or past
    /// ``decoratorStart`` a decorator's (the catalog's orders, which the index keeps).
    private func liveDefinition(_ place: Int, in catalog: FactoryCatalog) -> FactoryDefinition {
        place < decoratorStart ? catalog.definitions[place] : catalog.decorators[place - decoratorStart].definition
    }

    /// The described factory or decorator at a place of ``factories``.
    private func described(_ place: Int, in description: CatalogDescription) -> CatalogDescription.Factory {
        place < decoratorStart ? description.factories[place] : description.decorators![place - decoratorStart]
    }

    /// A decoder with the live catalog's date and data strategies; nil for a description, which decodes nothing.
    func makeParameterDecoder() -> JSONDecoder? {
        guard case .live(let catalog) = source else { return nil }
        return catalog.parameterDecoding.makeDecoder()
    }

    /// Where the factory was registered (`NotesKit/NotesCatalog.swift:42`), when known.
    package func registeredAt(_ factory: Int) -> String? {
        switch source {
        case .live(let catalog): liveDefinition(factory, in: catalog).registeredAt.description
        case .description(let description): described(factory, in: description).registeredAt
        }
    }

    // MARK: - Types

    /// The type of that module-qualified name.
    package func type(qualified name: String) -> TypeID? {
        // No hash for a dotless name when no qualified name is dotless.
        if !hasDotlessTypeNames, !name.containsByte(UInt8(ascii: ".")) { return nil }
        return typesByQualifiedName.kept {
            var table = NameTable<TypeID>(capacity: types.count)
            for (id, type) in types.enumerated() { table.update(type.qualified, initial: id) { _ in } }
            return table
        }[name]
    }

    /// The types whose short name is `name`.
    func types(short name: String) -> InlineList<TypeID>? { typesByShortName[name] }

    /// The short name of a type, for messages.
    package func display(_ type: TypeID) -> String { types[type].short }

    /// The short name of a qualified type, for messages; the name itself when unknown.
    package func display(_ qualified: String) -> String {
        type(qualified: qualified).map { types[$0].short } ?? qualified
    }

    /// The factories that provide a type, sorted; empty when none does. For messages.
    package func providers(of type: TypeID) -> [String] {
        let byType = tables.providersByType
        return type < byType.count ? byType[type] : []
    }

    /// The short names of the types some factory provides, for suggestions.
    package var providedShortNames: [String] { Array(Set(providedTypes[..<factoryProvidedEnd].map(display))) }

    /// Suggestions among the short names of the types some factory provides.
    package var providedShortNameSuggestions: SuggestionIndex { tables.providedShortNames }

    /// Suggestions among every factory's name.
    package var factoryNameSuggestions: SuggestionIndex { tables.factoryNames }

    /// The tables messages read, made the first time one is asked for.
    private var tables: MessageTables {
        messageTables.kept {
            var byType = [[String]](repeating: [], count: types.count)
            for factory in factories[..<decoratorStart].indices {
                // A factory that lists a type twice provides it once.
                for type in Set(provides(factory)) { byType[type].append(factories[factory].name) }
            }
            return MessageTables(
                providersByType: byType.map { $0.sorted() },
                providedShortNames: SuggestionIndex(providedTypes[..<factoryProvidedEnd].map(display)),
                factoryNames: SuggestionIndex(factories[..<decoratorStart].map(\.name)))
        }
    }

    /// See ``messageTables``.
    private struct MessageTables: Sendable {
        /// The names of the factories that provide each type, sorted, by type.
        let providersByType: [[String]]
        let providedShortNames: SuggestionIndex
        let factoryNames: SuggestionIndex
    }
}
