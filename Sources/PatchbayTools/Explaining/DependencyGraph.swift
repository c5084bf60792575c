/// The dependency graph of a manifest, as `patchbay graph` draws it: a node
/// per binding in effect (protocol and injector, and each element of a
/// collection) labelled with its factory and lifetime, an edge per need of a
/// factory to the binding that serves it (with injector fallback, from the
/// injector that served the factory; a `[T]` need has one edge to each
/// element), and the injectors as groups. A binding's chain of decorators is
/// part of its node (a chain lives as long as its binding and its callers
/// get the chain), named on its label, and each need of a decorator is an
/// edge from that node labelled with the decorator's name. The edges are
/// the validator's verdicts on each need (`DependencyVerdicts`), not a walk
/// of the graph's own.
///
///     let graph = DependencyGraph(manifest: manifest, catalog: FactoryCatalog.notes.describe())
///     print(graph.mermaid())   // or graph.dot()
///
/// A need that no injector binds gets a node of its own, outside every
/// injector. Without a catalog the graph has nodes but no edges. The order of
/// nodes and edges depends only on the manifest and the catalog.

import Patchbay
public struct DependencyGraph: Sendable, Hashable {
    /// One node: a binding in effect, or a needed type that nothing binds.
    public struct Node: Sendable, Hashable {
        /// The identifier used in the output: `n1`, `n2`, ... (`u1`, ... for unbound types).
        public let id: String
        /// The type's short name; `[Plugin]` for an element of `Plugin`'s collection.
        public let type: String
        /// The binding's injector; `nil` for an unbound type.
        public let injector: InjectorName?
        /// The factory's name; `nil` for an unbound type.
        public let factory: String?
        /// The lifetime in effect, when known.
        public let lifetime: Lifetime?
        /// Whether the factory resolves by hand, so its needs (and edges) are unknown.
        public let resolvesByHand: Bool
        /// The binding's decorators, in order, as the manifest names them (the first wraps the factory's product).
        var decorators: [String] = []
    }

    /// A need of a factory.
    public struct Edge: Sendable, Hashable {
        /// The needing node's identifier.
        public let from: String
        /// The serving node's identifier.
        public let to: String
        /// `direct`, `optional`, `lazy`, `provider`, or `collection` (one edge to each element).
        public let kind: TypeExplanation.NeedKind
        /// The decorator of the needing binding's chain that has the need; nil for its factory's.
        var decorator: String?
    }

    /// An injector and its bindings.
    public struct Group: Sendable, Hashable {
        /// The injector.
        public let name: InjectorName
        /// Its bindings' nodes, sorted by type.
        public let nodes: [Node]
    }

    /// The injectors that bind something, in fallback order.
    public let injectors: [Group]
    /// Needed types that no injector binds, sorted.
    public let unbound: [Node]
    /// Every edge, in node order, then in the order the factory lists its
    /// needs, then its chain's links' needs, innermost link first.
    public let edges: [Edge]
    /// The nodes that serve the app's entry points (the types it resolves
    /// itself, as the catalog declares them): the graph's roots, drawn bold.
    public let roots: [String]
    /// The manifest file, as the user named it.
    public let file: String
    /// The manifest's `environment` label.
    public let environment: String?
    /// Whether a catalog was available (without one there are no edges).
    public let hasCatalog: Bool

    /// Builds the graph of a loaded manifest.
    /// - Parameters:
    ///   - manifest: The manifest, with its `extends` chain resolved.
    ///   - catalog: The catalog description, or `nil` when there is none.
    public init(manifest: Manifest, catalog: CatalogDescription?) {
        let table = BindingTable(manifest: manifest, catalog: catalog)
        file = manifest.file
        environment = manifest.environment
        hasCatalog = catalog != nil
        var ids: [ManifestExplainer.NodeKey: String] = [:]
        var groups: [Group] = []
        var ordered: [BindingDescription] = []
        for injector in table.allInjectors {
            // A collection's elements follow the type's single binding, in manifest order.
            let bindings = table.bindings.filter { $0.injector == injector }.sorted {
                ($0.type, BindingTable.typeName(of: $0), $0.isCollectionElement ? 1 : 0, $0.index)
                    < ($1.type, BindingTable.typeName(of: $1), $1.isCollectionElement ? 1 : 0, $1.index)
            }
            guard !bindings.isEmpty else { continue }
            var nodes: [Node] = []
            for binding in bindings {
                let id = "n\(ids.count + 1)"
                ids[ManifestExplainer.NodeKey(binding)] = id
                ordered.append(binding)
                let factory = table.factory(of: binding)
                nodes.append(Node(
                    id: id, type: binding.isCollectionElement ? "[\(binding.type)]" : binding.type, injector: injector,
                    factory: binding.factory,
                    lifetime: binding.lifetimeSource == .unknown ? nil : binding.lifetime,
                    resolvesByHand: factory != nil && factory?.needs == nil,
                    decorators: binding.binding.decorators.map(\.name)))
            }
            groups.append(Group(name: injector, nodes: nodes))
        }
        // The edges are the validator's verdicts on each need: to the binding that serves it, to
        // each element of a collection (with none it is `[]`, not a missing type), or to the
        // unbound type. Unbound types are numbered in name order, so their ids do not depend on
        // which factory needs them first.
        let needs = ordered.map { table.needs(of: $0) ?? [] }
        let chains = ordered.map { table.chain(of: $0) }
        var unboundIDs: [String: String] = [:]
        let unboundNames = Set((needs.joined() + chains.joined().flatMap(\.needs)).filter(\.isUnbound)
            .map { table.display($0.type) })
        for (offset, name) in unboundNames.sorted().enumerated() { unboundIDs[name] = "u\(offset + 1)" }
        var edges: [Edge] = []
        var seen: Set<Edge> = []
        for (offset, entry) in ordered.enumerated() {
            guard let from = ids[ManifestExplainer.NodeKey(entry)] else { continue }
            // The factory's needs, then each link's, innermost first.
            let owned = needs[offset].map { (need: $0, decorator: String?.none) }
                + chains[offset].flatMap { link in link.needs.map { (need: $0, decorator: Optional(link.decorator)) } }
            for (need, decorator) in owned {
                let kind = TypeExplanation.NeedKind(catalogKind: need.kind)
                let targets = need.isUnbound
                    ? [unboundIDs[table.display(need.type)]!]
                    : need.served.compactMap { ids[ManifestExplainer.NodeKey(table.bindings[$0])] }
                for to in targets {
                    let edge = Edge(from: from, to: to, kind: kind, decorator: decorator)
                    if seen.insert(edge).inserted { edges.append(edge) }
                }
            }
        }
        injectors = groups
        roots = (catalog?.entryPoints ?? []).compactMap { entry in
            table.serving(entry.type, from: entry.injector.map { InjectorName($0) } ?? .primary)
                .flatMap { ids[ManifestExplainer.NodeKey($0)] }
        }
        unbound = unboundIDs.sorted { $0.key < $1.key }.map {
            Node(id: $0.value, type: $0.key, injector: nil, factory: nil, lifetime: nil, resolvesByHand: false)
        }
        self.edges = edges
    }
}
