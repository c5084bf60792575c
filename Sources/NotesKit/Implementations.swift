import Foundation

/// Keeps notes in memory.
public final class InMemoryNoteStore: NoteStore, @unchecked Sendable {
    private let lock = NSLock()
    private var notes: [Note] = []
    /// Creates an empty store.
    public init() {}
    /// Saves a note.
    public func save(_ note: Note) { lock.withLock { notes.append(note) } }
    /// Every note.
    public func all() -> [Note] { lock.withLock { notes } }
}

/// Keeps notes in a JSON file.
public final class FileNoteStore: NoteStore, @unchecked Sendable {
    /// The store's parameters from the manifest.
    public struct Options: Decodable, Sendable {
        /// Where the file lives.
        public var path: String
    }
    private let url: URL
    private let lock = NSLock()
    /// Creates a store writing to `options.path`.
    public init(options: Options) { url = URL(fileURLWithPath: options.path) }
    /// Saves a note.
    public func save(_ note: Note) throws {
        try lock.withLock {
            var notes = (try? load()) ?? []
            notes.append(note)
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try encoder.encode(notes).write(to: url)
        }
    }
    /// Every note.
    public func all() throws -> [Note] { try lock.withLock { try load() } }
    private func load() throws -> [Note] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode([Note].self, from: Data(contentsOf: url))
    }
}

/// The system clock.
public struct SystemClock: Clock {
    /// Creates the clock.
    public init() {}
    /// Now.
    public func now() -> Date { Date() }
}

/// A clock stopped at one moment, for tests and demos.
public struct FixedClock: Clock {
    /// The clock's parameters from the manifest.
    ///
    /// The date is parsed here, in `init(from:)`, not in the factory: a bad
    /// one is then `invalid-parameters` at its line and column when the
    /// manifest is activated (and in the live check), not a failure when the
    /// clock is first resolved.
    public struct Options: Decodable, Sendable {
        /// The moment, in ISO 8601: `2026-01-01T00:00:00Z`.
        public var iso8601: String
        /// The moment, parsed.
        public var date: Date

        private enum CodingKeys: String, CodingKey { case iso8601 }

        /// Reads and parses the moment.
        /// - Throws: `DecodingError.dataCorrupted` at `iso8601` when it is not an ISO 8601 date.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            iso8601 = try container.decode(String.self, forKey: .iso8601)
            guard let date = ISO8601DateFormatter().date(from: iso8601) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .iso8601, in: container, debugDescription: FixedClockError(text: iso8601).description)
            }
            self.date = date
        }
    }
    /// The moment.
    public let date: Date
    /// A clock stopped at `date`.
    public init(date: Date) { self.date = date }
    /// A clock stopped at the moment the options name.
    public init(options: Options) { date = options.date }
    /// The fixed moment.
    public func now() -> Date { date }
}

/// A `fixed-clock` parameter that is not an ISO 8601 date.
public struct FixedClockError: Error, CustomStringConvertible {
    /// The text given.
    public let text: String
    /// What went wrong.
    public var description: String { "'\(text)' is not an ISO 8601 date such as 2026-01-01T00:00:00Z" }
}

/// Logs plain lines to standard output.
public struct ConsoleLogger: Logger {
    /// The logger's parameters from the manifest.
    public struct Options: Decodable, Sendable {
        /// A prefix for every line.
        public var prefix: String?
    }
    private let prefix: String
    /// Creates a logger.
    public init(options: Options) { prefix = options.prefix ?? "[notes]" }
    /// Logs a line.
    public func log(_ message: String) { print("\(prefix) \(message)") }
}

/// Logs one JSON object per line, for log collectors.
public struct JSONLogger: Logger {
    /// Creates a logger.
    public init() {}
    /// Logs a line.
    public func log(_ message: String) {
        let escaped = message.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        print("{\"level\":\"info\",\"message\":\"\(escaped)\"}")
    }
}

/// Sends mail through an SMTP relay (in this example, it only says what it would send).
public struct SMTPMailer: Mailer {
    /// The relay's parameters from the manifest.
    public struct Options: Decodable, Sendable {
        /// The relay host.
        public var host: String
        /// The relay port.
        public var port: Int
    }
    private let options: Options
    private let logger: any Logger
    /// Creates a mailer for the relay.
    public init(options: Options, logger: any Logger) {
        self.options = options
        self.logger = logger
    }
    /// Sends (here: describes) a message.
    public func send(to recipient: String, subject: String) -> String {
        logger.log("smtp \(options.host):\(options.port) <- \(recipient)")
        return "sent '\(subject)' to \(recipient) via smtp://\(options.host):\(options.port)"
    }
}

/// Keeps mail in an outbox instead of sending it.
public final class OutboxMailer: Mailer, @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []
    /// Creates an empty outbox.
    public init() {}
    /// Puts the message in the outbox.
    public func send(to recipient: String, subject: String) -> String {
        lock.withLock { messages.append("\(recipient): \(subject)") }
        return "kept '\(subject)' for \(recipient) in the outbox"
    }
    /// What was "sent".
    public var outbox: [String] { lock.withLock { messages } }
}

/// Random UUIDs.
public struct UUIDGenerator: IDGenerator {
    /// Creates the generator.
    public init() {}
    /// A new UUID.
    public func next() -> String { UUID().uuidString.lowercased() }
}

/// Numbers counting up, for readable demos and tests.
public final class SequentialIDGenerator: IDGenerator, @unchecked Sendable {
    /// The generator's parameters from the manifest.
    public struct Options: Decodable, Sendable {
        /// A prefix; `note-` by default.
        public var prefix: String?
    }
    private let lock = NSLock()
    private var counter = 0
    private let prefix: String
    /// Creates a generator.
    public init(options: Options) { prefix = options.prefix ?? "note-" }
    /// The next number.
    public func next() -> String {
        lock.withLock {
            counter += 1
            return "\(prefix)\(counter)"
        }
    }
}
