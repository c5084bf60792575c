/// How one type resolves under a manifest: what ``ManifestExplainer`` finds
/// and `patchbay explain` prints with ``text()``.

import Patchbay
public struct TypeExplanation: Sendable, Hashable {
    /// The name as requested.
    public let requested: String
    /// The type: module-qualified when the catalog knows it, else the name as written.
    public let type: String
    /// The short name, for display.
    public let displayName: String
    /// The injector the type is requested from.
    public let injector: InjectorName
    /// The manifest file, as the user named it.
    public let file: String
    /// The manifest's `environment` label.
    public let environment: String?
    /// The manifest's injectors in fallback order.
    public let injectorOrder: [InjectorName]
    /// Whether a catalog was available (without one, needs are unknown).
    public let hasCatalog: Bool
    /// Bound or not, and the details.
    public let outcome: Outcome
    /// The type's collection (`[T]`): when the collection was asked for
    /// (`[Plugin]`), or when some injector lists elements of the type.
    public let collection: CollectionResolution?
    /// Whether the collection was asked for (`[Plugin]`) rather than the type itself.
    public let requestedCollection: Bool
    /// What the catalog says of each factory the explanation's bindings
    /// name, by name; a factory the catalog lacks is absent.
    public let factories: [String: Factory]
    /// Where the app declared the type an entry point (a type it resolves
    /// itself, a root of the graph); nil when it is not one.
    public var entryPointDeclaredAt: String?

    /// Whether what was asked for is served: the type's binding, or, for
    /// `[T]` or a type that only has a collection, at least one element.
    public var isBound: Bool {
        let hasElements = collection?.elements.isEmpty == false
        return requestedCollection ? hasElements : resolution != nil || hasElements
    }

    /// The winning binding and its needs, when the type is bound.
    public var resolution: Resolution? {
        if case .bound(let resolution) = outcome { resolution } else { nil }
    }

    /// Why the type is not bound, when it is not.
    public var unbound: Unbound? {
        if case .unbound(let unbound) = outcome { unbound } else { nil }
    }

    /// Bound, or why not.
    public enum Outcome: Sendable, Hashable {
        /// A binding serves the type.
        case bound(Resolution)
        /// No binding serves the type.
        case unbound(Unbound)
    }

    /// The binding that wins and what its factory needs.
    public struct Resolution: Sendable, Hashable {
        /// The winning binding.
        public let served: BindingDescription
        /// The bindings of the same type in other injectors, in injector order, that lose to it.
        public let shadows: [BindingDescription]
        /// What the factory needs.
        public let needs: Needs
        /// What each decorator of the binding's chain needs, in the chain's order; empty without a chain.
        public var linkNeeds: [Needs] = []
        /// `main-actor` or `async` when the binding's chain makes it so (an
        /// `async` or main-actor link around a synchronous factory); nil
        /// when the factory's ``Factory/execution`` says where it is made.
        public var chainExecution: String?
    }

    /// The elements that serve a collection `[T]` asked from the requesting injector.
    public struct CollectionResolution: Sendable, Hashable {
        /// The elements, in manifest order, each with what its factory needs;
        /// empty when no injector lists any, and the collection is `[]`.
        public let elements: [Element]
        /// The elements of the other injectors, in injector order, which lose to these.
        public let shadows: [BindingDescription]
        /// The injectors searched, in order.
        public let searched: [InjectorName]
        /// The catalog factories that provide the element type.
        public let providers: [String]

        /// One element and what its factory needs.
        public struct Element: Sendable, Hashable {
            /// The element's binding.
            public let served: BindingDescription
            /// What its factory needs.
            public let needs: Needs
        }

        /// The injector whose elements serve; nil when there are none.
        public var servedBy: InjectorName? { elements.first?.served.injector }
    }

    /// Why a type is not bound.
    public struct Unbound: Sendable, Hashable {
        /// The injectors searched, in order.
        public let searched: [InjectorName]
        /// The catalog types a short name matches, when it matches several.
        public let ambiguous: [String]
        /// The nearest bound or catalog names.
        public let suggestions: [String]
        /// The catalog factories that provide the type.
        public let providers: [String]
    }

    /// What the catalog says of a factory: facts of the factory, which
    /// every binding naming it shares.
    public struct Factory: Sendable, Hashable {
        /// The factory's name.
        public let name: String
        /// The product's type (short name).
        public let productType: String
        /// The resolve-time argument type (short name), when the factory takes one.
        public let argument: String?
        /// Where the factory was registered, when the catalog says.
        public let registeredAt: String?
        /// `main-actor` or `async` when the factory's closure is one; nil for
        /// a nonisolated, synchronous factory.
        public let execution: String?
    }

    /// What a factory needs.
    public enum Needs: Sendable, Hashable {
        /// Each need, with the binding that serves it.
        case known([Node])
        /// The factory resolves by hand: its needs are unknown to static analysis.
        case byHand
        /// The catalog has no factory of the binding's name.
        case unknownFactory
        /// There is no catalog to say.
        case noCatalog

        /// The needs, when known.
        public var nodes: [Node]? {
            if case .known(let nodes) = self { nodes } else { nil }
        }
    }

    /// How a factory takes a dependency.
    public enum NeedKind: String, Sendable, Hashable {
        /// Resolved when the factory runs; must be bound.
        case direct
        /// `T?`: `nil` when not bound.
        case optional
        /// `Lazy<T>`: resolved on first use.
        case lazy
        /// `Provider<T>`: resolved anew at each call.
        case provider
        /// `[T]`: every element of `T`'s collection, in manifest order; `[]` when none.
        case collection

        /// The kind a catalog description names: `lazy-collection` (`Lazy<[T]>`)
        /// is shown as the collection it reads; an unknown kind as `direct`.
        init(catalogKind: String) {
            self = catalogKind == "lazy-collection" ? .collection : Self(rawValue: catalogKind) ?? .direct
        }
    }

    /// One need of a factory in the dependency tree.
    public struct Node: Sendable, Hashable {
        /// The needed type's short name.
        public let type: String
        /// Direct, optional, lazy, provider or collection.
        public let kind: NeedKind
        /// The binding that serves it; `nil` when no injector binds it, and
        /// for a collection, whose elements are its ``children``.
        public let served: BindingDescription?
        /// When unbound: the injectors searched, in order.
        public let searched: [InjectorName]
        /// When served by fallback: the injector asked (the one that served the factory);
        /// for a collection, when its elements come from another injector.
        public let fallbackFrom: InjectorName?
        /// Remarks: a cycle, a subtree shown above, needs unknown.
        public let marks: [Mark]
        /// What the serving factory needs, when expanded here; for a
        /// collection, its elements, each with what it needs.
        public let children: [Node]
    }

    /// A remark on a node of the dependency tree.
    public enum Mark: Sendable, Hashable {
        /// The need leads back to a binding on the path, and every need along the
        /// loop is an edge of a cycle the validator reports (`dependency-cycle`; a
        /// `Lazy` or `Provider` breaks a loop): the loop, first and last equal.
        case cycle([String])
        /// The binding's needs were expanded earlier in the tree.
        case shownAbove
        /// The serving factory resolves by hand.
        case byHand
        /// The catalog has no factory of that name.
        case unknownFactory
        /// The serving factory takes a resolve-time argument none can supply, by the validator's
        /// verdict: one its dependent does not take and pass on (`argument-required`), or any,
        /// for an element of a collection (`collection-element-takes-argument`).
        case takesArgument
        /// The binding's needs are deeper than ``ManifestExplainer/depthLimit`` levels, and not
        /// expanded; explaining the node's type shows them.
        case deeper
    }
}
