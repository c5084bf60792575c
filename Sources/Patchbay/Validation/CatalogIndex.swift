/// A catalog description, indexed for the name lookups of validation.
///
/// Built at every activation, so it keeps only what validating a correct
/// manifest reads, one string hash per type name; what only messages,
/// suggestions and the schema read (the providers of each type) is worked
/// out the first time one asks.
struct CatalogIndex: Sendable {
    /// The description's factories, in its order.
    let factories: [CatalogDescription.Factory]
    /// The place of each factory name in `factories` (the last, if a
    /// description repeats a name).
    private let offsetsByName: [String: Int]
    /// Every type the catalog names: qualified name -> short name.
    private let shortNames: [String: String]
    /// Short name -> the qualified types of that name.
    private let typesByShortName: [String: InlineList<String>]
    /// Whether some qualified name has no dot (`Any`, `()`): otherwise a
    /// manifest name without one, the usual short name, cannot be qualified.
    private let hasDotlessTypeNames: Bool
    /// Qualified type -> the factories that provide it; made on first use.
    private let providerGroups = Locked<[String: InlineList<String>]?>(nil)

    /// Indexes `description`.
    init(_ description: CatalogDescription) {
        var offsets: [String: Int] = [:]
        offsets.reserveCapacity(description.factories.count)
        for (offset, factory) in description.factories.enumerated() { offsets[factory.name] = offset }
        var shortNames: [String: String] = [:]
        var typesByShortName: [String: InlineList<String>] = [:]
        var hasDotlessTypeNames = false
        shortNames.reserveCapacity(description.types.count)
        typesByShortName.reserveCapacity(description.types.count)
        // A description may list a type more than once (the one made for
        // validation does not spend a set on removing repeats): the first
        // hash finds a repeat, and nothing else is done for it.
        for type in description.types {
            let previous = shortNames.updateValue(type.name, forKey: type.qualified)
            guard previous != type.name else { continue }
            typesByShortName.append(type.qualified, under: type.name)
            if previous == nil, !type.qualified.containsASCII(UInt8(ascii: ".")) { hasDotlessTypeNames = true }
        }
        self.factories = description.factories
        self.offsetsByName = offsets
        self.shortNames = shortNames
        self.typesByShortName = typesByShortName
        self.hasDotlessTypeNames = hasDotlessTypeNames
    }

    // MARK: - Factories

    /// The place in ``factories`` of the factory of that name.
    func factoryOffset(named name: String) -> Int? { offsetsByName[name] }

    /// The factory of that name.
    func factory(named name: String) -> CatalogDescription.Factory? { offsetsByName[name].map { factories[$0] } }

    /// Every factory name, unsorted, with its place in ``factories``.
    var factoryNamesAndOffsets: [String: Int] { offsetsByName }

    /// Every factory name, unsorted.
    var factoryNames: [String] { Array(offsetsByName.keys) }

    // MARK: - Types

    /// Whether `name` is the module-qualified name of a type in the catalog.
    func isType(_ name: String) -> Bool {
        // No hash for a dotless name when no qualified name is dotless.
        if !hasDotlessTypeNames, !name.containsASCII(UInt8(ascii: ".")) { return false }
        return shortNames[name] != nil
    }

    /// The qualified types whose short name is `name`, sorted; empty when none.
    func types(named name: String) -> [String] {
        typesByShortName[name].map { $0.isSingle ? [$0.first] : Array(Set($0.all)).sorted() } ?? []
    }

    /// The one qualified type whose short name is `name`, without sorting
    /// anything; nil when there is none or more than one.
    func onlyType(named name: String) -> String? {
        guard let group = typesByShortName[name] else { return nil }
        return group.isSingle || group.all.allSatisfy({ $0 == group.first }) ? group.first : nil
    }

    /// The short name of a qualified type, for messages.
    func display(_ qualified: String) -> String { shortNames[qualified] ?? qualified }

    // MARK: - Providers (messages, suggestions, the schema)

    /// The factories that provide a qualified type, sorted; nil when none does.
    func providers(of type: String) -> [String]? {
        withProviderGroups { $0[type] }.map { $0.isSingle ? [$0.first] : $0.all.sorted() }
    }

    /// The qualified types provided by some factory, unsorted.
    var providedTypes: [String] { withProviderGroups { Array($0.keys) } }

    /// Types that some factory provides, by short name, for suggestions.
    var providedShortNames: [String] { providedTypes.map(display) }

    private func withProviderGroups<Result>(_ body: ([String: InlineList<String>]) -> Result) -> Result {
        providerGroups.withLock { groups in
            if groups == nil {
                var made: [String: InlineList<String>] = [:]
                for factory in factories {
                    for type in factory.provides { made.append(factory.name, under: type) }
                }
                groups = made
            }
            return body(groups!)
        }
    }
}
