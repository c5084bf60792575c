import Foundation

/// Notes in memory: gone when the process ends. Development's and tests' store.
public final class InMemoryNoteStore: NoteStore, @unchecked Sendable {
    private let lock = NSLock()
    private var notes: [String: Note] = [:]
    private var order: [String] = []

    /// An empty store.
    public init() {}

    public var kind: String { "in-memory" }

    public func save(_ note: Note) async throws {
        lock.withLock {
            if notes.updateValue(note, forKey: note.id) == nil { order.append(note.id) }
        }
    }

    public func note(id: String) async throws -> Note? {
        lock.withLock { notes[id] }
    }

    public func all() async throws -> [Note] {
        lock.withLock { order.compactMap { notes[$0] } }
    }
}
