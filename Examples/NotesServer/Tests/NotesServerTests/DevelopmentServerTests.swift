// The built server in development and test: in memory, no database.
import Foundation
import NotesServerKit
import Testing

@Suite struct DevelopmentServerTests {
    @Test func servesNotesFromMemoryAndForgetsThemOnRestart() async throws {
        let environment = ["PATCHBAY_ENV": "development"]
        let server = try ServerProcess(environment: environment)
        try await server.waitUntilServing()
        let (healthStatus, health) = try await server.request("GET", "/health")
        #expect(healthStatus == 200)
        #expect(String(decoding: health, as: UTF8.self).contains(#""store":"in-memory""#))
        let (created, body) = try await server.request("POST", "/notes", json: #"{"text":"remember the milk"}"#)
        #expect(created == 201, "\(String(decoding: body, as: UTF8.self))")
        let note = try decoder.decode(Note.self, from: body)
        #expect(note.id == "dev-1")
        let (found, fetched) = try await server.request("GET", "/notes/\(note.id)")
        #expect(found == 200)
        #expect(try decoder.decode(Note.self, from: fetched) == note)
        let (_, list) = try await server.request("GET", "/notes")
        #expect(try decoder.decode([Note].self, from: list) == [note])
        #expect(try await server.terminate() == 0, "\(server.standardError)")

        let again = try ServerProcess(environment: environment)
        try await again.waitUntilServing()
        let (missing, _) = try await again.request("GET", "/notes/\(note.id)")
        #expect(missing == 404)
        #expect(try await again.terminate() == 0, "\(again.standardError)")
    }

    @Test func theTestEnvironmentIsFixedAndTheManifestsAreFoundFromAnyFolder() async throws {
        // The server's current folder is the test's; the default manifests folder is found from the source tree.
        let server = try ServerProcess(["--environment", "test"], environment: [:])
        try await server.waitUntilServing()
        let (_, body) = try await server.request("POST", "/notes", json: #"{"text":"fixed"}"#)
        let note = try decoder.decode(Note.self, from: body)
        #expect(note.id == "test-1")
        #expect(note.createdAt == ISO8601DateFormatter().date(from: "2026-01-01T09:00:00Z"))
        #expect(try await server.terminate() == 0)
    }

    @Test func aBodyThatIsNotANoteIsRefusedAndTheServerGoesOn() async throws {
        let server = try ServerProcess(environment: ["PATCHBAY_ENV": "development"])
        try await server.waitUntilServing()
        let (status, _) = try await server.request("POST", "/notes", json: #"{"txt":1}"#)
        #expect(status == 400)
        let (health, _) = try await server.request("GET", "/health")
        #expect(health == 200)
        #expect(try await server.terminate() == 0)
    }

    @Test func theHandWiredServerServesTheSameRoutes() async throws {
        let server = try ServerProcess(["--wiring", "hand"], environment: [:])
        try await server.waitUntilServing()
        let (_, body) = try await server.request("POST", "/notes", json: #"{"text":"by hand"}"#)
        let note = try decoder.decode(Note.self, from: body)
        let (status, fetched) = try await server.request("GET", "/notes/\(note.id)")
        #expect(status == 200)
        #expect(try decoder.decode(Note.self, from: fetched) == note)
        #expect(try await server.terminate() == 0)
    }
}

let decoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
}()
