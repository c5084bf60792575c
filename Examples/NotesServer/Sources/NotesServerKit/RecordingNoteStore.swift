import Foundation

/// A ``NoteStore`` around another that keeps every call made to it, in
/// order: the test environment's `recording-store` decorator. A test wires
/// the server from `test.json`, drives its routes, then reads what they
/// asked of the store from the container:
///
///     let recorder = try container.resolve((any NoteStore).self) as? RecordingNoteStore
///     #expect(recorder?.calls == [.save(note), .note(id: note.id)])
///
/// The binding is a singleton, so the chain is made once and every request
/// records into the one recorder the test reads.
public final class RecordingNoteStore: NoteStore, @unchecked Sendable {
    /// One call, with what it was given.
    public enum Call: Equatable, Sendable {
        /// `save(_:)` with this note.
        case save(Note)
        /// `note(id:)` with this identifier.
        case note(id: String)
        /// `all()`.
        case all
    }

    /// The store it records the calls to.
    public let inner: any NoteStore
    // Guards `recorded`: requests call the store from many tasks at once.
    private let lock = NSLock()
    private var recorded: [Call] = []

    /// A recorder of the calls to `inner`, with none recorded yet.
    public init(_ inner: any NoteStore) { self.inner = inner }

    /// Every call so far, in the order they were made (a failed call included).
    public var calls: [Call] { lock.withLock { recorded } }

    /// The store's kind: what it records is storage, not this description.
    public var kind: String { inner.kind }

    public func save(_ note: Note) async throws {
        record(.save(note))
        try await inner.save(note)
    }

    public func note(id: String) async throws -> Note? {
        record(.note(id: id))
        return try await inner.note(id: id)
    }

    public func all() async throws -> [Note] {
        record(.all)
        return try await inner.all()
    }

    private func record(_ call: Call) { lock.withLock { recorded.append(call) } }
}
