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
    /// Only the manifest in force is shut down (a replaced one's singletons
    /// are released with it, not shut down), and only what was made: a
    /// singleton never resolved has nothing to stop.
    ///
    /// The instances stay the container's: a later resolve gets the instance
    /// that was shut down. ``reset()`` is the other way round: it forgets
    /// singletons without shutting any down (it is synchronous, and for
    /// tests); to do both, `await shutdown()` then `reset()`.
    /// - Throws: ``ManifestError`` listing every singleton whose ``AsyncShutdown/shutdown()`` threw.
    public func shutdown() async throws(ManifestError) {
        let file = manifest.file
        var failures: [Diagnostic] = []
        for made in madeSingletons(as: (any AsyncShutdown).self).reversed() {
            do {
                try await made.instance.shutdown()
            } catch {
                let message = "shutdown of \(made.binding.map { "\($0.type) (factory '\($0.factory)')" } ?? "a singleton") "
                    + "failed: \(error)"
                failures.append(
                    made.binding?.diagnostic(.shutdownFailed, message)
                        ?? Diagnostic(code: .shutdownFailed, message: message, file: file))
            }
        }
        guard failures.isEmpty else { throw ManifestError(diagnostics: failures) }
    }
}
