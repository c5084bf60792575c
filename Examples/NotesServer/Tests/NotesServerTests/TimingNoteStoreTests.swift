// The timing decorator on its own: which calls it logs, at what level, with
// what, timed by a clock that makes every call take a known time.
import Foundation
import Logging
import NotesServerKit
import Testing

@Suite struct TimingNoteStoreTests {
    let note = Note(id: "n-1", text: "timed", createdAt: Date(timeIntervalSince1970: 0))

    @Test func aCallSlowerThanTheThresholdIsLoggedAtWarningWithItsOperationAndDuration() async throws {
        let (logger, entries) = RecordingLogHandler.logger()
        let store = TimingNoteStore(
            InMemoryNoteStore(), options: .init(slowerThanMilliseconds: 50), logger: logger,
            clock: SteppingClock(step: .milliseconds(73)))
        try await store.save(note)
        #expect(try await store.note(id: "n-1") == note)
        let logged = entries.all
        #expect(logged.map(\.level) == [.warning, .warning])
        #expect(logged.map { $0.metadata["operation"] } == ["save", "note(id:)"])
        #expect(logged.first?.message == "slow NoteStore call: save took 73.0 ms (slower than 50.0 ms)")
        #expect(logged.first?.metadata["milliseconds"] == "73.0")
        #expect(logged.first?.metadata["store"] == "in-memory")
        #expect(logged.first?.metadata["failed"] == "false")
    }

    @Test func aCallWithinTheThresholdIsNotLogged() async throws {
        let (logger, entries) = RecordingLogHandler.logger()
        let store = TimingNoteStore(
            InMemoryNoteStore(), options: .init(slowerThanMilliseconds: 50), logger: logger,
            clock: SteppingClock(step: .milliseconds(50)))
        try await store.save(note)
        #expect(try await store.all() == [note])
        #expect(entries.all.isEmpty)
    }

    @Test func aSlowCallThatThrowsIsLoggedAndItsErrorReachesTheCaller() async throws {
        struct Refused: Error {}
        struct FailingStore: NoteStore {
            var kind: String { "failing" }
            func save(_ note: Note) async throws { throw Refused() }
            func note(id: String) async throws -> Note? { throw Refused() }
            func all() async throws -> [Note] { throw Refused() }
        }
        let (logger, entries) = RecordingLogHandler.logger()
        let store = TimingNoteStore(
            FailingStore(), options: .init(slowerThanMilliseconds: 0), logger: logger,
            clock: SteppingClock(step: .microseconds(1_500)))
        await #expect(throws: Refused.self) { try await store.all() }
        #expect(entries.all.map { $0.metadata["operation"] } == ["all"])
        #expect(entries.all.first?.metadata["failed"] == "true")
        #expect(entries.all.first?.metadata["milliseconds"] == "1.5")
    }

    @Test func theStoreItWrapsIsWhatCallersSee() async throws {
        let (logger, _) = RecordingLogHandler.logger()
        let inner = InMemoryNoteStore()
        let store = TimingNoteStore(inner, options: .init(slowerThanMilliseconds: 50), logger: logger)
        try await store.save(note)
        #expect(store.kind == "in-memory")
        #expect(try await inner.all() == [note])
        #expect(store.threshold == .milliseconds(50))
    }
}
