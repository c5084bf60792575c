/// Holds one instance that is made once: a singleton's (per activation),
/// a scoped binding's (per scope), or a singleton's or weak binding's
/// inside one override block. It makes sure the instance is created exactly
/// once even when many threads or tasks ask for it first at the same time.
///
/// Reading a made instance takes no lock: it is published once with an
/// atomic compare-and-swap and read with an acquiring load, so any number of
/// threads read it at the cost of a plain load. Making it takes this cell's
/// own lock, never a container-wide one: a slow factory blocks only the
/// threads waiting for that same instance. A factory that resolves its own
/// dependencies takes other cells' locks, never this one again: a loop back
/// to this cell is a cycle, which the resolution reports before taking the lock.
///
/// Open to one subclass, ``SingletonLifetime``, which is the cell of its
/// one shared instance: a singleton binding is then one object, not two.
/// Every member is final, so the subclass changes nothing of this.
@usableFromInline
class InstanceCell: @unchecked Sendable {
    /// The instance, and beside it in the same allocation the lock that
    /// makings take, made by the first: an activation of 10,000 singletons
    /// makes no lock for those an app never resolves.
    @usableFromInline final let instance = AtomicReference<AnyObject>(count: 2)

    deinit { instance.destroy(count: 2) }

    private final var lock: Lock {
        let slot = instance.neighbour(1)
        return unsafeDowncast(slot.load()?.takeUnretainedValue() ?? slot.initialize(Lock()), to: Lock.self)
    }

    /// When the instance was made, among every making of this process
    /// (``MakingOrder``): written before the instance is published, so a
    /// reader that saw ``current`` sees it. Zero until then.
    final var madeOrder: UInt64 = 0

    /// The instance, when it has been made. Kept alive by this cell.
    @inlinable
    final var current: AnyObject? { instance.load()?.takeUnretainedValue() }

    /// Lets go of the instance. Only when nothing can read this cell any more:
    /// a read is lock-free, so it must not race with this.
    final func retire() {
        _ = instance.exchange(nil)
    }

    /// The instance, made by `make` if this is the first request.
    final func value(orMake make: () throws -> AnyObject) rethrows -> AnyObject {
        if let made = current { return made }
        lock.lock()
        defer { lock.unlock() }
        if let made = current { return made }  // another thread made it while we waited
        let made = try make()
        madeOrder = MakingOrder.next()  // after its dependencies' makings, so shutdown can go in reverse
        return instance.initialize(made)
    }

    /// `binding`'s instance from this cell, made in `context` on the first
    /// request, written into `memory`.
    final func sharedInstance(
        of binding: CompiledBinding, into memory: UnsafeMutableRawPointer, in context: ResolutionContext,
        argument: ArgumentValue?
    ) throws {
        if let box = current { return binding.copy(box, into: memory) }
        try context.checkCycle(binding)
        binding.copy(try value { try context.make(binding, argument) }, into: memory)
    }

    /// `binding`'s instance from this cell, made by an awaited request
    /// whose path ends with `binding` on the first request.
    final func sharedInstance<T>(
        of binding: CompiledBinding, as _: T.Type, awaitedIn resolution: AwaitingResolution, path: [CompiledBinding]
    ) async throws(ResolutionError) -> T {
        let made = try await value(
            awaiting: { () async throws(ResolutionError) -> AnyObject in try await resolution.make(binding, path: path) },
            loop: { resolution.cycle(at: binding, path: path) })
        return binding.typed(made, as: T.self)
    }

    // MARK: - Awaited making

    /// The makings under way of `async` singletons and scoped instances, by
    /// cell. Kept aside rather than in each cell: only `async` factories
    /// use it, and every other cell stays as small as it was.
    private static let makings = Locked<[ObjectIdentifier: Task<Instance<AnyObject>, any Error>]>([:])

    /// The cells whose makings the running task is inside, outermost first.
    @TaskLocal private static var makingsAround: [ObjectIdentifier] = []

    /// The instance, made by `make` if this is the first request. Many tasks
    /// asking first at once await one making: the first starts it, the others
    /// wait for its result. If it fails, each of them gets the error, and the
    /// next request tries again.
    final func value(
        awaiting make: @escaping @Sendable () async throws(ResolutionError) -> AnyObject,
        loop: () -> ResolutionError
    ) async throws(ResolutionError) -> AnyObject {
        if let made = current { return made }
        let id = ObjectIdentifier(self)
        // Asked again from inside its own making (a factory that resolves by
        // hand, which validation cannot follow): awaiting it would never end.
        let around = Self.makingsAround
        if around.contains(id) { throw loop() }
        let making = Self.makings.withLock { makings in
            if let running = makings[id] { return running }
            // A task of its own, so no one waiter's cancellation stops the
            // making the others await. It inherits the task-locals (the
            // scope, test overrides) of the request that started it.
            let task = Task { () async throws -> Instance<AnyObject> in
                let box = try await Self.$makingsAround.withValue(around + [id]) { try await make() }
                return Instance(self.value(orMake: { box }))  // published as a synchronous making would be
            }
            makings[id] = task
            return task
        }
        defer { Self.makings.withLock { if $0[id] == making { $0[id] = nil } } }
        do {
            return try await making.value.value
        } catch {
            throw error as! ResolutionError  // `make` throws nothing else
        }
    }
}
