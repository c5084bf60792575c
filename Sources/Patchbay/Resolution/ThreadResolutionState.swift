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
///
/// The part the fast path reads is a ``ResolveCache`` in plain memory, found
/// through the thread-specific key: reading it costs loads only, where a
/// class's fields would cost a retain and release of the class per resolve.
@usableFromInline
final class ThreadResolutionState {
    /// The plain-memory part; freed with this state.
    let cache: UnsafeMutablePointer<ResolveCache>
    /// The strong reference behind `cache.activation`.
    var cachedActivation: Activation?
    /// Activations replaced in the cache while a light resolution was running
    /// on this thread: it still reads their tables, so they are kept until
    /// the thread is back at top level.
    var parked: [Activation] = []
    /// The context of the resolution running on this thread, or free for the next one.
    let context: ResolutionContext

    private init() {
        cache = .allocate(capacity: 1)
        context = ResolutionContext(cache: cache)
        cache.initialize(to: ResolveCache())
        cache.pointee.owner = Unmanaged.passUnretained(self)
    }

    deinit {
        cache.pointee.free()
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

    /// Reads `container`'s activation under its lock and caches it.
    @usableFromInline @inline(never)
    func refresh(_ container: Container) -> Activation {
        let current = container.currentActivation()
        if let previous = cachedActivation, previous !== current, cache.pointee.busy > 0 {
            parked.append(previous)
            cache.pointee.hasParked = true
        }
        cachedActivation = current
        cache.pointee.container = Unmanaged.passUnretained(container).toOpaque()
        cache.pointee.activation = Unmanaged.passUnretained(current).toOpaque()
        cache.pointee.table = current.entries.fast
        cache.pointee.fastActivation = current.overridesInUse ? nil : cache.pointee.activation
        return current
    }

    /// Drops `container`'s activation from this thread's cache, when it is the
    /// one cached and no resolution runs here: a released container's manifest
    /// is then freed with it, not kept until this thread next resolves.
    func forget(_ container: Container) {
        guard cache.pointee.container == Unmanaged.passUnretained(container).toOpaque(), cache.pointee.busy == 0
        else { return }
        cache.pointee.container = nil
        cache.pointee.activation = nil
        cache.pointee.fastActivation = nil
        cache.pointee.table = FastTable.empty
        cachedActivation = nil
    }

    /// Lets go of parked activations, once no light resolution runs on this thread.
    @usableFromInline @inline(never)
    func releaseParked() {
        guard cache.pointee.busy == 0 else { return }
        parked.removeAll()
        cache.pointee.hasParked = false
    }

    /// What is left to do when a light resolution ends: end the context
    /// begun part-way for it, and let go of parked activations.
    @usableFromInline @inline(never)
    func finishLight() {
        if cache.pointee.holdsContext {
            cache.pointee.holdsContext = false
            context.end()
        }
        if cache.pointee.hasParked { releaseParked() }
    }

    // MARK: - Per-thread storage

    static let key: pthread_key_t = {
        var key = pthread_key_t()
        #if canImport(Darwin)
        pthread_key_create(&key) { ResolveCache.threadEnded(UnsafeMutableRawPointer($0)) }
        #else
        pthread_key_create(&key) { ResolveCache.threadEnded($0) }
        #endif
        return key
    }()

    /// Makes this thread's state; it is released when the thread ends.
    static func makeCurrent() -> UnsafeMutablePointer<ResolveCache> {
        let state = ThreadResolutionState()
        _ = Unmanaged.passRetained(state)  // balanced in `ResolveCache.threadEnded`
        pthread_setspecific(key, state.cache)
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
    /// That activation's address; `ThreadResolutionState.cachedActivation` keeps it alive.
    @usableFromInline var activation: UnsafeMutableRawPointer?
    /// The same, when the fast path may use it: nil when the activation has
    /// test overrides switched on (then every resolve takes the general path).
    /// An activation belongs to one container and this cache keeps it alive,
    /// so finding it current in a container also says the container is the
    /// cached one: one comparison answers all three questions.
    @usableFromInline var fastActivation: UnsafeMutableRawPointer?
    /// That activation's fast table.
    @usableFromInline var table = FastTable.empty
    /// How many resolutions (light or with a context) run on this thread now.
    @usableFromInline var busy = 0
    /// Whether `ThreadResolutionState.parked` holds anything.
    @usableFromInline var hasParked = false

    // A light resolution (see `FactoryCall`): what it would have kept in a
    // context, kept here in plain memory instead, so that a context made
    // part-way (when a light factory calls the container, or needs what the
    // fast table does not serve) starts from the same path.

    /// Whether the code running now is a light factory's (not a context's).
    @usableFromInline var lightActive = false
    /// The activation the light resolution reads.
    @usableFromInline var lightActivation: UnsafeMutableRawPointer?
    /// The container it resolves from (not retained: its caller holds it), for `ObjectOrigin`.
    @usableFromInline var lightContainer: UnsafeMutableRawPointer?
    /// The light bindings being built, outermost first; `lightDepth` of them.
    @usableFromInline let lightPath: UnsafeMutablePointer<Unmanaged<CompiledBinding>>
    @usableFromInline var lightDepth = 0
    /// Whether the thread's context was begun for the light resolution, to
    /// end when it does.
    @usableFromInline var holdsContext = false
    /// How deep a light resolution goes before the rest is built in a context.
    @usableFromInline static var lightPathCapacity: Int { 64 }
    /// Where light builds make their products, as a stack: each takes its
    /// product's size (rounded to 16 bytes) and gives it back when done.
    @usableFromInline let scratch: UnsafeMutableRawPointer
    @usableFromInline var scratchUsed = 0
    @usableFromInline static var scratchCapacity: Int { 16 * 1024 }

    init() {
        lightPath = .allocate(capacity: Self.lightPathCapacity)
        scratch = .allocate(byteCount: Self.scratchCapacity, alignment: 16)
    }

    func free() {
        lightPath.deallocate()
        scratch.deallocate()
    }

    /// The types of the light path, outermost first, for messages.
    func lightPathNames() -> [String] {
        (0..<lightDepth).map { lightPath[$0].takeUnretainedValue().key.name }
    }
    /// The state this belongs to (set as soon as it exists).
    @usableFromInline var owner: Unmanaged<ThreadResolutionState>?

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
