#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The resolution a factory is running in, per thread.
///
/// A factory runs synchronously on one thread. When its body calls the
/// container directly (through `@Injected` in an initializer, say) rather than
/// through its closure parameters, that call finds the enclosing resolution
/// here and joins it: a cycle is still detected and `graph` instances are
/// still shared. A thread-local (not a task-local) because it is read and set
/// on every factory call and must cost next to nothing; and because a `Task`
/// started inside a factory must not inherit a resolution that will be over
/// before it runs.
enum CurrentResolution {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The resolution running on this thread, if any.
    static var context: ResolutionContext? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<ResolutionContext>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Runs `body` with `context` as this thread's resolution, restoring the
    /// previous one after.
    static func with<Result>(_ context: ResolutionContext, _ body: () throws -> Result) rethrows -> Result {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(context).toOpaque())
        defer { pthread_setspecific(key, previous) }
        return try body()
    }
}
