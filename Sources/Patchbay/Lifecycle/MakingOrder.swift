/// The order in which instances are made, process-wide: each making takes
/// the next number. An instance's dependencies are made inside its factory's
/// call, so before it: they get smaller numbers, and going down the numbers
/// stops what depends on a thing before the thing itself
/// (``Container/shutdown()``).
enum MakingOrder {
    /// The last number given.
    private static let last = AtomicCounter()

    /// The next number, unique in the process and above 0; safe from any thread.
    static func next() -> UInt64 { UInt64(last.add(1) + 1) }
}
