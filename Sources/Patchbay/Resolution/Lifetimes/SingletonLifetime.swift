/// `singleton`: one instance per activated manifest, made on first use, and
/// once even when many threads or tasks ask for it first at the same time.
///
/// Inside test overrides (and ``Container/isolated(_:)``) a request gets
/// the override block's own instance instead: one made there may hold
/// overridden dependencies, so it must neither come from nor go into the
/// cell that code outside sees. Outside them, a made instance is read
/// without asking this type, through ``sharedCell`` (see ``CompiledBinding/ready``).
final class SingletonLifetime: LifetimeStorage {
    /// The instance every request outside overrides shares.
    let cell = InstanceCell()

    static var sharesInstances: Bool { true }
    var sharedCell: InstanceCell? { cell }

    func place(
        of binding: CompiledBinding, scope: @autoclosure () -> Scope?, overrides: OverrideTable?,
        path: @autoclosure () -> [String]
    ) -> InstancePlace {
        .cell(overrides?.cell(for: self) ?? cell)
    }
}
