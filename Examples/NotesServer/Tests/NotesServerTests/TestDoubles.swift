// What the decorator tests measure with and log to: a clock whose every
// reading is a fixed step after the last, and a swift-log handler that keeps
// what it is given.
import Foundation
import Logging

/// A clock that moves `step` forward each time it is read: a call timed
/// with two readings takes exactly `step`, however fast the machine is.
final class SteppingClock: Clock, @unchecked Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (left: Instant, right: Instant) -> Bool { left.offset < right.offset }
    }

    let step: Duration
    // Guards `last`: a clock may be read from any task.
    private let lock = NSLock()
    private var last = Instant(offset: .zero)

    init(step: Duration) { self.step = step }

    var now: Instant {
        lock.withLock {
            last = last.advanced(by: step)
            return last
        }
    }

    var minimumResolution: Duration { .nanoseconds(1) }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {}
}

/// A swift-log handler that keeps every entry, for a test to read.
struct RecordingLogHandler: LogHandler {
    /// One logged entry.
    struct Entry: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }

    /// Where the entries go, shared by the handler's copies (a `Logger` copies its handler).
    final class Entries: @unchecked Sendable {
        private let lock = NSLock()
        private var kept: [Entry] = []
        var all: [Entry] { lock.withLock { kept } }
        func append(_ entry: Entry) { lock.withLock { kept.append(entry) } }
    }

    let entries: Entries
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let own = event.metadata { merged.merge(own) { _, new in new } }
        entries.append(Entry(level: event.level, message: event.message.description, metadata: merged.mapValues(\.description)))
    }

    /// A logger whose entries land in a new `Entries`.
    static func logger() -> (Logger, Entries) {
        let entries = Entries()
        return (Logger(label: "notes-server-tests") { _ in RecordingLogHandler(entries: entries) }, entries)
    }
}
