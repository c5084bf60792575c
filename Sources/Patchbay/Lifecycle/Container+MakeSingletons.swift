import Foundation

extension Container {
    /// Makes every singleton of the manifest in force now, rather than when
    /// each is first resolved: for an app that prefers a failed start to a
    /// failed screen. Call it once, after the container is made.
    ///
    ///     let container = try Container(catalog: catalog, manifests: folder)
    ///     try container.makeSingletons()   // a factory that throws stops the start, with where it is bound
    ///
    /// Each singleton is resolved as a request from its binding's injector
    /// would resolve it, so it gets the same instance a later request gets,
    /// and its dependencies are made as resolution makes them. Every failure
    /// is reported, all at once, as a `singleton-failed` diagnostic at the
    /// binding's line and column, with the factory's error.
    ///
    /// Not made here: an `async` singleton (it needs `await`; resolve it with
    /// `try await container.resolve(awaiting:)` at start-up if you want it
    /// early), a `@MainActor` one when this is not called on the main thread
    /// (call it from the main actor to make those too), and one whose factory
    /// takes a resolve-time argument, which has none to give it. The cost is
    /// what the factories cost, paid at start-up, and their side effects
    /// (opening files, connecting) happen then, even for a screen never opened.
    /// - Throws: ``ManifestError`` listing every singleton that could not be made.
    public func makeSingletons() throws(ManifestError) {
        let activation = currentActivation()
        var diagnostics: [Diagnostic] = []
        for head in activation.entries.bindings {
            for binding in [head] + head.others.values.sorted(by: { $0.injector < $1.injector })
            where binding.storage.sharedCell != nil && binding.definition.argument == nil {
                switch binding.definition.execution {
                case .async: continue
                case .mainActor: if !Thread.isMainThread { continue }
                case .synchronous: break
                }
                do {
                    _ = try resolve(binding.provided.type, from: binding.injector)
                } catch {
                    diagnostics.append(Self.failure(error, of: binding, manifest: activation.manifest))
                }
            }
        }
        guard diagnostics.isEmpty else { throw ManifestError(diagnostics: Diagnostic.sortedForDisplay(diagnostics)) }
    }

    /// The diagnostic for a singleton whose making failed, at its binding.
    private static func failure(_ error: ResolutionError, of binding: CompiledBinding, manifest: Manifest) -> Diagnostic {
        let message = "singleton \(binding.key.name) (factory '\(binding.definition.name)') could not be made "
            + "at start-up: \(error.description)"
        return binding.described?.binding.diagnostic(
            .singletonFailed, message, field: BindingKey.factory.rawValue, fallbackFile: manifest.file)
            ?? Diagnostic(code: .singletonFailed, message: message, file: manifest.file)
    }
}
