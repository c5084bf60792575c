/// A store around another that logs each call slower than a threshold: the
/// `timing-store` decorator, which `Manifests/staging.json` puts around its
/// file store, so a slow disk shows in staging's logs while the code that
/// saves notes sees only a `NoteStore`.
///
///     "decorators": [{ "decorator": "timing-store", "parameters": { "slowerThanMilliseconds": 20 } }]
public final class TimingNoteStore: NoteStore {
    /// The decorator's parameters from the manifest.
    public struct Options: Decodable, Sendable {
        /// A call that takes longer than this many milliseconds is logged; 0 logs every call.
        public var slowerThanMilliseconds: Int
    }

    /// The store it times.
    public let inner: any NoteStore
    /// How long a call may take before it is logged.
    public let threshold: Duration
    private let logger: any Logger

    /// Times `inner`'s calls and logs the slow ones to `logger`.
    public init(_ inner: any NoteStore, options: Options, logger: any Logger) {
        self.inner = inner
        threshold = .milliseconds(options.slowerThanMilliseconds)
        self.logger = logger
    }

    /// Saves a note in the store it wraps.
    public func save(_ note: Note) throws { try timed("save") { try inner.save(note) } }

    /// Every note in the store it wraps.
    public func all() throws -> [Note] { try timed("all") { try inner.all() } }

    /// Runs `call` and logs it when it took longer than the threshold, returned or thrown.
    private func timed<T>(_ operation: String, _ call: () throws -> T) rethrows -> T {
        let clock = ContinuousClock()
        let start = clock.now
        defer {
            let elapsed = start.duration(to: clock.now)
            if elapsed > threshold {
                let microseconds = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
                logger.log("slow NoteStore.\(operation): \(microseconds / 1_000).\(microseconds % 1_000 / 100) ms")
            }
        }
        return try call()
    }
}
