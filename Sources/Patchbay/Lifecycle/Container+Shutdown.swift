extension Container {
    /// Shuts down every singleton the container made that is an
    /// ``AsyncShutdown``, one after another in reverse order of making:
    /// an instance made by another's factory (a dependency) after it. Call
    /// it once, when the app stops, after the work that uses them is done.
    ///
    ///     try await app.run()                 // returns after a graceful shutdown
    ///     try await container.shutdown()      // then the pool, the log, ... in reverse order
    ///
    /// Every one is called even when an earlier one throws; the failures are
    /// thrown together, each a `shutdown-failed` diagnostic at its binding.
    /// Only what was made is shut down: a singleton never resolved has nothing to stop.
    ///
    /// The singletons of earlier generations that a re-activation replaced
    /// and that still wait for a lease (see ``withLease(isolation:_:)``) are
    /// shut down too, with the failures of retirements no watch reported;
    /// a retirement under way is waited for. None is shut down twice, and a
    /// singleton that a later generation kept is shut down once, with it.
    ///
    /// The instances stay the container's: a later resolve gets the instance
    /// that was shut down. ``reset()`` is the other way round: it forgets
    /// singletons without shutting any down (it is synchronous, and for
    /// tests); to do both, `await shutdown()` then `reset()`.
    /// - Throws: ``ManifestError`` listing every singleton whose ``AsyncShutdown/shutdown()`` threw.
    public func shutdown() async throws(ManifestError) {
        let pending = ledger.withLock { $0.takeAll() }
        await waitForRetirements()
        var cells = currentActivation().singletonCells
        for retirement in pending { cells += retirement.cells }
        // What resolutions under way at a swap made in the replaced bindings after it.
        cells += retiring.withLock { work in
            defer { work.late = [] }
            return work.late
        }
        var failures = retiring.withLock { work in
            defer { work.unreported = [] }
            return work.unreported
        }
        failures += await shutDown(cells, sparing: nil)
        guard failures.isEmpty else { throw ManifestError(diagnostics: failures) }
    }
}
