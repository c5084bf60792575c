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
    /// short name that only one type has; else, for another spelling of a
    /// name (`any Repository<String>`, `Repository<[Int]>`, labels in
    /// another order, see ``TypeNameSyntax``), the types whose qualified or
    /// short name it spells.
    package func lookup(_ name: String) -> TypeNameLookup {
        if let type = type(qualified: name) { return .type(type) }
        if let matches = types(short: name) {
            return matches.isSingle ? .type(matches.first) : .ambiguous(matches.all)
        }
        guard let matches = types(spelled: name) else { return .unknown }
        return matches.count == 1 ? .type(matches[0]) : .ambiguous(matches)
    }

    /// The types whose qualified or short name `name` spells another way;
    /// nil when none does. Only a name not found as written gets here, so
    /// the table of keys is made the first time one is asked for.
    func types(spelled name: String) -> [TypeID]? {
        // Space inside a name is Swift's to allow (`Thing< Int >`); around
        // it, it is a slip in the JSON string, which a name never matches.
        guard let first = name.unicodeScalars.first, let last = name.unicodeScalars.last,
              !first.properties.isWhitespace, !last.properties.isWhitespace
        else { return nil }
        let key = TypeNameSyntax.lookupKey(name)
        return spellingTables.types[key]
    }

    /// See ``typesBySpelling``.
    private var spellingTables: SpellingTables {
        typesBySpelling.kept {
            var tables = SpellingTables()
            for (id, type) in types.enumerated() {
                var keys = Set([TypeNameSyntax.lookupKey(type.qualified), TypeNameSyntax.lookupKey(type.short)])
                if let nested = TypeNameSyntax.withoutModule(type.qualified, short: type.short) {
                    keys.insert(TypeNameSyntax.lookupKey(nested))
                }
                for key in keys { tables.types[key, default: []].append(id) }
            }
            for type in Set(providedTypes[..<factoryProvidedEnd]) {
                let short = types[type].short
                guard let head = TypeNameSyntax.genericHead(short) else { continue }
                tables.providedByHead[head, default: []].append(short)
            }
            for head in tables.providedByHead.keys { tables.providedByHead[head]!.sort() }
            return tables
        }
    }

    /// The nearest short names of provided types to `name`, for "did you
    /// mean": compared as the short names are written, so `any Repostory<[Int]>`
    /// finds `Repository<Array<Int>>`.
    package func typeSuggestions(for name: String, limit: Int) -> [String] {
        let asWritten = providedShortNameSuggestions.suggestions(for: name, limit: limit)
        let form = TypeNameSyntax.suggestionForm(name)
        var found = form == name ? asWritten : providedShortNameSuggestions.suggestions(for: form, limit: limit)
        for suggestion in asWritten where !found.contains(suggestion) { found.append(suggestion) }
        // `P<Int, String>` for a protocol of several primary associated
        // types, whose names are labelled: too far apart to be near by
        // spelling, so the provided types of that generic name are offered.
        if found.isEmpty, let head = TypeNameSyntax.genericHead(form) {
            found = spellingTables.providedByHead[head] ?? []
        }
        return Array(found.prefix(limit))
    }

    /// Whether `name` is the module-qualified name of a type in the catalog.
    package func isType(_ name: String) -> Bool { type(qualified: name) != nil }

    /// The module-qualified types whose short name is `name`, sorted; empty when none.
    package func types(named name: String) -> [String] {
        types(short: name).map { $0.all.map { types[$0].qualified }.sorted() } ?? []
    }

    /// The factories that provide a qualified type, sorted; nil when none does.
    package func providers(of qualified: String) -> [String]? {
        // The type of a qualified name, dotless or not, or spelled another way.
        let id = type(qualified: qualified) ?? types(short: qualified).flatMap { list in
            list.all.first { types[$0].qualified == qualified }
        } ?? types(spelled: qualified).flatMap { $0.count == 1 ? $0[0] : nil }
        guard let id else { return nil }
        let providers = providers(of: id)
        return providers.isEmpty ? nil : providers
    }

    /// The module-qualified names of the types some factory provides, sorted.
    package var providedQualifiedNames: [String] { Set(providedTypes[..<factoryProvidedEnd].map { types[$0].qualified }).sorted() }

    /// The factory of that name, as a catalog description states it.
    package func factory(named name: String) -> CatalogDescription.Factory? {
        guard let offset = factoryOffset(named: name) else { return nil }
        switch source {
        case .live(let catalog):
            let definition = catalog.definitions[offset]
            return CatalogDescription.Factory(
                definition, decoding: catalog.parameterDecoding, environments: catalog.environments(ofFactory: definition.name))
        case .description(let description): return description.factories[offset]
        }
    }
}
