// The built server reloads its manifest while it serves: a new file is
// activated as a new generation, a bad one is refused while the old wiring
// serves, and /health says which. In memory, no database (the database's
// cases are in DatabaseServerTests+Reload.swift).
import Foundation
import NotesServerKit
import Testing

@Suite struct ReloadServerTests {
    @Test func aBadManifestIsRefusedWhileTheOldWiringServesAndHealthSaysWhy() async throws {
        let fixture = try ReloadFixture()
        try fixture.write("development.json", ReloadFixture.development(prefix: "old-"))
        let server = try ServerProcess(fixture.arguments, environment: ["PATCHBAY_ENV": "development"])
        try await server.waitUntilServing()
        let first = try await server.health()
        #expect(first.generation == 1 && first.fingerprint?.count == 16 && first.lastRefusal == nil)

        try fixture.write("development.json", ReloadFixture.development(prefix: "new-", store: "in-memory-stor"))
        let refused = try await server.waitForHealth { $0.lastRefusal != nil }
        #expect(refused.generation == 1 && refused.fingerprint == first.fingerprint)
        let why = refused.lastRefusal?.diagnostics.joined(separator: "\n") ?? ""
        #expect(why.contains("in-memory-stor") && why.contains("error:"), "\(why)")
        let (status, body) = try await server.request("POST", "/notes", json: #"{"text":"still served"}"#)
        #expect(status == 201)
        #expect(try decoder.decode(Note.self, from: body).id == "old-1")

        try fixture.write("development.json", ReloadFixture.development(prefix: "new-"))
        let fixed = try await server.waitForHealth { $0.generation == 2 }
        #expect(fixed.lastRefusal == nil && fixed.fingerprint != first.fingerprint)
        let (_, after) = try await server.request("POST", "/notes", json: #"{"text":"new wiring"}"#)
        #expect(try decoder.decode(Note.self, from: after).id == "new-1")
        #expect(try await server.terminate() == 0, "\(server.standardError)")
        #expect(server.standardOutput.contains("manifest refused"), "\(server.standardOutput)")
        #expect(server.standardOutput.contains("activated"), "\(server.standardOutput)")
    }
}
