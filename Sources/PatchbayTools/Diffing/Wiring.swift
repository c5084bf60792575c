// The effective wiring of one environment: what `patchbay diff` compares.
// It is read from the validator's conclusions (``BindingTable``), so it is
// what a container would serve: `extends` merged, a child's binding in place
// of its parent's, each injector's requests followed through the fallback.

import Patchbay

/// The effective wiring of one manifest: for each type, what each injector
/// that binds it serves, after `extends` is merged; a request from any other
/// injector falls back to the type's first binding in injector order
/// (``entry(for:from:)`` follows that rule).
///
/// Parameters are as written (``Binding/writtenParameters``): `${PORT:-5432}`
/// stays as it is, so the wiring does not depend on where it is read.
///
/// Its size is the manifest's: a type bound once in a manifest of a thousand
/// injectors is one entry, not a thousand.
public struct Wiring: Sendable, Hashable {
    /// How the wiring is named in a comparison: the environment (`production`),
    /// or the file when both sides are one environment (`old/Manifests/production.json`).
    public var label: String
    /// The manifest file, as diagnostics name it.
    public let file: String
    /// The injectors in fallback order: primary, secondary, then the custom ones.
    public let injectors: [String]
    /// What each injector that binds a type serves of it (its own binding, or
    /// its own elements of a collection), sorted by type, then injector order.
    public let entries: [Entry]

    /// What a request for one type from one injector gets.
    public struct Entry: Sendable, Hashable {
        /// The type as the catalog names it (`NotesKit.Clock`), else as the manifest wrote it;
        /// `[NotesKit.Plugin]` for a collection.
        public let type: String
        /// The type's short name, for display (`Clock`, `[Plugin]`).
        public let displayType: String
        /// The injector the request comes from.
        public let injector: String
        /// The injector whose bindings serve it: ``injector`` itself, or the one it falls back to.
        public let servedFrom: String
        /// Whether the type is a collection, served by its elements.
        public let isCollection: Bool
        /// The binding that serves it; for a collection, its elements in manifest order.
        public let bindings: [Served]

        /// Creates an entry from its parts.
        public init(
            type: String, displayType: String, injector: String, servedFrom: String, isCollection: Bool,
            bindings: [Served]
        ) {
            self.type = type
            self.displayType = displayType
            self.injector = injector
            self.servedFrom = servedFrom
            self.isCollection = isCollection
            self.bindings = bindings
        }

        /// This entry as a request from `injector` gets it, served from where this one is.
        func requested(from injector: String) -> Entry {
            Entry(type: type, displayType: displayType, injector: injector, servedFrom: servedFrom,
                  isCollection: isCollection, bindings: bindings)
        }

        /// Whether two requests get the same thing, from wherever they come.
        func servesAlike(_ other: Entry) -> Bool {
            servedFrom == other.servedFrom && isCollection == other.isCollection && bindings == other.bindings
        }
    }

    /// One binding that serves a request: its factory, lifetime in effect, parameters and chain as written.
    public struct Served: Sendable, Hashable {
        /// The factory's name.
        public let factory: String
        /// The lifetime in effect: the binding's, else the factory's default, else transient.
        public let lifetime: String
        /// The parameters as written, `${...}` and all; nil when the binding gives none.
        public let parameters: JSONValue?
        /// The chain of decorators around the product, innermost first, each as
        /// written: its name, or `{"decorator": ..., "parameters": ...}` when it has
        /// parameters (`${...}` and all). Empty when the binding names none.
        public let decorators: [JSONValue]

        /// Creates a served binding from its parts.
        public init(factory: String, lifetime: String, parameters: JSONValue?, decorators: [JSONValue] = []) {
            self.factory = factory
            self.lifetime = lifetime
            self.parameters = parameters
            self.decorators = decorators
        }

        /// The same binding with no decorators: what a change of its chain alone leaves equal.
        var undecorated: Served { Served(factory: factory, lifetime: lifetime, parameters: parameters) }
    }

    /// Creates a wiring from its parts, as a test or a tool builds one.
    /// - Parameter entries: Each injector's own entry of each type, sorted by type, then injector order.
    public init(label: String, file: String, injectors: [String], entries: [Entry]) {
        self.label = label
        self.file = file
        self.injectors = injectors
        self.entries = entries
    }

    /// The wiring of a loaded manifest (its `extends` chain merged), with the catalog that judged it.
    /// - Parameters:
    ///   - manifest: The manifest, as ``ManifestLoader`` loads it.
    ///   - catalog: The catalog description, or nil when there is none.
    ///   - label: How to name it in a comparison.
    public init(manifest: Manifest, catalog: CatalogDescription?, label: String) {
        self.init(manifest: manifest, index: catalog.map { CatalogIndex($0) }, label: label)
    }

    /// The wiring of a manifest, with the catalog index a check judged it by.
    package init(manifest: Manifest, index: CatalogIndex?, label: String) {
        let table = BindingTable(manifest: manifest, index: index)
        let injectors = table.allInjectors
        let rank = Dictionary(injectors.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        // Each type's injectors that bind it, from the bindings themselves: one pass over
        // them, never every type times every injector.
        struct Owner: Hashable { let type: String, injector: InjectorName, isCollection: Bool }
        var singles: [String: [InjectorName]] = [:], collections: [String: [InjectorName]] = [:]
        var owners = Set<Owner>()
        for binding in table.bindings {
            let type = BindingTable.typeName(of: binding), injector = binding.injector
            guard owners.insert(Owner(type: type, injector: injector, isCollection: binding.isCollectionElement)).inserted
            else { continue }
            if binding.isCollectionElement {
                collections[type, default: []].append(injector)
            } else {
                singles[type, default: []].append(injector)
            }
        }
        var entries: [Entry] = []
        for (type, owners) in singles {
            for injector in owners {
                guard let served = table.serving(type, from: injector) else { continue }
                entries.append(Entry(
                    type: type, displayType: table.display(type), injector: injector.rawValue,
                    servedFrom: served.injector.rawValue, isCollection: false, bindings: [Served(served)]))
            }
        }
        for (type, owners) in collections {
            for injector in owners {
                guard let elements = table.elements(type, from: injector), let first = elements.first else { continue }
                entries.append(Entry(
                    type: "[\(type)]", displayType: "[\(table.display(type))]", injector: injector.rawValue,
                    servedFrom: first.injector.rawValue, isCollection: true, bindings: elements.map(Served.init)))
            }
        }
        // Types in name order, each type's injectors in fallback order.
        entries.sort {
            $0.type != $1.type ? $0.type < $1.type
                : (rank[InjectorName($0.injector)] ?? .max) < (rank[InjectorName($1.injector)] ?? .max)
        }
        self.init(label: label, file: manifest.file, injectors: injectors.map(\.rawValue), entries: entries)
    }

    /// What a request for `type` from `injector` gets: the injector's own entry,
    /// else the type's first in injector order; nil when nothing serves it, or
    /// when this wiring has no such injector.
    public func entry(for type: String, from injector: String) -> Entry? {
        guard injectors.contains(injector) else { return nil }
        let own = entries(of: type)
        return own.first { $0.injector == injector } ?? own.first?.requested(from: injector)
    }

    /// The entries of one type, found by halving: ``entries`` is sorted by type.
    func entries(of type: String) -> ArraySlice<Entry> {
        var (low, high) = (0, entries.count)
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].type < type { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < entries.count, entries[end].type == type { end += 1 }
        return entries[low..<end]
    }
}

extension Wiring.Served {
    /// What a validated binding serves.
    init(_ binding: BindingDescription) {
        self.init(
            factory: binding.factory, lifetime: binding.lifetime.rawValue, parameters: binding.binding.writtenParameters,
            decorators: binding.binding.decorators.map { link in
                link.writtenParameters.map { .object(["decorator": .string(link.name), "parameters": $0]) }
                    ?? .string(link.name)
            })
    }
}
