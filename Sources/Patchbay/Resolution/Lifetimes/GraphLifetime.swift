/// `graph`: one instance per top-level resolve, shared by everything that
/// resolve builds, and let go of when it ends.
///
/// Only a resolution keeps these (a ``ResolutionContext``, reused by each
/// top-level resolve on a thread, or an ``AwaitingResolution``), so a tree
/// with a graph binding is never built light (see ``FactoryCall``).
final class GraphLifetime: LifetimeStorage {
    static var sharesInstances: Bool { true }
    static var isBuiltLight: Bool { false }
    static var isSharedWithinAResolve: Bool { true }
    var sharedCell: InstanceCell? { nil }

    func instance<T>(
        of binding: CompiledBinding, as _: T.Type, in context: ResolutionContext, argument: ArgumentValue?
    ) throws -> T {
        let slot = ObjectIdentifier(self)
        if let box = context.graph[slot] { return binding.typed(box, as: T.self) }
        let box = try context.make(binding, argument)
        context.graph[slot] = box
        return binding.typed(box, as: T.self)
    }

    func instance<T>(
        of binding: CompiledBinding, as _: T.Type, awaitedIn resolution: AwaitingResolution, path: [CompiledBinding]
    ) async throws(ResolutionError) -> T {
        let slot = ObjectIdentifier(self)
        if let box = resolution.graph[slot] { return binding.typed(box, as: T.self) }
        let box = try await resolution.make(binding, path: path)
        resolution.graph[slot] = box
        return binding.typed(box, as: T.self)
    }
}

/// The `graph` instances of one resolution, by the storage of the bindings
/// that share each.
struct GraphInstances {
    private var instances: [ObjectIdentifier: AnyObject] = [:]

    subscript(slot: ObjectIdentifier) -> AnyObject? {
        get { instances[slot] }
        set { instances[slot] = newValue }
    }

    /// Lets go of them all, when the resolution ends. Most resolutions make
    /// none, and an empty table is left untouched.
    mutating func removeAll() {
        if !instances.isEmpty { instances.removeAll() }
    }
}
