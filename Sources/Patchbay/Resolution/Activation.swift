import Foundation

/// A validated manifest compiled into a resolution table: for each type,
/// which binding serves it from each injector, with fallback already worked
/// out. Immutable once made; a re-activation builds a new one and swaps it in.
@usableFromInline
final class Activation: Sendable {
    let manifest: Manifest
    let injectorOrder: [InjectorName]
    @usableFromInline let entries: TypeTable
    /// The table's plain slots, what the engine looks a type up in: a copy
    /// of this small struct, where reading it through `entries` copies the
    /// whole table, retaining and releasing what it owns.
    let fastTable: FastTable
    /// Whether a test has installed overrides on the container: until then a
    /// resolve skips the task-local lookup. Kept here so that the one atomic
    /// read of the current activation also answers this.
    @usableFromInline let overridesInUse: Bool
    /// The warnings validation found (errors prevent an activation).
    let warnings: [Diagnostic]
    /// The catalog compiled from, for "not bound" messages. What those need
    /// (the providers of a type, the names bound) is worked out when a message
    /// is made, not at every activation.
    let catalog: FactoryCatalog
    /// The types whose empty collection resolves to `[]` (see
    /// ``emptyCollection(_:)``), worked out the first time an unbound array is asked for.
    let knownElementTypes: InstanceCell
    /// Whether any binding is `graph`: only then does a `Lazy` made in a
    /// resolution keep its graph instances (see ``SharedGraph``).
    let hasGraphBindings: Bool
    /// The bindings no type is served by, behind each decorated binding:
    /// its factory's product, and the links of its chain. Lifecycle, reset
    /// and retiring read their storages as they read the served bindings'.
    let chains: [Chain]
    /// Which compile made it: the same for its twin with overrides on
    /// (``withOverridesInUse()``), so a re-activation can tell that the one
    /// in force is still the one it compiled against.
    let serial: Int

    /// The last ``serial`` given.
    private static let serials = AtomicCounter()

    /// What a decorated binding keeps behind it (see ``DecoratorChain``).
    struct Chain {
        /// The decorated binding's place in the manifest.
        let index: Int
        /// The factory's product, in the storage it shares with the
        /// undecorated bindings of the same factory, lifetime, injector and parameters.
        let product: CompiledBinding
        /// The links, innermost first; a singleton's keep their instances, but the last, which the binding keeps.
        let links: [CompiledBinding]

        /// Each hidden binding with its storage's key for ``Activation/compile(_:of:catalog:keeping:)``.
        var storages: [(key: StorageKey, binding: CompiledBinding)] {
            [(StorageKey(index, .product), product)]
                + links.enumerated().map { (StorageKey(index, .link($0.offset)), $0.element) }
        }
    }

    /// Which storage of a manifest binding a reset carries over: the
    /// binding's own, or, behind a decorated binding, its product's or a link's.
    struct StorageKey: Hashable {
        enum Role: Hashable { case binding, product, link(Int) }
        let index: Int
        let role: Role
        init(_ index: Int, _ role: Role) { (self.index, self.role) = (index, role) }
    }

    init(
        manifest: Manifest, injectorOrder: [InjectorName], entries: TypeTable, overridesInUse: Bool = false,
        warnings: [Diagnostic], catalog: FactoryCatalog, knownElementTypes: InstanceCell = InstanceCell(),
        hasGraphBindings: Bool, chains: [Chain] = [], serial: Int? = nil
    ) {
        self.serial = serial ?? Self.serials.add(1) + 1
        self.manifest = manifest
        self.injectorOrder = injectorOrder
        self.entries = entries
        self.fastTable = entries.fast
        self.overridesInUse = overridesInUse
        self.warnings = warnings
        self.catalog = catalog
        self.knownElementTypes = knownElementTypes
        self.hasGraphBindings = hasGraphBindings
        self.chains = chains
    }

    /// The same activation — the same bindings and the same singleton
    /// instances — with overrides switched on.
    func withOverridesInUse() -> Activation {
        Activation(
            manifest: manifest, injectorOrder: injectorOrder, entries: entries, overridesInUse: true,
            warnings: warnings, catalog: catalog, knownElementTypes: knownElementTypes,
            hasGraphBindings: hasGraphBindings, chains: chains, serial: serial)
    }

    /// The binding that serves `id` from `injector`, read through the table's
    /// plain slots (see ``fastTable``); nil when no injector binds it.
    @inline(__always)
    func binding(serving id: ObjectIdentifier, from injector: InjectorName) -> CompiledBinding? {
        fastTable.binding(serving: id, from: injector)
    }

    /// The catalog's factories that provide `key`, sorted; nil when none does.
    func providers(of key: TypeKey) -> [String]? {
        let names = catalog.definitions.filter { $0.provides.contains { $0.key == key } }.map(\.name)
        return names.isEmpty ? nil : names.sorted()
    }

    /// Validates `manifest` against `catalog` and compiles it.
    /// - Throws: ``ManifestError`` with every problem, when there is any error.
    static func compile(_ manifest: Manifest, catalog: FactoryCatalog) throws(ManifestError) -> Activation {
        compile(try validate(manifest, catalog: catalog), of: manifest, catalog: catalog)
    }

    /// Validates `manifest` against `catalog`: what compiling it starts from.
    /// - Throws: ``ManifestError`` with every problem, when there is any error.
    static func validate(_ manifest: Manifest, catalog: FactoryCatalog) throws(ManifestError) -> ValidationResult {
        var result = ManifestValidator(catalog: catalog).run(manifest)
        guard !result.diagnostics.containsErrors else { throw refusal(&result) }
        return result
    }

    /// Reads, validates and compiles the manifest file at `url`: what the
    /// file reader found and what the validator found are reported together,
    /// as `patchbay check` reports them, never in rounds.
    /// - Parameter environment: The environment the app named, judged whatever the file's label says;
    ///   nil for a file loaded alone (see ``JudgedEnvironment``).
    /// - Throws: ``ManifestError`` with every problem, when there is any error.
    static func load(
        contentsOf url: URL, loader: ManifestLoader, catalog: FactoryCatalog, environment: String? = nil
    ) throws(ManifestError) -> Activation {
        let (read, loaded) = loader.loadCollecting(contentsOf: url)
        guard let manifest = read?.judged(as: environment) else { throw ManifestError(diagnostics: loaded) }
        var result = ManifestValidator(catalog: catalog).run(manifest)
        guard !loaded.containsErrors, !result.diagnostics.containsErrors else { throw refusal(&result, after: loaded) }
        return compile(result, of: manifest, catalog: catalog)
    }

    /// The error that refuses a manifest: what reading it found, then what
    /// validating it found, in display order. They are taken out of the
    /// result and sorted where they stand: a manifest broken in every one of
    /// its 400,000 bindings must not cost copies of them all.
    private static func refusal(_ result: inout ValidationResult, after loaded: [Diagnostic] = []) -> ManifestError {
        var all: [Diagnostic] = []
        swap(&all, &result.diagnostics)
        if !loaded.isEmpty { all.insert(contentsOf: loaded, at: 0) }
        Diagnostic.sortForDisplay(&all)
        return ManifestError(diagnostics: all)
    }

    /// Compiles what the validator accepted. Its factory places are places
    /// in registration order (see ``CatalogIndex/init(_:)-live``). `kept`
    /// gives, by manifest binding index, the storages of an earlier
    /// activation of the same manifest to share rather than make anew (see
    /// `Container.reset(_:)`), with those behind its decorated bindings.
    /// A manifest of thousands of bindings is compiled on up to `cores` threads (see `compileShares`).
    static func compile(
        _ result: ValidationResult, of manifest: Manifest, catalog: FactoryCatalog,
        keeping kept: [StorageKey: any LifetimeStorage] = [:], cores: Int = ProcessInfo.processInfo.activeProcessorCount
    ) -> Activation {
        let count = result.bindings.count
        // Factory by factory, on every core for a large manifest (see `compileShares`).
        var compiled = [CompiledBinding?](repeating: nil, count: count)
        var links: [CompiledBinding] = []
        var chains: [Chain] = []
        var hasGraphBindings = false
        for share in compileShares(result, of: manifest, catalog: catalog, keeping: kept, cores: cores) {
            for (place, binding) in share.bindings { compiled[place] = binding }
            links += share.links
            chains += share.chains
            hasGraphBindings = hasGraphBindings || share.hasGraphBindings
        }
        // In manifest order, whichever share made each.
        chains.sort { $0.index < $1.index }
        // Which binding serves each type from each injector (the rule is
        // `InjectorServing`'s); usually one binding per type, kept inline.
        var bindingsByType: [ObjectIdentifier: InjectorServing<CompiledBinding>] = [:]
        // At most one record per type bound: a manifest of 100,000 bindings may bind only 1,000 types.
        bindingsByType.reserveCapacity(min(count, result.typeCount))
        // The elements of each collection, by element type and injector, in manifest order.
        var collections: [CollectionKey: [CompiledBinding]] = [:]
        let injectorCount = result.injectorOrder.count
        let ranks = InjectorRanks(result.injectorOrder)
        // Filed type by type (see `GroupedOrder`), each type's elements in manifest order, and each
        // type's record made with room for as many injectors as the type has bindings.
        let byType = GroupedOrder(count: count, keyCount: result.typeCount) { result.bindings[$0].typeID }
        for place in byType.places {
            let binding = compiled[place]!
            if result.bindings[place].isCollectionElement {
                collections[CollectionKey(type: binding.provided.key.id, injector: binding.injector), default: []]
                    .append(binding)
            } else {
                let room = min(injectorCount, byType.size(of: result.bindings[place].typeID))
                add(binding, rank: result.bindings[place].injectorRank, to: &bindingsByType, injectorCount: room, exactly: true)
            }
        }
        // Each collection is served as one more type, `[T]`, with the same fallback as any.
        for (key, elements) in collections {
            let collection = collectionBinding(of: elements[0].provided.type, elements: elements, injector: key.injector)
            add(collection, rank: ranks[key.injector], to: &bindingsByType, injectorCount: injectorCount)
        }
        let heads = bindingsByType.values.map { serving in
            // The head is the first in injector order: what a request from an
            // injector with no binding of its own gets.
            let head = serving.first!.value
            let own = serving.own
            if own.single == nil, head === own.first?.value {
                head.head(own.others)  // bound first, as usual: the others are the map's own, shared
            } else if own.single == nil {
                var others: [InjectorName: CompiledBinding] = [:]
                own.forEachValue { if $0 !== head { others[$0.injector] = $0 } }
                head.head(others)
            }
            return head
        }
        let table = TypeTable(heads)
        for head in heads {
            head.forEachBinding { binding in
                binding.linkNeeds(in: table.fast)
                for element in binding.elements { element.linkNeeds(in: table.fast) }
            }
        }
        for link in links { link.linkNeeds(in: table.fast) }
        return Activation(
            manifest: manifest, injectorOrder: result.injectorOrder, entries: table,
            warnings: result.diagnostics.warnings, catalog: catalog,
            hasGraphBindings: hasGraphBindings, chains: chains)
    }

    /// Files `binding` under its type and injector (at `rank` in the injector order), in a record
    /// made for `injectorCount` injectors (`exactly`: see `InjectorMap`) when the type is new. Not `maps[type, default: ...]`: that
    /// default is a closure capturing the count, and its context was allocated twice per binding.
    private static func add(
        _ binding: CompiledBinding, rank: Int, to maps: inout [ObjectIdentifier: InjectorServing<CompiledBinding>],
        injectorCount: Int, exactly: Bool = false
    ) {
        if let index = maps.index(forKey: binding.key.id) {
            _ = maps.values[index].add(binding, of: binding.injector, rank: rank)
            return
        }
        var serving = InjectorServing<CompiledBinding>(injectorCount: injectorCount, exactly: exactly)
        _ = serving.add(binding, of: binding.injector, rank: rank)
        maps[binding.key.id] = serving
    }

    /// Lets go of every singleton of this activation, when its container is
    /// gone: threads may still hold the activation in their resolve cache (see
    /// ``ThreadResolutionState``), but nothing can resolve through a container
    /// that no longer exists, so no read can race with this.
    func retire() {
        // Walked in place, not through `compiledBindings`: freeing an activation allocates nothing.
        for case let head? in entries.heads {
            head.forEachBinding { binding in
                binding.storage.sharedCell?.retire()
                for element in binding.elements { element.storage.sharedCell?.retire() }
            }
        }
        for chain in chains {
            chain.product.storage.sharedCell?.retire()
            for link in chain.links { link.storage.sharedCell?.retire() }
        }
    }

    /// Every binding of this activation: each type's, in every injector,
    /// and each element of a collection.
    var compiledBindings: [CompiledBinding] {
        entries.bindings.flatMap { [$0] + $0.others.values }.flatMap { [$0] + $0.elements }
    }

    /// Every binding whose storage may keep an instance: ``compiledBindings``,
    /// then those behind decorated bindings (``chains``).
    var keepingBindings: [CompiledBinding] {
        compiledBindings + chains.flatMap { [$0.product] + $0.links }
    }

    /// The injectors searched for a request from `injector`, in order.
    func searchOrder(from injector: InjectorName) -> [InjectorName] {
        Array(InjectorSearch(from: injector, in: injectorOrder))
    }
}
