// What a re-activation keeps of the activation it replaces: the storages
// (and so the made singletons, weak instances and scopes' instances) of
// every binding that did not change. "Unchanged" is the reference's rule
// ("Re-activate while running"): the same type and injector; the same
// factory, lifetime, parameters after interpolation, and decorators with
// their parameters; and every need (plain, `T?`, `Lazy`, `[T]`, `Lazy<[T]>`)
// served by an unchanged binding that was serving it before, or unserved in
// both. A binding whose need changed is made anew, and so is what needs it.
// A `Provider<T>` need is not compared: it resolves anew at each call from
// the wiring in force, so its holder, kept, gets the new `T` (where a `Lazy`
// holds what it resolved first, and its holder must be made anew).
//
// It is a greatest fixpoint: every binding that matches one of the old
// activation's is taken as unchanged, then any whose need fails the rule is
// marked changed, until no more are; so bindings that need each other
// through `Lazy` or `Provider` stay kept together when none of them changed.

extension Activation {
    /// The storages of `old` that `self`, compiled from a new manifest without
    /// keeping any, may share, by the key ``compile(_:of:catalog:keeping:)``
    /// reads: every unchanged binding's, its product's and links' behind a
    /// decorated one. Empty when nothing is unchanged.
    func storagesKept(from old: Activation) -> [StorageKey: any LifetimeStorage] {
        var comparison = RewiringComparison(new: self, old: old)
        comparison.markChanged()
        return comparison.keptStorages()
    }
}

/// The two activations' bindings, matched and compared (see the file's comment).
private struct RewiringComparison {
    let new: Activation, old: Activation
    /// Every binding of the new activation that keeps or reads a storage, and those behind its chains.
    private var nodes: [CompiledBinding] = []
    /// The old binding each new one matches, by object: the same place in the wiring, the same content.
    private var matched: [ObjectIdentifier: CompiledBinding] = [:]
    /// The new bindings found changed (their needs), among the matched.
    private var changed: Set<ObjectIdentifier> = []
    /// Each decorated binding's chain, by manifest place, in each activation.
    private let newChains: [Int: Activation.Chain], oldChains: [Int: Activation.Chain]
    /// The array type each collection's element type is served as, in each activation.
    private let newArrays: [ObjectIdentifier: ObjectIdentifier], oldArrays: [ObjectIdentifier: ObjectIdentifier]

    init(new: Activation, old: Activation) {
        (self.new, self.old) = (new, old)
        newChains = Dictionary(new.chains.map { ($0.index, $0) }, uniquingKeysWith: { first, _ in first })
        oldChains = Dictionary(old.chains.map { ($0.index, $0) }, uniquingKeysWith: { first, _ in first })
        newArrays = Self.arrays(of: new)
        oldArrays = Self.arrays(of: old)
        matchBindings()
    }

    /// Element type to array type, for each collection an activation serves.
    private static func arrays(of activation: Activation) -> [ObjectIdentifier: ObjectIdentifier] {
        var arrays: [ObjectIdentifier: ObjectIdentifier] = [:]
        for head in activation.entries.bindings {
            head.forEachBinding { binding in
                if let element = binding.elements.first { arrays[element.key.id] = binding.key.id }
            }
        }
        return arrays
    }

    // MARK: - Matching

    /// Matches each new binding with the old one at its place (its type and
    /// injector; an element by its content among its collection's) whose
    /// own content is the same, and the bindings behind equal chains link by link.
    private mutating func matchBindings() {
        var oldByPlace: [Place: CompiledBinding] = [:]
        var oldElements: [ElementPlace: [CompiledBinding]] = [:]
        for head in old.entries.bindings {
            head.forEachBinding { binding in
                oldByPlace[Place(binding)] = binding
                for element in binding.elements { oldElements[ElementPlace(element), default: []].append(element) }
            }
        }
        var taken: [ElementPlace: Int] = [:]
        for head in new.entries.bindings {
            head.forEachBinding { binding in
                nodes.append(binding)
                if let previous = oldByPlace[Place(binding)] {
                    if sameContent(binding, previous) {
                        match(binding, previous)
                    } else {
                        matchProducts(binding, previous)
                    }
                }
                for element in binding.elements {
                    nodes.append(element)
                    // The first old element of the same content not taken yet: an element added
                    // before it, or one removed, leaves the others kept.
                    let place = ElementPlace(element)
                    var next = taken[place, default: 0]
                    let candidates = oldElements[place] ?? []
                    while next < candidates.count, !sameContent(element, candidates[next]) { next += 1 }
                    guard next < candidates.count else { continue }
                    taken[place] = next + 1
                    match(element, candidates[next])
                }
            }
        }
    }

    /// Matches `binding` with `previous`, and, when both are decorated, their chains' bindings.
    private mutating func match(_ binding: CompiledBinding, _ previous: CompiledBinding) {
        matched[ObjectIdentifier(binding)] = previous
        guard let index = binding.described?.index, let chain = newChains[index],
            let oldIndex = previous.described?.index, let oldChain = oldChains[oldIndex],
            binding.described?.decorators.isEmpty == false
        else { return }
        nodes.append(chain.product)
        matched[ObjectIdentifier(chain.product)] = oldChain.product
        for (link, oldLink) in zip(chain.links, oldChain.links) {
            nodes.append(link)
            matched[ObjectIdentifier(link)] = oldLink
        }
    }

    /// Matches the factory's products of two bindings at one place whose
    /// chains differ: a product that did not change is kept when only its
    /// decorators did (the chain around it is made anew), a first decorator
    /// added or the last removed included.
    private mutating func matchProducts(_ binding: CompiledBinding, _ previous: CompiledBinding) {
        guard let now = binding.described, let before = previous.described,
            now.factory == before.factory, now.lifetime == before.lifetime, now.injector == before.injector,
            now.binding.parameterSource == before.binding.parameterSource
        else { return }
        // The product of each: a decorated binding's is its chain's, an undecorated one's the binding itself.
        let product = now.decorators.isEmpty ? binding : newChains[now.index]?.product
        let previousProduct = before.decorators.isEmpty ? previous : oldChains[before.index]?.product
        guard let product, let previousProduct else { return }
        if product !== binding { nodes.append(product) }
        matched[ObjectIdentifier(product)] = previousProduct
    }

    /// A binding's place in the wiring: its type and injector.
    private struct Place: Hashable {
        let type: ObjectIdentifier, injector: InjectorName
        init(_ binding: CompiledBinding) { (type, injector) = (binding.key.id, binding.injector) }
    }

    /// An element's place: its collection, and its factory (the rest of its content is compared after).
    private struct ElementPlace: Hashable {
        let type: ObjectIdentifier, injector: InjectorName, factory: String
        init(_ binding: CompiledBinding) {
            (type, injector, factory) = (binding.key.id, binding.injector, binding.described?.factory ?? "")
        }
    }

    /// Whether two bindings at one place say the same of themselves: the
    /// same factory, lifetime, parameters after interpolation and chain;
    /// what their needs are served by is compared after, by ``markChanged()``.
    private func sameContent(_ binding: CompiledBinding, _ previous: CompiledBinding) -> Bool {
        switch (binding.described, previous.described) {
        case (let now?, let before?):
            let written = now.binding, was = before.binding
            return now.factory == before.factory && now.lifetime == before.lifetime && now.injector == before.injector
                && written.parameterSource == was.parameterSource
                && written.decorators.count == was.decorators.count
                && zip(written.decorators, was.decorators).allSatisfy {
                    $0.name == $1.name && $0.parameterSource == $1.parameterSource
                }
        case (nil, nil):
            // A collection (its elements are its needs), or an `Injectable` type's implicit binding.
            return binding.definition.name == previous.definition.name && binding.elements.count == previous.elements.count
        default:
            return false
        }
    }

    // MARK: - Needs

    /// Marks changed every matched binding one of whose needs is not served
    /// by the match of what served it before, or is served by a changed
    /// binding, until none changes: the greatest set of unchanged bindings.
    mutating func markChanged() {
        var grew = true
        while grew {
            grew = false
            for node in nodes where matched[ObjectIdentifier(node)] != nil && !changed.contains(ObjectIdentifier(node)) {
                if !needsUnchanged(node, matched[ObjectIdentifier(node)]!) {
                    changed.insert(ObjectIdentifier(node))
                    grew = true
                }
            }
        }
    }

    private func isUnchanged(_ binding: CompiledBinding) -> Bool {
        matched[ObjectIdentifier(binding)] != nil && !changed.contains(ObjectIdentifier(binding))
    }

    /// Whether each of `binding`'s needs is served as it was for `previous`.
    private func needsUnchanged(_ binding: CompiledBinding, _ previous: CompiledBinding) -> Bool {
        let now = servers(of: binding, in: new, chains: newChains, arrays: newArrays)
        let before = servers(of: previous, in: old, chains: oldChains, arrays: oldArrays)
        guard now.count == before.count else { return false }
        for (server, was) in zip(now, before) {
            switch (server, was) {
            case (nil, nil): continue
            case (let server?, let was?):
                guard isUnchanged(server), matched[ObjectIdentifier(server)] === was else { return false }
            default: return false
            }
        }
        return true
    }

    /// What serves each of `binding`'s needs, in order (nil for a need no
    /// binding serves): a decorated binding's are its product and links, a
    /// collection's its elements, a link's what it wraps and then its
    /// decorator's needs, any other's its factory's needs.
    private func servers(
        of binding: CompiledBinding, in activation: Activation, chains: [Int: Activation.Chain],
        arrays: [ObjectIdentifier: ObjectIdentifier]
    ) -> [CompiledBinding?] {
        if !binding.elements.isEmpty { return binding.elements }
        var wrapped: [CompiledBinding?] = []
        if let described = binding.described, !described.decorators.isEmpty, let chain = chains[described.index],
            chain.product !== binding
        {
            guard let offset = chain.links.firstIndex(where: { $0 === binding }) else {
                return [chain.product] + chain.links
            }
            wrapped = [offset == 0 ? chain.product : chain.links[offset - 1]]
        }
        // A `Provider` resolves anew at each call, from the wiring in force: what serves it changing
        // does not change what its holder made (a `Provider<[T]>` is checked as a `Lazy<[T]>`, and counts).
        return wrapped + (binding.definition.dependencies ?? []).filter { $0.kind != .provider }.map { need in
            let type = need.kind.isCollection ? arrays[need.key.id] : need.key.id
            return type.flatMap { activation.binding(serving: $0, from: binding.injector) }
        }
    }

    // MARK: - Storages

    /// The old storage for each unchanged binding's key; a storage shared
    /// by several new bindings (one factory's group) is kept for each of
    /// them when any is unchanged, since they make one instance.
    func keptStorages() -> [Activation.StorageKey: any LifetimeStorage] {
        var byStorage: [ObjectIdentifier: any LifetimeStorage] = [:]
        for node in nodes where isUnchanged(node) {
            byStorage[ObjectIdentifier(node.storage)] = matched[ObjectIdentifier(node)]!.storage
        }
        guard !byStorage.isEmpty else { return [:] }
        var kept: [Activation.StorageKey: any LifetimeStorage] = [:]
        func keep(_ binding: CompiledBinding, as key: Activation.StorageKey) {
            if let storage = byStorage[ObjectIdentifier(binding.storage)] { kept[key] = storage }
        }
        for node in nodes {
            guard let index = node.described?.index else { continue }
            if let chain = newChains[index], node.described?.decorators.isEmpty == false {
                if chain.product === node {
                    keep(node, as: .init(index, .product))
                } else if let offset = chain.links.firstIndex(where: { $0 === node }) {
                    keep(node, as: .init(index, .link(offset)))
                } else {
                    keep(node, as: .init(index, .binding))
                }
            } else {
                keep(node, as: .init(index, .binding))
            }
        }
        return kept
    }
}
