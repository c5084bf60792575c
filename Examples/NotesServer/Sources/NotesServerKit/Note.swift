import Foundation

/// A note: what the API stores and returns.
public struct Note: Codable, Sendable, Equatable {
    /// Its identifier, from the ``NoteIDGenerator`` in force.
    public var id: String
    /// What it says.
    public var text: String
    /// When it was created, by the ``NoteClock`` in force.
    public var createdAt: Date

    /// Creates a note.
    public init(id: String, text: String, createdAt: Date) {
        self.id = id
        self.text = text
        self.createdAt = createdAt
    }
}

/// The body of `POST /notes`.
public struct NewNote: Codable, Sendable {
    /// What the note says.
    public var text: String

    /// Creates a request body.
    public init(text: String) { self.text = text }
}
