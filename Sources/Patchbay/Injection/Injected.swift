// The one file of `Injection/` and `Resolution/`'s deferred reads that holds
// unsafe code: the stores `@Injected` and `Lazy` keep a resolved value in.
//
// What they guarantee: a value is published once (until a `Lazy`'s reset) and
// read after that with one acquiring load and no lock, no retain of the store,
// no runtime lookup of generic metadata; a reset never frees a value a reader
// loaded while that reader still runs. Why this cannot be safe Swift: the
// value is read through a raw address (inline in the `@Injected` store's own
// allocation, or an unretained box for `Lazy`), which is what keeps a later
// read within 3x a stored read and an `@Injected` property at one
// allocation; safe Swift has no atomics without the `Synchronization`
// module, and a lock per read costs several times the read. Everything
// else (what to resolve, from where) is `DeferredResolution`, safe code.
import CPatchbayAtomics

/// A dependency resolved on first access and kept.
///
///     final class SignupService {
///         @Injected var users: any UserRepository
///         @Injected(from: .secondary) var fallback: any UserRepository
///         @Injected(container: tenantContainer) var clock: any Clock
///     }
///
/// Resolution happens on the first read of the property; the value is then
/// kept. It resolves from what made the object: inside an object a factory
/// made, from that resolution's container, injector, test overrides and
/// scope; inside an object made by hand, from ``PatchbaySystem/container``'s
/// `primary` injector, in the current ``Scope`` if one is open. A container
/// or injector named in the attribute wins. Reads are thread-safe. A property
/// getter cannot throw, so a failure stops the program with the full
/// ``ResolutionError`` message (in debug and release alike), which names the
/// property's declaration (its file and line), as does the thrown error;
/// read `try $users.resolve()` to handle the error instead. A getter cannot
/// know the line that read it: that line is in the backtrace the trap
/// prints, in the frame below the property's getter
/// (`SignupService.users.getter`).
///
/// A property of an optional type is `nil` when no injector binds the type:
///
///     @Injected var analytics: (any Analytics)?
///
/// Only "not bound" gives `nil`. If the type is bound but its factory fails,
/// that is an error, never hidden: the program stops with its message (use
/// `try $analytics.resolve()` to handle it).

@propertyWrapper
@safe public struct Injected<Value>: @unchecked Sendable {
    @usableFromInline let storage: InjectionStorage<Value>
    /// The storage's word that says whether the value is kept (see
    /// ``InjectionStorage/state``), copied here so that a read after the
    /// first loads plain words of the wrapper and the value, and retains
    /// nothing but the value it returns.
    @usableFromInline let state: UnsafeMutablePointer<UnsafeMutableRawPointer?>

    /// Resolves `Value` from `injector` of `container`.
    /// - Parameters:
    ///   - injector: The injector to search first; when `nil`, the one that
    ///     served the factory that made the object, else `primary`.
    ///   - container: The container to resolve from; when `nil`, the one
    ///     that made the object, else ``PatchbaySystem/container``.
    ///   - file: Where the property is declared, for messages; leave the default.
    ///   - line: Where the property is declared, for messages; leave the default.
    public init(
        from injector: InjectorName? = nil, container: Container? = nil,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        storage = InjectionStorage.make(
            DeferredResolution(.current, container: container, injector: injector, declaredAt: (file, line)))
        unsafe state = storage.state
    }

    /// The dependency, resolved on first access.
    // Inlinable, so that a later access is specialized in the app's module:
    // an acquiring load of the state word, and a copy of the value. Only
    // the plain `state` word is read, on either path: reading `storage`
    // would retain and release it on every access.
    @inlinable
    public var wrappedValue: Value {
        if let value = unsafe KeptValue.address(in: state) {
            return unsafe value.assumingMemoryBound(to: Value.self).pointee
        }
        return unsafe InjectionStorage<Value>.firstAccess(at: state)
    }

    /// A wrapper that already holds `value` and resolves nothing: for a test
    /// that gives one instance its own dependency, whatever the container
    /// binds (`nil` for an optional one: explicitly none).
    ///
    ///     let service = SignupService()
    ///     service.$users = Injected(InMemoryUserRepository())
    public init(_ value: Value, file: StaticString = #fileID, line: UInt = #line) {
        storage = InjectionStorage.make(DeferredResolution(.outside, declaredAt: (file, line)))
        unsafe state = storage.state
        _ = storage.publish(value)
    }

    /// The wrapper itself, for `try $property.resolve()`; set it to give this
    /// one instance its own dependency (`$users = Injected(fake)`).
    public var projectedValue: Injected<Value> {
        get { self }
        set { self = newValue }
    }

    /// The dependency, resolved on first call and kept.
    /// - Throws: ``ResolutionError`` when it cannot be resolved.
    public func resolve() throws(ResolutionError) -> Value { try storage.value() }

    /// Whether the dependency has been resolved yet.
    public var isResolved: Bool { storage.isResolved }
}

extension Injected: ScopedProperty {
    var deferred: DeferredResolution { storage.deferred }
    func adopt(_ scope: Scope) { storage.adopt(scope) }
}

/// An optional dependency, `nil` when no injector binds it, is an
/// `@Injected` property of an optional type.
@available(*, deprecated, renamed: "Injected", message: "write @Injected var name: T? (nil when T is not bound)")
public typealias SafelyInjected<Value> = Injected<Value?>

/// The shared state behind a property wrapper: copies of a struct that
/// holds `@Injected` share one resolution.
///
/// One allocation per property, made with its object: the header is the
/// ``DeferredResolution``, and the words that follow it in the same block
/// are the state of the value (see ``state``), the lock that guards adopting
/// a scope and publishing (made by the first access that needs it), the
/// storage's own address (for a first access that has only `state`), and
/// room for the value itself, kept in place: a later read copies it from
/// there, with no box to retain.
@usableFromInline
@safe final class InjectionStorage<Value>: ManagedBuffer<DeferredResolution, UnsafeMutableRawPointer?> {
    /// A storage for a wrapper that resolves as `deferred` says.
    static func make(_ deferred: DeferredResolution) -> InjectionStorage {
        let words = 3 + KeptValue.words(for: Value.self)
        let storage = unsafe unsafeDowncast(create(minimumCapacity: words) { _ in deferred }, to: InjectionStorage.self)
        unsafe storage.withUnsafeMutablePointerToElements {
            unsafe $0.initialize(repeating: nil, count: 2)
            unsafe ($0 + 2).initialize(to: Unmanaged.passUnretained(storage).toOpaque())
        }
        return storage
    }

    deinit {
        if let value = unsafe KeptValue.address(in: state) {
            unsafe value.assumingMemoryBound(to: Value.self).deinitialize(count: 1)
        }
        unsafe lockSlot.release()
    }

    /// The state of the value: nil until it is kept, then the value's
    /// address, published with release ordering.
    var state: UnsafeMutablePointer<UnsafeMutableRawPointer?> { unsafe withUnsafeMutablePointerToElements { unsafe $0 } }

    private var lockSlot: AtomicReference<Lock> {
        unsafe AtomicReference(pointer: withUnsafeMutablePointerToElements { unsafe $0 + 1 })
    }

    /// Guards adopting a scope and publishing the value; made on first use.
    private var lock: Lock { unsafe lockSlot.load()?.takeUnretainedValue() ?? lockSlot.initialize(Lock()) }

    /// What the first read resolves from, as it stands now.
    var deferred: DeferredResolution { lock.withLock { unsafe header } }

    /// Resolves in `scope` from now on.
    func adopt(_ scope: Scope) { lock.withLock { unsafe header.adopt(scope) } }

    /// Keeps `value` unless a value is kept already, and returns the one
    /// kept: if two threads race through a first access, both resolve, the
    /// first to publish wins, and both return its value. Under the lock, so
    /// the loser waits for the winner's copy instead of spinning.
    func publish(_ value: Value) -> Value {
        lock.withLock {
            if let kept = unsafe KeptValue.address(in: state) {
                return unsafe kept.assumingMemoryBound(to: Value.self).pointee
            }
            let address = unsafe KeptValue.address(after: state, for: Value.self)
            unsafe address.initializeMemory(as: Value.self, to: value)
            _ = unsafe patchbay_atomic_exchange(state, address)
            return value
        }
    }

    var isResolved: Bool { unsafe KeptValue.address(in: state) != nil }

    func value() throws(ResolutionError) -> Value {
        if let value = unsafe KeptValue.address(in: state) {
            return unsafe value.assumingMemoryBound(to: Value.self).pointee
        }
        return try resolveFirst()
    }

    /// The first access of the wrapper whose storage's `state` word this
    /// is: the storage is found from the word after the lock, which holds
    /// its address (unretained: the wrapper that passes `state` holds it).
    @usableFromInline @inline(never)
    static func firstAccess(at state: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> Value {
        unsafe Unmanaged<InjectionStorage>.fromOpaque(state[2].unsafelyUnwrapped).takeUnretainedValue().firstAccess()
    }

    /// The first access of `@Injected`: resolve, or stop with the error's message.
    @inline(never)
    func firstAccess() -> Value {
        do {
            return try resolveFirst()
        } catch {
            // Stops at the property's declaration, not in this file. Not
            // preconditionFailure: -O builds would drop the message. A getter
            // has no caller's #line to take, so the message says where the
            // reader is found: the backtrace's next frame down.
            let site = deferred.declaredAt!
            let hint = " The code that read the property is the frame below the property's getter in the backtrace."
            fatalError(error.description + hint, file: site.file, line: site.line)
        }
    }

    /// Resolves holding nothing, so a factory that reads another wrapper (or
    /// this one, in a cycle that resolution will report) cannot deadlock.
    @inline(never)
    private func resolveFirst() throws(ResolutionError) -> Value {
        let deferred = deferred
        do {
            if let optional = Value.self as? any OptionalInjectable.Type {
                return publish(try optional.resolveIfBound(deferred) as! Value)
            }
            return publish(try deferred.resolve(Value.self)!)
        } catch {
            let site = deferred.declaredAt!
            throw error.requested(at: CodeLocation(site.file, site.line), declaration: true)
        }
    }
}

/// Lets `@Injected` of `T?` resolve `T` when bound and give `nil` when not.
protocol OptionalInjectable {
    static func resolveIfBound(_ deferred: DeferredResolution) throws(ResolutionError) -> Any
}

extension Optional: OptionalInjectable {
    static func resolveIfBound(_ deferred: DeferredResolution) throws(ResolutionError) -> Any {
        try deferred.resolve(Wrapped.self, ifBound: true) as Any
    }
}

/// Where an ``InjectionStorage`` keeps its value: in the words after its
/// state and lock, at the value's alignment. The wrapper's inlinable getter
/// and the storage both find it here.
@usableFromInline
enum KeptValue {
    /// The kept value's address, read from `state` with acquire ordering; nil while there is none.
    @inlinable @inline(__always)
    static func address(in state: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> UnsafeMutableRawPointer? {
        unsafe patchbay_atomic_load_acquire(state)
    }

    /// Where a `Value` goes after the three words at `state`.
    static func address<Value>(
        after state: UnsafeMutablePointer<UnsafeMutableRawPointer?>, for _: Value.Type
    ) -> UnsafeMutableRawPointer {
        unsafe UnsafeMutableRawPointer(state + 3).alignedUp(toMultipleOf: MemoryLayout<Value>.alignment)
    }

    /// The words to allocate for a `Value` after the three: its size, and room to align it.
    static func words<Value>(for _: Value.Type) -> Int {
        let bytes = MemoryLayout<Value>.size + max(MemoryLayout<Value>.alignment - 8, 0)
        return (bytes + 7) / 8
    }
}

/// A ``Lazy``'s value: published once, read with one acquiring load and no
/// lock, and dropped by ``reset()`` safely while reads run.
final class LazyValue<Value>: @unchecked Sendable {
    /// Set on first use (and again after a reset); read unretained.
    private let resolved = AtomicReference<Instance<Value>>()
    /// The reads running now: a value a reset replaces is released only
    /// when none of them can still be reading it, unretained.
    private let readers = ReaderCount()
    /// Serializes resets and the release of what they replaced.
    private let lock = Lock()
    /// Values a reset replaced while a read was running, released by the last one out.
    private var replaced: [Instance<Value>] = []  // guarded by `lock`

    /// The value, or what `lazy` resolves when none is kept (and publishes).
    /// Counted in, so a concurrent reset keeps the box this call loads
    /// (unretained) until the call has copied the value out of it. (No
    /// closure and no `defer`: each costs instructions on every read.)
    func value(of lazy: Lazy<Value>) throws(ResolutionError) -> Value {
        readers.enter()
        defer { if readers.leave() { releaseReplaced() } }
        if let box = unsafe resolved.load() { return unsafe box.takeUnretainedValue().value }
        return try lazy.resolveFirst()
    }

    /// Keeps `value` unless one is kept already; returns the one kept.
    func publish(_ value: Value) -> Value { resolved.initialize(Instance(value)).value }

    var isResolved: Bool { unsafe resolved.load() != nil }

    /// Drops the value: at once, or when the last read running now returns.
    func reset() {
        let released = lock.withLock { () -> [Instance<Value>] in
            guard let previous = resolved.exchange(nil) else { return [] }
            replaced.append(previous)
            return readers.retire() ? takeReplaced() : []
        }
        _ = released  // released here, outside the lock: a deinit may do anything, even use this value's `Lazy`
    }

    /// The last read out after a reset releases what the reset replaced.
    @inline(never)
    private func releaseReplaced() {
        let released = lock.withLock { readers.isIdle ? takeReplaced() : [] }
        _ = released  // outside the lock, as in `reset()`
    }

    /// Empties `replaced` and says nothing waits; called holding `lock`.
    private func takeReplaced() -> [Instance<Value>] {
        defer {
            replaced = []
            readers.cleared()
        }
        return replaced
    }
}
