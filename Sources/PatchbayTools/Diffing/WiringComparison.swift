// How one type's entries on two sides become differences, in time that
// follows the bindings, not the injectors. Every injector that binds the type
// on either side is compared on its own; every other injector falls back, on
// each side, to that side's first binding, so all of them that both sides
// have get one pair, those only the `from` side has another, those only the
// `to` side has a third: three comparisons, whatever the number of injectors.
// Requests that get the same pair are one difference, listing their injectors.

/// The injectors of two wirings, lined up to compare each type's entries.
struct WiringComparison {
    /// Where an injector is: on both sides, or on one only.
    enum Presence: CaseIterable {
        case both, fromOnly, toOnly
    }

    /// The `to` side's injectors, then those only the `from` side has: the order differences follow.
    private let order: [String]
    private let rank: [String: Int]
    private let inFrom: Set<String>, inTo: Set<String>
    /// The injectors of each presence, in ``order``.
    private let members: [Presence: [String]]

    init(from: Wiring, to: Wiring) {
        let inTo = Set(to.injectors)
        var order = to.injectors
        var known = inTo
        for injector in from.injectors where known.insert(injector).inserted { order.append(injector) }
        self.order = order
        self.rank = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        self.inFrom = Set(from.injectors)
        self.inTo = inTo
        var members: [Presence: [String]] = [.both: [], .fromOnly: [], .toOnly: []]
        for injector in order { members[presence(of: injector, inFrom: inFrom, inTo: inTo)]!.append(injector) }
        self.members = members
    }

    /// What a request gets on each side, as compared: where it is served from, and what.
    private struct Pair: Hashable {
        struct Side: Hashable {
            let servedFrom: String, isCollection: Bool, bindings: [Wiring.Served]
            init(_ entry: Wiring.Entry) {
                (servedFrom, isCollection, bindings) = (entry.servedFrom, entry.isCollection, entry.bindings)
            }
        }
        let before: Side?, after: Side?
    }

    /// The requests for one type that get one pair of entries: one difference.
    struct Group {
        /// An entry of each side that the requests get (its ``Wiring/Entry/injector`` is any of them).
        let before: Wiring.Entry?, after: Wiring.Entry?
        /// The injectors that bind the type on either side and get this pair.
        fileprivate(set) var named: [String] = []
        /// The presences whose injectors that bind the type on neither side get this pair.
        fileprivate(set) var presences: [Presence] = []
        /// The injectors that bind the type on either side: not among a presence's members here.
        fileprivate let owners: Set<String>
        /// The place in ``order`` of the first injector of the group.
        fileprivate(set) var first = Int.max
    }

    /// The differences of one type: `before` and `after` are its entries on each side, in each side's order.
    func groups(before: ArraySlice<Wiring.Entry>, after: ArraySlice<Wiring.Entry>) -> [Group] {
        let fromOwn = Dictionary(before.map { ($0.injector, $0) }, uniquingKeysWith: { first, _ in first })
        let toOwn = Dictionary(after.map { ($0.injector, $0) }, uniquingKeysWith: { first, _ in first })
        let (fromFirst, toFirst) = (before.first, after.first)
        let owners = Set(fromOwn.keys).union(toOwn.keys)
        var groups: [Group] = []
        var index: [Pair: Int] = [:]
        func add(_ old: Wiring.Entry?, _ new: Wiring.Entry?, _ place: Int, _ record: (inout Group) -> Void) {
            let pair = Pair(before: old.map(Pair.Side.init), after: new.map(Pair.Side.init))
            guard pair.before != pair.after else { return }
            if index[pair] == nil {
                index[pair] = groups.count
                groups.append(Group(before: old, after: new, owners: owners))
            }
            record(&groups[index[pair]!])
            groups[index[pair]!].first = min(groups[index[pair]!].first, place)
        }
        var ownedPerPresence: [Presence: Int] = [:]
        for injector in owners.sorted(by: { (rank[$0] ?? .max) < (rank[$1] ?? .max) }) {
            ownedPerPresence[presence(of: injector, inFrom: inFrom, inTo: inTo), default: 0] += 1
            add(inFrom.contains(injector) ? fromOwn[injector] ?? fromFirst : nil,
                inTo.contains(injector) ? toOwn[injector] ?? toFirst : nil,
                rank[injector] ?? .max) { $0.named.append(injector) }
        }
        for presence in Presence.allCases where members[presence]!.count > ownedPerPresence[presence, default: 0] {
            // The first of them that binds the type on neither side: found past at most every owner.
            let first = members[presence]!.first { !owners.contains($0) }!
            add(presence == .toOnly ? nil : fromFirst, presence == .fromOnly ? nil : toFirst, rank[first]!) {
                $0.presences.append(presence)
            }
        }
        return groups.sorted { $0.first < $1.first }
    }

    /// The difference a group is, with every injector it is requested from: the cost of the
    /// injectors is paid only for a difference that is listed.
    func change(_ group: Group) -> WiringDiff.Change {
        var injectors = group.named
        for presence in group.presences {
            injectors += members[presence]!.lazy.filter { !group.owners.contains($0) }
        }
        injectors.sort { (rank[$0] ?? .max) < (rank[$1] ?? .max) }
        return WiringDiff.Change(
            before: group.before?.requested(from: injectors[0]), after: group.after?.requested(from: injectors[0]),
            injectors: injectors)
    }
}

/// Where `injector` is, given each side's injectors.
private func presence(of injector: String, inFrom: Set<String>, inTo: Set<String>) -> WiringComparison.Presence {
    inFrom.contains(injector) ? (inTo.contains(injector) ? .both : .fromOnly) : .toOnly
}
