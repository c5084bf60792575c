// A factory's product on its way to the caller: in memory for the bound
// type, or in a box (`Instance<Value>`) a lifetime keeps. One of the four
// files of the engine allowed unsafe code (with `ThreadResolutionState.swift`,
// `TypeTable.swift` and `ResolutionContext.swift`).
//
// What it guarantees: `ProductMemory` is only ever made by the engine for
// uninitialized memory sized and aligned for the requested type, initialized
// once (by a registration's `buildInto`, a box's `copyValue`) and moved out
// once by the code that made it; a box handed to `Instance.value(in:)` or
// `AnyInstance.of(_:)` is an `Instance` of that type (a binding's product
// boxes are made by its registration, converted by its `ProvidedType`).
// Why it cannot be safe Swift: the engine runs unspecialized for the
// requested type, and a generic `T` there (a `T?`, a temporary) makes the
// runtime look up metadata on every request; a typed memory slot and an
// unchecked downcast are what make a transient cost a call, not a search.

/// Uninitialized memory for one product of the requested type, which a
/// factory initializes and the engine's caller moves out: the engine passes
/// it down without knowing the type (see ``ResolutionContext``).
@safe @usableFromInline
struct ProductMemory {
    @usableFromInline let address: UnsafeMutableRawPointer

    @usableFromInline @inline(__always)
    init(_ address: UnsafeMutableRawPointer) { unsafe self.address = address }

    /// Writes the product; the memory is for a `T` and not yet initialized.
    @inlinable @inline(__always)
    func initialize<T>(to value: consuming T) {
        unsafe address.assumingMemoryBound(to: T.self).initialize(to: value)
    }

    /// Moves the product out; the memory holds a `T`, and is uninitialized after.
    @inlinable @inline(__always)
    func move<T>(as _: T.Type = T.self) -> T {
        unsafe address.assumingMemoryBound(to: T.self).move()
    }

    /// Runs `body` with memory for a `T` on the heap, and returns what it
    /// wrote there when it returns true (nil, having written nothing, when
    /// false): for the requests the thread's scratch memory cannot serve (a
    /// very deep path, an over-aligned type) and for boxing.
    static func withHeap<T>(for _: T.Type, _ body: (ProductMemory) throws -> Bool) rethrows -> T? {
        let memory = UnsafeMutablePointer<T>.allocate(capacity: 1)
        defer { unsafe memory.deallocate() }
        guard unsafe try body(ProductMemory(UnsafeMutableRawPointer(memory))) else { return nil }
        return unsafe memory.move()
    }
}

/// Memory is claimed, written and moved out on one thread (a main-actor
/// decorator writes it inside `MainActor.assumeIsolated`, on the thread that
/// claimed it), as a ``FactoryCall`` is used: handing it to that closure
/// crosses no thread.
extension ProductMemory: @unchecked Sendable {}

extension ProductMemory {
    /// An array of `count` products, each made by `make` (given its place)
    /// straight into the array's memory: no temporary, no append.
    static func array<T>(of _: T.Type, count: Int, _ make: (Int, ProductMemory) throws -> Void) rethrows -> [T] {
        try unsafe [T](unsafeUninitializedCapacity: count) { buffer, made in
            guard let base = buffer.baseAddress else { return }
            while made < count {
                try make(made, unsafe ProductMemory(UnsafeMutableRawPointer(base + made)))
                made += 1
            }
        }
    }
}

/// A value of type `T` in a class box, so the container can store instances
/// of any type as `AnyObject` and get them back as `T` with a cheap class
/// downcast instead of an existential cast (which, for a protocol type, makes
/// the runtime search its conformance records). Sendable as the container
/// hands it between threads; the value's own sendability is the app's (the
/// catalog's registrations are the app's promise, as Swinject's are).
@usableFromInline
final class Instance<Value>: AnyInstance, @unchecked Sendable {
    @usableFromInline let value: Value
    @usableFromInline init(_ value: Value) { self.value = value }

    override func copyValue(into memory: ProductMemory) { memory.initialize(to: value) }

    override var anyValue: Any { value }

    /// The value of `box`, which is an `Instance<Value>`: no dynamic check.
    @inlinable @inline(__always)
    static func value(in box: AnyObject) -> Value { unsafe unsafeDowncast(box, to: Instance.self).value }
}

/// A box of some `Instance<Value>`, seen without its type: the engine works
/// on memory for the requested type, and a box copies its value there through
/// its own class (one indirect call), where code generic over the value's
/// type, not specialized for it, would ask the runtime for `Instance<Value>`'s
/// metadata on every request.
@usableFromInline
class AnyInstance: @unchecked Sendable {
    /// Copies the value into uninitialized memory for the value's type.
    func copyValue(into memory: ProductMemory) {
        fatalError("Patchbay: AnyInstance is the base of Instance<Value> only")
    }

    /// The value, for a cast to a type the box does not know (``Container/madeSingletons(as:)``): slow, rare.
    var anyValue: Any { fatalError("Patchbay: AnyInstance is the base of Instance<Value> only") }

    /// `box`, which is an `Instance`: no dynamic check.
    @inline(__always)
    static func of(_ box: AnyObject) -> AnyInstance { unsafe unsafeDowncast(box, to: AnyInstance.self) }
}

extension AtomicReference {
    /// The object published in this word, or nil: an acquiring load, kept
    /// alive by the word (so by whoever owns it) while the caller uses it.
    @inlinable @inline(__always)
    var publishedObject: Object? { unsafe load()?.takeUnretainedValue() }
}
