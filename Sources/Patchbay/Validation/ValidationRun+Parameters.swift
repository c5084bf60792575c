import Foundation

/// Parameters checked on every core: each binding's parameters are decoded by a `JSONDecoder` of
/// their own, into the factory's type, which in a manifest whose every binding has parameters is
/// as long as decoding the whole file. No check of one binding's parameters reads another's, so
/// they run after the binding loop, spread over the cores, and their findings are put back where
/// the loop would have put them: the same diagnostics in the same order as one core finds them.
extension ValidationRun {
    /// A binding whose parameters are checked after the loop.
    struct DeferredParameters: Sendable {
        /// The binding's place in the manifest and its description's place among the candidates.
        let binding: Int, candidate: Int
        let factory: Int
        /// How many diagnostics the loop had found when it reached the binding: where its own go.
        let diagnosticsBefore: Int
    }

    /// The fewest bindings with parameters a run is given: below twice this, one thread checks them
    /// all, as handing work to another costs more than it saves.
    static let deferredParametersPerCore = 32

    /// Defers the check of the binding's parameters and says they pass for now (the loop's
    /// verdict on the binding is amended when they are checked); nil when there is nothing to check,
    /// or one core to check it on: then the loop checks it in place, and a run on one core is the
    /// reference that a run on several is compared with, not the same deferral on one thread.
    mutating func deferParameters(of binding: Binding, at index: Int, factory: Int, in catalog: CatalogIndex)
        -> DecodedParameters?
    {
        guard cores > 1, catalog.factories[factory].takesParameters || binding.parameterSource != nil else { return nil }
        deferredParameters.append(DeferredParameters(
            binding: index, candidate: candidates.count, factory: factory, diagnosticsBefore: diagnostics.count))
        return DecodedParameters(value: nil)
    }

    /// Checks every deferred binding's parameters, in runs on every core, then files what each
    /// found: its decoded value in its description, or its diagnostics at the place the loop left
    /// for them, the description then broken.
    mutating func checkDeferredParameters(in catalog: CatalogIndex) {
        let deferred = deferredParameters, bindings = manifest.bindings, file = manifest.file
        deferredParameters = []
        // Never more threads than there are runs to give them (`cores` may be any number a caller passed).
        let cores = deferred.count >= 2 * Self.deferredParametersPerCore ? min(cores, deferred.count) : 1
        // Two runs a core, so that a core slowed by other work hands its second run to one that is free.
        let runs = max(1, min(2 * cores, deferred.count / Self.deferredParametersPerCore))
        let checked = ParallelMap.map(count: runs, jobs: cores) { run in
            // A decoder and suggestions of its own: neither is shared between threads.
            let decoder = catalog.makeParameterDecoder()
            var suggestions: [String: SuggestionIndex] = [:]
            let range = run * deferred.count / runs..<(run + 1) * deferred.count / runs
            return deferred[range].map { job -> (value: (any Sendable)?, diagnostics: [Diagnostic]) in
                var check = ParameterCheck(
                    binding: bindings[job.binding], factory: job.factory, catalog: catalog, manifestFile: file, decoder: decoder)
                swap(&check.fieldSuggestions, &suggestions)
                let value = check.run()
                swap(&check.fieldSuggestions, &suggestions)
                return (value, check.diagnostics)
            }
        }
        let results = Array(checked.joined())
        // The usual manifest: no parameters had a problem, and the loop's diagnostics stand as they are.
        let added = results.reduce(0) { $0 + $1.diagnostics.count }
        var found: [Diagnostic] = []
        if added > 0 { found.reserveCapacity(diagnostics.count + added) }  // once, however many there are
        var copied = 0
        for (job, result) in zip(deferred, results) {
            guard result.diagnostics.isEmpty else {
                found += diagnostics[copied..<job.diagnosticsBefore]
                found += result.diagnostics
                copied = job.diagnosticsBefore
                candidates[job.candidate].isBroken = true
                continue
            }
            candidates[job.candidate].parameters = result.value
        }
        guard added > 0 else { return }
        found += diagnostics[copied...]
        diagnostics = found
    }
}
