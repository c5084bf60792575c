/// A resolution with instances of its own, disposed of when it ends:
/// KOInject's isolated resolver.
///
///     let report = try container.isolated { resolver in
///         let exporter = try resolver.resolve((any Exporter).self)
///         return try exporter.export(notes)
///     }   // every instance made for the exporter is released here
///
/// Inside ``Container/isolated(_:)``, `singleton` and `weak` bindings get
/// instances of their own (made on first use, shared inside the isolation,
/// never stored in the container nor taken from it), and `scoped` bindings
/// use a scope of the isolation's own, closed when it returns. So when the
/// closure returns, everything it made that nothing else holds is released,
/// and the container's own singletons were neither used nor changed.
///
/// The isolation is task-local, like ``Container/withOverrides(_:operation:)``
/// (which it is built on): `resolve` and `@Injected` first reads made inside
/// the closure, at any depth, are isolated too; code running elsewhere at
/// the same time is not.
public struct IsolatedResolver: Sendable {
    let container: Container
    let scope: Scope

    /// Resolves `type` inside the isolation, from `injector` (with fallback).
    /// - Throws: ``ResolutionError``, as ``Container/resolve(_:from:)`` does.
    public func resolve<T>(_ type: T.Type = T.self, from injector: InjectorName = .primary) throws(ResolutionError) -> T {
        try container.resolve(type, from: injector, in: scope)
    }

    /// Resolves `type` inside the isolation, or returns `nil` when no injector binds it.
    public func resolveIfBound<T>(
        _ type: T.Type = T.self, from injector: InjectorName = .primary
    ) throws(ResolutionError) -> T? {
        try container.resolveIfBound(type, from: injector, in: scope)
    }
}

extension Container {
    /// Runs `body` with an isolated resolver: what it makes is its own and
    /// is released when `body` returns (see ``IsolatedResolver``).
    ///
    /// The first isolation on a container switches on the task-local lookup
    /// that overrides use, which every later resolve of that container then
    /// makes; isolate units of work, not single resolves in a hot loop.
    public func isolated<Result>(_ body: (IsolatedResolver) throws -> Result) rethrows -> Result {
        let scope = Scope()
        defer { scope.close() }
        return try withOverrides({ _ in }) {
            try scope.run { try body(IsolatedResolver(container: self, scope: scope)) }
        }
    }

    /// Runs `body` with an isolated resolver: what it makes is its own and
    /// is released when `body` returns (see ``IsolatedResolver``).
    public func isolated<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: (IsolatedResolver) async throws -> Result
    ) async rethrows -> Result {
        let scope = Scope()
        defer { scope.close() }
        return try await withOverrides({ _ in }, isolation: isolation) {
            try await scope.run(isolation: isolation) { try await body(IsolatedResolver(container: self, scope: scope)) }
        }
    }
}
