/// `weak`: shared while someone outside the container holds it, and made
/// again after it is released. Only for class instances (rule
/// `weak-value-type`), which a weak reference can hold. Made as any cell's
/// instance (``InstanceCell/holdsWeakly``): once at a time, no factory run
/// holding a lock, a loop of waits a `dependency-cycle`.
///
/// Inside test overrides (and ``Container/isolated(_:)``) a request gets
/// the override block's own instance, kept like a singleton's, so one made
/// with overridden dependencies never reaches code outside.
final class WeakLifetime: LifetimeStorage {
    /// The instance every request outside overrides shares, while it lives.
    let cell = InstanceCell(holdingWeakly: true)

    static var sharesInstances: Bool { true }
    var sharedCell: InstanceCell? { nil }

    func place(
        of binding: CompiledBinding, scope: @autoclosure () -> Scope?, overrides: OverrideTable?,
        path: @autoclosure () -> [String]
    ) -> InstancePlace {
        .cell(overrides?.cell(for: self) ?? cell)
    }
}
