// The bindings of a manifest in effect, looked up exactly as resolution looks
// them up: the same override rule for `extends` and the same injector fallback
// (``ValidationRun/serving(_:from:table:)``). `explain` and `graph` read
// manifests through it.
//
// Unlike validation, it keeps every binding it can make sense of, even one
// with a problem (an unknown factory, a protocol the catalog does not know):
// a manifest being explained is often one being repaired.

import Patchbay

/// A manifest's bindings in effect, with their factories from the catalog.
struct BindingTable {
    /// One binding in effect.
    struct Entry {
        /// The binding as the manifest wrote it (parameters interpolated).
        let binding: Binding
        /// The module-qualified type with a catalog that knows the name, else the name as written.
        let type: String
        /// The injector it belongs to.
        var injector: InjectorName { binding.injector }
        /// The factory, when the catalog has one of that name.
        let factory: CatalogDescription.Factory?
        /// The lifetime in effect; `nil` when it is unknown (no catalog to give the factory's default).
        let lifetime: Lifetime?
        /// Where ``lifetime`` comes from.
        let lifetimeSource: LifetimeSource
        /// Bindings of parent manifests that this one replaces, nearest parent first.
        var overrides: [Binding] = []

        /// The file the binding was written in.
        func file(in manifest: Manifest) -> String { binding.origin?.file ?? manifest.file }

        /// `file:line:column` of the binding.
        func location(in manifest: Manifest) -> String {
            let position = binding.origin?.position() ?? SourcePosition(line: 1, column: 1)
            return "\(file(in: manifest)):\(position.line):\(position.column)"
        }
    }

    /// Where a binding's lifetime comes from (``Lifetime/Source``, or unknown).
    enum LifetimeSource: Equatable {
        /// The binding names it.
        case binding
        /// The factory's default lifetime in the catalog.
        case factoryDefault
        /// Neither names one: transient.
        case transientDefault
        /// The binding names none and there is no catalog entry to say.
        case unknown
    }

    /// What a type name means to the catalog.
    enum TypeLookup: Equatable {
        /// One type (module-qualified with a catalog, else the name as written).
        case type(String)
        /// A short name that matches several catalog types.
        case ambiguous([String])
    }

    let manifest: Manifest
    let catalog: CatalogIndex?
    /// primary, secondary, then the custom injectors.
    let injectorOrder: [InjectorName]
    /// The bindings in effect, in manifest order (a parent's first).
    let entries: [Entry]
    /// Which entry serves each type from each injector, built as validation builds it.
    private let table: ServingTable
    /// The entries' types, numbered for ``table``.
    private let typeNumbers: [String: Int]

    init(manifest: Manifest, catalog: CatalogDescription?) {
        self.manifest = manifest
        let index = catalog.map { CatalogIndex($0) }
        self.catalog = index
        let order = ValidationRun.injectorOrder(of: manifest)
        self.injectorOrder = order
        let entries = Self.effective(manifest.bindings, catalog: index)
        self.entries = entries
        var numbers: [String: Int] = [:]
        for entry in entries where numbers[entry.type] == nil { numbers[entry.type] = numbers.count }
        var table = ServingTable(typeCount: numbers.count)
        let ranks = InjectorRanks(order)
        for (offset, entry) in entries.enumerated() {
            _ = table.add(offset, type: numbers[entry.type]!, injector: entry.injector, rank: ranks[entry.injector])
        }
        self.typeNumbers = numbers
        self.table = table
    }

    /// The bindings in effect under the `extends` rule (``OverrideRule``),
    /// each with what it overrides. A duplicate's first binding stays (a
    /// duplicate is a `check` error).
    private static func effective(_ bindings: [Binding], catalog: CatalogIndex?) -> [Entry] {
        // A binding with no factory key names nothing to explain.
        let named = bindings.filter { !$0.factory.isEmpty }
        var typeNumbers: [String: Int] = [:]
        var candidates: [Entry] = []
        var keys: [OverrideRule.Key] = []
        for binding in named {
            let type: String
            if let catalog, case .type(let resolved) = lookup(binding.protocolName, in: catalog) {
                type = resolved
            } else {
                type = binding.protocolName
            }
            let factory = catalog?.factory(named: binding.factory)
            var (lifetime, source): (Lifetime?, LifetimeSource) = (nil, .unknown)
            if factory != nil || binding.lifetime != nil {
                let inEffect = Lifetime.inEffect(named: binding.lifetime, factoryDefault: factory?.defaultLifetime)
                (lifetime, source) = (inEffect.lifetime, LifetimeSource(inEffect.source))
            }
            let number = typeNumbers[type] ?? typeNumbers.count
            typeNumbers[type] = number
            keys.append(OverrideRule.Key(type: number, injector: binding.injector, depth: binding.origin?.depth ?? 0))
            candidates.append(Entry(
                binding: binding, type: type, factory: factory, lifetime: lifetime, lifetimeSource: source))
        }
        return OverrideRule.apply(to: keys).winners.map { winner in
            var entry = candidates[winner.offset]
            entry.overrides = winner.overrides.map { candidates[$0].binding }
            return entry
        }
    }

    // MARK: - Names

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

    // MARK: - Resolution

    /// The binding that serves `type` when asked from `injector`: its own, else
    /// the first in injector order.
    func serving(_ type: String, from injector: InjectorName) -> Entry? {
        typeNumbers[type].flatMap { table.binding(serving: $0, from: injector) }.map { entries[$0] }
    }

    /// The injectors searched for a type asked from `injector`, in order.
    func searchOrder(from injector: InjectorName) -> [InjectorName] {
        [injector] + injectorOrder.filter { $0 != injector }
    }

    /// Every binding of `type`, in injector order.
    func bindings(of type: String) -> [Entry] {
        guard let byInjector = typeNumbers[type].flatMap({ table[$0] }) else { return [] }
        return allInjectors.compactMap { byInjector.own($0) }.map { entries[$0] }
    }

    /// The injector order, then any injector a binding uses that the order
    /// lacks (one missing from the manifest's `injectors`, a `check` error),
    /// in order of first use.
    var allInjectors: [InjectorName] {
        var order = injectorOrder
        var seen = Set(order)
        for entry in entries where seen.insert(entry.injector).inserted { order.append(entry.injector) }
        return order
    }

    /// Bound type names and catalog types that some factory provides, short names, for "did you mean".
    var knownNames: Set<String> {
        var names = Set(entries.map { display($0.type) })
        if let catalog { names.formUnion(catalog.providedShortNames) }
        return names
    }
}

extension BindingTable.LifetimeSource {
    /// The validator's source of a lifetime.
    init(_ source: Lifetime.Source) {
        switch source {
        case .binding: self = .binding
        case .factoryDefault: self = .factoryDefault
        case .transientDefault: self = .transientDefault
        }
    }
}
