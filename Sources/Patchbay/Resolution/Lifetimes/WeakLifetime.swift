/// `weak`: shared while someone outside the container holds it, and made
/// again after it is released. Only for class instances (rule
/// `weak-value-type`), which a weak reference can hold.
///
/// Inside test overrides (and ``Container/isolated(_:)``) a request gets
/// the override block's own instance, kept like a singleton's, so one made
/// with overridden dependencies never reaches code outside.
final class WeakLifetime: LifetimeStorage {
    private let lock = Lock()
    nonisolated(unsafe) private weak var object: AnyObject?  // guarded by `lock`

    static var sharesInstances: Bool { true }
    var sharedCell: InstanceCell? { nil }

    func instance<T>(
        of binding: CompiledBinding, as _: T.Type, in context: ResolutionContext, argument: ArgumentValue?
    ) throws -> T {
        if let overrides = context.overrides {
            return try overrides.cell(for: ObjectIdentifier(self))
                .sharedInstance(of: binding, as: T.self, in: context, argument: argument)
        }
        try context.checkCycle(binding)
        // Made under the lock, so two first requests share one instance.
        lock.lock()
        defer { lock.unlock() }
        if let object { return object as! T }
        // Kept as the bare object, which a weak reference can hold: the
        // product is a class, so `T`'s view of it is that same object, and
        // casts back to `T` (registration checked that the product converts
        // to each type it provides).
        let made = binding.typed(try context.make(binding, argument), as: T.self)
        try binding.requireClassInstance(made)
        object = made as AnyObject
        return made
    }

    func instance<T>(
        of binding: CompiledBinding, as _: T.Type, awaitedIn resolution: AwaitingResolution, path: [CompiledBinding]
    ) async throws(ResolutionError) -> T {
        if let overrides = resolution.overrides {
            return try await overrides.cell(for: ObjectIdentifier(self))
                .sharedInstance(of: binding, as: T.self, awaitedIn: resolution, path: path)
        }
        if let live = lock.withLock({ object }) { return live as! T }
        // Not made under the lock, which an `await` must not hold: two first
        // requests at once may both make one, and the first to finish is
        // kept, as it would be if a synchronous request had made its own meanwhile.
        let made = binding.typed(try await resolution.make(binding, path: path), as: T.self)
        try binding.requireClassInstance(made)
        return lock.withLock {
            if let object { return object as! T }
            object = made as AnyObject
            return made
        }
    }
}
