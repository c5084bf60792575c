import Patchbay

/// What differs between two wirings (``Wiring``): for each type and injector,
/// what serves it on one side and not the other, or differently on each.
///
///     let diff = try ManifestDiffer(catalog: .myApp).diff(folder: manifests, from: "staging", to: "production")
///     print(diff.text())
///
/// Equal wirings have no ``changes`` and the same injector order; `patchbay
/// diff` exits 0 for them and 1 otherwise, as `diff` does.
public struct WiringDiff: Sendable, Hashable {
    /// The wiring compared from (the base, the old side).
    public let from: Wiring
    /// The wiring compared to (the new side).
    public let to: Wiring
    /// Each type and injector served differently, in type order, then the `to` side's injector order.
    public let changes: [Change]

    /// One type requested from one injector, served differently on the two sides.
    public struct Change: Sendable, Hashable {
        /// What is served on the `from` side; nil when nothing is.
        public let before: Wiring.Entry?
        /// What is served on the `to` side; nil when nothing is.
        public let after: Wiring.Entry?

        /// The type's short name (`Clock`, `[Plugin]`).
        public var displayType: String { (after ?? before)!.displayType }
        /// The injector the request comes from.
        public var injector: String { (after ?? before)!.injector }
        /// `added`, `removed` or `changed`.
        public var kind: String { before == nil ? "added" : after == nil ? "removed" : "changed" }
    }

    /// Compares two wirings.
    public init(from: Wiring, to: Wiring) {
        self.from = from
        self.to = to
        let before = Dictionary(from.entries.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let after = Dictionary(to.entries.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        var changes: [Change] = []
        // The `to` side's order, then what only the `from` side serves, at its type's place.
        var keys = to.entries.map(\.key)
        var known = Set(keys)
        for entry in from.entries where known.insert(entry.key).inserted { keys.append(entry.key) }
        let order = Dictionary(keys.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        keys.sort { $0.type != $1.type ? $0.type < $1.type : order[$0]! < order[$1]! }
        for key in keys {
            let old = before[key], new = after[key]
            guard old?.servedFrom != new?.servedFrom || old?.bindings != new?.bindings
                || old?.isCollection != new?.isCollection
            else { continue }
            changes.append(Change(before: old, after: new))
        }
        self.changes = changes
    }

    /// Whether the two sides are wired alike: no change, and the same injector order.
    public var isEqual: Bool { changes.isEmpty && from.injectors == to.injectors }

    /// `3 differences (1 added, 1 removed, 1 changed)`, or `no differences`.
    public var summary: String {
        var parts: [String] = []
        let count = changes.count + (from.injectors == to.injectors ? 0 : 1)
        guard count > 0 else { return "no differences" }
        for kind in ["added", "removed", "changed"] {
            let number = changes.filter { $0.kind == kind }.count
            if number > 0 { parts.append("\(number) \(kind)") }
        }
        if from.injectors != to.injectors { parts.append("injector order changed") }
        return "\(count) difference\(count == 1 ? "" : "s") (" + parts.joined(separator: ", ") + ")"
    }
}
