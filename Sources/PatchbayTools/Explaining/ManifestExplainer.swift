/// Explains how a type resolves under one manifest, as `patchbay explain` does:
/// which injector's binding wins, what it shadows, the factory, the lifetime,
/// the parameters after `${...}` interpolation, and the tree of what the
/// factory needs, each need with the binding that serves it.
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
    ///   - type: A short (`NoteService`) or module-qualified (`NotesKit.NoteService`) type name.
    ///   - injector: The requesting injector; `primary` by default.
    public func explain(_ type: String, from injector: InjectorName = .primary) -> TypeExplanation {
        let manifest = table.manifest
        let lookup = table.lookup(type)
        let resolved: String
        switch lookup {
        case .ambiguous(let candidates):
            return TypeExplanation(
                requested: type, type: type, displayName: type, injector: injector, file: manifest.file,
                environment: manifest.environment, injectorOrder: table.injectorOrder, hasCatalog: hasCatalog,
                outcome: .unbound(TypeExplanation.Unbound(
                    searched: [], ambiguous: candidates, suggestions: [], providers: [])))
        case .type(let name):
            resolved = name
        }
        let outcome: TypeExplanation.Outcome
        if let served = table.serving(resolved, from: injector) {
            var expanded: Set<NodeKey> = [NodeKey(served)]
            outcome = .bound(TypeExplanation.Resolution(
                served: summary(served),
                shadows: table.bindings(of: resolved).filter { $0.injector != served.injector }.map(summary),
                needs: needs(of: served, path: [NodeKey(served)], expanded: &expanded)))
        } else {
            let display = table.display(resolved)
            let providers = table.catalog?.providers(of: resolved) ?? []
            outcome = .unbound(TypeExplanation.Unbound(
                searched: table.searchOrder(from: injector), ambiguous: [],
                suggestions: EditDistance.suggestions(for: display, among: table.knownNames.subtracting([display])),
                providers: providers))
        }
        return TypeExplanation(
            requested: type, type: resolved, displayName: table.display(resolved), injector: injector,
            file: manifest.file, environment: manifest.environment, injectorOrder: table.injectorOrder,
            hasCatalog: hasCatalog, outcome: outcome)
    }

    // MARK: - Building

    /// A binding in effect, identified for cycle and repeat detection.
    struct NodeKey: Hashable {
        let type: String
        let injector: InjectorName
        init(_ entry: BindingTable.Entry) {
            type = entry.type
            injector = entry.injector
        }
    }

    func summary(_ entry: BindingTable.Entry) -> TypeExplanation.ServedBinding {
        let manifest = table.manifest
        return TypeExplanation.ServedBinding(
            injector: entry.injector, factory: entry.binding.factory, lifetime: entry.lifetime,
            lifetimeSource: entry.lifetimeSource, parameters: entry.binding.parameters,
            location: entry.location(in: manifest), file: entry.file(in: manifest),
            fromParent: (entry.binding.origin?.depth ?? 0) > 0,
            overrides: entry.overrides.map { parent in
                let position = parent.origin?.position() ?? SourcePosition(line: 1, column: 1)
                let file = parent.origin?.file ?? manifest.file
                return "'\(parent.factory)' at \(file):\(position.line):\(position.column)"
            },
            factoryKnown: entry.factory != nil, productType: entry.factory.map { table.display($0.productType) },
            argument: entry.factory?.argument.map(table.display), registeredAt: entry.factory?.registeredAt)
    }

    /// What the factory of `entry` needs, expanded depth-first. A binding
    /// already expanded elsewhere in the tree is not expanded again.
    private func needs(
        of entry: BindingTable.Entry, path: [NodeKey], expanded: inout Set<NodeKey>
    ) -> TypeExplanation.Needs {
        guard hasCatalog else { return .noCatalog }
        guard let factory = entry.factory else { return .unknownFactory }
        guard let needs = factory.needs else { return .byHand }
        return .known(needs.map { node(for: $0, owner: entry, path: path, expanded: &expanded) })
    }

    private func node(
        for need: CatalogDescription.Need, owner: BindingTable.Entry, path: [NodeKey], expanded: inout Set<NodeKey>
    ) -> TypeExplanation.Node {
        let kind = TypeExplanation.NeedKind(rawValue: need.kind) ?? .direct
        let display = table.display(need.type)
        guard let served = table.serving(need.type, from: owner.injector) else {
            return TypeExplanation.Node(
                type: display, kind: kind, served: nil, searched: table.searchOrder(from: owner.injector),
                fallbackFrom: nil, marks: [], children: [])
        }
        let key = NodeKey(served)
        var marks: [TypeExplanation.Mark] = []
        var children: [TypeExplanation.Node] = []
        if let factory = served.factory, factory.argument != nil { marks.append(.takesArgument) }
        if let start = path.firstIndex(of: key) {
            marks.append(.cycle((path[start...] + [key]).map { table.display($0.type) }))
        } else if served.factory == nil {
            if hasCatalog { marks.append(.unknownFactory) }
        } else if served.factory?.needs == nil {
            marks.append(.byHand)
        } else if served.factory?.needs?.isEmpty == false {
            if expanded.insert(key).inserted {
                children = needs(of: served, path: path + [key], expanded: &expanded).nodes ?? []
            } else {
                marks.append(.shownAbove)
            }
        }
        return TypeExplanation.Node(
            type: display, kind: kind, served: summary(served), searched: [],
            fallbackFrom: served.injector == owner.injector ? nil : owner.injector, marks: marks,
            children: children)
    }
}
