// The dependency-graph checks: each bound factory's needs are followed exactly
// as resolution follows them, from the injector that served the factory, with
// the same fallback.

extension ValidationRun {
    /// The bindings of one type: each injector's own, and the first in injector order.
    struct Serving {
        /// Each injector's own binding.
        private var ownByInjector = InjectorMap<Int>()
        var first: (rank: Int, binding: Int)?

        /// The binding `injector` has of its own, if any.
        func own(_ injector: InjectorName) -> Int? { ownByInjector[injector] }

        /// Records `binding` as `injector`'s own; `rank` is the injector's place in the order.
        /// Returns false when the injector already had one, which `binding` replaces.
        mutating func add(_ binding: Int, of injector: InjectorName, rank: Int) -> Bool {
            let replaced = ownByInjector.set(binding, for: injector)
            if rank < first?.rank ?? Int.max { first = (rank, binding) }
            return replaced == nil
        }
    }

    /// Each injector's place in an injector order. Every manifest's order
    /// starts with primary and secondary, which are compared, not hashed.
    struct InjectorRanks {
        private let leadsWithDefaults: Bool
        private let ranks: [InjectorName: Int]

        init(_ order: [InjectorName]) {
            leadsWithDefaults = order.starts(with: [.primary, .secondary])
            // Usually there is no other injector, and no dictionary to make:
            // the first one of a process costs a search of the binary's
            // conformance records (about 400,000 instructions) for its key's `Hashable`.
            var ranks: [InjectorName: Int] = [:]
            for (offset, name) in order.enumerated().dropFirst(leadsWithDefaults ? 2 : 0) where ranks[name] == nil {
                ranks[name] = offset
            }
            self.ranks = ranks
        }

        /// The injector's place; `Int.max` when it is not in the order.
        subscript(injector: InjectorName) -> Int {
            if leadsWithDefaults, injector == .primary { return 0 }
            if leadsWithDefaults, injector == .secondary { return 1 }
            return ranks[injector] ?? Int.max
        }
    }

    /// The binding that serves `type` when asked from `injector`, as resolution would choose it:
    /// the injector's own binding, else the first in injector order (which is not the
    /// requester's, since it has none). One lookup, however many injectors there are.
    static func serving(_ type: String, from injector: InjectorName, table: [String: Serving]) -> Int? {
        guard let serving = table[type] else { return nil }
        return serving.own(injector) ?? serving.first?.binding
    }

    func serving(_ type: String, from injector: InjectorName, table: [String: Serving]) -> Int? {
        Self.serving(type, from: injector, table: table)
    }

    func servingTable() -> [String: Serving] {
        Self.servingTable(effective.lazy.map { (type: $0.typeName, injector: $0.injector) }, order: injectorOrder)
    }

    /// The serving table of `bindings`, or nil as soon as one binds a type
    /// in an injector that an earlier one bound it in. For the usual manifest,
    /// with no such repeat, this one pass is both the check for overrides and
    /// duplicates and the graph check's table.
    func servingTableIfUnique(_ bindings: [ValidatedBinding]) -> [String: Serving]? {
        Self.servingTable(
            bindings.lazy.map { (type: $0.typeName, injector: $0.injector) }, order: injectorOrder,
            stoppingAtARepeat: true)
    }

    /// The serving table of `bindings` (type and injector, indexed by offset) under
    /// `order`: what validation, `explain` and `graph` all follow.
    static func servingTable(
        _ bindings: some Collection<(type: String, injector: InjectorName)>, order: [InjectorName]
    ) -> [String: Serving] {
        // Not stopping at a repeat, it always makes a table.
        servingTable(bindings, order: order, stoppingAtARepeat: false)!
    }

    /// The one loop behind both: nil, when `stoppingAtARepeat`, as soon as a
    /// binding repeats an injector's binding of its type.
    private static func servingTable(
        _ bindings: some Collection<(type: String, injector: InjectorName)>, order: [InjectorName],
        stoppingAtARepeat: Bool
    ) -> [String: Serving]? {
        let ranks = InjectorRanks(order)
        var table: [String: Serving] = [:]
        table.reserveCapacity(bindings.count)
        for (offset, binding) in bindings.enumerated() {
            let rank = ranks[binding.injector]
            // Mutated in place: one lookup of the type (a string hash), not three.
            let isNew = table[binding.type, default: Serving()].add(offset, of: binding.injector, rank: rank)
            if stoppingAtARepeat, !isNew { return nil }
        }
        return table
    }

    mutating func checkGraph() {
        guard let catalog else { return }
        let table = serving ?? servingTable()
        // Edges that can form a cycle: direct and optional needs (a Lazy is resolved later).
        var edges: [[Int]] = Array(repeating: [], count: effective.count)
        for (offset, owner) in effective.enumerated() {
            guard let needs = catalog.factories[owner.factoryOffset].needs else { continue }
            // For messages only.
            var factory: CatalogDescription.Factory { catalog.factories[owner.factoryOffset] }
            for need in needs {
                // Names for messages only: worked out when one is made, not for every need.
                var needName: String { catalog.display(need.type) }
                var ownerName: String { catalog.display(owner.typeName) }
                guard let served = serving(need.type, from: owner.injector, table: table) else {
                    if need.kind != DependencySpec.Kind.optional.rawValue {
                        report(owner.binding.diagnostic(
                            .missingDependency, "factory '\(factory.name)' for \(owner.binding.displayKey) needs "
                                + "\(needName), which no injector binds (searched "
                                + searched(from: owner.injector) + "); add a binding for \(needName)"
                                + providersHint(for: need.type, catalog: catalog),
                            field: "factory", dependencyPath: [ownerName, needName], fallbackFile: manifest.file))
                    }
                    continue
                }
                let dependency = effective[served]
                if let argument = catalog.factories[dependency.factoryOffset].argument {
                    let dependencyFactory = catalog.factories[dependency.factoryOffset]
                    report(owner.binding.diagnostic(
                        .argumentRequired, "factory '\(factory.name)' for \(owner.binding.displayKey) needs "
                            + "\(needName), but its factory '\(dependencyFactory.name)' takes a resolve-time "
                            + "argument (\(catalog.display(argument))) that no dependency can supply; resolve "
                            + "\(needName) directly with resolve(_:argument:), or bind a factory without an argument",
                        field: "factory", dependencyPath: [ownerName, needName], fallbackFile: manifest.file))
                }
                if owner.lifetime.wouldCapture(dependency.lifetime) {
                    report(owner.binding.diagnostic(
                        .captiveDependency, "\(owner.lifetime) \(ownerName) ('\(factory.name)') depends on "
                            + "\(dependency.lifetime) \(needName) ('\(dependency.binding.factory)'), and would keep "
                            + "it alive past its \(dependency.lifetime) lifetime; make \(needName) longer-lived, "
                            + "make \(ownerName) shorter-lived, or take Lazy<\(needName)>... inside a shorter scope",
                        field: owner.binding.lifetime == nil ? "factory" : "lifetime",
                        dependencyPath: [ownerName, needName], fallbackFile: manifest.file))
                }
                if need.kind != DependencySpec.Kind.lazy.rawValue {
                    edges[offset].append(served)
                }
            }
        }
        reportCycles(edges: edges, catalog: catalog)
    }

    /// The injectors searched from `injector`, for a message: the first few, and how many more.
    private func searched(from injector: InjectorName) -> String {
        let shown = 8
        let names = ([injector] + injectorOrder.lazy.filter { $0 != injector }.prefix(shown - 1)).map(\.rawValue)
        let more = injectorOrder.count - names.count  // a bound injector is always in the order
        return names.joined(separator: ", ") + (more > 0 ? " and \(more) more" : "")
    }

    private func providersHint(for type: String, catalog: CatalogIndex) -> String {
        guard let providers = catalog.providers(of: type), !providers.isEmpty else { return "" }
        return " (factories that provide it: " + providers.map { "'\($0)'" }.joined(separator: ", ") + ")"
    }

    /// Finds every elementary loop once and draws it: `Mailer -> Templates -> Mailer`.
    private mutating func reportCycles(edges: [[Int]], catalog: CatalogIndex) {
        var state = [UInt8](repeating: 0, count: edges.count)  // 0 new, 1 on stack, 2 done
        var stack: [Int] = []
        var reported: Set<[Int]> = []
        // Iterative depth-first search: a manifest is untrusted input, so no recursion depth to exhaust.
        // One frame stack for every start: not an allocation per binding.
        var frames: [(node: Int, next: Int)] = []
        for start in edges.indices where state[start] == 0 {
            if edges[start].isEmpty {  // a leaf: nothing to search
                state[start] = 2
                continue
            }
            frames.append((start, 0))
            state[start] = 1
            stack.append(start)
            while let frame = frames.last {
                if frame.next < edges[frame.node].count {
                    frames[frames.count - 1].next += 1
                    let target = edges[frame.node][frame.next]
                    if state[target] == 0 {
                        state[target] = 1
                        stack.append(target)
                        frames.append((target, 0))
                    } else if state[target] == 1, let from = stack.lastIndex(of: target) {
                        let loop = Array(stack[from...])
                        let rotated = Self.canonicalRotation(loop)
                        if reported.insert(rotated).inserted { reportCycle(rotated, catalog: catalog) }
                    }
                } else {
                    state[frame.node] = 2
                    stack.removeLast()
                    frames.removeLast()
                }
            }
        }
    }

    private static func canonicalRotation(_ loop: [Int]) -> [Int] {
        let start = loop.indices.min { loop[$0] < loop[$1] }!
        return Array(loop[start...] + loop[..<start])
    }

    private mutating func reportCycle(_ loop: [Int], catalog: CatalogIndex) {
        let names = (loop + [loop[0]]).map { catalog.display(effective[$0].typeName) }
        let first = effective[loop[0]]
        report(first.binding.diagnostic(
            .dependencyCycle, "dependency cycle: " + names.joined(separator: " -> ")
                + "; break it by taking one of these as Lazy<...> in its factory, or bind a factory that does "
                + "not need the next", field: "factory", dependencyPath: names, fallbackFile: manifest.file))
    }

    /// A warning for each catalog factory that no binding in effect uses.
    mutating func checkUnusedFactories() {
        guard let catalog else { return }
        // Any binding naming the factory counts, even one that failed another
        // check: a typo elsewhere must not also make its factory look unused.
        // `check` marked each one it found; every binding goes through it.
        let unused = catalog.factoryNamesAndOffsets.filter { !namedFactories[$0.value] }.map(\.key)
        diagnostics += Self.unusedFactoryWarnings(unused, in: manifest)
    }

    /// A warning for each of `unused` (factory names, in any order), sorted
    /// by name, at the manifest's `bindings`.
    static func unusedFactoryWarnings(_ unused: [String], in manifest: Manifest) -> [Diagnostic] {
        guard !unused.isEmpty else { return [] }
        let position = manifest.origin?.position(of: "bindings") ?? SourcePosition(line: 1, column: 1)
        return unused.sorted().map { name in
            Diagnostic(
                code: .unusedFactory, severity: .warning,
                message: "factory '\(name)' is never used by this manifest",
                file: manifest.file, line: position.line, column: position.column, path: "/bindings")
        }
    }
}
