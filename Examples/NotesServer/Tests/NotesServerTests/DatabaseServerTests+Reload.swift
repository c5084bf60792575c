// The built server reloads its manifest against a real PostgreSQL: swaps
// under requests fail none, a new wiring whose start-up check fails is
// refused, and a new pool replaces the old one's connections. In
// DatabaseServerTests' suite: one at a time with the tests that count connections.
import Foundation
import NotesServerKit
import Testing

extension DatabaseServerTests {
    @Test func swapsDuringRequestsFailNone() async throws {
        let fixture = try ReloadFixture(), run = UUID().uuidString.prefix(8).lowercased()
        try fixture.write("production.json", ReloadFixture.production(prefix: "a0-\(run)-", timed: false))
        let server = try ServerProcess(fixture.arguments, environment: TestDatabase.productionEnvironment())
        try await server.waitUntilServing()

        // A client posts a note and reads it back, again and again, while the file changes under it.
        let done = Flag()
        let client = Task { () -> [String] in
            var failures: [String] = []
            while !done.isSet {
                do {
                    let (created, body) = try await server.request("POST", "/notes", json: #"{"text":"under swaps"}"#)
                    guard created == 201 else {
                        failures.append("POST \(created) \(String(decoding: body, as: UTF8.self))")
                        continue
                    }
                    let id = try decoder.decode(Note.self, from: body).id
                    let (found, _) = try await server.request("GET", "/notes/\(id)")
                    if found != 200 { failures.append("GET \(id): \(found)") }
                } catch {
                    failures.append("\(error)")
                }
            }
            return failures
        }
        // Two wirings in turn: the ids' prefix (new on each write, the table keeps every id) and a decorator on the store.
        for swap in 1...4 {
            let prefix = "\(swap % 2 == 0 ? "a" : "b")\(swap)-\(run)-"
            try fixture.write("production.json", ReloadFixture.production(prefix: prefix, timed: swap % 2 == 1))
            try await server.waitForHealth { $0.generation == swap + 1 }
            try await Task.sleep(for: .milliseconds(300))
            let (_, body) = try await server.request("POST", "/notes", json: #"{"text":"after the swap"}"#)
            #expect(try decoder.decode(Note.self, from: body).id.hasPrefix(prefix))
        }
        done.set()
        let failures = await client.value
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        #expect(try await server.terminate() == 0, "\(server.standardError)")
        #expect(server.standardOutput.contains(#""message":"retired""#), "\(server.standardOutput)")
    }

    @Test func aNewWiringWhoseStartupCheckFailsIsRefused() async throws {
        let fixture = try ReloadFixture(), run = UUID().uuidString.prefix(8).lowercased()
        try fixture.write("production.json", ReloadFixture.production(prefix: "ok-\(run)-"))
        let server = try ServerProcess(fixture.arguments, environment: TestDatabase.productionEnvironment())
        try await server.waitUntilServing()

        try fixture.write("production.json", ReloadFixture.production(prefix: "no-\(run)-", password: "not-the-password"))
        let refused = try await server.waitForHealth { $0.lastRefusal != nil }
        #expect(refused.generation == 1)
        let why = refused.lastRefusal?.diagnostics.joined(separator: "\n") ?? ""
        #expect(why.contains("password authentication failed") && why.contains("[start-up-failed]"), "\(why)")
        #expect(!why.contains("not-the-password"))
        let (status, body) = try await server.request("POST", "/notes", json: #"{"text":"old wiring"}"#)
        #expect(status == 201)
        #expect(try decoder.decode(Note.self, from: body).id == "ok-\(run)-1")
        #expect(try await server.terminate() == 0, "\(server.standardError)")
    }

    @Test func aPoolSizeChangeClosesTheOldPoolsConnections() async throws {
        let fixture = try ReloadFixture(), run = UUID().uuidString.prefix(8).lowercased()
        try fixture.write("production.json", ReloadFixture.production(prefix: "p-\(run)-", poolSize: 3))
        let server = try ServerProcess(fixture.arguments, environment: TestDatabase.productionEnvironment())
        try await server.waitUntilServing()
        try await busy(server)
        #expect(try await TestDatabase.otherConnections() > 0)

        let swap = try await TestDatabase.now()
        try fixture.write("production.json", ReloadFixture.production(prefix: "p-\(run)-", poolSize: 2))
        try await server.waitForHealth { $0.generation == 2 }
        try await busy(server)
        // Once retired, no connection opened before the swap is left; the new
        // pool's are (the start-up check's own connection may take a moment to leave the view).
        var (old, now) = (try await TestDatabase.otherConnections(openedBefore: swap), try await TestDatabase.otherConnections())
        for _ in 0..<100 where old > 0 || now > 2 {
            try await Task.sleep(for: .milliseconds(100))
            (old, now) = (try await TestDatabase.otherConnections(openedBefore: swap), try await TestDatabase.otherConnections())
        }
        #expect(old == 0, "\(server.standardOutput)")
        #expect(now >= 1 && now <= 2, "\(now) connections")
        #expect(try await server.terminate() == 0, "\(server.standardError)")
        let retired = server.standardOutput.split(separator: "\n").filter { $0.contains(#""message":"retired""#) }
        #expect(retired.contains { $0.contains("PostgresNoteStore") && $0.contains(#""generation":"1""#) }, "\(retired)")
    }

    @Test func aLoggerChangeKeepsTheStoreAndItsPool() async throws {
        let fixture = try ReloadFixture(), run = UUID().uuidString.prefix(8).lowercased()
        try fixture.write("production.json", ReloadFixture.production(prefix: "l-\(run)-", poolSize: 2))
        let server = try ServerProcess(fixture.arguments, environment: TestDatabase.productionEnvironment())
        try await server.waitUntilServing()
        try await busy(server)
        let swap = try await TestDatabase.now()
        let open = try await TestDatabase.otherConnections(openedBefore: swap)
        #expect(open > 0)

        // Only the logger changes: the store takes it through Provider<Logger>, so it is kept, pool and all.
        try fixture.write("production.json", ReloadFixture.production(prefix: "l-\(run)-", poolSize: 2, level: "notice"))
        try await server.waitForHealth { $0.generation == 2 }
        try await busy(server)
        try await Task.sleep(for: .milliseconds(300))
        #expect(try await TestDatabase.otherConnections(openedBefore: swap) == open)
        #expect(try await server.terminate() == 0, "\(server.standardError)")
    }

    /// Enough requests at once for the pool to open more than one connection.
    private func busy(_ server: ServerProcess) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { _ = try await server.request("GET", "/notes/none") }
            }
            try await group.waitForAll()
        }
    }
}

/// A flag one task sets and another reads (cancelling the client would cancel its request under way).
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
