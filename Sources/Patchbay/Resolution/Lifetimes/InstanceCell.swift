/// Holds one instance that is made once: a singleton's (per activation),
/// a scoped binding's (per scope), or a singleton's or weak binding's
/// inside one override block. The one "make once, then publish" state
/// machine of the engine: empty, making (with waiters), made; a making
/// claims the cell, then publishes its instance or fails, and the next
/// request after a failure tries again.
///
/// Reading a made instance takes no lock: it is published once with an
/// atomic compare-and-swap and read with an acquiring load, so any number of
/// threads read it at the cost of a plain load. Making it takes this cell's
/// own lock, never a container-wide one: a slow factory blocks only the
/// requests waiting for that same instance.
///
/// Two drivers: a synchronous request makes the instance holding the lock,
/// so the threads that ask meanwhile wait on it; an awaited one claims the
/// cell and makes it with no lock held, while the tasks that ask meanwhile
/// wait as continuations, resumed when it is published or fails (never
/// spinning, never blocking a thread). A cell is made by one binding's
/// factory, so by one driver: a synchronous request for an `async` factory
/// fails `needs-await` without waiting. A loop back to a cell from inside
/// its own making is a cycle, which the resolution's path reports before
/// the cell is asked.
@usableFromInline
final class InstanceCell: Sendable {
    /// The instance, and beside it in the same allocation what makings
    /// share (``Making``), made by the first: an activation of 10,000
    /// singletons makes no lock for those an app never resolves.
    @usableFromInline let instance = AtomicReference<AnyObject>(count: 2)

    /// What this cell keeps alive beside its instance: the binding storage a
    /// scope's or an override block's cell belongs to. Those tables key
    /// their cells by the storage's identity, and an identity is unique only
    /// while its object lives: a later activation's storage could otherwise
    /// reuse the address and be served this cell's instance.
    private let owner: (any LifetimeStorage)?

    init(keepingAlive owner: (any LifetimeStorage)? = nil) { self.owner = owner }

    /// What the makings of this instance share: the lock a synchronous one
    /// holds, and the awaited making under way with its waiters.
    private final class Making: Sendable {
        struct State {
            /// When the instance was made, among every making of this process
            /// (``MakingOrder``); zero until then.
            var madeOrder: UInt64 = 0
            /// The tasks awaiting an awaited making under way; nil when none is.
            var waiters: [CheckedContinuation<Instance<AnyObject>?, any Error>]?
        }
        let state = Locked(State())
    }

    private var making: Making {
        let slot = instance.sibling(1)
        return (slot.publishedObject ?? slot.initialize(Making())) as! Making
    }

    /// When the instance was made, among every making of this process
    /// (``MakingOrder``): so shutdown can go in reverse. Zero until then.
    var madeOrder: UInt64 { current == nil ? 0 : making.state.withLock { $0.madeOrder } }

    /// The instance, when it has been made. Kept alive by this cell.
    @inlinable
    var current: AnyObject? { instance.publishedObject }

    /// Lets go of the instance. Only when nothing can read this cell any more:
    /// a read is lock-free, so it must not race with this.
    func retire() {
        _ = instance.exchange(nil)
    }

    /// Publishes `made`, holding the state's lock; returns the instance kept.
    private func publish(_ made: AnyObject, _ state: inout Making.State) -> AnyObject {
        state.madeOrder = MakingOrder.next()  // after its dependencies' makings, so shutdown can go in reverse
        return instance.initialize(made)
    }

    /// The instance, made by `make` if this is the first request: the
    /// synchronous driver, which makes it holding the cell's lock.
    func value(orMake make: () throws -> AnyObject) rethrows -> AnyObject {
        if let made = current { return made }
        return try making.state.withLock { state in
            if let made = current { return made }  // another thread made it while we waited
            return publish(try make(), &state)
        }
    }

    /// The instance, made by `make` if this is the first request: the
    /// awaiting driver. Many tasks asking first at once await one making:
    /// the first makes it, the others wait for its result. If it fails,
    /// each of them gets the error, and the next request tries again.
    func value(awaiting make: () async throws -> AnyObject) async throws -> AnyObject {
        if let made = current { return made }
        let making = making
        let claimed: Instance<AnyObject>? = try await withCheckedThrowingContinuation { continuation in
            making.state.withLock { state in
                if let made = current {
                    continuation.resume(returning: Instance(made))
                } else if state.waiters != nil {
                    state.waiters!.append(continuation)  // resumed when the making ends
                } else {
                    state.waiters = []  // claimed: this request makes it
                    continuation.resume(returning: nil)
                }
            }
        }
        if let claimed { return claimed.value }
        let result: Result<AnyObject, any Error>
        do { result = .success(try await make()) } catch { result = .failure(error) }
        let (waiters, outcome) = making.state.withLock { state in
            defer { state.waiters = nil }
            return (state.waiters ?? [], result.map { publish($0, &state) })
        }
        for waiter in waiters { waiter.resume(with: outcome.map { Instance($0) }) }
        return try outcome.get()
    }
}
