// The bindings of a manifest as validation concluded them, indexed for the
// tools: `explain` and `graph` look a type up exactly as resolution looks it
// up, through the validator's winners with the same injector fallback
// (``ServingTable``), and print the validator's verdict on each need
// (``DependencyVerdicts``) rather than following the needs themselves.
//
// The validator's winners include broken bindings (an unknown factory, a
// protocol the catalog does not know), which are never in effect in a
// container: a manifest being explained is often one being repaired.

import Patchbay

/// A manifest's bindings as the validator concluded them, with their factories from the catalog.
struct BindingTable {
    let manifest: Manifest
    let catalog: CatalogIndex?
    /// primary, secondary, then the custom injectors.
    let injectorOrder: [InjectorName]
    /// The binding that stands for each type and injector, broken or not, in
    /// manifest order (a parent's first): the validator's winners.
    let bindings: [BindingDescription]
    /// The validator's verdict on every need of every binding.
    let verdicts: DependencyVerdicts
    /// The bindings' type names (see ``typeName(of:)``) and the validator's numbers for them.
    private let typeNumbers: [String: Int]
    /// Each binding's place in ``bindings``, by its place in the manifest.
    private let places: [Int: Int]
    /// The catalog's factories that the bindings name, by name.
    private let factories: [String: CatalogDescription.Factory]

    init(manifest: Manifest, catalog: CatalogDescription?) {
        self.init(manifest: manifest, index: catalog.map { CatalogIndex($0) })
    }

    /// The table of a manifest with a catalog index already made (the one a check judged it by).
    init(manifest: Manifest, index: CatalogIndex?) {
        self.manifest = manifest
        self.catalog = index
        verdicts = ManifestValidator(index: index).dependencyVerdicts(manifest)
        injectorOrder = ValidationRun.injectorOrder(of: manifest)
        bindings = verdicts.bindings
        var numbers: [String: Int] = [:]
        var places: [Int: Int] = [:]
        var factories: [String: CatalogDescription.Factory] = [:]
        for (place, binding) in bindings.enumerated() {
            numbers[Self.typeName(of: binding)] = binding.typeID
            places[binding.index] = place
            if factories[binding.factory] == nil { factories[binding.factory] = index?.factory(named: binding.factory) }
        }
        self.typeNumbers = numbers
        self.places = places
        self.factories = factories
    }

    /// The validator's verdicts on the needs of `binding`'s factory; nil when the catalog does not know them.
    func needs(of binding: BindingDescription) -> [DependencyVerdicts.Need]? { verdicts.needs[place(of: binding)] }

    /// The validator's verdicts on the needs of each link of `binding`'s chain, in order (none for most bindings).
    func chain(of binding: BindingDescription) -> [DependencyVerdicts.Link] { verdicts.chains[place(of: binding)] }

    /// A binding's place in ``bindings``.
    func place(of binding: BindingDescription) -> Int { places[binding.index]! }

    /// A binding's type as the tools name types: module-qualified when the
    /// catalog knows it, else the name as written.
    static func typeName(of binding: BindingDescription) -> String {
        binding.qualifiedType ?? binding.binding.protocolName
    }

    /// The catalog's factory of a binding, when the catalog has one of that name.
    func factory(of binding: BindingDescription) -> CatalogDescription.Factory? { factories[binding.factory] }

    // MARK: - Names

    /// What a type name means to the catalog.
    enum TypeLookup: Equatable {
        /// One type (module-qualified with a catalog, else the name as written).
        case type(String)
        /// A short name that matches several catalog types.
        case ambiguous([String])
    }

    /// What `name` (short or module-qualified) means in the catalog, by the validator's rule
    /// (``CatalogIndex/lookup(_:)``), in qualified names.
    static func lookup(_ name: String, in catalog: CatalogIndex) -> TypeLookup {
        switch catalog.lookup(name) {
        case .type(let type): .type(catalog.types[type].qualified)
        case .ambiguous(let matches): .ambiguous(matches.map { catalog.types[$0].qualified }.sorted())
        case .unknown: .type(name)
        }
    }

    /// The type a requested name means here: through the catalog when it knows
    /// the name; else a bound protocol written the same way, or with the same
    /// short name (the part after the last dot).
    func lookup(_ name: String) -> TypeLookup {
        if let catalog, case .ambiguous(let matches) = Self.lookup(name, in: catalog) { return .ambiguous(matches) }
        if let catalog, case .type(let resolved) = Self.lookup(name, in: catalog), typeNumbers[resolved] != nil
            || catalog.isType(resolved)
        {
            return .type(resolved)
        }
        if typeNumbers[name] != nil { return .type(name) }
        let short = Self.shortName(name)
        let matches = Set(typeNumbers.keys.filter { Self.shortName($0) == short && (short == name || $0 == short) })
        if matches.count > 1 { return .ambiguous(matches.sorted()) }
        return .type(matches.first ?? name)
    }

    /// The part of a type name after the last dot.
    static func shortName(_ name: String) -> String {
        name.split(separator: ".").last.map(String.init) ?? name
    }

    /// The short name of a type, for display.
    func display(_ type: String) -> String { catalog?.display(type) ?? type }

    /// The short name of a type the validator numbered.
    func display(_ type: CatalogIndex.TypeID) -> String { catalog?.display(type) ?? "" }

    // MARK: - Resolution

    /// The binding that serves `type` when asked from `injector`: its own, else
    /// the first in injector order.
    func serving(_ type: String, from injector: InjectorName) -> BindingDescription? {
        typeNumbers[type].flatMap { verdicts.serving.binding(serving: $0, from: injector) }.map { bindings[$0] }
    }

    /// The elements that serve the collection `[type]` asked from `injector`,
    /// in manifest order: its own, else the first injector's in order that has
    /// some; nil when no injector lists any.
    func elements(_ type: String, from injector: InjectorName) -> [BindingDescription]? {
        typeNumbers[type].flatMap { verdicts.collections.elements(of: $0, from: injector) }.map { $0.map { bindings[$0] } }
    }

    /// Every injector's elements of `type`'s collection, in injector order, then manifest order.
    func allElements(of type: String) -> [BindingDescription] {
        guard let number = typeNumbers[type] else { return [] }
        return allInjectors.flatMap { injector in (verdicts.collections.own(number, in: injector) ?? []).map { bindings[$0] } }
    }

    /// The injectors searched for a type asked from `injector`, in order.
    func searchOrder(from injector: InjectorName) -> [InjectorName] {
        Array(InjectorSearch(from: injector, in: injectorOrder))
    }

    /// Every binding of `type`, in injector order.
    func bindings(of type: String) -> [BindingDescription] {
        guard let byInjector = typeNumbers[type].flatMap({ verdicts.serving[$0] }) else { return [] }
        return allInjectors.compactMap { byInjector.own($0) }.map { bindings[$0] }
    }

    /// The injector order, then any injector a binding uses that the order
    /// lacks (one missing from the manifest's `injectors`, a `check` error),
    /// in order of first use.
    var allInjectors: [InjectorName] {
        var order = injectorOrder
        var seen = Set(order)
        for binding in bindings where seen.insert(binding.injector).inserted { order.append(binding.injector) }
        return order
    }

    /// Bound type names and catalog types that some factory provides, short names, for "did you mean".
    var knownNames: Set<String> {
        var names = Set(bindings.map(\.type))
        if let catalog { names.formUnion(catalog.providedShortNames) }
        return names
    }
}
