// The injector order and what follows from it, written once: the order
// itself, each injector's place in it, and the injectors a request searches.

extension ValidationRun {
    /// The injector order: primary, secondary, then custom injectors in
    /// `injectors` order, else in order of first use.
    package static func injectorOrder(of manifest: Manifest) -> [InjectorName] {
        var order: [InjectorName] = [.primary, .secondary]
        var seen = Set(order)  // a manifest may use thousands of injectors: no linear search per name
        let custom = manifest.injectors ?? manifest.bindings.map(\.injector)
        for name in custom where name != .primary && name != .secondary && seen.insert(name).inserted {
            order.append(name)
        }
        return order
    }
}

/// The injectors a request from one injector searches, in order: its own,
/// then the others in injector order. Resolution's fallback follows it (the
/// requesting injector's own binding, else the first in injector order: the
/// rule of ``InjectorServing``), and messages list it.
///
/// A sequence, not an array: a message shows the first few of what may be
/// thousands of injectors.
package struct InjectorSearch: Sequence {
    let start: InjectorName
    let order: [InjectorName]

    /// The search from `start` through `order`.
    package init(from start: InjectorName, in order: [InjectorName]) {
        self.start = start
        self.order = order
    }

    package func makeIterator() -> some IteratorProtocol<InjectorName> {
        var first: InjectorName? = start, rest = order.lazy.filter { [start] in $0 != start }.makeIterator()
        return AnyIterator {
            defer { first = nil }
            return first ?? rest.next()
        }
    }
}

/// Each injector's place in an injector order. Every manifest's order
/// starts with primary and secondary, which are compared, not hashed.
package struct InjectorRanks {
    private let leadsWithDefaults: Bool
    private let ranks: [InjectorName: Int]

    package init(_ order: [InjectorName]) {
        leadsWithDefaults = order.starts(with: [.primary, .secondary])
        // Usually there is no other injector, and no dictionary to make.
        var ranks: [InjectorName: Int] = [:]
        for (offset, name) in order.enumerated().dropFirst(leadsWithDefaults ? 2 : 0) where ranks[name] == nil {
            ranks[name] = offset
        }
        self.ranks = ranks
    }

    /// The injector's place; `Int.max` when it is not in the order.
    package subscript(injector: InjectorName) -> Int {
        if leadsWithDefaults, injector == .primary { return 0 }
        if leadsWithDefaults, injector == .secondary { return 1 }
        return ranks[injector] ?? Int.max
    }
}
