// Resets of part of what a container holds: Swinject 2.10's
// `resetObjectScope(_:)` and `resetObjectScope(_:serviceType:)`, and a
// per-type reset at logout (Factory #139). Each follows `reset()`'s rules:
// the same manifest is compiled again, with the storages not reset carried
// over, and swapped in only if no other manifest was activated meanwhile;
// test overrides stay in force.

extension Container {
    /// Forgets the singleton and weak instances of `type`, so the next
    /// resolves make new ones from the same manifest; every other instance
    /// is kept.
    ///
    ///     container.reset((any Session).self)   // at logout: a new session next time
    ///
    /// Every binding of the type is reset, in each injector, and the
    /// elements of its collection `[T]`. A factory that provides several
    /// types keeps one instance for them all: resetting one of those types
    /// resets that instance, for each of them. Scoped instances end with
    /// their ``Scope``; a transient or `graph` one is not kept, so there is
    /// nothing to forget. Like ``reset()``, this never undoes a manifest
    /// activated meanwhile, and test overrides stay in force.
    public func reset<T>(_ type: T.Type) {
        resetInstances { $0.key.id == ObjectIdentifier(type) }
    }

    /// Forgets every instance of one lifetime the container holds: every
    /// singleton (`.singleton`) or every weak instance (`.weak`), keeping
    /// the others (Swinject's `resetObjectScope(.container)`).
    ///
    ///     container.reset(.singleton)
    ///
    /// Scoped instances are held by their ``Scope``, not the container, and
    /// end with it (``Scope/close()``); `transient` and `graph` instances
    /// are not kept: for those lifetimes this does nothing. Like
    /// ``reset()``, this never undoes a manifest activated meanwhile, and
    /// test overrides stay in force.
    public func reset(_ lifetime: Lifetime) {
        guard lifetime == .singleton || lifetime == .weak else { return }
        resetInstances { $0.described?.lifetime == lifetime }
    }

    /// Compiles the manifest in force again, making anew the storage of
    /// each binding that `matches` (and of every binding sharing it), and
    /// sharing every other storage with the activation in force.
    /// A decorated binding's chain is renewed whole with any of its
    /// storages: a product made anew gets a new chain around it, and a new
    /// chain wraps it (see ``Activation/chains``).
    private func resetInstances(where matches: (CompiledBinding) -> Bool) {
        let base = currentActivation()
        let bindings = base.compiledBindings
        var renewed = Set(base.keepingBindings.filter(matches).map { ObjectIdentifier($0.storage) })
        guard !renewed.isEmpty else { return }
        // The chain's own binding, by manifest place.
        var decorated: [Int: CompiledBinding] = [:]
        for binding in bindings {
            if let described = binding.described, !described.decorators.isEmpty { decorated[described.index] = binding }
        }
        // Until no chain is renewed in part: one chain's product may be another's (one storage, two chains).
        var grew = true
        while grew {
            grew = false
            for chain in base.chains {
                var storages = chain.storages.map { ObjectIdentifier($0.binding.storage) }
                if let own = decorated[chain.index] { storages.append(ObjectIdentifier(own.storage)) }
                if storages.contains(where: renewed.contains), !storages.allSatisfy(renewed.contains) {
                    renewed.formUnion(storages)
                    grew = true
                }
            }
        }
        var kept: [Activation.StorageKey: any LifetimeStorage] = [:]
        for binding in bindings where !renewed.contains(ObjectIdentifier(binding.storage)) {
            if let described = binding.described { kept[Activation.StorageKey(described.index, .binding)] = binding.storage }
        }
        for chain in base.chains {
            for (key, binding) in chain.storages where !renewed.contains(ObjectIdentifier(binding.storage)) {
                kept[key] = binding.storage
            }
        }
        let result = ManifestValidator(catalog: catalog).run(base.manifest)
        guard !result.diagnostics.containsErrors else { return }
        publish(Activation.compile(result, of: base.manifest, catalog: catalog, keeping: kept), resetting: base)
    }
}
