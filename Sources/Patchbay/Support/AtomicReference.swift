import CPatchbayAtomics

/// A strong reference that threads read without a lock: the one place
/// Patchbay's reference atomics live, over the C11 atomics of the
/// `CPatchbayAtomics` target (the `Synchronization` module needs iOS 18 /
/// macOS 15, and the standard library's own are not public).
///
/// The word holds the object's address, retained by this storage: an
/// acquiring load, an initialize-once compare-and-swap from nil, and an
/// exchange for replacing the value.
///
/// A load returns the object without retaining it. That is safe only while
/// something else keeps it alive, which is why each use below says what does:
/// a value set once is kept by this storage until it is destroyed; a replaced
/// value is compared by address only, never read, unless the reader holds its
/// own strong reference (see ``ThreadResolutionState``).
@usableFromInline
struct AtomicReference<Object: AnyObject>: @unchecked Sendable {
    /// The words, each the retained address of an object or nil.
    @usableFromInline let pointer: UnsafeMutablePointer<UnsafeMutableRawPointer?>

    /// Allocates storage holding `nil`; with a `count` over 1, that many
    /// references side by side in one allocation, this one the first and
    /// ``neighbour(_:)`` the others. Call ``destroy(count:)`` when the owner goes.
    init(count: Int = 1) {
        pointer = .allocate(capacity: count)
        pointer.initialize(repeating: nil, count: count)
    }

    @usableFromInline
    init(pointer: UnsafeMutablePointer<UnsafeMutableRawPointer?>) { self.pointer = pointer }

    /// The reference `index` places after this one, in storage made with a `count` above `index`.
    func neighbour(_ index: Int) -> AtomicReference { AtomicReference(pointer: pointer + index) }

    /// Releases the values and frees the storage; `count` as it was made.
    func destroy(count: Int = 1) {
        for index in 0..<count { neighbour(index).release() }
        pointer.deallocate()
    }

    /// Releases the value, for storage its owner frees (a word in its own allocation).
    func release() {
        if let address = pointer.pointee { Unmanaged<Object>.fromOpaque(address).release() }
    }

    /// The value, with acquire ordering, unretained.
    @inlinable @inline(__always)
    func load() -> Unmanaged<Object>? {
        // Not `Optional.map`: in code not specialized for `Object` (a `Lazy`'s
        // `get`), its closure would ask the runtime for `Unmanaged<Object>`'s
        // metadata on every read.
        guard let address = patchbay_atomic_load_acquire(pointer) else { return nil }
        return Unmanaged<Object>.fromOpaque(address)
    }

    /// Sets the value if it is still nil; returns the value in force after
    /// (this one, or the one another thread set first).
    @inline(__always)
    @discardableResult
    func initialize(_ object: Object) -> Object {
        let desired = Unmanaged.passRetained(object)
        var expected: UnsafeMutableRawPointer? = nil
        if patchbay_atomic_compare_exchange(pointer, &expected, desired.toOpaque()) { return object }
        desired.release()  // another thread set one first: that one is kept
        return Unmanaged<Object>.fromOpaque(expected!).takeUnretainedValue()
    }

    /// Replaces the value and returns the previous one (now owned by the caller).
    func exchange(_ object: Object?) -> Object? {
        let desired = object.map { Unmanaged.passRetained($0).toOpaque() }
        guard let previous = patchbay_atomic_exchange(pointer, desired) else { return nil }
        return Unmanaged<Object>.fromOpaque(previous).takeRetainedValue()
    }
}
