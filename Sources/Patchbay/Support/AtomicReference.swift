/// A strong reference that threads read without a lock.
///
/// The `Synchronization` module's atomics need iOS 18 / macOS 15, so this uses
/// the standard library's underscored reference atomics, which are
/// `@_alwaysEmitIntoClient` / `@_transparent` and so back-deploy to every OS
/// Swift concurrency runs on: an acquiring load, an initialize-once
/// compare-and-swap from nil, and a sequentially consistent pointer
/// compare-and-swap for replacing a value.
///
/// A load returns the object without retaining it. That is safe only while
/// something else keeps it alive, which is why each use below says what does:
/// a value set once is kept by this storage until it is destroyed; a replaced
/// value is compared by address only, never read, unless the reader holds its
/// own strong reference (see ``ThreadResolutionState``).
@usableFromInline
struct AtomicReference<Object: AnyObject>: @unchecked Sendable {
    @usableFromInline let pointer: UnsafeMutablePointer<Object?>

    /// Allocates storage holding `nil`; with a `count` over 1, that many
    /// references side by side in one allocation, this one the first and
    /// ``neighbour(_:)`` the others. Call ``destroy(count:)`` when the owner goes.
    init(count: Int = 1) {
        pointer = .allocate(capacity: count)
        pointer.initialize(repeating: nil, count: count)
    }

    private init(pointer: UnsafeMutablePointer<Object?>) { self.pointer = pointer }

    /// The reference `index` places after this one, in storage made with a `count` above `index`.
    func neighbour(_ index: Int) -> AtomicReference { AtomicReference(pointer: pointer + index) }

    /// Releases the values and frees the storage; `count` as it was made.
    func destroy(count: Int = 1) {
        pointer.deinitialize(count: count)
        pointer.deallocate()
    }

    /// The value, with acquire ordering, unretained.
    @inlinable @inline(__always)
    func load() -> Unmanaged<Object>? {
        _stdlib_atomicAcquiringLoadARCRef(object: pointer)
    }

    /// Sets the value if it is still nil; returns the value in force after
    /// (this one, or the one another thread set first).
    @inline(__always)
    @discardableResult
    func initialize(_ object: Object) -> Object {
        _stdlib_atomicAcquiringInitializeARCRef(object: pointer, desired: object).takeUnretainedValue()
    }

    /// Replaces the value and returns the previous one (now owned by the caller).
    /// Callers serialize replacements themselves (under a lock); an
    /// ``initialize(_:)`` may race with one, so the first read is atomic too.
    func exchange(_ object: Object?) -> Object? {
        let raw = UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: Optional<UnsafeRawPointer>.self)
        let desired = object.map { UnsafeRawPointer(Unmanaged.passRetained($0).toOpaque()) }
        var expected = load().map { UnsafeRawPointer($0.toOpaque()) }
        while !_stdlib_atomicCompareExchangeStrongPtr(object: raw, expected: &expected, desired: desired) {}
        return expected.map { Unmanaged<Object>.fromOpaque($0).takeRetainedValue() }
    }
}
