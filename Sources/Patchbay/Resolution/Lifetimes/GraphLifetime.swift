/// `graph`: one instance per top-level resolve, shared by everything that
/// resolve builds, and let go of when it ends.
///
/// Only a resolution keeps these (a ``ResolutionContext``, reused by each
/// top-level resolve on a thread, or an ``AwaitingResolution``). A ``Lazy``
/// taken as a factory's parameter belongs to its resolution: read later, it
/// shares that resolution's instances that are still alive (see ``SharedGraph``).
final class GraphLifetime: LifetimeStorage {
    static var sharesInstances: Bool { true }
    var sharedCell: InstanceCell? { nil }

    func place(
        of binding: CompiledBinding, scope: @autoclosure () -> Scope?, overrides: OverrideTable?,
        path: @autoclosure () -> [String]
    ) -> InstancePlace { .graph(self) }
}

/// The `graph` instances of one resolution, by the storage of the bindings
/// that share each, held strongly while it runs.
struct GraphInstances {
    private var instances: [ObjectIdentifier: (storage: GraphLifetime, box: AnyObject)] = [:]
    /// What a `Lazy` made in this resolution keeps of them, once one is made.
    private var shared: SharedGraph?

    /// The instance of `storage` in this resolution: made in it, or made in
    /// the earlier one whose `Lazy` began it and still alive.
    mutating func instance(of storage: GraphLifetime) -> AnyObject? {
        let slot = ObjectIdentifier(storage)
        if let made = instances[slot] { return made.box }
        guard let box = shared?.instance(of: storage) else { return nil }
        instances[slot] = (storage, box)
        return box
    }

    /// Keeps `box` as `storage`'s instance for the rest of this resolution,
    /// and for each `Lazy` made in it, weakly.
    mutating func keep(_ box: AnyObject, of storage: GraphLifetime) {
        instances[ObjectIdentifier(storage)] = (storage, box)
        shared?.note(box, of: storage)
    }

    /// The record a `Lazy` made now keeps, made on the first request: it holds
    /// this resolution's instances weakly, those made so far and those made after.
    mutating func sharing() -> SharedGraph {
        if let shared { return shared }
        let made = SharedGraph()
        for instance in instances.values { made.note(instance.box, of: instance.storage) }
        shared = made
        return made
    }

    /// Shares the instances `shared` still holds, for a resolution a `Lazy` begins.
    mutating func share(_ shared: SharedGraph) { self.shared = shared }

    /// Lets go of them all, when the resolution ends. Most resolutions make
    /// none, and an empty table is left untouched.
    mutating func removeAll() {
        if !instances.isEmpty { instances.removeAll() }
        if shared != nil { shared = nil }
    }
}
