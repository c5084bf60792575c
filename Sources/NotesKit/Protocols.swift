import Foundation

/// A note kept by the example app.
public struct Note: Sendable, Hashable, Codable {
    /// The note's identifier.
    public var id: String
    /// The text.
    public var text: String
    /// When it was written.
    public var created: Date
}

/// Keeps notes.
public protocol NoteStore: AnyObject, Sendable {
    /// Saves a note.
    func save(_ note: Note) throws
    /// Every note, oldest first.
    func all() throws -> [Note]
}

/// Tells the time.
public protocol Clock: Sendable {
    /// The current time.
    func now() -> Date
}

/// Writes log lines.
public protocol Logger: Sendable {
    /// Logs one message.
    func log(_ message: String)
}

/// Sends mail.
public protocol Mailer: Sendable {
    /// Sends a message; returns a line that says what happened.
    func send(to: String, subject: String) -> String
}

/// Makes identifiers.
public protocol IDGenerator: Sendable {
    /// A new identifier.
    func next() -> String
}
