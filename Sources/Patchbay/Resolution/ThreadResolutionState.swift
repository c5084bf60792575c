#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What a thread keeps between resolves, so the common resolve takes no lock
/// and allocates nothing.
///
/// - The activation it last read, per container: a resolve compares the
///   container's current activation with this one *by address* (an atomic
///   load, no retain, no lock) and uses its own strong reference when they
///   match. The address cannot have been reused by another activation while
///   this thread holds the old one alive, so a match is the same object.
///   After a re-activation the addresses differ and the thread reads the new
///   one once under the container's lock. An old activation lives on only
///   until each thread that read it resolves again (or ends).
/// - A resolution context, reused by each top-level resolve on this thread;
///   while it runs, a factory that calls the container directly (through
///   `@Injected` in an initializer, say) joins it, so cycles are still found
///   and `graph` instances still shared. Per thread, not per task: a factory
///   runs synchronously on one thread, and a `Task` it starts must not join a
///   resolution that will be over before it runs.
@usableFromInline
final class ThreadResolutionState {
    // Only ever touched by the thread that owns this state, so the dynamic
    // exclusivity checks Swift would run on each access of a class's `var`
    // (a third of a cached resolve's cost, measured) are switched off.
    @exclusivity(unchecked) @usableFromInline var cachedContainer: ObjectIdentifier?
    @exclusivity(unchecked) @usableFromInline var cachedActivation: Activation?
    /// The context of the resolution running on this thread, or free for the next one.
    let context = ResolutionContext()

    /// The activation of `container` in force now.
    @inlinable @inline(__always)
    func activation(of container: Container) -> Activation {
        if cachedContainer == ObjectIdentifier(container), let cached = cachedActivation,
            container.isCurrent(cached)
        {
            return cached
        }
        return refresh(container)
    }

    @usableFromInline @inline(never)
    func refresh(_ container: Container) -> Activation {
        let current = container.currentActivation()
        cachedContainer = ObjectIdentifier(container)
        cachedActivation = current
        return current
    }

    // MARK: - Per-thread storage

    @usableFromInline static let key: pthread_key_t = {
        var key = pthread_key_t()
        #if canImport(Darwin)
        pthread_key_create(&key) { Unmanaged<ThreadResolutionState>.fromOpaque($0).release() }
        #else
        pthread_key_create(&key) { pointer in
            if let pointer { Unmanaged<ThreadResolutionState>.fromOpaque(pointer).release() }
        }
        #endif
        return key
    }()

    /// This thread's state, made on first use and released when the thread ends.
    @inlinable static var current: ThreadResolutionState {
        @inline(__always) get {
            if let pointer = pthread_getspecific(key) {
                return Unmanaged<ThreadResolutionState>.fromOpaque(pointer).takeUnretainedValue()
            }
            return makeCurrent()
        }
    }

    @usableFromInline @inline(never)
    static func makeCurrent() -> ThreadResolutionState {
        let state = ThreadResolutionState()
        pthread_setspecific(key, Unmanaged.passRetained(state).toOpaque())
        return state
    }
}
