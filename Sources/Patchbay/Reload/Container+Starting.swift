// A new generation starts before it serves: the app resolves what it must
// start from the new wiring (its services, its start-up checks) while the
// old one still serves, and only then is the new one swapped in. A failure
// refuses the manifest, as a bad file is refused.

extension Container {
    /// Validates `manifest`, lets `start` start the new wiring, and makes it
    /// the one in force (as ``activate(_:)`` does) only once `start` returns.
    ///
    /// `start` is given a container serving the new wiring, which resolves
    /// nothing for the app yet: make its singletons, run its start-up
    /// checks, start its new services. What did not change is kept, so its
    /// made singletons are those of the wiring in force (compare them by
    /// identity with ``madeSingletons(as:)`` of this container to find what
    /// is new).
    ///
    ///     try await container.activate(manifest) { next in
    ///         try next.makeSingletons()
    ///         for check in next.madeSingletons(as: (any StartupCheck).self) { try await check.instance.checkStartup() }
    ///     }
    ///
    /// When `start` throws, the manifest is refused: the wiring in force
    /// keeps serving, the singletons the new wiring made that are not the
    /// running one's are shut down, and the error is thrown as
    /// `start-up-failed` (a ``ManifestError`` thrown by `start` is thrown as it is).
    /// - Throws: ``ManifestError``: every problem of the manifest, a failed
    ///   start, or `start-up-failed` when another manifest was activated while this one started.
    public func activate(
        _ manifest: Manifest, isolation: isolated (any Actor)? = #isolation,
        startingWith start: (_ next: Container) async throws -> Void
    ) async throws(ManifestError) {
        try await activate(manifest, startingWith: start, reporting: nil)
    }

    /// ``activate(_:isolation:startingWith:)``, telling `report` how the singletons it replaces were shut down.
    func activate(
        _ manifest: Manifest, isolation: isolated (any Actor)? = #isolation,
        startingWith start: (_ next: Container) async throws -> Void,
        reporting report: (@Sendable (Int, [Diagnostic]) -> Void)?
    ) async throws(ManifestError) {
        let base = currentActivation()
        let fresh = try Activation.compile(manifest, catalog: catalog, keepingFrom: base)
        // Serving it as this container serves, test overrides and all.
        let next = Container(
            catalog: catalog, activation: overridesAreInUse ? fresh.withOverridesInUse() : fresh, startingFor: self)
        next.ledger.withLock { $0 = GenerationLedger(current: generation + 1) }
        var refusal: [Diagnostic] = []
        do {
            try await start(next)
        } catch let error as ManifestError {
            refusal = error.diagnostics
        } catch {
            refusal = [Diagnostic(
                code: .startUpFailed, message: "the new wiring could not start: \(error)", file: manifest.file,
                suggestion: "the wiring in force keeps serving; fix the cause, then save the manifest again")]
        }
        if refusal.isEmpty, publish(generation: fresh, over: base, reporting: report) { return }
        if refusal.isEmpty {
            // Another activation, or a reset, replaced `base` while this wiring started.
            let reset = currentActivation().manifest == base.manifest
            refusal = [Diagnostic(
                code: .startUpFailed,
                message: reset
                    ? "the container was reset while this manifest started" : "another manifest was activated while this one started",
                file: manifest.file,
                suggestion: "activate one manifest at a time; activate this one again to make it the one in force")]
        }
        // What the new wiring made itself, started or not, is stopped: not what it shared with `base`
        // (the ledger retires that, when `base` is replaced, once its leases end) nor with the wiring in force.
        let inForce = currentActivation()
        let shared = Set((base.keepingBindings + inForce.keepingBindings).map { ObjectIdentifier($0.storage) })
        let own = StorageChange(from: fresh, to: inForce).dropped.filter { !shared.contains($0.storage) }
        refusal += await shutDown(own.flatMap(\.cells), sparing: inForce)
        throw ManifestError(diagnostics: refusal)
    }
}
