// How a re-activation retires what it replaced: the singletons of the
// storages it did not keep are shut down (those that are `AsyncShutdown`),
// in reverse order of making, once no lease that could reach them is held
// (see `GenerationLedger.swift`). Shutting down awaits, and the lease that
// ends last is a request's: so it runs in a task of its own, never in the
// request, and `shutdown()` waits for it.

/// The storages one activation drops and makes relative to another.
struct StorageChange {
    /// The old activation's storages the new one does not share, each with the cell of its made singleton when that is an ``AsyncShutdown``.
    var dropped: [(storage: ObjectIdentifier, cells: [(cell: InstanceCell, binding: BindingDescription?)])] = []
    /// The cells of the dropped singleton storages that hold nothing yet: a
    /// resolution under way at the swap may still make one there, which must be shut down too.
    var unmade: [(cell: InstanceCell, binding: BindingDescription?)] = []
    /// The new activation's storages the old one did not have.
    var made: [ObjectIdentifier] = []

    init(from old: Activation, to new: Activation) {
        let newBindings = new.keepingBindings, oldBindings = old.keepingBindings
        let shared = Set(newBindings.map { ObjectIdentifier($0.storage) })
        var seen: Set<ObjectIdentifier> = []
        for binding in oldBindings {
            let id = ObjectIdentifier(binding.storage)
            guard !shared.contains(id), seen.insert(id).inserted else { continue }
            // Only an instance that has something to stop is held until its retirement: any other is freed with
            // the old activation. An empty cell is remembered weakly, for what a resolution under way makes in it.
            let cell = binding.storage.sharedCell, made = cell?.current
            let stops = (made as? AnyInstance)?.anyValue is any AsyncShutdown
            dropped.append((id, stops ? [(cell: cell!, binding: binding.described)] : []))
            if let cell, made == nil { unmade.append((cell, binding.described)) }
        }
        let had = Set(oldBindings.map { ObjectIdentifier($0.storage) })
        made = Array(shared.subtracting(had))
    }
}

/// The container's retirements under way, and what its next ``Container/shutdown()`` owes.
struct RetiringWork {
    /// The tasks shutting down retired singletons, by a number of their own.
    var tasks: [Int: Task<Void, Never>] = [:]
    var nextTask = 0
    /// Failures of retirements no watch heard, for the next ``Container/shutdown()`` to throw.
    var unreported: [Diagnostic] = []
    /// What resolutions already under way at a swap made, outside any lease, in cells of replaced
    /// bindings after the swap: ``Container/shutdown()`` shuts them down.
    var late: [(cell: InstanceCell, binding: BindingDescription?)] = []
}

extension Container {
    /// The generation of the wiring in force: 1 for the manifest the
    /// container was made with, one more for each manifest activated since
    /// (``activate(_:)``, a watch). A reset does not change it.
    public var generation: Int { ledger.withLock { $0.current } }

    /// Runs `body` holding a lease on the generation in force: the
    /// singletons a later re-activation replaces are not shut down while
    /// it runs. A server takes one per request (in a middleware), so that a
    /// handler keeps the store it resolved across its awaits while the
    /// wiring changes under it.
    ///
    ///     try await container.withLease { try await next(request, context) }
    ///
    /// A lease costs two short lock holds, none per resolve. An instance
    /// kept outside a lease (in a global, a task that outlives it) is the
    /// app's own: it may be shut down once replaced.
    public func withLease<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result
    ) async rethrows -> Result {
        let generation = ledger.withLock { $0.beginLease() }
        defer { endLease(generation) }
        return try await body()
    }

    /// Runs `body` holding a lease, for synchronous work (see ``withLease(isolation:_:)``).
    public func withLease<Result>(_ body: () throws -> Result) rethrows -> Result {
        let generation = ledger.withLock { $0.beginLease() }
        defer { endLease(generation) }
        return try body()
    }

    private func endLease(_ generation: Int) {
        startRetiring(ledger.withLock { $0.endLease(generation) })
    }

    /// Notes the cells of replaced bindings that hold nothing yet: what a
    /// resolution already under way makes there is kept for ``shutdown()``.
    func watchForLateMaking(_ unmade: [(cell: InstanceCell, binding: BindingDescription?)]) {
        for (cell, binding) in unmade {
            _ = cell.retireEmpty { [weak self] cell in
                guard let self, (cell.current as? AnyInstance)?.anyValue is any AsyncShutdown else { return }
                retiring.withLock { $0.late.append((cell, binding)) }
            }
        }
    }

    /// Shuts down `due` in a task of its own, which ``shutdown()`` and ``waitForRetirements()`` wait for.
    func startRetiring(_ due: [GenerationLedger.Retirement]) {
        // With nothing to shut down, only told (no task, which would keep the container alive a while).
        for retirement in due where retirement.cells.isEmpty { retirement.report?(retirement.generation, []) }
        let due = due.filter { !$0.cells.isEmpty }
        guard !due.isEmpty else { return }
        retiring.withLock { work in
            let number = work.nextTask
            work.nextTask += 1
            // Whatever the thread that ended the last lease: a busy server's requests must not starve
            // the shutdown of a pool they no longer use (see `TaskPriority.rewiring`).
            work.tasks[number] = Task.detached(priority: .rewiring) { [self] in
                for retirement in due {
                    let failures = await shutDown(retirement.cells, sparing: currentActivation())
                    if let report = retirement.report {
                        report(retirement.generation, failures)
                    } else if !failures.isEmpty {
                        retiring.withLock { $0.unreported += failures }
                    }
                }
                _ = retiring.withLock { $0.tasks.removeValue(forKey: number) }
            }
        }
    }

    /// Waits until every retirement started has finished. For tests, and ``shutdown()``.
    func waitForRetirements() async {
        while let task = retiring.withLock({ $0.tasks.values.first }) { await task.value }
    }

    /// Shuts down the ``AsyncShutdown`` instances of `cells`, latest made
    /// first, each instance once (its cell notes it: ``InstanceCell/claimShutdown()``), but those `sparing` serves
    /// too (one object kept by a storage of each); returns each failure as
    /// a `shutdown-failed` diagnostic at its binding.
    func shutDown(
        _ cells: [(cell: InstanceCell, binding: BindingDescription?)], sparing activation: Activation?
    ) async -> [Diagnostic] {
        var spared: Set<ObjectIdentifier> = []
        for binding in activation?.keepingBindings ?? [] {
            if let made = (binding.storage.sharedCell?.current as? AnyInstance)?.anyValue,
                type(of: made) is AnyObject.Type
            {
                spared.insert(ObjectIdentifier(made as AnyObject))
            }
        }
        var seen: Set<ObjectIdentifier> = []
        var due: [(instance: any AsyncShutdown, binding: BindingDescription?, order: UInt64)] = []
        for (cell, binding) in cells {
            let order = cell.madeOrder
            guard order != 0, let made = (cell.current as? AnyInstance)?.anyValue,
                let instance = made as? any AsyncShutdown
            else { continue }
            if type(of: made) is AnyObject.Type {
                let id = ObjectIdentifier(made as AnyObject)
                guard !spared.contains(id), seen.insert(id).inserted else { continue }
            }
            guard cell.claimShutdown() else { continue }
            due.append((instance, binding, order))
        }
        var failures: [Diagnostic] = []
        for made in due.sorted(by: { $0.order > $1.order }) {
            do {
                try await made.instance.shutdown()
            } catch {
                let message = "shutdown of \(made.binding.map { "\($0.type) (factory '\($0.factory)')" } ?? "a singleton") "
                    + "failed: \(error)"
                failures.append(
                    made.binding?.diagnostic(.shutdownFailed, message)
                        ?? Diagnostic(code: .shutdownFailed, message: message, file: manifest.file))
            }
        }
        return failures
    }
}

extension Activation {
    /// Validates `manifest` against `catalog` and compiles it, sharing with
    /// `base` the storages of every binding that did not change (see `KeptStorages.swift`).
    /// - Throws: ``ManifestError`` with every problem, when there is any error.
    static func compile(
        _ manifest: Manifest, catalog: FactoryCatalog, keepingFrom base: Activation
    ) throws(ManifestError) -> Activation {
        let result = try validate(manifest, catalog: catalog)
        let fresh = compile(result, of: manifest, catalog: catalog)
        let kept = fresh.storagesKept(from: base)
        return kept.isEmpty ? fresh : compile(result, of: manifest, catalog: catalog, keeping: kept)
    }
}
