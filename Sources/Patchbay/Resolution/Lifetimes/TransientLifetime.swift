/// `transient`: a new instance for every request; nothing is kept.
///
/// When the product is the bound type, the engine makes it straight into
/// the caller's memory, with no box to allocate and free (see
/// ``CompiledBinding/isBuiltEachTime``).
final class TransientLifetime: LifetimeStorage {
    static var sharesInstances: Bool { false }
    var sharedCell: InstanceCell? { nil }

    func place(
        of binding: CompiledBinding, scope: @autoclosure () -> Scope?, overrides: OverrideTable?,
        path: @autoclosure () -> [String]
    ) -> InstancePlace { .nowhere }
}
