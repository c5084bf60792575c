/// What a name a manifest writes for a type means in the catalog.
package enum TypeNameLookup: Equatable {
    /// One type.
    case type(CatalogIndex.TypeID)
    /// A short name that several types have.
    case ambiguous([CatalogIndex.TypeID])
    /// No type of the catalog has that name.
    case unknown
}

/// The catalog index by name, for the validator and the tools (`explain`,
/// `graph`, `schema`), which speak of types by their module-qualified names.
extension CatalogIndex {
    /// The rule for a protocol name: a module-qualified name first, else a
    /// short name that only one type has.
    package func lookup(_ name: String) -> TypeNameLookup {
        if let type = type(qualified: name) { return .type(type) }
        guard let matches = types(short: name) else { return .unknown }
        return matches.isSingle ? .type(matches.first) : .ambiguous(matches.all)
    }

    /// Whether `name` is the module-qualified name of a type in the catalog.
    package func isType(_ name: String) -> Bool { type(qualified: name) != nil }

    /// The module-qualified types whose short name is `name`, sorted; empty when none.
    package func types(named name: String) -> [String] {
        types(short: name).map { $0.all.map { types[$0].qualified }.sorted() } ?? []
    }

    /// The factories that provide a qualified type, sorted; nil when none does.
    package func providers(of qualified: String) -> [String]? {
        guard let type = typesByQualifiedNameLookup(qualified) else { return nil }
        let providers = providers(of: type)
        return providers.isEmpty ? nil : providers
    }

    /// The module-qualified names of the types some factory provides, sorted.
    package var providedQualifiedNames: [String] { Set(providedTypes.map { types[$0].qualified }).sorted() }

    /// The factory of that name, as a catalog description states it.
    package func factory(named name: String) -> CatalogDescription.Factory? {
        guard let offset = factoryOffset(named: name) else { return nil }
        switch source {
        case .live(let catalog): return CatalogDescription.Factory(catalog.definitions[offset], withPlace: true, decoding: catalog.parameterDecoding)
        case .description(let description): return description.factories[offset]
        }
    }

    /// The type of a qualified name, dotless or not.
    private func typesByQualifiedNameLookup(_ qualified: String) -> TypeID? {
        type(qualified: qualified) ?? types(short: qualified).flatMap { list in
            list.all.first { types[$0].qualified == qualified }
        }
    }
}
