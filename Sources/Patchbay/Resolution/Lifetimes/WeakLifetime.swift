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
    /// The box type of the product `object` is, to box it again for a request.
    nonisolated(unsafe) private var boxType: (any ProductBox.Type)?  // guarded by `lock`

    static var sharesInstances: Bool { true }
    var sharedCell: InstanceCell? { nil }

    func instance(
        of binding: CompiledBinding, into memory: UnsafeMutableRawPointer, in context: ResolutionContext,
        argument: ArgumentValue?
    ) throws {
        if let overrides = context.overrides {
            return try overrides.cell(for: ObjectIdentifier(self))
                .sharedInstance(of: binding, into: memory, in: context, argument: argument)
        }
        try context.checkCycle(binding)
        // Made under the lock, so two first requests share one instance.
        lock.lock()
        defer { lock.unlock() }
        // Kept as the bare object, which a weak reference can hold, with the
        // type of the box it came in to box it again: the product is a class
        // (rule `weak-value-type`, checked on the value when the catalog
        // could not tell), so each provided type's view of it is that same object.
        if let object, let box = boxType?.box(object) { return binding.copy(box, into: memory) }
        let made = try context.make(binding, argument)
        // The factory has returned, so the path no longer holds this binding.
        let product = try binding.requireClassInstance(box: made, path: context.names + [binding.key.name])
        object = product.object
        boxType = type(of: product)
        binding.copy(made, into: memory)
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
        let box = try await resolution.make(binding, path: path)
        let made = binding.typed(box, as: T.self)
        try binding.requireClassInstance(made, path: path.map(\.key.name))  // `path` ends with `binding`
        return lock.withLock {
            if let object { return object as! T }
            if let product = box as? any ProductBox {
                object = product.object
                boxType = type(of: product)
            }
            return made
        }
    }
}
