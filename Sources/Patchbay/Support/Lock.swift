#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(WinSDK)
import WinSDK
#endif

/// A small mutual-exclusion lock, heap-allocated so its address never moves.
///
/// The standard `Synchronization.Mutex` needs iOS 18 / macOS 15; this wraps
/// `os_unfair_lock` on Apple platforms and a `pthread_mutex_t` elsewhere, as
/// swift-log and swift-argument-parser do. Never public.
final class Lock: @unchecked Sendable {
    #if canImport(Darwin)
    private let mutex: UnsafeMutablePointer<os_unfair_lock>
    #elseif canImport(WinSDK)
    private let mutex: UnsafeMutablePointer<SRWLOCK>
    #else
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    #endif

    init() {
        mutex = .allocate(capacity: 1)
        #if canImport(Darwin)
        mutex.initialize(to: os_unfair_lock())
        #elseif canImport(WinSDK)
        InitializeSRWLock(mutex)
        #else
        mutex.initialize(to: pthread_mutex_t())
        // An error-checking mutex, as swift-log's: a lock taken twice by one
        // thread, or released by another, fails the checks below instead of
        // hanging or corrupting the mutex.
        var attributes = pthread_mutexattr_t()
        Self.check(pthread_mutexattr_init(&attributes), "pthread_mutexattr_init")
        Self.check(pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK)), "pthread_mutexattr_settype")
        Self.check(pthread_mutex_init(mutex, &attributes), "pthread_mutex_init")
        Self.check(pthread_mutexattr_destroy(&attributes), "pthread_mutexattr_destroy")
        #endif
    }

    /// Stops the program when a pthread call fails: the lock's guarantees no longer hold.
    @inline(__always)
    private static func check(_ status: Int32, _ call: StaticString) {
        precondition(status == 0, "Patchbay: \(call) failed with error \(status)")
    }

    deinit {
        #if !canImport(Darwin) && !canImport(WinSDK)
        Self.check(pthread_mutex_destroy(mutex), "pthread_mutex_destroy")
        #endif
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    @inline(__always)
    func lock() {
        #if canImport(Darwin)
        os_unfair_lock_lock(mutex)
        #elseif canImport(WinSDK)
        AcquireSRWLockExclusive(mutex)
        #else
        Self.check(pthread_mutex_lock(mutex), "pthread_mutex_lock")
        #endif
    }

    @inline(__always)
    func unlock() {
        #if canImport(Darwin)
        os_unfair_lock_unlock(mutex)
        #elseif canImport(WinSDK)
        ReleaseSRWLockExclusive(mutex)
        #else
        Self.check(pthread_mutex_unlock(mutex), "pthread_mutex_unlock")
        #endif
    }

    /// Runs `body` while holding the lock. `body` must never call user code
    /// (a factory): that is what keeps resolution free of deadlocks.
    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A value guarded by a ``Lock``.
final class Locked<Value>: @unchecked Sendable {
    private let lock = Lock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Reads or changes the value while holding the lock.
    @inline(__always)
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
