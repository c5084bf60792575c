/// The catalog index by name, for the tools (`explain`, `graph`, `schema`),
/// which speak of types by their module-qualified names.
extension CatalogIndex {
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
        case .live(let catalog): return CatalogDescription.Factory(catalog.definitions[offset], withPlace: true)
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
