/// A resolution with instances of its own, disposed of when it ends:
/// KOInject's isolated resolver.
///
///     let report = try container.isolated {
///         let exporter = try container.resolve((any Exporter).self)
///         return try exporter.export(notes)
///     }   // every instance made for the exporter is released here
///
/// Inside the closure, `singleton` and `weak` bindings get instances of
/// their own (made on first use, shared inside the isolation, never stored
/// in the container nor taken from it), and `scoped` bindings use a scope of
/// the isolation's own, closed when it returns. So when the closure
/// returns, everything it made that nothing else holds is released, and the
/// container's own singletons were neither used nor changed.
///
/// The isolation is task-local, like ``Container/withOverrides(_:operation:)``
/// (which it is built on): `resolve` calls and `@Injected` first reads made
/// inside the closure, at any depth, are isolated; code running elsewhere at
/// the same time is not. So the closure needs no resolver of its own: it
/// resolves from the container as anywhere else.
///
/// The first isolation on a container switches on the task-local lookup
/// that overrides use, which every later resolve of that container then
/// makes; isolate units of work, not single resolves in a hot loop.
extension Container {
    /// Runs `body` isolated: what it resolves from this container is its own
    /// and is released when `body` returns (see the discussion above).
    public func isolated<Result>(_ body: () throws -> Result) rethrows -> Result {
        let scope = Scope()
        defer { scope.close() }
        return try withOverrides({ _ in }) { try scope.run(body) }
    }

    /// Runs `body` isolated: what it resolves from this container is its own
    /// and is released when `body` returns.
    public func isolated<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result
    ) async rethrows -> Result {
        let scope = Scope()
        defer { scope.close() }
        return try await withOverrides({ _ in }, isolation: isolation) {
            try await scope.run(isolation: isolation, body)
        }
    }
}
