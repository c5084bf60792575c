// The graph check's verdict on each need, kept for the tools: `patchbay
// explain` and `graph` print what the validator concluded (which binding
// serves a need, from which injector, whether it lacks an argument or lies
// on a cycle) instead of walking the graph again by rules of their own.
//
// The verdicts are reached by the walk `checkGraph()` follows
// (`followNeeds`), over the validator's winners: the bindings a manifest
// stands for, broken or not, since a manifest being explained is often one
// being repaired. For a manifest with no error they are the bindings in
// effect, and the verdicts are the check's own.

/// What the graph check concludes of every need of every binding a manifest stands for.
package struct DependencyVerdicts: Sendable {
    /// The bindings judged: the validator's winners, in manifest order: the
    /// binding that stands for each type and injector after `extends`
    /// overrides, broken or not, each with what it overrides.
    package let bindings: [BindingDescription]
    /// Which of ``bindings`` serves each type from each injector.
    package let serving: ServingTable
    /// Which of ``bindings`` serve each collection from each injector.
    package let collections: CollectionTable
    /// Each binding's needs, in the order its factory lists them; nil when
    /// the catalog does not know them (an unknown factory, one that resolves
    /// by hand, no catalog).
    package let needs: [[Need]?]
    /// Each binding's chain of decorators as validation concluded it, in
    /// order, with the verdicts on each link's needs (found from the
    /// binding's injector); empty for a binding with no chain, or a broken one.
    package let chains: [[Link]]
    let catalog: CatalogIndex?
    /// The knots of the check's edges, for `dependency-cycle`.
    let knots: StronglyConnectedComponents

    /// One need of a binding's factory, and what resolution finds for it.
    package struct Need: Sendable {
        package let type: CatalogIndex.TypeID
        let spec: DependencySpec.Kind
        /// The bindings that serve it, by place in ``DependencyVerdicts/bindings``:
        /// one, or a collection's elements (none when no injector lists any).
        package let served: [Int]

        /// How the factory takes it, as a catalog description writes it (`lazy-collection`...).
        package var kind: String { spec.rawValue }
        /// Whether no injector searched binds it (for a `T?`, it resolves to nil).
        package var isUnbound: Bool { served.isEmpty && !spec.isCollection }
    }

    /// One link of a binding's chain: its decorator and what its needs find.
    package struct Link: Sendable {
        /// The decorator's name in the catalog.
        package let decorator: String
        /// Its needs, in the order its closure takes them.
        package var needs: [Need]
    }

    /// Whether the factory of `served`, serving `owner`'s `need`, takes a
    /// resolve-time argument none can supply: one `owner` does not pass on
    /// (`argument-required`), or any, for an element (`collection-element-takes-argument`).
    package func lacksArgument(_ served: Int, as need: Need, of owner: Int) -> Bool {
        guard let catalog, bindings[served].factoryPlace >= 0 else { return false }
        return need.spec.isCollection
            ? catalog.factories[bindings[served].factoryPlace].argument != nil
            : ValidationRun.argumentNoneCanPass(to: bindings[served], of: bindings[owner], in: catalog) != nil
    }

    /// Whether `owner`'s `need` of `served` is an edge of a dependency cycle
    /// (`dependency-cycle`): taken now, and `served` needs `owner` back.
    package func isCycleEdge(_ served: Int, as need: Need, of owner: Int) -> Bool {
        !need.spec.isLazy && knots.sameComponent(owner, served)
    }
}

extension ValidationRun.Found {
    /// The bindings found: the one that serves a need, a collection's elements, or none.
    var bindings: [Int] {
        switch self {
        case .served(let served): [served]
        case .elements(let elements): elements
        case .unbound: []
        }
    }
}

extension ManifestValidator {
    /// Validates the bindings of `manifest`, then judges every need of the
    /// winners by the graph check's own walk, for the tools.
    package func dependencyVerdicts(_ manifest: Manifest) -> DependencyVerdicts {
        var run = ValidationRun(manifest: manifest, catalog: catalog)
        run.checkBindings()
        let winners = run.winners
        let serving = run.servingTable(winners)
        let collections = CollectionTable(winners, typeCount: run.typeCount)
        var needs: [[DependencyVerdicts.Need]?] = winners.map {
            $0.factoryPlace >= 0 && catalog?.needs($0.factoryPlace) != nil ? [] : nil
        }
        var chains: [[DependencyVerdicts.Link]] = winners.map { winner in
            winner.decorators.map { .init(decorator: catalog?.factories[$0.place].name ?? "", needs: []) }
        }
        let edges = catalog.map { catalog in
            var edges = ValidationRun.followNeeds(of: winners, serving: serving, collections: collections, in: catalog) {
                owner, need, found in
                needs[owner]!.append(.init(type: need.type, spec: need.kind, served: found.bindings))
            }
            // A link's needs are edges of its binding, as the graph check draws them.
            let links = ValidationRun.followDecoratorNeeds(
                of: winners, serving: serving, collections: collections, in: catalog
            ) { owner, link, need, found in
                chains[owner][link].needs.append(.init(type: need.type, spec: need.kind, served: found.bindings))
            }
            for offset in links.indices where !links[offset].isEmpty { edges[offset] += links[offset].map(\.target) }
            return edges
        }
        return DependencyVerdicts(
            bindings: winners, serving: serving, collections: collections, needs: needs, chains: chains,
            catalog: catalog, knots: StronglyConnectedComponents(edges: edges ?? []))
    }
}
