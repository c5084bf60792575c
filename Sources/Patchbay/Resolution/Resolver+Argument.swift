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
        try call.context.resolve(
            T.self, from: call.binding.injector, argument: ArgumentValue(value: argument, key: TypeKey(Argument.self)))!
    }
}
