/// `transient`: a new instance for every request; nothing is kept.
///
/// When the product is the bound type, it is made straight into the
/// caller's memory, with no box to allocate and free.
final class TransientLifetime: LifetimeStorage {
    static var sharesInstances: Bool { false }
    var sharedCell: InstanceCell? { nil }

    func instance<T>(
        of binding: CompiledBinding, as _: T.Type, in context: ResolutionContext, argument: ArgumentValue?
    ) throws -> T {
        guard binding.provided.convert == nil, binding.definition.buildsInto else {
            return binding.typed(try context.make(binding, argument), as: T.self)
        }
        // The product is the bound type: build it straight into the result,
        // with no box to allocate and free.
        return try withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer in
            try context.run(binding, argument) { call in try binding.definition.buildInto(call, buffer.baseAddress!) }
            return buffer.baseAddress!.move()
        }
    }

    func instance<T>(
        of binding: CompiledBinding, as _: T.Type, awaitedIn resolution: AwaitingResolution, path: [CompiledBinding]
    ) async throws(ResolutionError) -> T {
        binding.typed(try await resolution.make(binding, path: path), as: T.self)
    }
}
