// The built server against a real PostgreSQL (see TestDatabase). One at a
// time: they count the database's connections.
import Foundation
import NotesServerKit
import Testing

@Suite(.serialized, .enabled(if: TestDatabase.isConfigured, TestDatabase.skipReason))
struct DatabaseServerTests {
    @Test func productionKeepsANoteAcrossARestartInTheDatabase() async throws {
        let server = try ServerProcess(environment: TestDatabase.productionEnvironment())
        try await server.waitUntilServing()
        let (_, health) = try await server.request("GET", "/health")
        #expect(String(decoding: health, as: UTF8.self).contains(#""store":"postgres""#))
        let text = "kept \(UUID().uuidString)"
        let (created, body) = try await server.request("POST", "/notes", json: #"{"text":"\#(text)"}"#)
        #expect(created == 201, "\(String(decoding: body, as: UTF8.self)) \(server.standardError)")
        let note = try decoder.decode(Note.self, from: body)
        #expect(try await server.terminate() == 0, "\(server.standardError)")
        #expect(try await TestDatabase.storedText(of: note.id) == text)

        let again = try ServerProcess(environment: TestDatabase.productionEnvironment())
        try await again.waitUntilServing()
        let (status, fetched) = try await again.request("GET", "/notes/\(note.id)")
        #expect(status == 200)
        let read = try decoder.decode(Note.self, from: fetched)
        #expect(read.id == note.id && read.text == text)
        #expect(abs(read.createdAt.timeIntervalSince(note.createdAt)) < 0.001)
        #expect(try await again.terminate() == 0, "\(again.standardError)")
    }

    @Test func productionLogsJSONLines() async throws {
        let server = try ServerProcess(environment: TestDatabase.productionEnvironment())
        try await server.waitUntilServing()
        _ = try await server.request("POST", "/notes", json: #"{"text":"logged"}"#)
        #expect(try await server.terminate() == 0)
        let lines = server.standardOutput.split(separator: "\n")
        #expect(!lines.isEmpty)
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["level"] != nil && object?["message"] != nil, "\(line)")
        }
        #expect(lines.contains { $0.contains(#""message":"saved note""#) })
    }

    @Test func sigtermExitsZeroAndLeavesNoConnectionOpen() async throws {
        let before = try await TestDatabase.otherConnections()
        let server = try ServerProcess(environment: TestDatabase.productionEnvironment())
        try await server.waitUntilServing()
        _ = try await server.request("POST", "/notes", json: #"{"text":"one"}"#)
        #expect(try await TestDatabase.otherConnections() > before)  // the pool holds one
        #expect(try await server.terminate() == 0, "\(server.standardError)")
        // The server closed its connections before it exited; the backend may take a moment to leave the view.
        var after = try await TestDatabase.otherConnections()
        for _ in 0..<20 where after > before {
            try await Task.sleep(for: .milliseconds(100))
            after = try await TestDatabase.otherConnections()
        }
        #expect(after == before)
    }

    @Test func developmentMakesNoConnection() async throws {
        let before = try await TestDatabase.otherConnections()
        // The database variables are set, as in a shared shell: development must not use them.
        let server = try ServerProcess(environment: TestDatabase.productionEnvironment(["PATCHBAY_ENV": "development"]))
        try await server.waitUntilServing()
        let (_, body) = try await server.request("POST", "/notes", json: #"{"text":"not in the database"}"#)
        let note = try decoder.decode(Note.self, from: body)
        #expect(try await TestDatabase.otherConnections() == before)
        #expect(try await server.terminate() == 0)
        #expect(try await TestDatabase.storedText(of: note.id) == nil)
    }

    @Test func aWrongPasswordStopsTheStartAtTheStoresBinding() async throws {
        let environment = TestDatabase.productionEnvironment(["NOTES_DB_PASSWORD": "not-the-password"])
        let (status, errors) = try await ServerProcess.runToEnd([], environment: environment)
        #expect(status == 1)
        let at = try place(of: "\"postgres-store\"", inManifest: "production.json")
        #expect(errors.contains("\(at): error: NoteStore (factory 'postgres-store') could not start: "), "\(errors)")
        #expect(errors.contains("password authentication failed"), "\(errors)")
        #expect(errors.contains("[start-up-failed]"), "\(errors)")
        #expect(!errors.contains("not-the-password"), "\(errors)")  // a secret is never printed
        #expect(!errors.contains("Fatal error"), "\(errors)")
    }
}
