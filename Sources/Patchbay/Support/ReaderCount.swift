import CPatchbayAtomics

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
struct ReaderCount: @unchecked Sendable {
    private let word: UnsafeMutablePointer<Int>

    /// Allocates a count of zero. Call ``destroy()`` when the owner goes.
    init() {
        word = .allocate(capacity: 1)
        word.initialize(to: 0)
    }

    func destroy() { word.deallocate() }

    /// A reader starts.
    @inline(__always)
    func enter() { _ = patchbay_atomic_fetch_add(word, 2) }

    /// A reader is done; true when it was the last and retired values wait for it.
    @inline(__always)
    func leave() -> Bool { patchbay_atomic_fetch_add(word, -2) == 3 }

    /// A writer has just replaced a value (already unreachable to new
    /// readers): marks retired values as waiting. True when no reader is in,
    /// so the writer may release them at once and call ``cleared()``.
    func retire() -> Bool { patchbay_atomic_fetch_or(word, 1) < 2 }

    /// Whether no reader is in now.
    var isIdle: Bool { patchbay_atomic_fetch_add(word, 0) < 2 }

    /// Nothing waits any more (the retired values were released).
    func cleared() { _ = patchbay_atomic_fetch_and(word, ~1) }
}
