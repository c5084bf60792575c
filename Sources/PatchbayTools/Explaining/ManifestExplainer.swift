/// Explains how a type resolves under one manifest, as `patchbay explain` does:
/// which injector's binding wins, what it shadows, the factory, the lifetime,
/// the parameters after `${...}` interpolation, and the tree of what the
/// factory needs, each need with the binding that serves it. Which binding
/// serves a need, and whether it lacks an argument or lies on a cycle, is the
/// validator's verdict, so `explain` says what `patchbay check` and the app say.
///
///     let manifest = try ManifestLoader().load(contentsOf: URL(fileURLWithPath: "Manifests/production.json"))
///     let explanation = ManifestExplainer(manifest: manifest, catalog: FactoryCatalog.notes.describe())
///         .explain("NoteService")
///     print(explanation.text())
///
/// Without a catalog it can still show the binding and its parameters, but
/// not what the factory needs nor the factory's default lifetime.

import Patchbay
public struct ManifestExplainer: Sendable {
    let table: BindingTable
    let hasCatalog: Bool

    /// How many levels of needs the tree shows below the explained type. A
    /// need deeper down is marked ``TypeExplanation/Mark/deeper`` and not
    /// expanded: explaining its type shows the rest. A manifest and its
    /// catalog description are untrusted input, and a chain thousands of
    /// levels deep must neither exhaust the stack (the tree is built, drawn
    /// and compared level by level) nor print megabytes of indentation.
    public static let depthLimit = 32

    /// Creates an explainer for a loaded manifest.
    /// - Parameters:
    ///   - manifest: The manifest, with its `extends` chain resolved (as ``ManifestLoader`` loads it).
    ///   - catalog: The catalog description, or `nil` when there is none.
    public init(manifest: Manifest, catalog: CatalogDescription?) {
        self.table = BindingTable(manifest: manifest, catalog: catalog)
        self.hasCatalog = catalog != nil
    }

    /// Explains how `type` resolves when requested from `injector`.
    /// - Parameters:
    ///   - type: A short (`NoteService`) or module-qualified (`NotesKit.NoteService`) type name;
    ///     `[Plugin]` for the collection of `Plugin`, which `Plugin` also shows when it has no single binding.
    ///   - injector: The requesting injector; `primary` by default.
    public func explain(_ type: String, from injector: InjectorName = .primary) -> TypeExplanation {
        let manifest = table.manifest
        let requestedCollection = type.count > 2 && type.hasPrefix("[") && type.hasSuffix("]")
        let name = requestedCollection ? String(type.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces) : type
        let lookup = table.lookup(name)
        let resolved: String
        switch lookup {
        case .ambiguous(let candidates):
            return TypeExplanation(
                requested: type, type: type, displayName: type, injector: injector, file: manifest.file,
                environment: manifest.environment, injectorOrder: table.injectorOrder, hasCatalog: hasCatalog,
                outcome: .unbound(TypeExplanation.Unbound(
                    searched: [], ambiguous: candidates, suggestions: [], providers: [])), collection: nil,
                requestedCollection: requestedCollection, factories: [:])
        case .type(let name):
            resolved = name
        }
        let outcome: TypeExplanation.Outcome
        if let served = table.serving(resolved, from: injector) {
            var expanded: Set<NodeKey> = [NodeKey(served)]
            let path = [Step(key: NodeKey(served), inCycle: false)]
            var resolution = TypeExplanation.Resolution(
                served: served, shadows: table.bindings(of: resolved).filter { $0.injector != served.injector },
                needs: needs(of: served, path: path, expanded: &expanded))
            // Each link's needs, from the binding's injector as the validator judged them.
            resolution.linkNeeds = table.chain(of: served).map { link in
                hasCatalog ? .known(link.needs.map { node(for: $0, owner: served, path: path, expanded: &expanded) }) : .noCatalog
            }
            if !served.binding.decorators.isEmpty, let factory = table.factory(of: served),
                let runs = table.catalog?.execution(ofFactory: served.factory, chain: served.binding.decorators.map(\.name)),
                runs.rawValue != (factory.execution ?? .synchronous).rawValue
            {
                resolution.chainExecution = runs.rawValue
            }
            outcome = .bound(resolution)
        } else {
            let display = table.display(resolved)
            let providers = table.catalog?.providers(of: resolved) ?? []
            outcome = .unbound(TypeExplanation.Unbound(
                searched: table.searchOrder(from: injector), ambiguous: [],
                // Compared as the catalog writes names: `any Repostory<[Int]>` is near `Repository<Array<Int>>`.
                suggestions: EditDistance.suggestions(
                    for: TypeNameSyntax.suggestionForm(display), among: table.knownNames.subtracting([display])),
                providers: providers))
        }
        let collection = requestedCollection || !table.allElements(of: resolved).isEmpty
            ? self.collection(of: resolved, from: injector) : nil
        var explanation = TypeExplanation(
            requested: type, type: resolved, displayName: table.display(resolved), injector: injector,
            file: manifest.file, environment: manifest.environment, injectorOrder: table.injectorOrder,
            hasCatalog: hasCatalog, outcome: outcome, collection: collection, requestedCollection: requestedCollection,
            factories: factories(in: outcome, collection))
        explanation.entryPointDeclaredAt = table.catalog?.entryPointDeclaration(of: resolved)
        return explanation
    }

    /// The collection of `type` asked from `injector`: the elements that
    /// serve it, each with its needs expanded, and the other injectors' elements.
    private func collection(of type: String, from injector: InjectorName) -> TypeExplanation.CollectionResolution {
        let served = table.elements(type, from: injector) ?? []
        var expanded = Set(served.map(NodeKey.init))
        let elements = served.map { element in
            TypeExplanation.CollectionResolution.Element(
                served: element,
                needs: needs(of: element, path: [Step(key: NodeKey(element), inCycle: false)], expanded: &expanded))
        }
        let servedPlaces = Set(served.map(\.index))
        return TypeExplanation.CollectionResolution(
            elements: elements, shadows: table.allElements(of: type).filter { !servedPlaces.contains($0.index) },
            searched: table.searchOrder(from: injector), providers: table.catalog?.providers(of: type) ?? [])
    }

    // MARK: - Building

    /// A binding the validator concluded, identified for cycle and repeat
    /// detection by its place in the manifest (one binding is one node).
    struct NodeKey: Hashable {
        let index: Int
        /// The type's short name, for the loop of a cycle.
        let type: String
        init(_ binding: BindingDescription) {
            index = binding.index
            type = binding.isCollectionElement ? "[\(binding.type)]" : binding.type
        }
        static func == (lhs: NodeKey, rhs: NodeKey) -> Bool { lhs.index == rhs.index }
        func hash(into hasher: inout Hasher) { hasher.combine(index) }
    }

    /// What the catalog says of every factory the outcome's and the collection's bindings name.
    private func factories(
        in outcome: TypeExplanation.Outcome, _ collection: TypeExplanation.CollectionResolution?
    ) -> [String: TypeExplanation.Factory] {
        var named: [BindingDescription] = []
        func walk(_ nodes: [TypeExplanation.Node]) {
            for node in nodes {
                if let served = node.served { named.append(served) }
                walk(node.children)
            }
        }
        if case .bound(let resolution) = outcome {
            named += [resolution.served] + resolution.shadows
            walk(resolution.needs.nodes ?? [])
        }
        for element in collection?.elements ?? [] {
            named.append(element.served)
            walk(element.needs.nodes ?? [])
        }
        named += collection?.shadows ?? []
        var facts: [String: TypeExplanation.Factory] = [:]
        for binding in named where facts[binding.factory] == nil {
            guard let factory = table.factory(of: binding) else { continue }
            facts[binding.factory] = TypeExplanation.Factory(
                name: factory.name, productType: table.display(factory.productType),
                argument: factory.argument.map(table.display), registeredAt: factory.registeredAt.map(SourceLocations.displayedHere),
                execution: factory.execution?.rawValue)
        }
        return facts
    }

    /// A binding on the path from the explained type down to a node, and
    /// whether the need that reached it is, by the validator's verdict, an
    /// edge of a dependency cycle.
    struct Step {
        let key: NodeKey
        let inCycle: Bool
    }

    /// What the factory of `entry` needs, expanded depth-first, as the
    /// validator judged each need. A binding already expanded elsewhere in
    /// the tree is not expanded again.
    private func needs(of entry: BindingDescription, path: [Step], expanded: inout Set<NodeKey>) -> TypeExplanation.Needs {
        guard hasCatalog else { return .noCatalog }
        guard table.factory(of: entry) != nil else { return .unknownFactory }
        guard let needs = table.needs(of: entry) else { return .byHand }
        return .known(needs.map { node(for: $0, owner: entry, path: path, expanded: &expanded) })
    }

    private func node(
        for need: DependencyVerdicts.Need, owner: BindingDescription, path: [Step], expanded: inout Set<NodeKey>
    ) -> TypeExplanation.Node {
        let kind = TypeExplanation.NeedKind(catalogKind: need.kind)
        let display = table.display(need.type)
        if kind == .collection {
            // The elements are the node's children, each expanded as a need of its own.
            let children = need.served.map { element in
                node(
                    served: element, as: need, type: display, kind: .direct, owner: owner, path: path,
                    expanded: &expanded, notingFallback: false)
            }
            let first = need.served.first.map { table.bindings[$0] }
            return TypeExplanation.Node(
                type: display, kind: kind, served: nil,
                searched: first == nil ? table.searchOrder(from: owner.injector) : [],
                fallbackFrom: first.flatMap { $0.injector == owner.injector ? nil : owner.injector },
                marks: [], children: children)
        }
        guard let served = need.served.first else {
            return TypeExplanation.Node(
                type: display, kind: kind, served: nil, searched: table.searchOrder(from: owner.injector),
                fallbackFrom: nil, marks: [], children: [])
        }
        return node(served: served, as: need, type: display, kind: kind, owner: owner, path: path, expanded: &expanded)
    }

    /// The node of `need` served by the binding at `place`, with its needs
    /// expanded unless shown already; `notingFallback` is false for an
    /// element, whose collection notes it.
    private func node(
        served place: Int, as need: DependencyVerdicts.Need, type display: String, kind: TypeExplanation.NeedKind,
        owner: BindingDescription, path: [Step], expanded: inout Set<NodeKey>, notingFallback: Bool = true
    ) -> TypeExplanation.Node {
        let (served, ownerPlace) = (table.bindings[place], table.place(of: owner))
        let key = NodeKey(served)
        let inCycle = table.verdicts.isCycleEdge(place, as: need, of: ownerPlace)
        var marks: [TypeExplanation.Mark] = table.verdicts.lacksArgument(place, as: need, of: ownerPlace) ? [.takesArgument] : []
        var children: [TypeExplanation.Node] = []
        let factory = table.factory(of: served)
        // A loop is a cycle when every need along it is an edge of a cycle the validator reports.
        if let start = path.firstIndex(where: { $0.key == key }), inCycle, path[(start + 1)...].allSatisfy(\.inCycle) {
            marks.append(.cycle((path[start...].map(\.key) + [key]).map(\.type)))
        } else if factory == nil {
            if hasCatalog { marks.append(.unknownFactory) }
        } else if factory?.needs == nil {
            marks.append(.byHand)
        } else if factory?.needs?.isEmpty == false {
            if path.count >= Self.depthLimit {
                marks.append(.deeper)
            } else if expanded.insert(key).inserted {
                children = needs(of: served, path: path + [Step(key: key, inCycle: inCycle)], expanded: &expanded).nodes ?? []
            } else {
                marks.append(.shownAbove)
            }
        }
        return TypeExplanation.Node(
            type: display, kind: kind, served: served, searched: [],
            fallbackFrom: served.injector == owner.injector || !notingFallback ? nil : owner.injector, marks: marks,
            children: children)
    }
}
