/// Holds the one instance of a singleton (per activation) or of a scoped
/// binding (per scope), and makes sure it is created exactly once even when
/// many threads ask for it first at the same time.
///
/// Each cell has its own small locks: a slow factory blocks only the threads
/// that wait for that same instance, never the rest of the container. A
/// factory that resolves its own dependencies takes other cells' locks, never
/// this one again: a loop back to this cell is a cycle, which the resolution
/// context reports before it would take the creation lock. Reading
/// ``current`` takes only the short lock that guards the stored instance,
/// never held while a factory runs, so a loop back finds `nil` and reaches
/// the cycle check instead of waiting on itself.
final class InstanceCell: @unchecked Sendable {
    /// Guards `instance`; never held while a factory runs.
    private let lock = Lock()
    /// Held while the factory runs, so one thread makes the instance.
    private let creation = Lock()
    private var instance: AnyObject?

    /// The instance, when it has been made.
    var current: AnyObject? {
        lock.lock()
        defer { lock.unlock() }
        return instance
    }

    /// The instance, made by `make` if this is the first request.
    func value(orMake make: () throws -> AnyObject) rethrows -> AnyObject {
        creation.lock()
        defer { creation.unlock() }
        if let instance = current { return instance }
        let made = try make()
        lock.withLock { instance = made }
        return made
    }

    /// Lets go of the instance.
    func clear() {
        lock.withLock { instance = nil }
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
}
