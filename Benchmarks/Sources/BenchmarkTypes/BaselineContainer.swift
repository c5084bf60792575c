import Foundation

/// The hand-written minimal container the benchmarks compare against: a
/// `[ObjectIdentifier: () -> Any]` dictionary behind a lock, a factory call,
/// and `as! T`. What a team might write instead of using a library.
public final class BaselineContainer: @unchecked Sendable {
    private let lock = NSLock()
    private var factories: [ObjectIdentifier: () -> Any] = [:]

    /// Creates an empty container.
    public init() {}

    /// Registers a factory for `type`.
    public func register<T>(_ type: T.Type, factory: @escaping () -> T) {
        lock.lock()
        factories[ObjectIdentifier(type)] = factory
        lock.unlock()
    }

    /// Registers `instance` as `type`'s singleton.
    public func registerSingleton<T>(_ type: T.Type, instance: T) {
        register(type) { instance }
    }

    /// Resolves `type`; traps when it is not registered.
    @inline(never)
    public func resolve<T>(_ type: T.Type) -> T {
        lock.lock()
        let factory = factories[ObjectIdentifier(type)]!
        lock.unlock()
        return factory() as! T
    }
}
