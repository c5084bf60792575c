#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation

// UNSAFE CODE, ACKNOWLEDGED (one of the few files allowed it; ARCHITECTURE.md lists them).
//
// The C library's calls that take pointers: the mutex behind `Lock` and
// `Locked`, and the few file-system calls Foundation has no safe form of
// (`SystemCall`). Each is wrapped here in a type or function whose signature
// holds no pointer, so every other file calls them as safe Swift.
//
// What it guarantees: a `Lock`'s mutex is allocated once, never moves and is
// freed only in its deinit; a `Locked` value is read and changed only while
// its lock is held, which is what makes it `Sendable`; every pointer a
// `SystemCall` passes lives for the call only (an `inout` value or a
// `String`'s C form) and what the C library returns is copied out and freed
// before it returns.
//
// Why it cannot be safe Swift: `Synchronization.Mutex` needs iOS 18 / macOS
// 15; a pthread mutex or `os_unfair_lock` must have an address that never
// moves, which only a manual allocation promises; and `realpath`, `stat`,
// `inotify_add_watch`, `open` and `read` take C pointers.

/// A small mutual-exclusion lock, heap-allocated so its address never moves.
///
/// The standard `Synchronization.Mutex` needs iOS 18 / macOS 15; this wraps
/// `os_unfair_lock` on Apple platforms and a `pthread_mutex_t` elsewhere, as
/// swift-log and swift-argument-parser do. Never public.
@safe final class Lock: @unchecked Sendable {
    #if canImport(Darwin)
    private let mutex: UnsafeMutablePointer<os_unfair_lock>
    #else
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    #endif

    init() {
        unsafe mutex = .allocate(capacity: 1)
        #if canImport(Darwin)
        unsafe mutex.initialize(to: os_unfair_lock())
        #else
        unsafe mutex.initialize(to: pthread_mutex_t())
        // An error-checking mutex, as swift-log's: a lock taken twice by one
        // thread, or released by another, fails the checks below instead of
        // hanging or corrupting the mutex.
        var attributes = pthread_mutexattr_t()
        Self.check(unsafe pthread_mutexattr_init(&attributes), "pthread_mutexattr_init")
        Self.check(unsafe pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK)), "pthread_mutexattr_settype")
        Self.check(unsafe pthread_mutex_init(mutex, &attributes), "pthread_mutex_init")
        Self.check(unsafe pthread_mutexattr_destroy(&attributes), "pthread_mutexattr_destroy")
        #endif
    }

    /// Stops the program when a pthread call fails: the lock's guarantees no longer hold.
    @inline(__always)
    private static func check(_ status: Int32, _ call: StaticString) {
        precondition(status == 0, "Patchbay: \(call) failed with error \(status)")
    }

    deinit {
        #if !canImport(Darwin)
        Self.check(unsafe pthread_mutex_destroy(mutex), "pthread_mutex_destroy")
        #endif
        unsafe mutex.deinitialize(count: 1)
        unsafe mutex.deallocate()
    }

    @inline(__always)
    func lock() {
        #if canImport(Darwin)
        unsafe os_unfair_lock_lock(mutex)
        #else
        Self.check(unsafe pthread_mutex_lock(mutex), "pthread_mutex_lock")
        #endif
    }

    @inline(__always)
    func unlock() {
        #if canImport(Darwin)
        unsafe os_unfair_lock_unlock(mutex)
        #else
        Self.check(unsafe pthread_mutex_unlock(mutex), "pthread_mutex_unlock")
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

/// A value guarded by a ``Lock``: `Sendable` because the value is only
/// reached inside ``withLock(_:)``.
final class Locked<Value>: @unchecked Sendable {
    private let lock = Lock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Reads or changes the value while holding the lock.
    @inline(__always)
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }
}

/// A value guarded by a lock that threads may also wait on, for another thread to change the
/// value: `Sendable` as ``Locked`` is. Every change wakes the threads waiting.
final class WaitableLocked<Value>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Reads or changes the value while holding the lock, then wakes the threads waiting.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body(&value)
    }

    /// Waits until `isReady` holds of the value, then reads or changes it, holding the lock throughout.
    func wait<Result>(until isReady: (Value) -> Bool, then body: (inout Value) throws -> Result) rethrows -> Result {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        while !isReady(value) { condition.wait() }
        return try body(&value)
    }
}

/// The C library's file-system calls that take pointers, with signatures
/// that hold none. Paths follow symbolic links unless a call says otherwise.
enum SystemCall {
    /// Whether a folder is at `path` (nil: nothing is there, or a link that leads nowhere).
    static func isDirectory(atPath path: String) -> Bool? {
        var isDirectory: ObjCBool = false
        guard unsafe FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        return isDirectory.boolValue
    }

    /// `realpath`: the path with every symbolic link resolved, or nil when it leads nowhere.
    static func realPath(_ path: String) -> String? {
        guard let resolved = unsafe realpath(path, nil) else { return nil }
        defer { unsafe free(resolved) }
        return unsafe String(cString: resolved)
    }

    /// `stat`: what is at `path`, or nil when nothing is.
    static func status(ofPath path: String) -> stat? {
        var info = stat()
        return unsafe stat(path, &info) == 0 ? info : nil
    }

    #if canImport(Darwin)
    /// `open(path, O_EVTONLY)`: a descriptor for file events only, or -1.
    static func openForEvents(_ path: String) -> Int32 { unsafe open(path, O_EVTONLY) }
    #elseif os(Linux) && canImport(Glibc)
    /// `inotify_add_watch`: the watch's number, or -1.
    static func addWatch(_ descriptor: Int32, path: String, mask: UInt32) -> Int32 {
        unsafe inotify_add_watch(descriptor, path, mask)
    }
    #endif

    /// Reads a non-blocking descriptor until it has nothing more.
    static func drain(_ descriptor: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while unsafe buffer.withUnsafeMutableBytes({ unsafe read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    }
}
