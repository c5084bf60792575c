import Foundation
import NotesKit
import Patchbay
import Testing

/// The example app: `FactoryCatalog.notes` with each manifest in `Manifests/`.
struct ExampleAppTests {
    static let manifestsFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Manifests", isDirectory: true)

    /// A fresh temporary folder for `${NOTES_DIR}`.
    private func notesDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("patchbay-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func folder(notes: URL) -> ManifestDirectory {
        ManifestDirectory(url: Self.manifestsFolder, loader: ManifestLoader(environment: ["NOTES_DIR": notes.path]))
    }

    private func container(_ environment: String, notes: URL) throws -> Container {
        try Container(catalog: .notes, manifests: folder(notes: notes), environment: environment)
    }

    @Test(arguments: ["development", "staging", "production", "test"])
    func everyEnvironmentActivatesAndWritesANote(environment: String) throws {
        let notes = try notesDirectory()
        defer { try? FileManager.default.removeItem(at: notes) }
        let container = try container(environment, notes: notes)
        #expect(container.manifest.environment == environment)
        #expect(container.binding(for: NoteService.self)?.factory == "note-service")
        let lines = try container.resolve(NoteService.self).write("hello", notify: "ada@example.com")
        #expect(lines.count == 3)
        #expect(lines.last == "the store now holds 1 note")
    }

    @Test func developmentAndProductionPickDifferentImplementations() throws {
        let notes = try notesDirectory()
        defer { try? FileManager.default.removeItem(at: notes) }
        let development = try container("development", notes: notes)
        let production = try container("production", notes: notes)

        #expect(development.binding(for: (any NoteStore).self)?.factory == "in-memory-store")
        #expect(production.binding(for: (any NoteStore).self)?.factory == "file-store")
        #expect(try development.resolve((any NoteStore).self) is InMemoryNoteStore)
        #expect(try production.resolve((any NoteStore).self) is FileNoteStore)

        #expect(development.binding(for: (any Mailer).self)?.factory == "outbox-mailer")
        #expect(production.binding(for: (any Mailer).self)?.factory == "smtp-mailer")
        #expect(development.binding(for: (any IDGenerator).self)?.factory == "sequential-ids")
        #expect(production.binding(for: (any IDGenerator).self)?.factory == "uuid-ids")
        // Inherited from base.json.
        #expect(development.binding(for: (any Clock).self)?.factory == "system-clock")
        #expect(production.binding(for: (any Clock).self)?.factory == "system-clock")
        // The secondary injector holds the other choice.
        #expect(development.binding(for: (any NoteStore).self, from: .secondary)?.factory == "file-store")
        #expect(production.binding(for: (any NoteStore).self, from: .secondary)?.factory == "in-memory-store")
    }

    @Test func stagingWrapsItsFileStoreInTheTimingDecorator() throws {
        let notes = try notesDirectory()
        defer { try? FileManager.default.removeItem(at: notes) }
        let staging = try container("staging", notes: notes)
        // The binding is still the file store's; what callers get is the chain's last link.
        #expect(staging.binding(for: (any NoteStore).self)?.factory == "file-store")
        let store = try #require(try staging.resolve((any NoteStore).self) as? TimingNoteStore)
        #expect(store.inner is FileNoteStore)
        #expect(store.threshold == .milliseconds(20))
        // A singleton's chain is made once, and the service is given it.
        #expect(try staging.resolve((any NoteStore).self) === store)
        _ = try staging.resolve(NoteService.self).write("timed", notify: "ada@example.com")
        #expect(try store.inner.all().map(\.text) == ["timed"])
        // Only staging's binding is decorated.
        #expect(try staging.resolve((any NoteStore).self, from: .secondary) is InMemoryNoteStore)
        #expect(try container("production", notes: notes).resolve((any NoteStore).self) is FileNoteStore)
    }

    @Test func productionWritesIntoTheInterpolatedFolder() throws {
        let notes = try notesDirectory()
        defer { try? FileManager.default.removeItem(at: notes) }
        let production = try container("production", notes: notes)
        _ = try production.resolve(NoteService.self).write("kept on disk", notify: "ada@example.com")
        let file = notes.appendingPathComponent("production.json")
        #expect(FileManager.default.fileExists(atPath: file.path), "${NOTES_DIR} points into the temporary folder")
        let saved = try production.resolve((any NoteStore).self).all()
        #expect(saved.map(\.text) == ["kept on disk"])

        // The development manifest's secondary store writes there too.
        let development = try container("development", notes: notes)
        let secondaryStore = try development.resolve((any NoteStore).self, from: .secondary)
        #expect(secondaryStore is FileNoteStore)
        // Note has no public initializer; it is Codable.
        let note = try JSONDecoder().decode(Note.self, from: Data(#"{"id":"n","text":"secondary","created":0}"#.utf8))
        try secondaryStore.save(note)
        #expect(FileManager.default.fileExists(atPath: notes.appendingPathComponent("development.json").path))
    }

    @Test func noteServiceWritesWithTheTestEnvironment() throws {
        let notes = try notesDirectory()
        defer { try? FileManager.default.removeItem(at: notes) }
        let container = try container("test", notes: notes)
        let service = try container.resolve(NoteService.self)
        let lines = try service.write("first", notify: "ada@example.com")
        #expect(lines == [
            "wrote test-1 at 2026-01-01T09:00:00Z: \"first\"",
            "kept 'New note test-1' for ada@example.com in the outbox",
            "the store now holds 1 note",
        ])
        let second = try service.write("second", notify: "bob@example.com")
        #expect(second.first?.hasPrefix("wrote test-2 at 2026-01-01T09:00:00Z") == true)
        #expect(second.last == "the store now holds 2 notes")

        let outbox = try #require(try container.resolve((any Mailer).self) as? OutboxMailer)
        #expect(outbox.outbox == ["ada@example.com: New note test-1", "bob@example.com: New note test-2"])
        #expect(try container.resolve((any NoteStore).self).all().map(\.text) == ["first", "second"])

        // The test manifest's custom injector.
        let fixtureClock = try container.resolve((any Clock).self, from: "fixtures")
        #expect(fixtureClock.now() == ISO8601DateFormatter().date(from: "2000-01-01T00:00:00Z"))
        PatchbaySystem.withContainer(container) {
            @Injected(from: "fixtures") var clock: any Clock
            #expect(clock.now() == fixtureClock.now())
        }
    }

    @Test func overridingTheClockOfTheTestEnvironment() throws {
        let notes = try notesDirectory()
        defer { try? FileManager.default.removeItem(at: notes) }
        let container = try container("test", notes: notes)
        let epoch = FixedClock(date: Date(timeIntervalSince1970: 0))
        // NoteService is a singleton in base.json, so resolve it only inside
        // the override (see OverrideTests for singletons made outside).
        let lines = try container.withOverrides({ $0.override((any Clock).self, with: epoch) }) {
            try container.resolve(NoteService.self).write("then", notify: "ada@example.com")
        }
        #expect(lines.first == "wrote test-1 at 1970-01-01T00:00:00Z: \"then\"")
    }

    @Test func anUnknownEnvironmentListsTheOnesFound() throws {
        let notes = try notesDirectory()
        defer { try? FileManager.default.removeItem(at: notes) }
        let error = try #require(throws: ManifestError.self) { try container("qa", notes: notes) }
        #expect(error.diagnostics.first?.code == .unknownEnvironment)
        #expect(error.description.contains("development") && error.description.contains("production"))
    }
}
