import Logging

/// A ``NoteStore`` around another that times every call and logs, at
/// warning, each one slower than a threshold: production's `timing-store`
/// decorator, so a slow database shows in the logs with the operation and
/// how long it took, while callers see the store it wraps.
///
///     { "protocol": "NoteStore", "factory": "postgres-store", "parameters": { ... },
///       "decorators": [{ "decorator": "timing-store", "parameters": { "slowerThanMilliseconds": 50 } }] }
///
/// It is a plain `NoteStore`, not a `Service`, a `StartupCheck` or an
/// `AsyncShutdown`: the container finds those on the store it wraps
/// (`madeSingletons(as:)` lists every link of a chain), so wrapping the
/// PostgreSQL store neither hides its pool nor runs it twice.
public struct TimingNoteStore: NoteStore {
    /// The decorator's parameters.
    public struct Options: Decodable, Sendable {
        /// A call that takes longer than this many milliseconds is logged; 0 logs every call.
        public var slowerThanMilliseconds: Int

        /// Options that log calls slower than `slowerThanMilliseconds`.
        public init(slowerThanMilliseconds: Int) { self.slowerThanMilliseconds = slowerThanMilliseconds }
    }

    /// The store it times.
    public let inner: any NoteStore
    /// How long a call may take before it is logged.
    public let threshold: Duration
    private let logger: Logger
    private let clock: any Clock<Duration>

    /// Times `inner`'s calls with `clock` (a monotonic clock unless a test
    /// gives another) and logs the slow ones to `logger`.
    public init(_ inner: any NoteStore, options: Options, logger: Logger, clock: any Clock<Duration> = ContinuousClock()) {
        self.inner = inner
        threshold = .milliseconds(options.slowerThanMilliseconds)
        self.logger = logger
        self.clock = clock
    }

    public var kind: String { inner.kind }

    public func save(_ note: Note) async throws {
        try await timed("save") { try await inner.save(note) }
    }

    public func note(id: String) async throws -> Note? {
        try await timed("note(id:)") { try await inner.note(id: id) }
    }

    public func all() async throws -> [Note] {
        try await timed("all") { try await inner.all() }
    }

    /// Runs `call`, and logs it when it took longer than the threshold,
    /// whether it returned or threw (a timeout is the slow call most worth seeing).
    private func timed<T>(_ operation: String, _ call: () async throws -> T) async throws -> T {
        let (result, elapsed) = await Self.measure(clock, call)
        if elapsed > threshold {
            let milliseconds = Self.milliseconds(elapsed)
            var failed = false
            if case .failure = result { failed = true }
            logger.warning(
                "slow NoteStore call: \(operation) took \(milliseconds) ms (slower than \(Self.milliseconds(threshold)) ms)",
                metadata: [
                    "operation": "\(operation)", "milliseconds": "\(milliseconds)", "store": "\(inner.kind)",
                    "failed": "\(failed)",
                ])
        }
        return try result.get()
    }

    /// `call`'s outcome and how long it took by `clock` (opened from the
    /// existential, so its instants can be subtracted).
    private static func measure<C: Clock<Duration>, T>(
        _ clock: C, _ call: () async throws -> T
    ) async -> (Result<T, any Error>, Duration) {
        let start = clock.now
        let result: Result<T, any Error>
        do {
            result = .success(try await call())
        } catch {
            result = .failure(error)
        }
        return (result, start.duration(to: clock.now))
    }

    /// A duration in milliseconds, to a tenth: `73.4`.
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let tenths = seconds * 10_000 + attoseconds / 100_000_000_000_000
        return "\(tenths / 10).\(abs(tenths % 10))"
    }
}
