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
///
/// `Synchronization.Atomic` needs iOS 18 / macOS 15. The standard library's
/// `_swift_stdlib_atomicFetchAddInt` is a call into the runtime on every
/// read of a `Lazy`; its pointer compare-and-swap is `@_transparent`, so it
/// compiles to one inline instruction. The word is kept as a pointer's bits
/// for it: an uncontended enter or leave guesses the word and succeeds at
/// the first try, and a wrong guess returns the word to try again with.
struct ReaderCount: @unchecked Sendable {
    private let word: UnsafeMutablePointer<UnsafeRawPointer?>

    /// Allocates a count of zero. Call ``destroy()`` when the owner goes.
    init() {
        word = .allocate(capacity: 1)
        word.initialize(to: nil)
    }

    func destroy() { word.deallocate() }

    /// Adds `delta` to the word and returns its value before.
    @inline(__always)
    private func add(_ delta: Int, guessing guess: Int) -> Int {
        var expected = UnsafeRawPointer(bitPattern: guess)
        while true {
            let before = Int(bitPattern: expected)
            if _stdlib_atomicCompareExchangeStrongPtr(
                object: word, expected: &expected, desired: UnsafeRawPointer(bitPattern: before &+ delta))
            {
                return before
            }
        }
    }

    /// A reader starts.
    @inline(__always)
    func enter() { _ = add(2, guessing: 0) }

    /// A reader is done; true when it was the last and retired values wait for it.
    @inline(__always)
    func leave() -> Bool { add(-2, guessing: 2) == 3 }

    /// A writer has just replaced a value (already unreachable to new
    /// readers): marks retired values as waiting. True when no reader is in,
    /// so the writer may release them at once and call ``cleared()``.
    func retire() -> Bool {
        var expected: UnsafeRawPointer? = nil
        while !_stdlib_atomicCompareExchangeStrongPtr(
            object: word, expected: &expected, desired: UnsafeRawPointer(bitPattern: Int(bitPattern: expected) | 1))
        {}
        return Int(bitPattern: expected) < 2
    }

    /// Whether no reader is in now.
    var isIdle: Bool { add(0, guessing: 0) < 2 }

    /// Nothing waits any more (the retired values were released).
    func cleared() {
        var expected: UnsafeRawPointer? = UnsafeRawPointer(bitPattern: 1)
        while !_stdlib_atomicCompareExchangeStrongPtr(
            object: word, expected: &expected, desired: UnsafeRawPointer(bitPattern: Int(bitPattern: expected) & ~1))
        {}
    }
}
