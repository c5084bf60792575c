import CPatchbayAtomics

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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
public struct Injected<Value>: @unchecked Sendable {
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
            injector: injector, container: container, ifBound: Self.isOptional, site: (file, line))
        state = storage.state
    }

    /// Whether `Value` is `T?`: then the property resolves `T`, and is `nil` when nothing binds it.
    private static var isOptional: Bool { Value.self is any OptionalInjectable.Type }

    /// The dependency, resolved on first access.
    // Inlinable, so that a later access is specialized in the app's module:
    // an acquiring load of the state word, and a copy of the value. Only
    // the plain `state` word is read, on either path: reading `storage`
    // would retain and release it on every access.
    @inlinable
    public var wrappedValue: Value {
        if let value = KeptValue.address(in: state) { return value.assumingMemoryBound(to: Value.self).pointee }
        return InjectionStorage<Value>.firstAccess(at: state)
    }

    /// A wrapper that already holds `value` and resolves nothing: for a test
    /// that gives one instance its own dependency, whatever the container
    /// binds (`nil` for an optional one: explicitly none).
    ///
    ///     let service = SignupService()
    ///     service.$users = Injected(InMemoryUserRepository())
    public init(_ value: Value, file: StaticString = #fileID, line: UInt = #line) {
        storage = InjectionStorage.make(
            injector: .primary, container: nil, ifBound: Self.isOptional, site: (file, line), origin: .outside)
        state = storage.state
        storage.keep(value)
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

/// An optional dependency, `nil` when no injector binds it, is an
/// `@Injected` property of an optional type.
@available(*, deprecated, renamed: "Injected", message: "write @Injected var name: T? (nil when T is not bound)")
public typealias SafelyInjected<Value> = Injected<Value?>

/// What a property wrapper was declared with, and what adopting a scope
/// changed: the header of its ``InjectionStorage``.
@usableFromInline
struct InjectionSettings {
    /// The container named, held weakly: an instance that holds the wrapper
    /// (a singleton, say) and the container that holds the instance must not
    /// keep each other alive. Reading after the container is gone is a
    /// ``ResolutionError/Reason/containerReleased`` error.
    weak var container: Container?
    /// Whether a container was named (else the object's, or the default one, is used).
    let namedContainer: Bool
    /// The injector named; nil for the object's (see ``ObjectOrigin``).
    let namedInjector: InjectorName?
    let ifBound: Bool
    /// Where the property is declared: messages name it, and a trap stops there.
    let site: (file: StaticString, line: UInt)
    /// The resolution the wrapper's owner was made in, if any: the first
    /// read resolves from its container, injector, overrides and scope (see
    /// ``Scope``), all held weakly.
    let origin: ObjectOrigin
    /// The scope given by ``Scope/adopt(_:file:line:)``, which wins over the origin's.
    weak var adoptedScope: Scope?
    var adopted = false
}

/// The shared state behind a property wrapper: copies of a struct that
/// holds `@Injected` share one resolution.
///
/// One allocation per property, made with its object: the settings are the
/// header, and the words that follow them in the same block are the state
/// of the value (see ``state``), the lock that guards adopting a scope
/// (made by the first access that needs it), the storage's own address (for
/// a first access that has only `state`), and room for the value itself,
/// kept in place: a later read copies it from there, with no box to retain.
@usableFromInline
final class InjectionStorage<Value>: ManagedBuffer<InjectionSettings, UnsafeMutableRawPointer?> {
    /// A storage for a wrapper declared with these settings.
    static func make(
        injector: InjectorName?, container: Container?, ifBound: Bool = false, site: (file: StaticString, line: UInt),
        origin: ObjectOrigin = .current
    ) -> InjectionStorage {
        let settings = InjectionSettings(
            container: container, namedContainer: container != nil, namedInjector: injector, ifBound: ifBound,
            site: site, origin: origin)
        let words = 3 + KeptValue.words(for: Value.self)
        let storage = unsafeDowncast(create(minimumCapacity: words) { _ in settings }, to: InjectionStorage.self)
        storage.withUnsafeMutablePointerToElements {
            $0.initialize(repeating: nil, count: 2)
            ($0 + 2).initialize(to: Unmanaged.passUnretained(storage).toOpaque())
        }
        return storage
    }

    deinit {
        if let value = KeptValue.address(in: state) { value.assumingMemoryBound(to: Value.self).deinitialize(count: 1) }
        lockSlot.release()
    }

    /// The state of the value: nil until it is kept, ``KeptValue/writing``
    /// while the one thread that won the first access writes it, then the
    /// value's address, published with release ordering.
    var state: UnsafeMutablePointer<UnsafeMutableRawPointer?> { withUnsafeMutablePointerToElements { $0 } }

    private var lockSlot: AtomicReference<Lock> {
        AtomicReference(pointer: withUnsafeMutablePointerToElements { $0 + 1 })
    }

    /// Guards the settings that adopting a scope changes; made on first use.
    private var lock: Lock { lockSlot.load()?.takeUnretainedValue() ?? lockSlot.initialize(Lock()) }

    /// Keeps `value`, for a wrapper made with its value.
    func keep(_ value: Value) { _ = publish(value) }

    /// Keeps `value` unless a value is kept already, and returns the one
    /// kept: if two threads race through a first access, both resolve, the
    /// first to publish wins, and both return its value.
    private func publish(_ value: Value) -> Value {
        let address = KeptValue.address(after: state, for: Value.self)
        var expected: UnsafeMutableRawPointer? = nil
        if patchbay_atomic_compare_exchange(state, &expected, KeptValue.writing) {
            address.initializeMemory(as: Value.self, to: value)
            _ = patchbay_atomic_exchange(state, address)
            return value
        }
        while true {
            if let kept = KeptValue.address(in: state) { return kept.assumingMemoryBound(to: Value.self).pointee }
            sched_yield()  // the winner is copying its value in
        }
    }

    var isResolved: Bool { KeptValue.address(in: state) != nil }

    /// Resolves in `scope` from now on; false when already resolved.
    func adopt(_ scope: Scope) -> Bool {
        lock.withLock {
            header.adoptedScope = scope
            header.adopted = true
        }
        return !isResolved
    }

    /// The scope this resolves in, if known and still there.
    var scope: Scope? { lock.withLock { header.adopted ? header.adoptedScope : header.origin.scope } }
    /// Whether an adopted owner's scope is carried to this wrapper: made by
    /// hand, in no scope, not adopted and not read.
    var followsOwner: Bool { header.origin.isHandMade && !isResolved && lock.withLock { !header.adopted } }

    @inline(__always)
    func value() throws(ResolutionError) -> Value {
        if let value = KeptValue.address(in: state) { return value.assumingMemoryBound(to: Value.self).pointee }
        return try resolveFirst()
    }

    /// The first access of the wrapper whose storage's `state` word this
    /// is: the storage is found from the word after the lock, which holds
    /// its address (unretained: the wrapper that passes `state` holds it).
    @usableFromInline @inline(never)
    static func firstAccess(at state: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> Value {
        Unmanaged<InjectionStorage>.fromOpaque(state[2].unsafelyUnwrapped).takeUnretainedValue().firstAccess()
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
            fatalError(error.description + Self.readerHint, file: header.site.file, line: header.site.line)
        }
    }

    /// Appended to a trap's message: where to find the code that read the property.
    static var readerHint: String {
        " The code that read the property is the frame below the property's getter in the backtrace."
    }

    @inline(never)
    private func resolveFirst() throws(ResolutionError) -> Value {
        do {
            return try resolveUnnamed()
        } catch {
            throw error.requested(at: CodeLocation(header.site.file, header.site.line), declaration: true)
        }
    }

    private func resolveUnnamed() throws(ResolutionError) -> Value {
        // Resolve without holding anything, so a factory that reads another
        // wrapper (or this one, in a cycle that resolution will report) cannot
        // deadlock. If two threads race here, both resolve and the first to
        // publish wins; both return that one value.
        // Read one by one, not as a tuple from `withLock`: this code is
        // generic, and a tuple's metadata is looked up at run time.
        let lock = lock
        lock.lock()
        let named = header.container
        let adopted = header.adopted
        let adoptedScope = header.adoptedScope
        lock.unlock()
        let origin = header.origin
        let scope = adopted ? adoptedScope ?? Scope.ended : origin.resolvingScope
        let container = try origin.container(
            explicit: named, named: header.namedContainer, for: Value.self, scope: scope)
        let injector = header.namedInjector ?? origin.injector
        let value =
            origin.madeWithOverrides
            ? try origin.withOverrides { () throws(ResolutionError) in
                try resolve(from: container, injector, scope)
            }
            : try resolve(from: container, injector, scope)
        return publish(value)
    }

    private func resolve(
        from container: Container, _ injector: InjectorName, _ scope: Scope?
    ) throws(ResolutionError) -> Value {
        if header.ifBound, let optional = Value.self as? any OptionalInjectable.Type {
            return try optional.resolveIfBound(in: container, from: injector, scope: scope) as! Value
        } else if let scope {
            return try container.resolve(Value.self, from: injector, in: scope)
        }
        return try container.resolve(Value.self, from: injector)
    }
}

/// Lets `InjectionStorage<T?>` resolve `T` when bound and give `nil` when not.
protocol OptionalInjectable {
    static func resolveIfBound(
        in container: Container, from injector: InjectorName, scope: Scope?
    ) throws(ResolutionError) -> Any
}

extension Optional: OptionalInjectable {
    static func resolveIfBound(
        in container: Container, from injector: InjectorName, scope: Scope?
    ) throws(ResolutionError) -> Any {
        try container.resolveIfBound(Wrapped.self, from: injector, in: scope) as Any
    }
}

/// Where an ``InjectionStorage`` keeps its value: in the words after its
/// state and lock, at the value's alignment. The wrapper's inlinable getter
/// and the storage both find it here.
@usableFromInline
enum KeptValue {
    /// The state of a value being written by the thread that won the first access.
    static var writing: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: 1)! }

    /// The kept value's address, read from `state` with acquire ordering;
    /// nil while there is none, or it is being written.
    @inlinable @inline(__always)
    static func address(in state: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> UnsafeMutableRawPointer? {
        guard let address = patchbay_atomic_load_acquire(state), UInt(bitPattern: address) > 1 else { return nil }
        return address
    }

    /// Where a `Value` goes after the three words at `state`.
    static func address<Value>(
        after state: UnsafeMutablePointer<UnsafeMutableRawPointer?>, for _: Value.Type
    ) -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(state + 3).alignedUp(toMultipleOf: MemoryLayout<Value>.alignment)
    }

    /// The words to allocate for a `Value` after the three: its size, and room to align it.
    static func words<Value>(for _: Value.Type) -> Int {
        let bytes = MemoryLayout<Value>.size + max(MemoryLayout<Value>.alignment - 8, 0)
        return (bytes + 7) / 8
    }
}
