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
    static func compile(
        _ result: ValidationResult, of manifest: Manifest, catalog: FactoryCatalog,
        keeping kept: [StorageKey: any LifetimeStorage] = [:]
    ) -> Activation {
        // Bindings of one factory with the same lifetime, injector and
        // parameters share their instances, whichever of the product's
        // provided types each binds: one storage, one object seen as each type.
        struct ShareKey: Hashable {
            let factory: Int
            let lifetime: Lifetime
            let injector: InjectorName
            let parameters: BindingParameters?

            /// Parameters are left out of the hash: equal ones written apart may
            /// differ in layout, and hashing their value would decode each.
            func hash(into hasher: inout Hasher) {
                hasher.combine(factory)
                hasher.combine(lifetime)
                hasher.combine(injector)
            }

            /// The same text is the same parameters; other text is compared by value.
            static func == (lhs: ShareKey, rhs: ShareKey) -> Bool {
                guard lhs.factory == rhs.factory, lhs.lifetime == rhs.lifetime, lhs.injector == rhs.injector else {
                    return false
                }
                switch (lhs.parameters, rhs.parameters) {
                case (nil, nil): return true
                case (let left?, let right?): return left.json == right.json || left.value == right.value
                default: return false
                }
            }
        }
        var shared: [ShareKey: any LifetimeStorage] = [:]
        // At most one group per binding: made at its full size once, never rehashed as it grows.
        shared.reserveCapacity(result.bindings.count)
        // Which binding serves each type from each injector (the rule is
        // `InjectorServing`'s); usually one binding per type, kept inline.
        var bindingsByType: [ObjectIdentifier: InjectorServing<CompiledBinding>] = [:]
        bindingsByType.reserveCapacity(result.bindings.count)
        // The elements of each collection, by element type and injector, in manifest order.
        var collections: [CollectionKey: [CompiledBinding]] = [:]
        let injectorCount = result.injectorOrder.count
        let ranks = InjectorRanks(result.injectorOrder)
        // The bindings behind every chain, whose needs are linked with the bindings'.
        var links: [CompiledBinding] = []
        var chains: [Chain] = []
        var hasGraphBindings = false
        // By index, each field read where it stands: a description bound to a local (or handed to
        // `enumerated()` or `contains`) was a copy of it, retains and releases of all it holds.
        for place in result.bindings.indices {
            let index = result.bindings[place].index, factoryPlace = result.bindings[place].factoryPlace
            let lifetime = result.bindings[place].lifetime, injector = result.bindings[place].injector
            let parameters = result.bindings[place].parameters
            hasGraphBindings = hasGraphBindings || lifetime == .graph
            var definition = catalog.definitions[factoryPlace]
            var provided = definition.provides[result.bindings[place].provided]
            let kind = lifetime.storage
            // Where the factory's product is kept for this binding: with the group's.
            func productStorage(_ key: StorageKey) -> any LifetimeStorage {
                guard kind.sharesInstances else { return kind.init() }
                let shareKey = ShareKey(
                    factory: factoryPlace, lifetime: lifetime, injector: injector,
                    parameters: manifest.bindings[index].parameterSource)
                // One hash of the key: the default is made and stored only when the group is new.
                return group(&shared[shareKey, default: kept.isEmpty ? kind.init() : kept[key] ?? kind.init()])
            }
            let storage: any LifetimeStorage
            if !result.bindings[place].decorators.isEmpty {
                // The product is the group's, made once for every binding of
                // it; the decorated binding keeps what its chain made of it.
                // A `weak` product that may be a value is not kept: a weak
                // reference cannot hold it, and the chain around it can be a class.
                let keepsProduct = lifetime != .weak || definition.productIsClass == true
                let product = CompiledBinding(
                    injector: injector, definition: definition, provided: provided, parameters: parameters,
                    storage: keepsProduct ? productStorage(StorageKey(index, .product)) : TransientLifetime(),
                    described: (result.bindings, place))
                // A singleton keeps every link (so lifecycle finds each), but the last, which the binding keeps.
                let last = result.bindings[place].decorators.count - 1
                let keepsLinks = lifetime == .singleton
                let chain = DecoratorChain.links(of: result.bindings[place], serving: provided, catalog: catalog) { offset in
                    guard keepsLinks, offset < last else { return TransientLifetime() }
                    return kept[StorageKey(index, .link(offset))] ?? SingletonLifetime()
                }
                links += [product] + chain.map(\.binding)
                chains.append(Chain(index: index, product: product, links: chain.map(\.binding)))
                definition = DecoratorChain.definition(around: product, links: chain, keptWeakly: lifetime == .weak)
                provided = ProvidedType(key: provided.key, type: provided.type, convert: nil)
                storage = kept[StorageKey(index, .binding)] ?? kind.init()
            } else {
                storage = productStorage(StorageKey(index, .binding))
            }
            let binding = CompiledBinding(
                injector: injector, definition: definition, provided: provided,
                parameters: parameters, storage: storage, described: (result.bindings, place))
            if result.bindings[place].isCollectionElement {
                collections[CollectionKey(type: provided.key.id, injector: injector), default: []].append(binding)
                continue
            }
            add(binding, to: &bindingsByType, injectorCount: injectorCount, ranks: ranks)
        }
        // Each collection is served as one more type, `[T]`, with the same fallback as any.
        for (key, elements) in collections {
            let collection = collectionBinding(of: elements[0].provided.type, elements: elements, injector: key.injector)
            add(collection, to: &bindingsByType, injectorCount: injectorCount, ranks: ranks)
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

    /// The group's storage, as the dictionary holds it: passed `inout`, a subscript with a default
    /// stores the default when the key is new, so a group is found or made with one hash of its key
    /// (1.2% of a 10k activation, against a lookup and then a store).
    private static func group(_ storage: inout any LifetimeStorage) -> any LifetimeStorage { storage }

    /// Files `binding` under its type and injector, in a record made for `injectorCount` injectors
    /// when the type is new. Not `maps[type, default: ...]`: that default is a closure capturing
    /// the count, and its context was allocated twice per binding, at every activation.
    private static func add(
        _ binding: CompiledBinding, to maps: inout [ObjectIdentifier: InjectorServing<CompiledBinding>],
        injectorCount: Int, ranks: InjectorRanks
    ) {
        let rank = ranks[binding.injector]
        if let index = maps.index(forKey: binding.key.id) {
            _ = maps.values[index].add(binding, of: binding.injector, rank: rank)
            return
        }
        var serving = InjectorServing<CompiledBinding>(injectorCount: injectorCount)
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
