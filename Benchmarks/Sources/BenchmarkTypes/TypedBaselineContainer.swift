import Foundation

/// The hand-written baseline with typed factories: each factory is kept as
/// the `() -> T` it was registered as (boxed in `Any`), and a resolve casts
/// the closure back to `() -> T`. That is a cast of a function type, which
/// compares type metadata; the plain baseline's `factory() as! T` casts a
/// concrete class to a protocol existential instead, and the first such cast
/// of each class in a process searches the runtime's conformance records.
public final class TypedBaselineContainer: @unchecked Sendable {
    private let lock = NSLock()
    private var factories: [ObjectIdentifier: Any] = [:]

    /// Creates an empty container.
    public init() {}

    /// Registers a factory for `type`.
    public func register<T>(_ type: T.Type, factory: @escaping () -> T) {
        lock.lock()
        factories[ObjectIdentifier(type)] = factory
        lock.unlock()
    }

    /// Resolves `type`; traps when it is not registered.
    @inline(never)
    public func resolve<T>(_ type: T.Type) -> T {
        lock.lock()
        let factory = factories[ObjectIdentifier(type)]!
        lock.unlock()
        return (factory as! () -> T)()
    }
}
