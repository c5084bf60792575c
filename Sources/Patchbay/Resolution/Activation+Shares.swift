import Foundation

// The first step of compiling: each binding made into a `CompiledBinding`,
// factory by factory, the bindings of a large manifest in shares on every core.

extension Activation {
    /// What one share of the bindings compiled to: each binding by its place
    /// in the validation result, and what is behind its decorated bindings.
    struct CompiledShare: Sendable {
        var bindings: [(place: Int, binding: CompiledBinding)] = []
        var links: [CompiledBinding] = []
        var chains: [Chain] = []
        var hasGraphBindings = false
    }

    /// Every binding of `result` compiled, in shares of whole factories: the
    /// bindings that share instances are always of one factory (see `ShareKey`),
    /// so no two shares need each other, and each runs on a core of its own.
    static func compileShares(
        _ result: ValidationResult, of manifest: Manifest, catalog: FactoryCatalog,
        keeping kept: [StorageKey: any LifetimeStorage], cores: Int
    ) -> [CompiledShare] {
        let count = result.bindings.count
        // Walked factory by factory (see `GroupedOrder`): a factory's groups are then its own,
        // found by injector place (`ShareGroups`) and forgotten at the next factory, where one
        // dictionary of every group missed the cache at each binding of a large manifest.
        let byFactory = GroupedOrder(count: count, keyCount: catalog.definitions.count) {
            result.bindings[$0].factoryPlace
        }.places
        let shares = ParallelMap.shares(of: count, cores: cores)
        // Each share ends where a factory does, at or after its even part.
        var ends: [Int] = []
        var end = 0
        for share in 1...shares {
            end = max(end, share * count / shares)
            while end > 0, end < count,
                result.bindings[byFactory[end]].factoryPlace == result.bindings[byFactory[end - 1]].factoryPlace
            {
                end += 1
            }
            ends.append(end)
        }
        let ranges = ends.indices.map { ($0 == 0 ? 0 : ends[$0 - 1])..<ends[$0] }.filter { !$0.isEmpty }
        return ParallelMap.map(count: ranges.count, jobs: ranges.count) { share in
            compileShare(byFactory[ranges[share]], of: result, manifest: manifest, catalog: catalog, keeping: kept)
        }
    }

    /// Compiles the bindings at `places`, whole factories in factory order.
    private static func compileShare(
        _ places: ArraySlice<Int>, of result: ValidationResult, manifest: Manifest, catalog: FactoryCatalog,
        keeping kept: [StorageKey: any LifetimeStorage]
    ) -> CompiledShare {
        var share = CompiledShare()
        share.bindings.reserveCapacity(places.count)
        var groups = ShareGroups(injectorCount: result.injectorOrder.count)
        // By index, each field read where it stands: a description bound to a local (or handed to
        // `enumerated()` or `contains`) was a copy of it, retains and releases of all it holds.
        for offset in places.indices {
            let place = places[offset]
            let index = result.bindings[place].index, factoryPlace = result.bindings[place].factoryPlace
            let lifetime = result.bindings[place].lifetime, injector = result.bindings[place].injector
            let parameters = result.bindings[place].parameters
            share.hasGraphBindings = share.hasGraphBindings || lifetime == .graph
            var definition = catalog.definitions[factoryPlace]
            var provided = definition.provides[result.bindings[place].provided]
            let kind = lifetime.storage
            let startsFactory = offset == places.startIndex
                || result.bindings[places[offset - 1]].factoryPlace != factoryPlace
            let factoryHasOthers = !startsFactory
                || (offset + 1 < places.endIndex && result.bindings[places[offset + 1]].factoryPlace == factoryPlace)
            if startsFactory { groups.startFactory() }
            // Where the factory's product is kept for this binding: with the group's.
            func productStorage(_ key: StorageKey) -> any LifetimeStorage {
                guard kind.sharesInstances else { return kind.init() }
                guard factoryHasOthers else { return kept.isEmpty ? kind.init() : kept[key] ?? kind.init() }
                let shareKey = ShareKey(
                    lifetime: lifetime, injector: injector, parameters: manifest.bindings[index].parameterSource)
                return groups.storage(for: shareKey, rank: result.bindings[place].injectorRank) {
                    kept.isEmpty ? kind.init() : kept[key] ?? kind.init()
                }
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
                share.links += [product] + chain.map(\.binding)
                share.chains.append(Chain(index: index, product: product, links: chain.map(\.binding)))
                definition = DecoratorChain.definition(around: product, links: chain, keptWeakly: lifetime == .weak)
                provided = ProvidedType(key: provided.key, type: provided.type, convert: nil)
                storage = kept[StorageKey(index, .binding)] ?? kind.init()
            } else {
                storage = productStorage(StorageKey(index, .binding))
            }
            share.bindings.append(
                (place, CompiledBinding(
                    injector: injector, definition: definition, provided: provided,
                    parameters: parameters, storage: storage, described: (result.bindings, place))))
        }
        return share
    }

    /// Bindings of one factory with the same lifetime, injector and
    /// parameters share their instances, whichever of the product's
    /// provided types each binds: one storage, one object seen as each type.
    struct ShareKey: Equatable {
        let lifetime: Lifetime
        let injector: InjectorName
        let parameters: BindingParameters?

        /// The same text is the same parameters; other text is compared by value.
        static func == (lhs: ShareKey, rhs: ShareKey) -> Bool {
            guard lhs.lifetime == rhs.lifetime, lhs.injector == rhs.injector else { return false }
            switch (lhs.parameters, rhs.parameters) {
            case (nil, nil): return true
            case (let left?, let right?): return left.json == right.json || left.value == right.value
            default: return false
            }
        }
    }

    /// The sharing groups of one factory's bindings, found by the injector's
    /// place in the order rather than by a hash: only bindings of one injector
    /// can share, and hashing each binding's key was a fifth of compiling a
    /// manifest of 100,000 bindings. Each injector's groups of the factory are
    /// chained from its slot, which a stamp marks as the current factory's.
    struct ShareGroups {
        /// By injector place (the last slot for an injector not in the order):
        /// the factory whose groups the slot holds, and its first group.
        private var factoryOfSlot: [Int], firstOfSlot: [Int]
        /// The current factory's groups, each with the next of its slot (-1: none).
        private var groups: [(key: ShareKey, storage: any LifetimeStorage, next: Int)] = []
        private var factory = 0

        init(injectorCount: Int) {
            factoryOfSlot = Array(repeating: -1, count: injectorCount + 1)
            firstOfSlot = Array(repeating: -1, count: injectorCount + 1)
        }

        /// Forgets the last factory's groups: no other factory's binding shares them.
        mutating func startFactory() {
            factory += 1
            groups.removeAll(keepingCapacity: true)
        }

        /// The storage of `key`'s group, of an injector at `rank`; made by `make` when the group is new.
        mutating func storage(
            for key: ShareKey, rank: Int, make: () -> any LifetimeStorage
        ) -> any LifetimeStorage {
            let slot = min(max(rank, 0), factoryOfSlot.count - 1)
            if factoryOfSlot[slot] == factory {
                var at = firstOfSlot[slot]
                while at >= 0 {
                    if groups[at].key == key { return groups[at].storage }
                    at = groups[at].next
                }
            } else {
                (factoryOfSlot[slot], firstOfSlot[slot]) = (factory, -1)
            }
            let storage = make()
            groups.append((key, storage, firstOfSlot[slot]))
            firstOfSlot[slot] = groups.count - 1
            return storage
        }
    }
}
