/// `transient`: a new instance for every request; nothing is kept.
///
/// When the product is the bound type, it is made straight into the
/// caller's memory, with no box to allocate and free.
final class TransientLifetime: LifetimeStorage {
    static var sharesInstances: Bool { false }
    var sharedCell: InstanceCell? { nil }

    func instance(
        of binding: CompiledBinding, into memory: UnsafeMutableRawPointer, in context: ResolutionContext,
        argument: ArgumentValue?
    ) throws {
        guard binding.buildsIntoMemory else {
            return binding.copy(try context.make(binding, argument), into: memory)
        }
        // The product is the bound type: built straight into the result,
        // with no box to allocate and free. (The engine builds such a
        // binding itself, without asking this storage: see
        // `CompiledBinding.isBuiltEachTime`.)
        try context.build(binding, into: memory, argument: argument)
    }

    func instance<T>(
        of binding: CompiledBinding, as _: T.Type, awaitedIn resolution: AwaitingResolution, path: [CompiledBinding]
    ) async throws(ResolutionError) -> T {
        binding.typed(try await resolution.make(binding, path: path), as: T.self)
    }
}
