/// `scoped`: one instance per ``Scope``, released when the scope closes.
///
/// With no scope, or a closed one, a request fails: Patchbay never quietly
/// makes a scoped binding a singleton or a transient, since either would
/// share or split instances the manifest said belong to one scope.
final class ScopedLifetime: LifetimeStorage {
    static var sharesInstances: Bool { true }
    var sharedCell: InstanceCell? { nil }

    /// This storage's cell in `scope`, for a request for `binding` whose
    /// path (for messages) ends with it.
    private func cell(
        in scope: Scope?, for binding: CompiledBinding, path: @autoclosure () -> [String]
    ) throws(ResolutionError) -> InstanceCell {
        guard let scope else {
            throw ResolutionError(
                .noActiveScope, type: binding.key.name, path: path(), factory: binding.definition.name)
        }
        guard let cell = scope.cell(for: ObjectIdentifier(self)) else {
            throw ResolutionError(.scopeClosed, type: binding.key.name, path: path(), factory: binding.definition.name)
        }
        return cell
    }

    func instance(
        of binding: CompiledBinding, into memory: UnsafeMutableRawPointer, in context: ResolutionContext,
        argument: ArgumentValue?
    ) throws {
        // The scope the resolve was asked in, else the task's current one.
        try cell(in: context.scope, for: binding, path: context.names + [binding.key.name])
            .sharedInstance(of: binding, into: memory, in: context, argument: argument)
    }

    func instance<T>(
        of binding: CompiledBinding, as _: T.Type, awaitedIn resolution: AwaitingResolution, path: [CompiledBinding]
    ) async throws(ResolutionError) -> T {
        try await cell(in: Scope.current, for: binding, path: path.map(\.key.name))
            .sharedInstance(of: binding, as: T.self, awaitedIn: resolution, path: path)
    }
}
