/// Holds the one instance of a singleton (per activation) or of a scoped
/// binding (per scope), and makes sure it is created exactly once even when
/// many threads ask for it first at the same time.
///
/// Reading a made instance takes no lock: it is published once with an
/// atomic compare-and-swap and read with an acquiring load, so any number of
/// threads read it at the cost of a plain load. Making it takes this cell's
/// own lock, never a container-wide one: a slow factory blocks only the
/// threads waiting for that same instance. A factory that resolves its own
/// dependencies takes other cells' locks, never this one again: a loop back
/// to this cell is a cycle, which the resolution reports before taking the lock.
@usableFromInline
final class InstanceCell: @unchecked Sendable {
    private let lock = Lock()
    @usableFromInline let instance = AtomicReference<AnyObject>()

    deinit { instance.destroy() }

    /// The instance, when it has been made. Kept alive by this cell.
    @inlinable
    var current: AnyObject? { instance.load()?.takeUnretainedValue() }

    /// Lets go of the instance. Only when nothing can read this cell any more:
    /// a read is lock-free, so it must not race with this.
    func retire() {
        _ = instance.exchange(nil)
    }

    /// The instance, made by `make` if this is the first request.
    func value(orMake make: () throws -> AnyObject) rethrows -> AnyObject {
        if let made = current { return made }
        lock.lock()
        defer { lock.unlock() }
        if let made = current { return made }  // another thread made it while we waited
        return instance.initialize(try make())
    }
}

/// Holds a `weak` binding's instance without keeping it alive: it is shared
/// while someone outside the container holds it, and made again after.
final class WeakCell: @unchecked Sendable {
    private let lock = Lock()
    private weak var object: AnyObject?

    /// The live instance, or a new one from `make` (whose product must be a class).
    func value(orMake make: () throws -> AnyObject, unbox: (AnyObject) -> AnyObject) rethrows -> AnyObject? {
        lock.lock()
        defer { lock.unlock() }
        if let object { return object }
        let box = try make()
        let made = unbox(box)
        object = made
        return made
    }

    /// The live instance, if any.
    var live: AnyObject? { lock.withLock { object } }

    /// Keeps `made` as the instance, unless another was kept meanwhile: that one is returned.
    func keep(_ made: AnyObject) -> AnyObject {
        lock.withLock {
            if let object { return object }
            object = made
            return made
        }
    }
}
