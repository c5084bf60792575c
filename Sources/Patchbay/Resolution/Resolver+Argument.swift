extension Resolver {
    /// Resolves a dependency whose factory takes a resolve-time argument,
    /// passing it one: for a hand-resolving factory that derives the
    /// dependency's argument from its own (KOInject's `resolve(_:argument:)`
    /// inside a factory).
    ///
    ///     catalog.register("sheet", provides: Sheet.self, argument: String.self) { path in Sheet(path: path) }
    ///     catalog.registerResolving("report", provides: Report.self) { resolver in
    ///         Report(sheet: try resolver.resolve(Sheet.self, argument: "summary.csv"))
    ///     }
    ///
    /// Resolved from the injector that served this factory, in the same
    /// resolution (so cycles are detected and `graph` instances shared).
    /// - Throws: ``ResolutionError``: `argument-mismatch` when the
    ///   dependency's factory takes another type of argument, or any other
    ///   reason it cannot be resolved.
    public func resolve<T, Argument>(_ type: T.Type = T.self, argument: Argument) throws -> T {
        try context(for: T.self).resolve(T.self, from: call.binding.injector, argument: ArgumentValue(argument))!
    }

    /// Runs a hand-resolving factory, `make`, with a resolver for `call`
    /// that answers only until `make` returns: its resolution, on its
    /// thread's reused context, is over then, and another may run there.
    static func during<T>(_ call: FactoryCall, _ make: (Resolver) throws -> T) rethrows -> T {
        let resolver = Resolver(call: call)
        defer { resolver.life.ended = true }
        return try make(resolver)
    }

    /// The resolution to resolve `type` in: the factory's, while it runs.
    func context(for type: Any.Type) throws(ResolutionError) -> ResolutionContext {
        guard !life.ended else {
            let name = TypeKey.shortName(of: type)
            throw ResolutionError(
                .resolverExpired, type: name, path: [call.binding.key.name, name], factory: call.binding.definition.name,
                detail: "the Resolver given to factory '\(call.binding.definition.name)' was used after the factory "
                    + "returned; resolve later through the container, or take a Provider or Lazy as a need")
        }
        return call.context
    }
}

/// Whether the factory a ``Resolver`` was given to has returned. A
/// resolver is used on its factory's thread (it is not `Sendable`).
final class ResolverLife {
    var ended = false
}
