#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// One of the four files of the engine allowed unsafe code (with
// `TypeTable.swift`, `ResolutionContext.swift` and `ProductMemory.swift`);
// every use is marked `unsafe`.
//
// What it guarantees: a thread's `ResolveCache` is plain memory that only
// that thread reads and writes (found through a thread-specific key, freed
// when the thread ends); the activation and container addresses it holds
// are compared, never dereferenced, except the activation its state keeps
// alive (`cachedActivation`, and while a resolution runs, the retired
// ones); the scratch stack is claimed and given back in strict nesting by
// the resolutions of that thread. `withResolution`, the one way into a
// resolution, runs here because it reads that memory. The identity of the
// task running now (`TaskIdentity`) is the runtime's, compared only while
// both tasks are alive and never dereferenced: Swift has no safe way to tell
// a task from one it started, which inherits its task-local values.
// Why it cannot be safe Swift: a class's fields cost a retain and a release
// at every read, and thread-local storage has no safe Swift spelling
// without the `Synchronization` module (iOS 18); the fast path reads a made
// singleton in a few loads because nothing here is reference counted.

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
@safe @usableFromInline
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
    var running: ResolutionContext? { unsafe cache.pointee.running?.takeUnretainedValue() }

    private init() {
        unsafe cache = .allocate(capacity: 1)
        unsafe cache.initialize(to: ResolveCache())
        context = unsafe ResolutionContext(cache: cache)
        unsafe cache.pointee.owner = unsafe Unmanaged.passUnretained(self)
        unsafe cache.pointee.context = context
    }

    deinit {
        unsafe cache.pointee.scratch.deallocate()
        unsafe cache.deinitialize(count: 1)
        unsafe cache.deallocate()
    }

    /// The activation of `container` in force now.
    @inline(__always)
    func activation(of container: Container) -> Activation {
        unsafe Self.cached(of: container, in: cache) ?? refresh(container)
    }

    /// The activation of `container` in force now, as ``activation(of:)``
    /// reads it, without retaining the thread's state: for an awaited
    /// resolve, which retains what it reads across its `await`s.
    static func activation(of container: Container) -> Activation {
        unsafe cached(of: container, in: ResolveCache.current) ?? current.refresh(container)
    }

    /// `container`'s activation in `cache`, when it is the one in force:
    /// the one check both reads make. The cache's activation is alive while
    /// it is cached (the state's `cachedActivation` holds it), and only the
    /// cache's own thread changes it.
    @inline(__always)
    private static func cached(of container: Container, in cache: UnsafeMutablePointer<ResolveCache>) -> Activation? {
        guard unsafe cache.pointee.container == Unmanaged.passUnretained(container).toOpaque(),
            let cached = unsafe cache.pointee.activation, unsafe container.rawCurrent == cached
        else { return nil }
        return unsafe Unmanaged<Activation>.fromOpaque(cached).takeUnretainedValue()
    }

    /// Reads `container`'s activation under its lock and caches it. The one
    /// it replaces in the cache stays alive while a resolution holds it.
    @usableFromInline @inline(never)
    func refresh(_ container: Container) -> Activation {
        let current = container.currentActivation()
        keepWhileResolving(cachedActivation)
        cachedActivation = current
        unsafe cache.pointee.container = unsafe Unmanaged.passUnretained(container).toOpaque()
        unsafe cache.pointee.activation = unsafe Unmanaged.passUnretained(current).toOpaque()
        unsafe cache.pointee.table = current.entries.fast
        unsafe cache.pointee.fastActivation = unsafe current.overridesInUse ? nil : cache.pointee.activation
        return current
    }

    /// Drops `container`'s activation from this thread's cache, when it is the
    /// one cached: a released container's manifest is then freed with it,
    /// not kept until this thread next resolves.
    func forget(_ container: Container) {
        guard unsafe cache.pointee.container == Unmanaged.passUnretained(container).toOpaque() else { return }
        unsafe cache.pointee.container = nil
        unsafe cache.pointee.activation = nil
        unsafe cache.pointee.fastActivation = nil
        unsafe cache.pointee.table = FastTable.empty
        keepWhileResolving(cachedActivation)
        cachedActivation = nil
    }

    /// Keeps `activation`, which the cache is letting go of, until the
    /// outermost resolution running on this thread ends, when one runs.
    private func keepWhileResolving(_ activation: Activation?) {
        guard let activation, unsafe cache.pointee.running != nil else { return }
        retiredDuringResolution.append(activation)
        unsafe cache.pointee.holdsRetired = true
    }

    /// Lets go of the activations kept while resolutions ran: the outermost has ended.
    func releaseRetired() {
        unsafe cache.pointee.holdsRetired = false
        // Taken out first, let go of after the swap's access ends: a
        // singleton's deinit may resolve, and a resolve may retire another
        // activation into the list.
        var retired: [Activation] = []
        swap(&retired, &retiredDuringResolution)
    }

    // MARK: - Per-thread storage

    static let key: pthread_key_t = {
        var key = pthread_key_t()
        #if canImport(Darwin)
        let status = pthread_key_create(&key) { ResolveCache.threadEnded(UnsafeMutableRawPointer($0)) }
        #else
        let status = unsafe pthread_key_create(&key) { unsafe ResolveCache.threadEnded($0) }
        #endif
        precondition(status == 0, "Patchbay: pthread_key_create failed (\(status)): no thread-specific key is left")
        return key
    }()

    /// Makes this thread's state; it is released when the thread ends.
    static func makeCurrent() -> UnsafeMutablePointer<ResolveCache> {
        let state = ThreadResolutionState()
        _ = unsafe Unmanaged.passRetained(state)  // balanced in `ResolveCache.threadEnded`
        let status = unsafe pthread_setspecific(key, state.cache)
        precondition(status == 0, "Patchbay: pthread_setspecific failed (\(status))")
        return unsafe state.cache
    }

    /// This thread's state if it has one; none is made for asking.
    static var existing: ThreadResolutionState? {
        unsafe pthread_getspecific(key).map { unsafe $0.assumingMemoryBound(to: ResolveCache.self).pointee.owner!.takeUnretainedValue() }
    }

    /// This thread's state.
    static var current: ThreadResolutionState {
        unsafe ResolveCache.current.pointee.owner!.takeUnretainedValue()
    }
}

/// The part of a thread's resolution state that the resolve fast path reads:
/// plain memory, so reading it takes no retain.
@unsafe @usableFromInline
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
    /// Unmanaged, so asking whether one runs, the question on every
    /// resolve, reads a word: loading an `unowned(unsafe)` reference, even
    /// a nil one, calls a retain and a release.
    var running: Unmanaged<ResolutionContext>?
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
    static var current: UnsafeMutablePointer<ResolveCache> { unsafe current(ThreadResolutionState.key) }

    /// This thread's cache, made on first use; `key` is `ThreadResolutionState.key`.
    @inlinable @inline(__always)
    static func current(_ key: pthread_key_t) -> UnsafeMutablePointer<ResolveCache> {
        if let pointer = unsafe pthread_getspecific(key) {
            return unsafe pointer.assumingMemoryBound(to: ResolveCache.self)
        }
        return unsafe makeCurrent()
    }

    @usableFromInline @inline(never)
    static func makeCurrent() -> UnsafeMutablePointer<ResolveCache> { unsafe ThreadResolutionState.makeCurrent() }

    /// The thread-specific destructor: releases the state (and with it this cache).
    static func threadEnded(_ pointer: UnsafeMutableRawPointer?) {
        guard let pointer = unsafe pointer else { return }
        unsafe pointer.assumingMemoryBound(to: ResolveCache.self).pointee.owner?.release()
    }

    /// The fast table of `container`'s activation in force, when this cache
    /// holds it and no overrides are in use; else nil (take the general path).
    @inlinable @inline(__always)
    func table(for container: Container) -> FastTable? {
        unsafe container.rawCurrent == fastActivation ? table : nil
    }
}

extension ResolveCache {
    /// Room for a `T` on the scratch stack, and the mark to give it back at
    /// (by setting ``scratchUsed`` to it); nil when the stack is full (a very
    /// deep path) or `T` is over-aligned: then the heap serves.
    @inlinable @inline(__always)
    mutating func claimScratch<T>(for _: T.Type) -> (ProductMemory, Int)? {
        unsafe claimScratch(size: MemoryLayout<T>.size, alignment: MemoryLayout<T>.alignment)
    }

    /// The same for `size` bytes at `alignment`: the one rounding of the stack.
    @usableFromInline @inline(__always)
    mutating func claimScratch(size: Int, alignment: Int) -> (ProductMemory, Int)? {
        let used = unsafe scratchUsed
        let rounded = (size + 15) & ~15
        guard alignment <= 16, unsafe used + rounded <= Self.scratchCapacity else { return nil }
        unsafe scratchUsed = used + rounded
        return unsafe (ProductMemory(scratch + used), used)
    }
}

// MARK: - The way into a resolution

extension Container {
    /// The resolve fast path, inlined into ``resolve(_:from:)`` where `T` is
    /// static: read a made singleton served from `primary` outside test
    /// overrides (no lock, nothing allocated or retained but the result),
    /// and move out what the engine made for any other request the fast
    /// table found. The thread's cache (plain memory) says whether it holds
    /// this container's activation in force, and its table finds the
    /// binding; everything else is the engine's (``ResolutionContext``).
    @inlinable @inline(__always)
    func resolveOnThisThread<T>(_: T.Type, from injector: InjectorName) throws(ResolutionError) -> T {
        let cache = unsafe ResolveCache.current(threadKey)
        if injector.rawValue == "primary", let table = unsafe cache.pointee.table(for: self),
            let slot = unsafe table.slot(of: ObjectIdentifier(T.self))
        {
            if let box = unsafe slot.pointee.made() { return unsafe unboxed(box, as: T.self) }
            // The engine, unspecialized, makes it in the thread's scratch
            // memory; this code, where `T` is static, moves it out.
            let size = MemoryLayout<T>.size, alignment = MemoryLayout<T>.alignment
            if let made = unsafe try serveHead(of: slot, size: size, alignment: alignment, as: T.self, cache: cache) {
                return made.move(as: T.self)
            }
        }
        return unsafe try resolveGenerally(T.self, from: injector, cache: cache)
    }

    /// A plain request from `primary` that the thread's cache found in
    /// the activation in force, with no overrides in use, made in the
    /// thread's scratch memory, which it returns for the caller to move the
    /// instance out of at once: the space is given back. The binding is the
    /// slot's head, and the activation the cache's, which keeps it alive
    /// while the resolution runs (see ``ResolveCache/activation``). Nil,
    /// having made nothing, when the scratch memory is full or the request
    /// joins a resolution running on this thread whose activation, older,
    /// binds no `type`: the general path answers those.
    @usableFromInline @inline(never)
    func serveHead(
        of slot: UnsafeMutablePointer<TableSlot>, size: Int, alignment: Int, as type: Any.Type,
        cache: UnsafeMutablePointer<ResolveCache>
    ) throws(ResolutionError) -> ProductMemory? {
        guard let (memory, mark) = unsafe cache.pointee.claimScratch(size: size, alignment: alignment) else { return nil }
        defer { unsafe cache.pointee.scratchUsed = mark }
        let activation = unsafe Unmanaged<Activation>.fromOpaque(cache.pointee.activation.unsafelyUnwrapped)
        return unsafe try withResolution(
            on: cache, activation: activation, scope: nil, graph: nil, making: type
        ) { context, joined in
            guard joined else {
                try unsafe context.instance(of: slot.pointee.binding.unsafelyUnwrapped, into: memory, argument: nil)
                return memory
            }
            return try context.resolve(type, into: memory, from: .primary, argument: nil) ? memory : nil
        }
    }

    /// Everything the fast path does not serve, for a plain request: made
    /// in the thread's scratch memory.
    @usableFromInline @inline(never)
    func resolveGenerally<T>(
        _: T.Type, from injector: InjectorName, cache: UnsafeMutablePointer<ResolveCache>
    ) throws(ResolutionError) -> T {
        // Read even when joining: a resolve is what moves the thread's cache
        // to a manifest activated since, so the old one can go when the
        // resolution that holds it ends. Passed unretained: the thread's
        // state holds it (cached, or retired until the outermost resolution ends).
        let activation = unsafe cache.pointee.owner.unsafelyUnwrapped.takeUnretainedValue().activation(of: self)
        return unsafe try withResolution(on: cache, activation: .passUnretained(activation), scope: nil, graph: nil, making: T.self) {
            context, _ in try context.resolveValue(T.self, from: injector, argument: nil)
        }
    }

    /// The one way into a resolution: joins the resolution running
    /// innermost on this thread when it is this container's (a factory that
    /// calls its container directly, or a `Lazy` read while it is made) and
    /// in the same scope or the request names none, else begins one in
    /// `activation` (in the thread's context when none runs, else in one of
    /// its own), runs `body` in it (told whether it joined), ends what it
    /// began, and turns any error that is not a ``ResolutionError`` into one.
    ///
    /// Joined also when the scope is the one it runs in (a `Lazy` read during
    /// construction passes the scope it captured): otherwise a loop back
    /// would not be seen, and would recurse or wait on itself. The caller
    /// guarantees `activation` outlives this call (a borrowed parameter, or
    /// the thread state's, kept until the outermost resolution ends): the
    /// context holds it unretained.
    @inline(__always)
    func withResolution<Result>(
        on cache: UnsafeMutablePointer<ResolveCache>, activation: Unmanaged<Activation>, scope: Scope?, graph: SharedGraph?,
        making type: Any.Type, _ body: (ResolutionContext, _ joined: Bool) throws -> Result
    ) throws(ResolutionError) -> Result {
        if let running = unsafe cache.pointee.running?.takeUnretainedValue(), running.containerID == ObjectIdentifier(self),
            scope == nil || scope === running.scope
        {
            do {
                return try body(running, true)
            } catch {
                throw ResolutionError.factoryFailed(error, making: TypeKey.shortName(of: type), by: nil, path: [])
            }
        }
        let overrides = unsafe activation.takeUnretainedValue().overridesInUse ? OverrideTable.current(for: overridesID) : nil
        let context = unsafe cache.pointee.running == nil ? cache.pointee.context! : ResolutionContext(cache: cache)
        unsafe context.begin(container: self, activation: activation, overrides: overrides, scope: scope, graph: graph)
        // Ended on each way out, not in a `defer`, which the compiler makes
        // a function of its own here, called on every resolve.
        do {
            let result = try body(context, false)
            context.end()
            return result
        } catch {
            context.end()
            throw ResolutionError.factoryFailed(error, making: TypeKey.shortName(of: type), by: nil, path: [])
        }
    }

    /// ``withResolution(on:activation:scope:graph:making:_:)`` on `state`'s thread.
    @inline(__always)
    func withResolution<Result>(
        on state: ThreadResolutionState, activation: Activation, scope: Scope?, graph: SharedGraph?,
        making type: Any.Type, _ body: (ResolutionContext, _ joined: Bool) throws -> Result
    ) throws(ResolutionError) -> Result {
        unsafe try withResolution(on: state.cache, activation: .passUnretained(activation), scope: scope, graph: graph, making: type, body)
    }

    /// The address of the activation in force, for comparing: no retain, no lock.
    @inlinable
    var rawCurrent: UnsafeMutableRawPointer? { unsafe current.load()?.toOpaque() }
}

/// The task running now, as an identity to compare: an awaited factory's
/// call (``AwaitingCall``) notes its task, so a task the factory starts,
/// which inherits the task-local values, is not taken for the factory's own
/// run. Nil outside any task.
enum TaskIdentity {
    /// The task's hash, read through the public `Hashable` of
    /// `UnsafeCurrentTask` (its layout is the runtime's to change); read once
    /// per awaited resolution and per awaited making, never per sync resolve.
    /// Not the task itself: that struct holds a reference, so a resolution
    /// that kept it would no longer be plain bits to copy, which costs more
    /// than the hash (Benchmarks/README.md, "Stop 64").
    static var current: Int? {
        unsafe withUnsafeCurrentTask { task in unsafe task?.hashValue }
    }
}
