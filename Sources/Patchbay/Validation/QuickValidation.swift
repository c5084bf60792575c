/// Validation of a manifest against a live catalog for the usual case, a
/// manifest with nothing wrong in it, working by type identity instead of by
/// type name.
///
/// Why a second pass: ``ManifestValidator`` works on a ``CatalogDescription``,
/// names all the way through, because `patchbay check` validates against a
/// description read from a file, with no types at hand. At activation that
/// meant describing the catalog, indexing every type and factory name, and
/// hashing type names again for every binding and every need: about 11,000
/// instructions a binding, half of an app's whole register-and-resolve of
/// 1,000 types at launch (callgrind). Here a manifest's names are looked up
/// once each; everything after (what a factory provides, what serves each
/// need, the cycle search) compares type identities.
///
/// It decides nothing the full validator would decide differently: at the
/// first thing that is wrong, or that it does not handle (a binding repeated
/// or overridden through `extends`, an ambiguous or dotless type name), it
/// gives up and returns nil, and ``ManifestValidator`` runs and reports every
/// problem as before. What it accepts, the full validator accepts, with the
/// same bindings and the same warnings; debug builds check that on every
/// activation (see ``Activation/compile(_:catalog:)``).
enum QuickValidation {
    /// Validates `manifest` against `catalog`; nil when the manifest has a
    /// problem, or a feature this pass leaves to the full validator.
    static func run(_ manifest: Manifest, catalog: FactoryCatalog) -> ActivationPlan? {
        let definitions = catalog.definitions
        guard let types = TypeNames(definitions) else { return nil }
        let injectorOrder = ValidationRun.injectorOrder(of: manifest)
        let ranks = ValidationRun.InjectorRanks(injectorOrder)
        let declaredInjectors = manifest.injectors.map(Set.init)
        var named = [Bool](repeating: false, count: definitions.count)
        var planned: [PlannedBinding] = []
        planned.reserveCapacity(manifest.bindings.count)
        // The serving table, as `ValidationRun.servingTable` makes it, keyed by type identity.
        var serving: [ObjectIdentifier: ValidationRun.Serving] = [:]
        serving.reserveCapacity(manifest.bindings.count)

        for binding in manifest.bindings {
            if let declaredInjectors, binding.injector != .primary, binding.injector != .secondary,
                !declaredInjectors.contains(binding.injector)
            {
                return nil
            }
            guard let type = types.type(named: binding.protocolName),
                let offset = catalog.offsetsByName[binding.factory]
            else { return nil }
            let definition = definitions[offset]
            guard let providedOffset = definition.provides.firstIndex(where: { $0.key.id == type }) else {
                return nil
            }
            named[offset] = true
            let lifetime = binding.lifetime ?? definition.defaultLifetime ?? .transient
            if lifetime == .weak, !definition.productIsClass { return nil }
            guard let parameters = decodedParameters(binding.parameters, for: definition) else { return nil }
            // A repeat of a type and injector is a duplicate or an `extends` override: the full validator's.
            guard serving[type, default: ValidationRun.Serving()].add(
                planned.count, of: binding.injector, rank: ranks[binding.injector])
            else { return nil }
            planned.append(PlannedBinding(
                definitionOffset: offset, providedOffset: providedOffset, lifetime: lifetime,
                injector: binding.injector, parameters: parameters.value, rawParameters: binding.parameters))
        }
        guard graphIsSound(planned, definitions: definitions, serving: serving) else { return nil }
        let unused = definitions.indices.filter { !named[$0] }.map { definitions[$0].name }
        return ActivationPlan(
            bindings: planned, injectorOrder: injectorOrder,
            warnings: ValidationRun.unusedFactoryWarnings(unused, in: manifest))
    }

    /// The parameters decoded as the full validator decodes them, or nil where it would report a problem.
    private static func decodedParameters(
        _ given: JSONValue?, for definition: FactoryDefinition
    ) -> ValidationRun.DecodedParameters? {
        guard let spec = definition.parameters else {
            // No parameters taken: none given, or an empty object.
            guard let given else { return ValidationRun.DecodedParameters(value: nil) }
            guard let object = given.objectValue, object.isEmpty else { return nil }
            return ValidationRun.DecodedParameters(value: nil)
        }
        guard let value = try? spec.decode(given ?? .object([:])) else { return nil }
        return ValidationRun.DecodedParameters(value: value)
    }

    /// Whether every need is served as `ValidationRun.checkGraph` requires:
    /// each direct need bound (searching from the owner's injector, with
    /// fallback), no need served by a factory that takes an argument, no
    /// captive dependency, and no cycle through direct or optional needs.
    private static func graphIsSound(
        _ planned: [PlannedBinding], definitions: [FactoryDefinition],
        serving: [ObjectIdentifier: ValidationRun.Serving]
    ) -> Bool {
        var edges = [[Int]](repeating: [], count: planned.count)
        for (offset, owner) in planned.enumerated() {
            guard let needs = definitions[owner.definitionOffset].dependencies else { continue }
            for need in needs {
                guard let table = serving[need.key.id],
                    let served = table.own(owner.injector) ?? table.first?.binding
                else {
                    if need.kind == .optional { continue }
                    return false
                }
                let dependency = planned[served]
                guard definitions[dependency.definitionOffset].argument == nil,
                    !owner.lifetime.wouldCapture(dependency.lifetime)
                else { return false }
                if need.kind != .lazy { edges[offset].append(served) }
            }
        }
        return !hasCycle(edges)
    }

    /// Whether the graph has a loop: an iterative depth-first search (a
    /// manifest is untrusted input, so no recursion depth to exhaust).
    private static func hasCycle(_ edges: [[Int]]) -> Bool {
        var state = [UInt8](repeating: 0, count: edges.count)  // 0 new, 1 on the path, 2 done
        var frames: [(node: Int, next: Int)] = []
        for start in edges.indices where state[start] == 0 {
            if edges[start].isEmpty {  // a leaf: nothing to search
                state[start] = 2
                continue
            }
            state[start] = 1
            frames.append((start, 0))
            while let frame = frames.last {
                guard frame.next < edges[frame.node].count else {
                    state[frame.node] = 2
                    frames.removeLast()
                    continue
                }
                frames[frames.count - 1].next += 1
                let target = edges[frame.node][frame.next]
                if state[target] == 1 { return true }
                if state[target] == 0 {
                    state[target] = 1
                    frames.append((target, 0))
                }
            }
        }
        return false
    }

    /// The catalog's types by the names a manifest may use for them, as
    /// ``CatalogIndex`` resolves them: a module-qualified name first, else a
    /// short name that only one type has. Types are those the catalog
    /// names anywhere (provided, needed, taken as argument), as there.
    fileprivate struct TypeNames {
        /// What a short name stands for.
        fileprivate enum Entry {
            case unset
            case one(TypeKey)
            /// Several types of different qualified names have it (kept, so
            /// that each new one is held to the same rules as the second).
            case shared([TypeKey])
        }
        /// Short name -> what it stands for.
        private var byShortName: NameTable<Entry>

        /// Nil when the catalog has a type this pass leaves to the full
        /// validator: one whose qualified name has no dot (`Any`), which a
        /// dotless manifest name might mean, or two types of one qualified
        /// name, which the full validator takes for one.
        init?(_ definitions: [FactoryDefinition]) {
            byShortName = NameTable(capacity: definitions.count)
            for definition in definitions {
                for provided in definition.provides {
                    guard byShortName.update(provided.key.name, initial: .unset, { $0.add(provided.key) }) else {
                        return nil
                    }
                }
                for need in definition.dependencies ?? [] {
                    guard byShortName.update(need.key.name, initial: .unset, { $0.add(need.key) }) else { return nil }
                }
                if let argument = definition.argument {
                    guard byShortName.update(argument.name, initial: .unset, { $0.add(argument) }) else { return nil }
                }
            }
        }

        /// The type a manifest's name means, or nil when no one type has it
        /// (or when only the full validator can tell).
        func type(named name: String) -> ObjectIdentifier? {
            // A qualified name: the full validator's lookup by qualified name comes first.
            if name.containsASCII(UInt8(ascii: ".")) { return nil }
            guard case .one(let key) = byShortName[name] else { return nil }
            return key.id
        }
    }
}

extension QuickValidation.TypeNames.Entry {
    /// Records `key` under its short name (mutated in place: one hash of
    /// the name); false when it is of a kind left to the full validator.
    mutating func add(_ key: TypeKey) -> Bool {
        switch self {
        case .unset:
            self = .one(key)
        case .one(let existing):
            if let known = Self.compare(key, with: existing) { return known }  // the usual repeat: no array made
            self = .shared([existing, key])
        case .shared(let keys):
            for existing in keys {
                if let known = Self.compare(key, with: existing) { return known }
            }
            self = .shared(keys + [key])
        }
        return key.qualifiedName.containsASCII(UInt8(ascii: "."))
    }

    /// What `add` answers when `key` meets a type already recorded under its
    /// short name: true for the same type, false for another type of the
    /// same qualified name (one type to the full validator, so left to it),
    /// nil for a different type.
    private static func compare(_ key: TypeKey, with existing: TypeKey) -> Bool? {
        if existing.id == key.id { return true }
        if existing.qualifiedName == key.qualifiedName { return false }
        return nil
    }
}

/// A validated manifest, as activation compiles it.
struct ActivationPlan {
    /// The bindings in effect, in manifest order.
    let bindings: [PlannedBinding]
    /// The injector fallback order.
    let injectorOrder: [InjectorName]
    /// The warnings (errors prevent a plan).
    let warnings: [Diagnostic]
}

/// A binding that passed validation, as activation compiles it: its
/// factory's place in registration order and which of the factory's
/// provided types it binds.
struct PlannedBinding: Equatable {
    let definitionOffset: Int
    let providedOffset: Int
    let lifetime: Lifetime
    let injector: InjectorName
    /// The decoded parameters (not compared by `==`).
    let parameters: (any Sendable)?
    /// The binding's `parameters` as written, for telling singletons apart.
    let rawParameters: JSONValue?
}

extension PlannedBinding {
    /// Equal in everything but the decoded parameters, which have no
    /// equality: for checking the two validations agree.
    static func == (lhs: PlannedBinding, rhs: PlannedBinding) -> Bool {
        lhs.definitionOffset == rhs.definitionOffset && lhs.providedOffset == rhs.providedOffset
            && lhs.lifetime == rhs.lifetime && lhs.injector == rhs.injector
            && lhs.rawParameters == rhs.rawParameters && (lhs.parameters == nil) == (rhs.parameters == nil)
    }
}

extension ActivationPlan: Equatable {}
