import CPatchbayAtomics

/// The order in which instances are made, process-wide: each making takes
/// the next number. An instance's dependencies are made inside its factory's
/// call, so before it: they get smaller numbers, and going down the numbers
/// stops what depends on a thing before the thing itself
/// (``Container/shutdown()``).
enum MakingOrder {
    /// The last number given, in a word of its own that lives as long as the
    /// process: C atomics need a stable address, which a Swift global does not promise.
    nonisolated(unsafe) private static let last: UnsafeMutablePointer<Int> = {
        let word = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        word.initialize(to: 0)
        return word
    }()

    /// The next number, unique in the process and above 0; safe from any thread.
    static func next() -> UInt64 {
        UInt64(patchbay_atomic_fetch_add(last, 1) + 1)
    }
}
