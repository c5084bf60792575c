// Production's timing decorator against a real PostgreSQL: the store behind
// it is checked, run and shut down through the chain, and slow calls are
// logged. In DatabaseServerTests' suite, so one at a time with the tests
// that count the database's connections.
import Foundation
import NotesServerKit
import Patchbay
import ServiceLifecycle
import Testing

extension DatabaseServerTests {
    @Test func theStoreBehindTheTimingDecoratorIsCheckedRunAndShutDown() async throws {
        let folder = ManifestDirectory(
            url: manifestsFolder, loader: ManifestLoader(environment: TestDatabase.productionEnvironment()))
        let container = try Container(catalog: .notesServer, manifests: folder, environment: "production")
        try container.makeSingletons()
        let store = try #require(try container.resolve((any NoteStore).self) as? TimingNoteStore)
        let before = try await TestDatabase.otherConnections()

        // As the server starts: every StartupCheck (the table is made), then every Service (the pool).
        let checks = container.madeSingletons(as: (any StartupCheck).self)
        #expect(checks.count == 1)
        for check in checks { try await check.instance.checkStartup() }
        let services = container.madeSingletons(as: (any Service).self).map(\.instance)
        #expect(services.count == 1)
        let running = Task { for service in services { try await service.run() } }

        // Through the decorator, to the running pool.
        let note = Note(id: "timed-\(UUID().uuidString)", text: "through the chain", createdAt: Date())
        try await store.save(note)
        #expect(try await store.note(id: note.id)?.text == note.text)
        #expect(try await TestDatabase.otherConnections() > before)

        // No service group here: the container's shutdown reaches the pool behind the decorator.
        try await container.shutdown()
        let stopped = await withTaskGroup(of: Bool.self) { group in
            group.addTask { _ = try? await running.value; return true }
            group.addTask { try? await Task.sleep(for: .seconds(10)); return false }
            let first = await group.next() ?? false
            running.cancel()  // ends a pool that shutdown missed, so that the group can finish
            group.cancelAll()
            return first
        }
        #expect(stopped, "the pool still ran 10 s after container.shutdown()")
        var after = try await TestDatabase.otherConnections()
        for _ in 0..<20 where after > before {
            try await Task.sleep(for: .milliseconds(100))
            after = try await TestDatabase.otherConnections()
        }
        #expect(after == before)
        #expect(try await TestDatabase.storedText(of: note.id) == note.text)
    }

    @Test func productionLogsSlowStoreCallsAsJSONLines() async throws {
        // A threshold of 0: every call is slower than it.
        let server = try ServerProcess(environment: TestDatabase.productionEnvironment(["NOTES_SLOW_STORE_MS": "0"]))
        try await server.waitUntilServing()
        let (created, body) = try await server.request("POST", "/notes", json: #"{"text":"slow"}"#)
        #expect(created == 201, "\(String(decoding: body, as: UTF8.self)) \(server.standardError)")
        let note = try decoder.decode(Note.self, from: body)
        _ = try await server.request("GET", "/notes/\(note.id)")
        #expect(try await server.terminate() == 0, "\(server.standardError)")
        let warnings = try server.standardOutput.split(separator: "\n").compactMap { line in
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }.filter { ($0["message"] as? String)?.hasPrefix("slow NoteStore call") == true }
        #expect(warnings.map { $0["level"] as? String } == ["warning", "warning"], "\(server.standardOutput)")
        let operations = warnings.map { ($0["metadata"] as? [String: String])?["operation"] }
        #expect(operations == ["save", "note(id:)"], "\(server.standardOutput)")
        #expect(warnings.allSatisfy { ($0["metadata"] as? [String: String])?["store"] == "postgres" })
    }

    @Test func productionDoesNotLogCallsWithinTheThreshold() async throws {
        let server = try ServerProcess(environment: TestDatabase.productionEnvironment(["NOTES_SLOW_STORE_MS": "60000"]))
        try await server.waitUntilServing()
        _ = try await server.request("POST", "/notes", json: #"{"text":"fast enough"}"#)
        #expect(try await server.terminate() == 0, "\(server.standardError)")
        #expect(!server.standardOutput.contains("slow NoteStore call"), "\(server.standardOutput)")
        #expect(server.standardOutput.contains("saved note"))
    }
}
