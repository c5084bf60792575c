import Foundation

/// The example's one piece of business logic: write a note, tell someone.
public final class NoteService: Sendable {
    let store: any NoteStore
    let clock: any Clock
    let logger: any Logger
    let mailer: any Mailer
    let ids: any IDGenerator

    /// Creates the service from its dependencies (the catalog's `note-service` factory calls this).
    public init(store: any NoteStore, clock: any Clock, logger: any Logger, mailer: any Mailer, ids: any IDGenerator) {
        self.store = store
        self.clock = clock
        self.logger = logger
        self.mailer = mailer
        self.ids = ids
    }

    /// Writes a note and mails its author; returns what happened, line by line.
    public func write(_ text: String, notify recipient: String) throws -> [String] {
        let note = Note(id: ids.next(), text: text, created: clock.now())
        try store.save(note)
        logger.log("saved \(note.id)")
        let mail = mailer.send(to: recipient, subject: "New note \(note.id)")
        let count = try store.all().count
        return [
            "wrote \(note.id) at \(ISO8601DateFormatter().string(from: note.created)): \"\(note.text)\"",
            mail,
            "the store now holds \(count) note\(count == 1 ? "" : "s")",
        ]
    }
}
