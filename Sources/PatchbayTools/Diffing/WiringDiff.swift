import Patchbay

/// What differs between two wirings (``Wiring``): for each type, what serves
/// it on one side and not the other, or differently on each, with every
/// injector a request for it may come from that gets those two.
///
///     let diff = try ManifestDiffer(catalog: .myApp).diff(folder: manifests, from: "staging", to: "production")
///     print(diff.text())
///
/// A difference is counted once per type and pair of bindings, not once per
/// injector that falls back to them: a changed `primary` binding that a
/// thousand custom injectors fall back to is one difference, requested from
/// all of them. The comparison costs what the two manifests' bindings do, not
/// their types times their injectors.
///
/// Equal wirings have no differences and the same injector order; `patchbay
/// diff` exits 0 for them and 1 otherwise, as `diff` does.
public struct WiringDiff: Sendable, Hashable {
    /// The wiring compared from (the base, the old side).
    public let from: Wiring
    /// The wiring compared to (the new side).
    public let to: Wiring
    /// The differences listed, at most the limit the diff was made with: in
    /// type order, each type's in the order of the first injector they are requested from.
    public let changes: [Change]
    /// How many differences there are, of each kind, listed or not.
    let counts: [String: Int]

    /// How many differences there are (each type and pair of bindings once), listed in ``changes`` or not;
    /// a changed injector order is not counted here.
    public var count: Int { counts.values.reduce(0, +) }

    /// How many differences are not listed in ``changes``.
    public var omitted: Int { count - changes.count }

    /// One type served differently on the two sides, to requests from ``injectors``.
    public struct Change: Sendable, Hashable {
        /// What is served on the `from` side; nil when nothing is.
        public let before: Wiring.Entry?
        /// What is served on the `to` side; nil when nothing is.
        public let after: Wiring.Entry?
        /// Every injector a request from which gets ``before`` and ``after``:
        /// the `to` side's injectors in order, then those only the `from` side has.
        public let injectors: [String]

        /// The type's short name (`Clock`, `[Plugin]`).
        public var displayType: String { (after ?? before)!.displayType }
        /// The type, module-qualified when a catalog knows it (`NotesKit.Clock`, `[NotesKit.Plugin]`).
        public var type: String { (after ?? before)!.type }
        /// The first injector of ``injectors``.
        public var injector: String { injectors[0] }
        /// `added`, `removed`, `changed`, or `chain changed` when only the
        /// decorators of what is served differ (one added, removed, reordered, or given other parameters).
        public var kind: String { Self.kind(before: before, after: after) }

        static func kind(before: Wiring.Entry?, after: Wiring.Entry?) -> String {
            guard let before else { return "added" }
            guard let after else { return "removed" }
            let alike = before.servedFrom == after.servedFrom && before.isCollection == after.isCollection
                && before.bindings.map(\.undecorated) == after.bindings.map(\.undecorated)
            return alike ? chainChanged : "changed"
        }

        /// The kind of a difference in the chain of decorators alone.
        static let chainChanged = "chain changed"
    }

    /// Every kind of difference, in the order a summary counts them.
    static let kinds = ["added", "removed", "changed", Change.chainChanged]

    /// How many differences are listed unless told otherwise: about 150 lines of text, a terminal's
    /// screenful or two; `patchbay diff --max-differences N` changes it.
    public static let defaultMaxDifferences = 50

    /// Compares two wirings.
    /// - Parameter limit: The most differences to list in ``changes``
    ///   (``defaultMaxDifferences`` unless told); nil lists every one.
    ///   Every difference is counted whatever the limit.
    public init(from: Wiring, to: Wiring, limit: Int? = WiringDiff.defaultMaxDifferences) {
        self.from = from
        self.to = to
        let comparison = WiringComparison(from: from, to: to)
        var changes: [Change] = []
        var counts: [String: Int] = [:]
        // Types in name order: both sides' entries are sorted by type, so a merge of the two.
        var (i, j) = (from.entries.startIndex, to.entries.startIndex)
        while i < from.entries.endIndex || j < to.entries.endIndex {
            let type = j == to.entries.endIndex
                || (i < from.entries.endIndex && from.entries[i].type < to.entries[j].type)
                ? from.entries[i].type : to.entries[j].type
            var (iEnd, jEnd) = (i, j)
            while iEnd < from.entries.endIndex, from.entries[iEnd].type == type { iEnd += 1 }
            while jEnd < to.entries.endIndex, to.entries[jEnd].type == type { jEnd += 1 }
            for group in comparison.groups(before: from.entries[i..<iEnd], after: to.entries[j..<jEnd]) {
                counts[Change.kind(before: group.before, after: group.after), default: 0] += 1
                if limit.map({ changes.count < $0 }) ?? true { changes.append(comparison.change(group)) }
            }
            (i, j) = (iEnd, jEnd)
        }
        self.changes = changes
        self.counts = counts
    }

    /// Whether the two sides are wired alike: no difference, and the same injector order.
    public var isEqual: Bool { count == 0 && from.injectors == to.injectors }

    /// `3 differences (1 added, 1 removed, 1 changed)`, or `no differences`; every difference, listed or not
    /// (`1 chain changed` counts a binding whose decorators alone differ).
    public var summary: String {
        let count = count + (from.injectors == to.injectors ? 0 : 1)
        guard count > 0 else { return "no differences" }
        return "\(count) difference\(count == 1 ? "" : "s") (" + breakdown(of: counts) + ")"
    }

    /// `1 added, 2 changed`, and `injector order changed` when it did.
    private func breakdown(of counts: [String: Int]) -> String {
        var parts = Self.kinds.compactMap { kind in counts[kind].map { "\($0) \(kind)" } }
        if from.injectors != to.injectors { parts.append("injector order changed") }
        return parts.joined(separator: ", ")
    }

    /// What the differences not listed are, by kind: `998 changed`; empty when every one is listed.
    var omittedBreakdown: String {
        var left = counts
        for change in changes { left[change.kind]! -= 1 }
        return Self.kinds.compactMap { kind in
            left[kind].flatMap { $0 > 0 ? "\($0) \(kind)" : nil }
        }.joined(separator: ", ")
    }
}
