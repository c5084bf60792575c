/// `singleton`: one instance per activated manifest, made on first use, and
/// once even when many threads or tasks ask for it first at the same time.
///
/// Inside test overrides (and ``Container/isolated(_:)``) a request gets
/// the override block's own instance instead: one made there may hold
/// overridden dependencies, so it must neither come from nor go into the
/// cell that code outside sees. A made instance is also read without asking
/// this type, through ``sharedCell``: by the resolve fast path (see
/// ``CompiledBinding/ready``) and by an awaited resolve.
///
/// It is itself the cell of the instance every request outside overrides
/// shares, so a singleton binding's storage is one allocation.
final class SingletonLifetime: InstanceCell, LifetimeStorage, @unchecked Sendable {
    override init() {}

    static var sharesInstances: Bool { true }
    var sharedCell: InstanceCell? { self }

    /// The cell a request uses: its override block's, else the shared one.
    private func cell(in overrides: OverrideTable?) -> InstanceCell {
        overrides?.cell(for: ObjectIdentifier(self)) ?? self
    }

    func instance(
        of binding: CompiledBinding, into memory: UnsafeMutableRawPointer, in context: ResolutionContext,
        argument: ArgumentValue?
    ) throws {
        try cell(in: context.overrides).sharedInstance(of: binding, into: memory, in: context, argument: argument)
    }

    func instance<T>(
        of binding: CompiledBinding, as _: T.Type, awaitedIn resolution: AwaitingResolution, path: [CompiledBinding]
    ) async throws(ResolutionError) -> T {
        try await cell(in: resolution.overrides).sharedInstance(of: binding, as: T.self, awaitedIn: resolution, path: path)
    }
}
