// The dependency-graph rules: each bound factory's needs are followed
// exactly as resolution follows them, from the injector that served the
// factory, with the same fallback.

/// Which binding serves each type from each injector, by the rule of
/// ``InjectorServing``. Types are numbered (see ``CatalogIndex/TypeID``), so
/// a lookup is an array read.
package struct ServingTable {
    /// The bindings of one type: each injector's own, and the first in injector order.
    package typealias Serving = InjectorServing<Int>

    private var types: [Serving?]
    private let injectorCount: Int

    /// An empty table for types numbered below `typeCount`, bound in at most `injectorCount` injectors.
    package init(typeCount: Int, injectorCount: Int = 2) {
        types = Array(repeating: nil, count: typeCount)
        self.injectorCount = injectorCount
    }

    /// Records `binding` as `injector`'s binding of `type`; false when the
    /// injector already had one. `bindingsOfType`, when known, sizes a new type's record.
    package mutating func add(
        _ binding: Int, type: Int, injector: InjectorName, rank: Int, bindingsOfType: Int? = nil
    ) -> Bool {
        if types[type] == nil {
            types[type] = bindingsOfType.map { Serving(injectorCount: min(injectorCount, $0), exactly: true) }
                ?? Serving(injectorCount: injectorCount)
        }
        return types[type]!.add(binding, of: injector, rank: rank)
    }

    /// The binding that serves `type` when asked from `injector`, as resolution would choose it.
    package func binding(serving type: Int, from injector: InjectorName) -> Int? {
        types[type]?.serving(injector)
    }

    /// The bindings of `type`, when some injector binds it.
    package subscript(type: Int) -> Serving? { types[type] }
}

extension ValidationRun {
    /// The serving table of the single bindings of `bindings` (elements of collections are served apart).
    func servingTable(_ bindings: [BindingDescription]) -> ServingTable {
        var table = ServingTable(typeCount: typeCount, injectorCount: injectorOrder.count)
        for (offset, binding) in bindings.enumerated() where !binding.isCollectionElement {
            _ = table.add(offset, type: binding.typeID, injector: binding.injector, rank: binding.injectorRank)
        }
        return table
    }

    /// Follows every need of every binding in effect, and reports what resolution would trip over.
    mutating func checkGraph() {
        guard let catalog else { return }
        let table = serving ?? servingTable(effective)
        let collections = anyCollectionElement ? CollectionTable(effective, typeCount: typeCount) : nil
        let effective = self.effective
        let edges = Self.followNeeds(of: effective, serving: table, collections: collections, in: catalog) {
            ownerPlace, need, found in
            switch found {
            case .unbound(let hasCollection):
                checkNeedIsBound(need, of: effective[ownerPlace], in: catalog, hasCollection: hasCollection)
            case .served(let served):
                let owner = effective[ownerPlace]
                checkDependencyTakesNoArgument(effective[served], of: owner, in: catalog)
                checkNeedCanBeMade(need, by: effective[served], for: owner, in: catalog)
                checkNotCaptive(effective[served], of: owner, in: catalog)
            case .elements(let elements):
                for element in elements {
                    checkNeedCanBeMade(need, by: effective[element], for: effective[ownerPlace], in: catalog)
                    checkNotCaptive(effective[element], of: effective[ownerPlace], in: catalog)
                }
            }
        }
        let links = checkDecoratorNeeds(serving: table, collections: collections, in: catalog)
        reportCycles(factoryEdges: edges, linkEdges: links, catalog: catalog)
    }

    /// The graph rules for the needs of each link of each chain in effect,
    /// found as the factory's are (``followDecoratorNeeds(of:serving:collections:in:_:)``):
    /// a link's needs are its binding's, and an edge of a cycle from it (a
    /// decorator that needs the type it decorates is one). Returns those
    /// edges, each with the link it comes from, so that a cycle through a
    /// link is reported at the link.
    private mutating func checkDecoratorNeeds(
        serving table: ServingTable, collections: CollectionTable?, in catalog: CatalogIndex
    ) -> [[LinkEdge]] {
        let effective = self.effective
        return Self.followDecoratorNeeds(of: effective, serving: table, collections: collections, in: catalog) {
            offset, linkIndex, need, found in
            let owner = effective[offset]
            let needer = needer(link: linkIndex, of: owner, in: catalog)
            switch found {
            case .unbound(let hasCollection):
                checkNeedIsBound(need, of: owner, in: catalog, hasCollection: hasCollection, by: needer)
            case .served(let served):
                checkDependencyTakesNoArgument(effective[served], of: owner, in: catalog, by: needer)
                checkNeedCanBeMade(need, by: effective[served], for: owner, in: catalog, needer: needer)
                checkNotCaptive(effective[served], of: owner, in: catalog, needer: needer)
            case .elements(let elements):
                for element in elements {
                    checkNeedCanBeMade(need, by: effective[element], for: owner, in: catalog, needer: needer)
                    checkNotCaptive(effective[element], of: owner, in: catalog, needer: needer)
                }
            }
        }
    }

    /// The link at `linkIndex` of `owner`'s chain as the needer of the graph
    /// rules' messages: named as the decorator, placed at its own entry,
    /// which a `decorate` of another file may have added.
    func needer(link linkIndex: Int, of owner: BindingDescription, in catalog: CatalogIndex) -> Needer {
        let link = owner.decorators[linkIndex]
        let use = binding(owner).decorators[link.offset]
        return Needer(
            label: Self.decoratorLabel(link.place, in: catalog), place: link.place,
            entry: use.asBinding(of: binding(owner)),
            field: use.origin == nil ? "\(BindingKey.decorators)/\(link.offset)" : nil)
    }

    /// How messages name a link whose decorator is at `place` in the catalog index: `decorator 'timing-store'`.
    static func decoratorLabel(_ place: Int, in catalog: CatalogIndex) -> String {
        "decorator '\(MessageText.name(catalog.factories[place].name))'"
    }

    /// An edge of the graph from a link of a binding's chain: the binding a
    /// need of the link finds, and the link's place in the binding's
    /// ``BindingDescription/decorators``.
    struct LinkEdge {
        let target: Int
        let link: Int
    }

    /// Follows every need of each link of each chain of `bindings` exactly
    /// as resolution does: a chain lives as long as its binding and resolves
    /// from its injector, so a link's needs are found as its binding's
    /// factory's are (``find(_:from:serving:collections:)``). Calls `visit`
    /// with the binding's place, the link's place in its
    /// ``BindingDescription/decorators``, the need and what resolution finds;
    /// returns each binding's edges taken now (not lazily), each with its
    /// link. The one walk of the chains, for the graph check and for the
    /// tools' verdicts.
    static func followDecoratorNeeds(
        of bindings: [BindingDescription], serving table: ServingTable, collections: CollectionTable?,
        in catalog: CatalogIndex, _ visit: (Int, Int, CatalogIndex.Need, Found) -> Void
    ) -> [[LinkEdge]] {
        var edges: [[LinkEdge]] = Array(repeating: [], count: bindings.count)
        // By index: copying each binding's description to ask whether it has
        // a chain cost activation about 350 instructions a binding.
        for offset in bindings.indices where !bindings[offset].decorators.isEmpty {
            let owner = bindings[offset]
            for (linkIndex, link) in owner.decorators.enumerated() {
                for need in catalog.needs(link.place) ?? [] {
                    let found = find(need, from: owner.injector, serving: table, collections: collections)
                    visit(offset, linkIndex, need, found)
                    guard !need.kind.isLazy else { continue }
                    edges[offset] += found.bindings.map { LinkEdge(target: $0, link: linkIndex) }
                }
            }
        }
        return edges
    }

    /// Who has a need, for the graph rules' messages: a binding's factory
    /// (the default), or a decorator of its chain.
    struct Needer {
        /// `decorator 'timing-store'`.
        let label: String
        /// Its place in the catalog index, whose execution and argument the rules read.
        let place: Int
        /// Where a diagnostic goes: the link read as a binding, at its entry
        /// (in the file of the `decorate` that added it, if one did).
        let entry: Binding
        /// The field of `entry` a diagnostic points at: none for an entry
        /// read from a file; `decorators/1` of the binding for one made in code.
        let field: String?
    }

    /// Where a diagnostic about a need of `owner` goes: at `field` of the
    /// binding, or, for a decorator's need, at the decorator's entry.
    func placement(of owner: BindingDescription, _ needer: Needer?, else field: String) -> (Binding, String?) {
        guard let needer else { return (binding(owner), field) }
        return (needer.entry, needer.field)
    }

    /// What resolution finds for one need asked from `injector`: the one
    /// lookup of ``followNeeds(of:serving:collections:in:_:)``.
    static func find(
        _ need: CatalogIndex.Need, from injector: InjectorName, serving table: ServingTable, collections: CollectionTable?
    ) -> Found {
        if need.kind.isCollection { return .elements(collections?.elements(of: need.type, from: injector) ?? []) }
        if let served = table.binding(serving: need.type, from: injector) { return .served(served) }
        return .unbound(hasCollection: collections?.elements(of: need.type, from: injector) != nil)
    }

    /// What resolution finds for one need: the binding that serves it, the
    /// elements of its collection (a collection of none is `[]`, never
    /// missing), or nothing.
    enum Found {
        case served(Int)
        case elements([Int])
        /// No injector searched binds it; `hasCollection` when some lists elements of it.
        case unbound(hasCollection: Bool)
    }

    /// The one walk of the graph: follows every need of every one of
    /// `bindings` from the injector that served it, with resolution's
    /// fallback (`serving`, `collections`), tells `visit` what each finds
    /// (by places in `bindings`), and returns the edges a cycle can run
    /// along: direct, optional and collection needs (a Lazy or Provider is
    /// resolved later). A binding whose factory is unknown has no needs.
    static func followNeeds(
        of bindings: [BindingDescription], serving table: ServingTable, collections: CollectionTable?,
        in catalog: CatalogIndex, _ visit: (Int, CatalogIndex.Need, Found) -> Void
    ) -> [[Int]] {
        var edges: [[Int]] = Array(repeating: [], count: bindings.count)
        for offset in bindings.indices {  // fields read in place: `enumerated()` copied each description
            let factoryPlace = bindings[offset].factoryPlace
            guard factoryPlace >= 0, let needs = catalog.needs(factoryPlace) else { continue }
            let injector = bindings[offset].injector
            for need in needs {
                let found = find(need, from: injector, serving: table, collections: collections)
                visit(offset, need, found)
                switch found {
                case .elements(let elements) where !need.kind.isLazy: edges[offset] += elements
                case .served(let served) where !need.kind.isLazy: edges[offset].append(served)
                default: break
                }
            }
        }
        return edges
    }

    /// Rule `missing-dependency`: a direct or lazy need is bound in some
    /// injector searched. A type bound only by a broken binding is bound:
    /// that binding's own problem is the one to fix. A collection of the
    /// type does not bind it (`hasCollection` adds a hint that it exists).
    mutating func checkNeedIsBound(
        _ need: CatalogIndex.Need, of owner: BindingDescription, in catalog: CatalogIndex, hasCollection: Bool = false,
        by needer: Needer? = nil
    ) {
        guard need.kind != .optional, !brokenTypes.contains(need.type) else { return }
        let needName = catalog.display(need.type)
        let providers = catalog.providers(of: need.type)
        let (placed, field) = placement(of: owner, needer, else: BindingKey.factory.rawValue)
        report(diagnostic(
            placed, .missingDependency, (needer?.label ?? "factory '\(binding(owner).factory)'")
                + " for \(binding(owner).displayKey) needs "
                + "\(needName), which no injector binds (searched \(searched(from: owner.injector))); add a binding "
                + "for \(needName)"
                + (providers.isEmpty ? "" : " (factories that provide it: "
                    + providers.map { "'\($0)'" }.joined(separator: ", ") + ")")
                + (hasCollection ? "; its collection has elements, which a factory takes as [\(needName)]" : ""),
            field: field, dependencyPath: [display(owner, in: catalog), needName]))
    }

    /// Rule `argument-required`: a need served by a factory that takes a
    /// resolve-time argument is fed one: its dependent takes an argument of
    /// the same type, which resolution passes on.
    mutating func checkDependencyTakesNoArgument(
        _ dependency: BindingDescription, of owner: BindingDescription, in catalog: CatalogIndex, by needer: Needer? = nil
    ) {
        let argument = needer.map { _ in catalog.factories[dependency.factoryPlace].argument }  // a decorator passes none
            ?? Self.argumentNoneCanPass(to: dependency, of: owner, in: catalog)
        guard let argument else { return }
        let needName = catalog.display(dependency.typeID)
        let label = needer?.label ?? "factory '\(binding(owner).factory)'"
        let (placed, field) = placement(of: owner, needer, else: BindingKey.factory.rawValue)
        report(diagnostic(
            placed, .argumentRequired, "\(label) for \(binding(owner).displayKey) "
                + "needs \(needName), but its factory '\(binding(dependency).factory)' takes a resolve-time argument "
                + "(\(catalog.display(argument))) that no dependency can supply; resolve \(needName) directly with "
                + "resolve(_:argument:), "
                + (needer == nil ? "give factory '\(binding(owner).factory)' the same argument to pass on, " : "")
                + "or bind a factory without an argument",
            field: field, dependencyPath: [display(owner, in: catalog), needName]))
    }

    /// The resolve-time argument `dependency`'s factory takes that `owner`'s
    /// cannot pass on (it takes none, or another type); nil when none is missing.
    static func argumentNoneCanPass(
        to dependency: BindingDescription, of owner: BindingDescription, in catalog: CatalogIndex
    ) -> CatalogIndex.TypeID? {
        let argument = catalog.factories[dependency.factoryPlace].argument
        return argument == catalog.factories[owner.factoryPlace].argument ? nil : argument
    }

    /// Rules `needs-await` and `needs-main-actor`: a need is served by a
    /// factory that can run where its dependent's factory runs. Only an
    /// `async` factory awaits its needs, so only it may need an `async` one
    /// (directly or as `T?`; a `Lazy` is read synchronously); a main-actor
    /// factory runs on the main actor, so only a factory that runs there, or
    /// awaits, may need one. A decorator's needs are judged by its own kind
    /// (`needer`), and a decorated binding runs as its whole chain does.
    mutating func checkNeedCanBeMade(
        _ need: CatalogIndex.Need, by dependency: BindingDescription, for owner: BindingDescription,
        in catalog: CatalogIndex, needer: Needer? = nil
    ) {
        let ownerRuns = catalog.factories[needer?.place ?? owner.factoryPlace].execution
        let factoryRuns = catalog.factories[dependency.factoryPlace].execution
        // A chain runs as its most demanding link (``FactoryExecution/ofChain(_:links:)``): the
        // link that makes it so, when the factory does not, is the one a message names.
        let needRuns = FactoryExecution.ofChain(
            factoryRuns, links: dependency.decorators.lazy.map { catalog.factories[$0.place].execution })
        guard !ownerRuns.canUse(needRuns, as: need.kind) else { return }
        let decidingLink = needRuns == factoryRuns ? nil
            : dependency.decorators.first { catalog.factories[$0.place].execution == needRuns }
        let (ownerName, needName) = (display(owner, in: catalog), display(dependency, in: catalog))
        let (ownerFactory, needFactory) = (needer.map { catalog.factories[$0.place].name } ?? binding(owner).factory,
            decidingLink.map { catalog.factories[$0.place].name } ?? binding(dependency).factory)
        let inCollection = need.kind.isCollection
        let needed = (needer == nil ? "factory" : "decorator") + " '\(ownerFactory)' for \(binding(owner).displayKey) needs \(needName)"
            + (inCollection ? ", whose element '\(needFactory)'" : (need.kind == .lazy ? " as Lazy" : need.kind == .provider ? " as Provider" : "")
                + ", but its \(decidingLink == nil ? "factory" : "decorator") '\(needFactory)'")
        let awaits = needRuns == .async
        let fix = awaits
            ? " is async and '\(ownerFactory)' cannot await it; " + (inCollection
                ? "a collection's elements are made synchronously, so bind a synchronous factory as the element"
                : "register '\(ownerFactory)' with an async closure (taking \(needName) directly or as an "
                    + "optional), or " + (decidingLink == nil ? "bind \(needName) to a synchronous factory"
                        : "take decorator '\(needFactory)' out of the chain of \(needName)"))
            : " runs on the main actor and '\(ownerFactory)' may run anywhere; register '\(ownerFactory)' on "
                + "MainActor.self too" + (inCollection ? ", or bind a nonisolated factory as the element"
                    : ", or with an async closure, or " + (decidingLink == nil
                        ? "bind \(needName) to a nonisolated factory"
                        : "take decorator '\(needFactory)' out of the chain of \(needName)"))
        let (placed, field) = placement(of: owner, needer, else: BindingKey.factory.rawValue)
        report(diagnostic(
            placed, awaits ? .needsAwait : .needsMainActor, needed + fix,
            field: field,
            dependencyPath: [ownerName, needName]))
    }

    /// Rule `captive-dependency`: nothing keeps a dependency alive past its
    /// lifetime; an element of a needed collection is a dependency too.
    ///
    /// A need of a decorator (`needer`) is its binding's, named as the decorator's and placed at its entry.
    mutating func checkNotCaptive(
        _ dependency: BindingDescription, of owner: BindingDescription, in catalog: CatalogIndex, needer: Needer? = nil
    ) {
        guard owner.lifetime.wouldCapture(dependency.lifetime) else { return }
        let (ownerName, needName) = (display(owner, in: catalog), display(dependency, in: catalog))
        let remedy = dependency.isCollectionElement
            ? "make the element '\(binding(dependency).factory)' longer-lived, or make \(ownerName) shorter-lived"
            : "make \(needName) longer-lived, make \(ownerName) shorter-lived, or take Lazy<\(needName)>... inside a "
                + "shorter scope"
        let (placed, field) = placement(
            of: owner, needer, else: (binding(owner).lifetime == nil ? BindingKey.factory : .lifetime).rawValue)
        report(diagnostic(
            placed, .captiveDependency, "\(owner.lifetime) \(ownerName) ('\(binding(owner).factory)"
                + (needer.map { "', through its \($0.label)" } ?? "'") + ") depends on "
                + "\(dependency.lifetime) \(needName) ('\(binding(dependency).factory)'), and would keep it alive past "
                + "its \(dependency.lifetime) lifetime; " + remedy,
            field: field,
            dependencyPath: [ownerName, needName]))
    }

    /// A binding's type for messages: `Plugin`, or `[Plugin]` for an element of its collection.
    private func display(_ binding: BindingDescription, in catalog: CatalogIndex) -> String {
        binding.isCollectionElement ? "[\(catalog.display(binding.typeID))]" : catalog.display(binding.typeID)
    }

    /// The injectors searched from `injector`, for a message: the first few, and how many more.
    func searched(from injector: InjectorName) -> String {
        let shown = 8
        let names = InjectorSearch(from: injector, in: injectorOrder).prefix(shown).map(\.rawValue)
        let more = injectorOrder.count - names.count  // a bound injector is always in the order
        return names.joined(separator: ", ") + (more > 0 ? " and \(more) more" : "")
    }

    /// How many loops the `dependency-cycle` rule draws, one per knot of
    /// bindings that need one another; one more diagnostic counts the rest.
    static let drawnCycleLimit = 10

    /// Rule `dependency-cycle`: draws one loop of each strongly connected
    /// component of the graph, `Mailer -> Templates -> Mailer`, for the first
    /// ``drawnCycleLimit`` components, then counts the other components and
    /// the bindings in cycles. Linear in the bindings and needs; every
    /// elementary loop would be exponential.
    ///
    /// A loop that runs through needs of decorators (`linkEdges`) is drawn
    /// from the first such link's binding, names each link on its step
    /// (`Store -> (decorator 'timing') -> Store`, as `graph` labels a link's
    /// edge) and is reported at the first link's entry, with a fix that
    /// names every link, as the engine's is. Only a loop's message reads
    /// the links: a manifest without one pays nothing for them.
    private mutating func reportCycles(factoryEdges: [[Int]], linkEdges: [[LinkEdge]], catalog: CatalogIndex) {
        var edges = factoryEdges
        for offset in linkEdges.indices where !linkEdges[offset].isEmpty { edges[offset] += linkEdges[offset].map(\.target) }
        let components = StronglyConnectedComponents(edges: edges)
        for members in components.cyclic.prefix(Self.drawnCycleLimit) {
            // One of the loops among the bindings of the component.
            var loop = components.loop(through: members, edges: edges)
            let among = members.count > loop.count
                ? " (one loop among \(members.count) bindings that need one another)" : ""
            // Each step a factory does not take is a link's need. A factory's edge is preferred, so a loop a
            // factory closes alone keeps its message and place.
            let linkSteps = loop.indices.compactMap { step -> (step: Int, link: Int)? in
                let (from, to) = (loop[step], loop[(step + 1) % loop.count])
                guard !factoryEdges[from].contains(to) else { return nil }
                return linkEdges[from].first { $0.target == to }.map { (step, $0.link) }
            }
            guard let firstLink = linkSteps.first else {
                let names = (loop + [loop[0]]).map { display(effective[$0], in: catalog) }
                report(diagnostic(
                    binding(effective[loop[0]]), .dependencyCycle, "dependency cycle: " + names.joined(separator: " -> ")
                        + among + "; break it by taking one of these as Lazy<...> in its factory, or bind a factory "
                        + "that does not need the next", field: BindingKey.factory.rawValue, dependencyPath: names))
                continue
            }
            // Drawn from the first link's binding, so the loop starts where it is reported; each link is
            // drawn on its step and named in the fix, as the engine draws and fixes a loop
            // (``ResolutionError/cycle(at:type:path:loop:closedBy:)``), so both say the same.
            loop = Array(loop[firstLink.step...] + loop[..<firstLink.step])
            var linkOn = [String?](repeating: nil, count: loop.count)
            for (step, link) in linkSteps {
                let drawnStep = (step - firstLink.step + loop.count) % loop.count
                linkOn[drawnStep] = Self.decoratorLabel(effective[loop[drawnStep]].decorators[link].place, in: catalog)
            }
            let names = (loop + [loop[0]]).map { display(effective[$0], in: catalog) }
            let drawn = names[0] + loop.indices.map { step in
                (linkOn[step].map { " -> (\($0))" } ?? "") + " -> " + names[step + 1]
            }.joined()
            let needer = needer(link: firstLink.link, of: effective[loop[0]], in: catalog)
            let (needName, ownerName) = (names[1], names[0])
            // Through one link: its closure takes the need, or its chain loses it. Through several: the
            // closure of any of them, or one of them out of its chain, each named with its chain.
            let fix = linkSteps.count == 1
                ? "\(needName) as Lazy<\(needName)> or Provider<\(needName)> in the closure of \(needer.label), or "
                    + "take \(needer.label) out of the chain of \(ownerName)"
                : "one of these as Lazy<...> in its factory, or in the closure of "
                    + loop.indices.compactMap { step in linkOn[step].map { "\($0) in the chain of \(names[step])" } }
                        .joined(separator: " or of ")
                    + ", or take one of them out of its chain"
            report(diagnostic(
                needer.entry, .dependencyCycle, "dependency cycle: " + drawn + among + "; break it by taking " + fix,
                field: needer.field, dependencyPath: names))
        }
        guard components.cyclic.count > Self.drawnCycleLimit else { return }
        let rest = components.cyclic.dropFirst(Self.drawnCycleLimit)
        let first = rest.first![0]
        let inCycles = components.cyclic.reduce(0) { $0 + $1.count }
        let name = display(effective[first], in: catalog)
        report(diagnostic(
            binding(effective[first]), .dependencyCycle, "dependency cycle: \(rest.count) more group"
                + (rest.count == 1 ? "" : "s") + " of bindings that need one another, the first at \(name) "
                + "(\(inCycles) bindings are in cycles in all), not drawn; break the cycles above and check again",
            field: BindingKey.factory.rawValue, dependencyPath: [name]))
    }
}
