/// `scoped`: one instance per ``Scope``, released when the scope closes.
///
/// With no scope, or a closed one, a request fails: Patchbay never quietly
/// makes a scoped binding a singleton or a transient, since either would
/// share or split instances the manifest said belong to one scope.
final class ScopedLifetime: LifetimeStorage {
    static var sharesInstances: Bool { true }
    var sharedCell: InstanceCell? { nil }

    func place(
        of binding: CompiledBinding, scope: @autoclosure () -> Scope?, overrides: OverrideTable?,
        path: @autoclosure () -> [String]
    ) throws(ResolutionError) -> InstancePlace {
        let scope = scope()
        guard let cell = scope?.cell(for: self) else {
            throw ResolutionError(
                scope == nil ? .noActiveScope : .scopeClosed, type: binding.key.name, path: path(),
                factory: binding.definition.name)
        }
        return .cell(cell)
    }
}
