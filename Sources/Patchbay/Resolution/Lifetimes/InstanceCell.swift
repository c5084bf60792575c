import Foundation

/// Holds one instance that is made once: a singleton's (per activation),
/// a scoped binding's (per scope), a singleton's or weak binding's inside
/// one override block, or a weak binding's, held weakly and made again
/// once released (``holdsWeakly``). The one "make once, then publish" state
/// machine of the engine: empty, making (by one maker, with waiters), made;
/// a making claims the cell, then publishes its instance or fails, and the
/// next request after a failure tries again.
///
/// Reading a made instance takes no lock: it is published once with an
/// atomic compare-and-swap and read with an acquiring load, so any number of
/// threads read it at the cost of a plain load. Claiming, publishing and
/// failing take this cell's own lock, briefly; no lock is held while a
/// factory runs, so a slow factory blocks only the requests waiting for
/// that same instance, and a factory may do anything (``Lock/withLock(_:)``).
///
/// Two drivers: a synchronous request waits for another thread's making on
/// a condition (``MakingWaits``), an awaited one as a continuation, resumed
/// when it is published or fails (never spinning, never blocking a thread).
/// A cell is made by one binding's factory, so by one driver: a synchronous
/// request for an `async` factory fails `needs-await` without waiting.
/// Before waiting, a request checks that the maker does not wait,
/// transitively, for a cell this request's own resolution is making: such a
/// wait would never end, and is the `dependency-cycle` it is (two threads or
/// tasks entering a loop from its two ends, or one thread entering it again
/// through a resolution of its own).
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

    /// Whether the instance is held weakly (a `weak` binding's): kept in
    /// ``Making``'s state, not published, so read under the lock, and made
    /// again once nothing else holds it.
    private let holdsWeakly: Bool

    init(keepingAlive owner: (any LifetimeStorage)? = nil, holdingWeakly: Bool = false) {
        (self.owner, holdsWeakly) = (owner, holdingWeakly)
    }

    /// What the makings of this instance share, under its lock.
    private final class Making: Sendable {
        struct State {
            /// When the instance was made, among every making of this process
            /// (``MakingOrder``); zero until then.
            var madeOrder: UInt64 = 0
            /// The ``madeOrder`` of the instance that was shut down, if one was:
            /// an instance is shut down once, whoever retires it (``claimShutdown()``).
            var shutDownOrder: UInt64 = 0
            /// Told of an instance made after the cell's binding was replaced
            /// (``retireEmpty(tellingOfLateMaking:)``), so that it is shut down too.
            var lateMaking: (@Sendable (InstanceCell) -> Void)?
            /// Who makes it now (a thread's ``ThreadResolutionState``, an
            /// awaited making's ``MakingWaits/Maker``); nil when nobody does.
            var maker: AnyObject?
            /// Whether a thread sleeps on ``MakingWaits``'s condition for this making.
            var sleeping = false
            /// The tasks awaiting the making under way: resumed with the
            /// instance, the making's error, or nil (try again: its task was cancelled).
            var waiters: [CheckedContinuation<Instance<AnyObject>?, any Error>] = []
            /// The instance of a cell that ``holdsWeakly``, once made.
            var weakly = WeakInstance()
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

    /// Notes that this cell's binding was replaced while it held no instance:
    /// a resolution already under way may still make one, and `tell` then
    /// hears of it. False, with nothing noted, when an instance is made.
    func retireEmpty(tellingOfLateMaking tell: @escaping @Sendable (InstanceCell) -> Void) -> Bool {
        making.state.withLock { state in
            guard found(&state) == nil else { return false }
            state.lateMaking = tell
            return true
        }
    }

    /// Claims the shutdown of the instance made now: true, once, for each
    /// instance made; false when none is made or it was claimed already.
    func claimShutdown() -> Bool {
        guard current != nil else { return false }
        return making.state.withLock { state in
            guard state.madeOrder != 0, state.shutDownOrder != state.madeOrder else { return false }
            state.shutDownOrder = state.madeOrder
            return true
        }
    }

    /// The instance, when it has been made (and, held weakly, is still alive).
    var current: AnyObject? { instance.publishedObject ?? (holdsWeakly ? making.state.withLock(found) : nil) }

    /// The instance, when it has been made, read holding the lock.
    private func found(_ state: inout Making.State) -> AnyObject? { instance.publishedObject ?? state.weakly.box }

    /// How many tasks await the making under way (for tests that must know a waiter queued).
    var awaitingTasks: Int { making.state.withLock { $0.waiters.count } }

    /// Lets go of the instance. Only when nothing can read this cell any more:
    /// a read is lock-free, so it must not race with this.
    func retire() { _ = instance.exchange(nil) }

    /// What a request finds: the instance, the cell claimed for it, or another's making.
    private enum Claim {
        case made(AnyObject), claimed, making(by: AnyObject)
    }

    /// Claims the cell for `maker` unless it is made or being made.
    private func claim(for maker: AnyObject) -> Claim {
        making.state.withLock { state in
            if let made = found(&state) { return .made(made) }
            if let other = state.maker { return .making(by: other) }
            state.maker = maker
            return .claimed
        }
    }

    /// Who makes the instance now, if anyone.
    fileprivate var makerNow: AnyObject? { making.state.withLock { $0.maker } }

    /// Whether `maker`'s making of this cell is still under way; a thread
    /// will then sleep until it ends, so its end must wake the sleepers.
    fileprivate func isBeingMade(by maker: AnyObject) -> Bool {
        making.state.withLock { state in
            guard state.maker === maker else { return false }
            state.sleeping = true
            return true
        }
    }

    /// Ends a making: publishes `made`, or fails (the next request tries
    /// again), and wakes who waits. A failure reaches the awaiting tasks,
    /// unless `retry` (the maker's task was cancelled): then one of them
    /// makes it in its place.
    @discardableResult
    private func end(_ made: AnyObject?, failure: (any Error)? = nil, retry: Bool = false) -> AnyObject? {
        var late: (@Sendable (InstanceCell) -> Void)?
        let (kept, waiters, wake) = making.state.withLock { state in
            defer { (state.maker, state.sleeping, state.waiters) = (nil, false, []) }
            guard let made else { return (nil as AnyObject?, state.waiters, state.sleeping) }
            state.madeOrder = MakingOrder.next()  // after its dependencies' makings, so shutdown can go in reverse
            if holdsWeakly { state.weakly = WeakInstance(made) }
            swap(&late, &state.lateMaking)
            return (holdsWeakly ? made : instance.initialize(made), state.waiters, state.sleeping)
        }
        late?(self)
        for waiter in waiters {
            if let kept { waiter.resume(returning: Instance(kept)) } else if retry { waiter.resume(returning: nil) } else { waiter.resume(throwing: failure!) }
        }
        if wake {  // the sleeping threads check whether what they wait for has ended
            MakingWaits.condition.lock()
            MakingWaits.condition.broadcast()
            MakingWaits.condition.unlock()
        }
        return kept
    }

    /// `made`, checked to be a class instance when this cell holds it weakly
    /// (rule `weak-value-type`, which the catalog could not always tell).
    private func checked(_ made: AnyObject, for binding: CompiledBinding?) throws -> AnyObject {
        if holdsWeakly, let binding { _ = try binding.requireClassInstance(box: made) }
        return made
    }

    /// The instance, made by `make` if this is the first request: the
    /// synchronous driver. A request while another thread makes it sleeps
    /// until that making ends (and makes it itself if it failed); one that
    /// would wait on its own resolution throws `dependency-cycle` for
    /// `binding`, requested at the end of `path` (the bindings being made,
    /// outermost first: read only then).
    func value(
        of binding: CompiledBinding? = nil, at path: @autoclosure () -> [CompiledBinding] = [],
        orMake make: () throws -> AnyObject
    ) throws -> AnyObject {
        if let made = current { return made }
        let me = ThreadResolutionState.current
        while true {
            switch claim(for: me) {
            case .made(let made): return made
            case .making(let maker):
                try MakingWaits.sleep(me, until: self, isNoLongerMadeBy: maker, for: binding, at: path())
            case .claimed:
                do {
                    return end(try checked(make(), for: binding))!
                } catch {
                    end(nil, failure: error)
                    throw error
                }
            }
        }
    }

    /// The instance, made by `make` if this is the first request: the
    /// awaiting driver. Many tasks asking first at once await one making:
    /// the first makes it, the others wait for its result. If it fails,
    /// each of them gets the error, and the next request tries again; if
    /// the making task was cancelled, a waiter makes it in its place. One
    /// that would wait on its own resolution throws `dependency-cycle`.
    func value(
        of binding: CompiledBinding, at path: @autoclosure () -> [CompiledBinding],
        awaiting make: () async throws -> AnyObject
    ) async throws -> AnyObject {
        if let made = current { return made }
        let around = MakingWaits.maker?.inThisTask, me = MakingWaits.Maker(inside: around)
        while true {
            switch claim(for: me) {
            case .made(let made): return made
            case .making(let maker):
                // Await the end of `maker`'s making: the instance, or nil to try again.
                let ticket = MakingWaits.Maker(inside: nil)
                try MakingWaits.register(ticket, inside: around?.chain ?? [], waitingFor: self, madeBy: maker, for: binding, at: path())
                defer { MakingWaits.unregister(ticket) }
                let made = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Instance<AnyObject>?, any Error>) in
                    making.state.withLock { state in
                        if let made = found(&state) { return continuation.resume(returning: Instance(made)) }
                        guard state.maker === maker else { return continuation.resume(returning: nil) }
                        state.waiters.append(continuation)  // resumed when the making ends
                    }
                }
                if let made { return made.value }
            case .claimed:
                do {
                    return end(try checked(await MakingWaits.$maker.withValue(me, operation: make), for: binding))!
                } catch {
                    end(nil, failure: error, retry: Task.isCancelled)
                    throw error
                }
            }
        }
    }
}

/// Who waits for whose making, across every cell: what finds a wait that
/// would never end. Touched only when a request finds a making under way
/// (never when a cell is made or claimed), under one lock.
enum MakingWaits {
    /// An awaited making's maker. Its factory's hand-written awaited
    /// resolves run inside it (a task-local), so a loop back waits on itself.
    final class Maker: Sendable {
        let around: Maker?
        /// The task it makes in: a task its factory starts inherits
        /// ``maker`` but is not inside the making (it may wait for it).
        let task = TaskIdentity.current
        init(inside around: Maker?) { self.around = around }
        /// This maker, when the current task is the one making.
        var inThisTask: Maker? { task == TaskIdentity.current ? self : nil }
        /// This making and those it runs inside, innermost first.
        var chain: [AnyObject] { [self] + (around?.chain ?? []) }
    }
    @TaskLocal static var maker: Maker?

    /// One waiting request: the makers it runs inside, the cell it waits
    /// for, and the binding it requested (which a cycle's message draws).
    private typealias Wait = (inside: [AnyObject], cell: InstanceCell, binding: CompiledBinding?)
    private static let waits = Locked<[ObjectIdentifier: Wait]>([:])
    /// Where threads sleep until a making they wait for ends.
    static let condition = NSCondition()

    /// Records that `ticket`, a request inside the makings `inside`, waits
    /// for `cell`, made by `maker`; throws `dependency-cycle` instead when
    /// `maker` is one of `inside` or waits, through other makers, for a
    /// cell one of them makes.
    static func register(
        _ ticket: AnyObject, inside: [AnyObject], waitingFor cell: InstanceCell, madeBy maker: AnyObject,
        for binding: CompiledBinding?, at path: @autoclosure () -> [CompiledBinding]
    ) throws {
        let loop: [CompiledBinding?]? = waits.withLock { waits in
            var next = [(maker, [binding])], seen = Set<ObjectIdentifier>()
            while let (other, chain) = next.popLast() {
                if inside.contains(where: { $0 === other }) { return chain }
                guard seen.insert(ObjectIdentifier(other)).inserted else { continue }
                for wait in waits.values where wait.inside.contains(where: { $0 === other }) {
                    if let maker = wait.cell.makerNow { next.append((maker, chain + [wait.binding])) }
                }
            }
            if !inside.isEmpty { waits[ObjectIdentifier(ticket)] = (inside, cell, binding) }
            return nil
        }
        guard let loop else { return }
        throw ResolutionError.cycle(at: binding, path: path(), waitingThrough: loop)
    }

    static func unregister(_ ticket: AnyObject) { waits.withLock { $0[ObjectIdentifier(ticket)] = nil } }

    /// Sleeps this thread (`me`, the maker of its synchronous makings) until
    /// `maker`'s making of `cell` ends, or throws `dependency-cycle` when it would never end.
    static func sleep(
        _ me: AnyObject, until cell: InstanceCell, isNoLongerMadeBy maker: AnyObject, for binding: CompiledBinding?,
        at path: @autoclosure () -> [CompiledBinding]
    ) throws {
        try register(me, inside: [me], waitingFor: cell, madeBy: maker, for: binding, at: path())
        defer { unregister(me) }
        condition.lock()
        defer { condition.unlock() }
        // A making that ends after this check wakes the condition only once this thread waits on it.
        while cell.isBeingMade(by: maker) { condition.wait() }
    }
}

extension ResolutionError {
    /// The `dependency-cycle` of a request for `binding` (at the end of
    /// `path`, the bindings being made, outermost first) that would wait
    /// through `chain`: the bindings whose makings each maker in turn waits
    /// for, the first `binding`, the last one this request's resolution
    /// makes (or is inside of, further out). Drawn as a cycle on the path
    /// is (``cycle(at:type:path:loop:closedBy:)``): from that last binding on
    /// the path, each link of a chain as its decorator, back to it. Another
    /// thread's or task's steps between the makings it waits for are not
    /// known here: each is drawn by the binding it waits for.
    fileprivate static func cycle(
        at binding: CompiledBinding?, path: [CompiledBinding], waitingThrough chain: [CompiledBinding?]
    ) -> ResolutionError {
        let names = path.map(\.key.name), type = binding?.key.name ?? "?"
        guard let last = chain.last ?? nil else { return cycle(at: binding, type: type, path: names, loop: path, closedBy: "?") }
        // Where the path makes what the last maker waits for: its instance's binding, else (a
        // product made in its decorated binding's frame) the binding of that type, not a link.
        let before = path.dropLast()
        let start = before.firstIndex { $0.sharesInstance(with: last) }
            ?? before.lastIndex { !$0.definition.isDecorator && $0.key.name == last.key.name }
        let loop = (start.map { Array(path[$0...]) } ?? [last] + path) + chain.dropFirst().dropLast().compactMap { $0 }
        return cycle(at: binding, type: type, path: names, loop: loop, closedBy: last.key.name)
    }
}
