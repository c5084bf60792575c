// Which generation of a container's wiring each lease holds, and when the
// singletons a re-activation replaced may be shut down.
//
// A generation is one activated manifest: 1 for the one the container was
// made with, one more for each `activate`. A re-activation keeps the
// storages of unchanged bindings (see `KeptStorages.swift`), so a storage
// lives through a run of consecutive generations, from the one it was made
// in to the one that replaced it; anything a request under any of those
// generations resolved may be one of its instances. Its instances are
// therefore shut down only once no lease of any of those generations is
// held: a storage born in 3 and dropped when 5 replaced it waits for the
// leases of 3, 4 and 5.

/// A container's generations, leases and pending retirements; kept under a
/// lock by the container, each call brief.
struct GenerationLedger {
    /// The generation in force.
    private(set) var current = 1

    /// A ledger whose generation in force is `current`: 1 for a new
    /// container, the next one for the container a new wiring starts in
    /// (``Container/activate(_:isolation:startingWith:)``), so that it says which it will be.
    init(current: Int = 1) { self.current = current }
    /// The leases held, by generation; a generation with none is absent.
    private var leases: [Int: Int] = [:]
    /// The generation each storage in force was made in, by the storage's
    /// identity, for storages made after the first: absent means 1.
    private var births: [ObjectIdentifier: Int] = [:]
    /// What replaced generations left to shut down, oldest first.
    private var pending: [Retirement] = []

    /// The singletons one re-activation replaced.
    struct Retirement: Sendable {
        /// The generation that was replaced.
        let generation: Int
        /// The oldest generation that may have resolved one of them.
        let since: Int
        /// Their cells, with the binding each was made for (for messages).
        let cells: [(cell: InstanceCell, binding: BindingDescription?)]
        /// Who hears of their shutdown (the watch's events); nil: the next ``Container/shutdown()``.
        let report: (@Sendable (_ generation: Int, _ failures: [Diagnostic]) -> Void)?
    }

    /// Takes a lease on the generation in force; returns it, for ``endLease(_:)``.
    mutating func beginLease() -> Int {
        leases[current, default: 0] += 1
        return current
    }

    /// Ends a lease on `generation`; returns the retirements this makes due.
    mutating func endLease(_ generation: Int) -> [Retirement] {
        let left = leases[generation, default: 1] - 1
        leases[generation] = left > 0 ? left : nil
        return left > 0 ? [] : takeDue()
    }

    /// Notes that a new activation replaced the one in force: `dropped`
    /// are the storages it did not keep (with the cells of their
    /// singletons), `made` those it made anew. Returns the retirements due
    /// already (none when leases are held).
    mutating func replace(
        dropping dropped: [(storage: ObjectIdentifier, cells: [(cell: InstanceCell, binding: BindingDescription?)])],
        making made: [ObjectIdentifier],
        report: (@Sendable (Int, [Diagnostic]) -> Void)?
    ) -> [Retirement] {
        let replaced = current
        current += 1
        let since = dropped.map { births[$0.storage] ?? 1 }.min() ?? replaced
        for storage in dropped { births[storage.storage] = nil }
        for storage in made { births[storage] = current }
        let cells = dropped.flatMap(\.cells)
        // Even with nothing to shut down: who listens hears when no lease can reach the replaced wiring
        // any more (a server stops the services it started for it then).
        pending.append(Retirement(generation: replaced, since: since, cells: cells, report: report))
        return takeDue()
    }

    /// Every retirement still pending, taken: for ``Container/shutdown()``, which shuts them down at once.
    mutating func takeAll() -> [Retirement] {
        defer { pending = [] }
        return pending
    }

    /// How many retirements wait for leases (for tests).
    var pendingCount: Int { pending.count }

    /// The retirements whose generations, from the oldest that could reach
    /// them to the one replaced, hold no lease: taken out, oldest first.
    private mutating func takeDue() -> [Retirement] {
        var due: [Retirement] = []
        pending.removeAll { retirement in
            let free = (retirement.since...retirement.generation).allSatisfy { leases[$0] == nil }
            if free { due.append(retirement) }
            return free
        }
        return due
    }
}
