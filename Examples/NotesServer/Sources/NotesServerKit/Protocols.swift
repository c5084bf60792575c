import Foundation

/// Where notes are kept. The manifest chooses: `in-memory-store` or `postgres-store`.
public protocol NoteStore: Sendable {
    /// What kind of store it is, for `GET /health`: `in-memory`, `postgres`.
    var kind: String { get }
    /// Keeps `note`.
    func save(_ note: Note) async throws
    /// The note with `id`, if kept.
    func note(id: String) async throws -> Note?
    /// Every note, oldest first.
    func all() async throws -> [Note]
}

/// Tells the time of a new note: `system-clock`, or `fixed-clock` in tests.
public protocol NoteClock: Sendable {
    /// Now.
    func now() -> Date
}

/// Names new notes: `uuid-ids`, or `sequential-ids` in tests.
public protocol NoteIDGenerator: Sendable {
    /// A new identifier.
    func next() -> String
}

/// A made singleton with something to check before the server takes
/// requests, such as a database that must accept the credentials. The
/// server runs every one at start and stops, naming the binding, if any fails.
public protocol StartupCheck: Sendable {
    /// Throws what stops the start.
    func checkStartup() async throws
}
