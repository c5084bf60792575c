#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPatchbayAtomics

// UNSAFE CODE, ACKNOWLEDGED (one of the few files allowed it; ARCHITECTURE.md lists them).
//
// Every atomic word Patchbay reads and writes without a lock lives here: a
// strong reference threads share (`AtomicReference`), a counter
// (`AtomicCounter`) and the readers of a replaceable value (`ReaderCount`).
//
// What it guarantees: each word sits in an `AtomicWords` object, so its
// address never moves and it is freed with the last value that uses it; the
// words are touched only through the C11 atomics of `CPatchbayAtomics`; the
// members marked `@safe` (`value`, `initialize`, `exchange`,
// `compareExchange`, the counters) keep every object they hand out retained,
// so code that calls only them cannot read freed memory: a retained load is
// counted as a reader, and a replacement waits for counted readers to finish
// their load-and-retain before it gives the old value up.
//
// Why it cannot be safe Swift: the `Synchronization` module's `Atomic` needs
// iOS 18 / macOS 15, the standard library's own atomics are not public, and
// a C atomic needs a stable address and an object's retained bits in a word
// (`Unmanaged`). The members marked `@unsafe` (an unretained `load()`, a word
// someone else owns, `neighbour`, `release`) are the hot path's;
// each caller says what keeps the object it loads alive.

/// Words with a stable address, freed with the last reference to them: the
/// header is a counter (readers, or a plain count), the elements retained object addresses.
@unsafe @usableFromInline
final class AtomicWords: ManagedBuffer<Int, UnsafeMutableRawPointer?> {
    /// Words of nil and a counter of 0 (at least `count` words).
    static func make(count: Int) -> AtomicWords {
        let words = unsafe create(minimumCapacity: count) { buffer in
            unsafe buffer.withUnsafeMutablePointerToElements { unsafe $0.initialize(repeating: nil, count: buffer.capacity) }
            return 0
        }
        return unsafe words as! AtomicWords  // `create` makes an instance of the class it is called on
    }

    /// For words someone else owns (`AtomicReference(pointer:)`): their readers are counted here.
    nonisolated(unsafe) static let shared = unsafe make(count: 0)

    /// The counter's address, which does not move while this object lives.
    var counter: UnsafeMutablePointer<Int> { unsafe withUnsafeMutablePointerToHeader { unsafe $0 } }
    /// The first word's address, which does not move while this object lives.
    var first: UnsafeMutablePointer<UnsafeMutableRawPointer?> { unsafe withUnsafeMutablePointerToElements { unsafe $0 } }

    deinit {
        for index in unsafe 0..<capacity {
            if let address = unsafe first[index] { unsafe Unmanaged<AnyObject>.fromOpaque(address).release() }
        }
    }
}

/// A strong reference that threads read and replace without a lock.
///
/// Safe to call from any file: ``value`` (a retained load), ``initialize(_:)``
/// (publish once), ``exchange(_:)`` and ``compareExchange(expected:desired:)``.
/// The rest is the hot path's, `@unsafe`: ``load()`` returns the object
/// unretained, which is safe only while something else keeps it alive (a
/// value set once is kept by this storage; a replaced one is compared by
/// address only, unless the reader holds its own strong reference).
@safe @usableFromInline
struct AtomicReference<Object: AnyObject>: @unchecked Sendable {
    /// The word: the retained address of an object, or nil.
    @usableFromInline let pointer: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    /// What keeps the word alive (nil for a word its owner frees), and the
    /// address of its reader count, kept apart so a load does not retain `words`.
    private let words: AtomicWords?, readerWord: UnsafeMutablePointer<Int>?
    /// How many ``value`` loads are between their load and their retain.
    private var readers: UnsafeMutablePointer<Int> { unsafe readerWord ?? AtomicWords.shared.counter }

    /// A reference holding nil; with a `count` over 1, that many side by side
    /// in one allocation, this one the first and ``neighbour(_:)`` the others.
    /// The words, and the objects they hold, are freed with the last copy of this value.
    init(count: Int = 1) {
        let words = unsafe AtomicWords.make(count: count)
        unsafe self.init(pointer: words.first, words: words)
    }

    /// A reference in a word its owner allocated, initialized and frees (after ``release()``), or in `words`.
    @unsafe @usableFromInline
    init(pointer: UnsafeMutablePointer<UnsafeMutableRawPointer?>, words: AtomicWords? = nil) {
        unsafe (self.pointer, self.words, readerWord) = (pointer, words, words?.counter)
    }

    /// The reference `index` places after this one, in storage made with a `count` above `index`.
    @unsafe func neighbour(_ index: Int) -> AtomicReference { unsafe AtomicReference(pointer: pointer + index, words: words) }

    /// The same, checked: this reference must be the first of the words it
    /// made with ``init(count:)``, and `index` below that count.
    @safe func sibling(_ index: Int) -> AtomicReference {
        guard let words = unsafe words, unsafe pointer == words.first, index >= 0, unsafe index < words.capacity else {
            preconditionFailure("Patchbay: sibling(\(index)) of a reference that did not make that many words")
        }
        return unsafe neighbour(index)
    }

    /// Releases the value without clearing the word, for a word its owner frees next.
    @unsafe func release() {
        if let address = unsafe pointer.pointee { unsafe Unmanaged<Object>.fromOpaque(address).release() }
    }

    /// The value, with acquire ordering, unretained.
    @unsafe @inlinable @inline(__always)
    func load() -> Unmanaged<Object>? {
        // Not `Optional.map`: in code not specialized for `Object` (a `Lazy`'s
        // `get`), its closure would ask the runtime for `Unmanaged<Object>`'s
        // metadata on every read.
        guard let address = unsafe patchbay_atomic_load_acquire(pointer) else { return nil }
        return unsafe Unmanaged<Object>.fromOpaque(address)
    }

    /// The value, retained: counted as a reader from before the load until
    /// after the retain, so no replacement can free it in between.
    @safe var value: Object? {
        _ = unsafe patchbay_atomic_fetch_add(readers, 1)
        let object = unsafe patchbay_atomic_load_acquire(pointer).map { unsafe Unmanaged<Object>.fromOpaque($0).retain() }
        _ = unsafe patchbay_atomic_fetch_add(readers, -1)
        return unsafe object?.takeRetainedValue()
    }

    /// Sets the value if it is still nil; returns the value in force after
    /// (this one, or the one another thread set first).
    @safe @inline(__always) @discardableResult
    func initialize(_ object: Object) -> Object {
        let desired = unsafe Unmanaged.passRetained(object)
        var expected: UnsafeMutableRawPointer? = nil
        if unsafe patchbay_atomic_compare_exchange(pointer, &expected, desired.toOpaque()) { return object }
        unsafe desired.release()  // another thread set one first: that one is kept
        return value ?? initialize(object)  // nil: replaced by nil since; try again
    }

    /// Replaces the value and returns the previous one (now owned by the
    /// caller), once no ``value`` load can still be retaining it.
    @safe @discardableResult
    func exchange(_ object: Object?) -> Object? {
        let desired = unsafe object.map { unsafe Unmanaged.passRetained($0).toOpaque() }
        guard let previous = unsafe patchbay_atomic_exchange(pointer, desired) else { return nil }
        waitForReaders()
        return unsafe Unmanaged<Object>.fromOpaque(previous).takeRetainedValue()
    }

    /// Replaces the value with `desired` if it is `expected` (the same
    /// object, or both nil); true when it did.
    @safe @discardableResult
    func compareExchange(expected: Object?, desired: Object?) -> Bool {
        var word = unsafe expected.map { unsafe Unmanaged.passUnretained($0).toOpaque() }
        let new = unsafe desired.map { unsafe Unmanaged.passRetained($0).toOpaque() }
        guard unsafe patchbay_atomic_compare_exchange(pointer, &word, new) else {
            if let new = unsafe new { unsafe Unmanaged<Object>.fromOpaque(new).release() }
            return false
        }
        guard let old = unsafe word else { return true }
        waitForReaders()
        unsafe Unmanaged<Object>.fromOpaque(old).release()  // the caller's `expected` still holds it
        return true
    }

    /// Waits while a ``value`` load may still be between its load and its
    /// retain: a few instructions, with nothing that blocks in between.
    private func waitForReaders() {
        while unsafe patchbay_atomic_fetch_add(readers, 0) != 0 { sched_yield() }
    }
}

/// An integer threads change without a lock, sequentially consistent.
@safe struct AtomicCounter: @unchecked Sendable {
    private let words = unsafe AtomicWords.make(count: 0), word: UnsafeMutablePointer<Int>

    init() { unsafe word = words.counter }

    /// Adds `delta`; returns the value before.
    @inline(__always) @discardableResult
    func add(_ delta: Int) -> Int { unsafe patchbay_atomic_fetch_add(word, delta) }

    /// Sets the bits of `mask`; returns the value before.
    @discardableResult
    func setBits(_ mask: Int) -> Int { unsafe patchbay_atomic_fetch_or(word, mask) }

    /// Clears the bits not in `mask`; returns the value before.
    @discardableResult
    func keepBits(_ mask: Int) -> Int { unsafe patchbay_atomic_fetch_and(word, mask) }
}

/// How many readers are inside a value that a writer may replace, and
/// whether replaced values wait for them to leave: one atomic word.
///
/// A reader of ``AtomicReference`` holds what it loads unretained; a writer
/// that replaces it must not release the old value while a reader that
/// loaded it is still reading. Readers ``enter()`` before the load and
/// ``leave()`` after; a writer that replaces a value while readers are in
/// ``retire()``s it and the last reader out releases it. Every operation is
/// sequentially consistent on one word, so a reader that enters after a
/// writer's ``retire()`` also sees the writer's replacement, never the old value.
///
/// The word is the number of readers times two, plus one while retired
/// values wait: a reader leaving sees `3` exactly when it is the last one
/// out and something waits for it, one comparison on the fast path.
struct ReaderCount: Sendable {
    private let word = AtomicCounter()

    /// A reader starts.
    @inline(__always)
    func enter() { word.add(2) }

    /// A reader is done; true when it was the last and retired values wait for it.
    @inline(__always)
    func leave() -> Bool { word.add(-2) == 3 }

    /// A writer has just replaced a value (already unreachable to new
    /// readers): marks retired values as waiting. True when no reader is in,
    /// so the writer may release them at once and call ``cleared()``.
    func retire() -> Bool { word.setBits(1) < 2 }

    /// Whether no reader is in now.
    var isIdle: Bool { word.add(0) < 2 }

    /// Nothing waits any more (the retired values were released).
    func cleared() { word.keepBits(~1) }
}
