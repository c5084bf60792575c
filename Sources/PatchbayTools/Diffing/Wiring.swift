// The effective wiring of one environment: what `patchbay diff` compares.
// It is read from the validator's conclusions (``BindingTable``), so it is
// what a container would serve: `extends` merged, a child's binding in place
// of its parent's, each injector's requests followed through the fallback.

import Patchbay

/// The effective wiring of one manifest: for each type and each injector a
/// request may come from, what serves it, after `extends` is merged and
/// injector fallback is followed.
///
/// Parameters are as written (``Binding/writtenParameters``): `${PORT:-5432}`
/// stays as it is, so the wiring does not depend on where it is read.
public struct Wiring: Sendable, Hashable {
    /// How the wiring is named in a comparison: the environment (`production`),
    /// or the file when both sides are one environment (`old/Manifests/production.json`).
    public var label: String
    /// The manifest file, as diagnostics name it.
    public let file: String
    /// The injectors in fallback order: primary, secondary, then the custom ones.
    public let injectors: [String]
    /// What serves each type from each injector, sorted by type, then injector order.
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

        /// What `type` from `injector` is keyed by in a comparison.
        var key: Key { Key(type: type, injector: injector) }
    }

    /// One binding that serves a request: its factory, lifetime in effect and parameters as written.
    public struct Served: Sendable, Hashable {
        /// The factory's name.
        public let factory: String
        /// The lifetime in effect: the binding's, else the factory's default, else transient.
        public let lifetime: String
        /// The parameters as written, `${...}` and all; nil when the binding gives none.
        public let parameters: JSONValue?
    }

    /// A type requested from an injector.
    struct Key: Hashable, Comparable {
        let type: String
        let injector: String
        static func < (lhs: Key, rhs: Key) -> Bool { (lhs.type, lhs.injector) < (rhs.type, rhs.injector) }
    }

    /// Creates a wiring from its parts, as a test or a tool builds one.
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
        let table = BindingTable(manifest: manifest, catalog: catalog)
        let injectors = table.allInjectors
        var singles: [String] = [], collections: [String] = []
        var seen = Set<String>(), seenCollections = Set<String>()
        for binding in table.bindings {
            let type = BindingTable.typeName(of: binding)
            if binding.isCollectionElement {
                if seenCollections.insert(type).inserted { collections.append(type) }
            } else if seen.insert(type).inserted {
                singles.append(type)
            }
        }
        var entries: [Entry] = []
        let rank = Dictionary(injectors.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        for type in singles.sorted() {
            for injector in injectors {
                guard let served = table.serving(type, from: injector) else { continue }
                entries.append(Entry(
                    type: type, displayType: table.display(type), injector: injector.rawValue,
                    servedFrom: served.injector.rawValue, isCollection: false, bindings: [Served(served)]))
            }
        }
        for type in collections.sorted() {
            for injector in injectors {
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
}

extension Wiring.Served {
    /// What a validated binding serves.
    init(_ binding: BindingDescription) {
        self.init(factory: binding.factory, lifetime: binding.lifetime.rawValue, parameters: binding.binding.writtenParameters)
    }
}
