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
///   until each thread that read it resolves again (or ends), or, while a
///   resolution reads it, until that resolution ends: the resolution holds it.
/// - A resolution context, reused by each top-level resolve on this thread;
///   while it runs, a factory that calls the same container directly (through
///   `@Injected` in an initializer, say) joins it, so cycles are still found
///   and `graph` instances still shared. Per thread, not per task: a factory
///   runs synchronously on one thread, and a `Task` it starts must not join a
///   resolution that will be over before it runs.
///
/// The part the resolve fast path reads is a ``ResolveCache`` in plain memory, found
/// through the thread-specific key: reading it costs loads only, where a
/// class's fields would cost a retain and release of the class per resolve.
@usableFromInline
final class ThreadResolutionState {
    /// The plain-memory part; freed with this state.
    let cache: UnsafeMutablePointer<ResolveCache>
    /// The strong reference behind `cache.activation`.
    var cachedActivation: Activation?
    /// Activations the cache let go of while a resolution ran on this
    /// thread: that resolution reads its activation through the cache's
    /// unretained reference, so they are kept until the outermost one ends
    /// (see ``ResolveCache/holdsRetired``).
    private var retiredDuringResolution: [Activation] = []
    /// The context reused by top-level resolves on this thread.
    let context: ResolutionContext
    /// The innermost resolution running on this thread, if any: the one a
    /// factory's direct call to its own container joins, and the one an object
    /// made now belongs to (see ``ObjectOrigin``). A resolve from another
    /// container inside it runs in a context of its own, which is innermost
    /// until it ends. Kept in the cache's plain memory (see ``ResolveCache/running``).
    var running: ResolutionContext? { cache.pointee.running }

    private init() {
        cache = .allocate(capacity: 1)
        cache.initialize(to: ResolveCache())
        context = ResolutionContext(cache: cache)
        cache.pointee.owner = Unmanaged.passUnretained(self)
        cache.pointee.context = context
    }

    deinit {
        cache.pointee.scratch.deallocate()
        cache.deinitialize(count: 1)
        cache.deallocate()
    }

    /// The activation of `container` in force now.
    @inline(__always)
    func activation(of container: Container) -> Activation {
        if cache.pointee.container == Unmanaged.passUnretained(container).toOpaque(), let cached = cachedActivation,
            container.isCurrent(cached)
        {
            return cached
        }
        return refresh(container)
    }

    /// Reads `container`'s activation under its lock and caches it. The one
    /// it replaces in the cache stays alive while a resolution holds it.
    @usableFromInline @inline(never)
    func refresh(_ container: Container) -> Activation {
        let current = container.currentActivation()
        keepWhileResolving(cachedActivation)
        cachedActivation = current
        cache.pointee.container = Unmanaged.passUnretained(container).toOpaque()
        cache.pointee.activation = Unmanaged.passUnretained(current).toOpaque()
        cache.pointee.table = current.entries.fast
        cache.pointee.fastActivation = current.overridesInUse ? nil : cache.pointee.activation
        return current
    }

    /// Drops `container`'s activation from this thread's cache, when it is the
    /// one cached: a released container's manifest is then freed with it,
    /// not kept until this thread next resolves.
    func forget(_ container: Container) {
        guard cache.pointee.container == Unmanaged.passUnretained(container).toOpaque() else { return }
        cache.pointee.container = nil
        cache.pointee.activation = nil
        cache.pointee.fastActivation = nil
        cache.pointee.table = FastTable.empty
        keepWhileResolving(cachedActivation)
        cachedActivation = nil
    }

    /// Keeps `activation`, which the cache is letting go of, until the
    /// outermost resolution running on this thread ends, when one runs.
    private func keepWhileResolving(_ activation: Activation?) {
        guard let activation, cache.pointee.running != nil else { return }
        retiredDuringResolution.append(activation)
        cache.pointee.holdsRetired = true
    }

    /// Lets go of the activations kept while resolutions ran: the outermost has ended.
    func releaseRetired() {
        cache.pointee.holdsRetired = false
        retiredDuringResolution.removeAll()
    }

    // MARK: - Per-thread storage

    static let key: pthread_key_t = {
        var key = pthread_key_t()
        #if canImport(Darwin)
        let status = pthread_key_create(&key) { ResolveCache.threadEnded(UnsafeMutableRawPointer($0)) }
        #else
        let status = pthread_key_create(&key) { ResolveCache.threadEnded($0) }
        #endif
        precondition(status == 0, "Patchbay: pthread_key_create failed (\(status)): no thread-specific key is left")
        return key
    }()

    /// Makes this thread's state; it is released when the thread ends.
    static func makeCurrent() -> UnsafeMutablePointer<ResolveCache> {
        let state = ThreadResolutionState()
        _ = Unmanaged.passRetained(state)  // balanced in `ResolveCache.threadEnded`
        let status = pthread_setspecific(key, state.cache)
        precondition(status == 0, "Patchbay: pthread_setspecific failed (\(status))")
        return state.cache
    }

    /// This thread's state if it has one; none is made for asking.
    static var existing: ThreadResolutionState? {
        pthread_getspecific(key).map { $0.assumingMemoryBound(to: ResolveCache.self).pointee.owner!.takeUnretainedValue() }
    }

    /// This thread's state.
    static var current: ThreadResolutionState {
        ResolveCache.current.pointee.owner!.takeUnretainedValue()
    }
}

/// The part of a thread's resolution state that the resolve fast path reads:
/// plain memory, so reading it takes no retain.
@usableFromInline
struct ResolveCache {
    /// The container whose activation is cached (its address; not retained).
    @usableFromInline var container: UnsafeMutableRawPointer?
    /// That activation's address; `ThreadResolutionState.cachedActivation`
    /// keeps it alive, and when the cache lets go of it while a resolution
    /// runs on this thread, keeps it until the outermost one ends: a
    /// resolution begun from the cache's activation holds no reference of its own.
    @usableFromInline var activation: UnsafeMutableRawPointer?
    /// The same, when the fast path may use it: nil when the activation has
    /// test overrides switched on (then every resolve takes the general path).
    /// An activation belongs to one container and this cache keeps it alive,
    /// so finding it current in a container also says the container is the
    /// cached one: one comparison answers all three questions.
    @usableFromInline var fastActivation: UnsafeMutableRawPointer?
    /// That activation's fast table.
    @usableFromInline var table = FastTable.empty
    /// The state this belongs to (set as soon as it exists).
    @usableFromInline var owner: Unmanaged<ThreadResolutionState>?
    /// The innermost resolution running on this thread (see
    /// ``ThreadResolutionState/running``), unretained: a running context is
    /// the thread's own, or held by the call that began it until it ends.
    /// Unowned(unsafe) references here and in the engine are read with no
    /// retain and no release, where a strong one costs both on each read.
    unowned(unsafe) var running: ResolutionContext?
    /// The thread's own context (``ThreadResolutionState/context``), which
    /// a top-level resolve runs in when no other runs; its state keeps it.
    unowned(unsafe) var context: ResolutionContext?
    /// Whether the state keeps activations the cache let go of while a
    /// resolution ran, to release when the outermost one ends.
    var holdsRetired = false
    /// Where the engine makes what it resolves, as a stack: each request
    /// takes its type's size (rounded to 16 bytes) and gives it back when
    /// done. A temporary of the requested type would be generic code's,
    /// which asks the runtime for metadata on every request.
    let scratch = UnsafeMutableRawPointer.allocate(byteCount: scratchCapacity, alignment: 16)
    var scratchUsed = 0
    static var scratchCapacity: Int { 16 * 1024 }

    /// This thread's cache, made on first use.
    static var current: UnsafeMutablePointer<ResolveCache> { current(ThreadResolutionState.key) }

    /// This thread's cache, made on first use; `key` is `ThreadResolutionState.key`.
    @inlinable @inline(__always)
    static func current(_ key: pthread_key_t) -> UnsafeMutablePointer<ResolveCache> {
        if let pointer = pthread_getspecific(key) {
            return pointer.assumingMemoryBound(to: ResolveCache.self)
        }
        return makeCurrent()
    }

    @usableFromInline @inline(never)
    static func makeCurrent() -> UnsafeMutablePointer<ResolveCache> { ThreadResolutionState.makeCurrent() }

    /// The thread-specific destructor: releases the state (and with it this cache).
    static func threadEnded(_ pointer: UnsafeMutableRawPointer?) {
        guard let pointer else { return }
        pointer.assumingMemoryBound(to: ResolveCache.self).pointee.owner?.release()
    }

    /// The fast table of `container`'s activation in force, when this cache
    /// holds it and no overrides are in use; else nil (take the general path).
    @inlinable @inline(__always)
    func table(for container: Container) -> FastTable? {
        container.rawCurrent == fastActivation ? table : nil
    }
}
