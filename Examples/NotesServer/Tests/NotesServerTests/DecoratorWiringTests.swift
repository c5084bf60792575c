// The decorators as the manifests wire them: production's store is the
// timing decorator around the PostgreSQL store, and lifecycle still finds
// the store behind it; the test environment records every call the routes
// make. No database: nothing here connects (DatabaseServerTests+Decorators
// runs the pool).
import Foundation
import Hummingbird
import HummingbirdTesting
import NotesServerKit
import Patchbay
import ServiceLifecycle
import Testing

@Suite struct DecoratorWiringTests {
    static func container(_ environment: String, _ variables: [String: String] = [:]) throws -> Container {
        let folder = ManifestDirectory(url: manifestsFolder, loader: ManifestLoader(environment: variables))
        return try Container(catalog: .notesServer, manifests: folder, environment: environment)
    }

    @Test func productionTimesThePostgresStore() throws {
        let container = try Self.container("production", ManifestTests.everyVariable)
        let store = try #require(try container.resolve((any NoteStore).self) as? TimingNoteStore)
        #expect(store.inner is PostgresNoteStore)
        #expect(store.kind == "postgres")
        #expect(store.threshold == .milliseconds(50))
        // The threshold is the deployment's to tune.
        var variables = ManifestTests.everyVariable
        variables["NOTES_SLOW_STORE_MS"] = "0"
        let tuned = try #require(try Self.container("production", variables).resolve((any NoteStore).self) as? TimingNoteStore)
        #expect(tuned.threshold == .zero)
    }

    @Test func lifecycleFindsThePostgresStoreBehindItsTimingDecorator() throws {
        let container = try Self.container("production", ManifestTests.everyVariable)
        try container.makeSingletons()
        let store = try #require(try container.resolve((any NoteStore).self) as? TimingNoteStore)
        let postgres = try #require(store.inner as? PostgresNoteStore)
        // What the server runs beside the HTTP server, checks before it opens the port,
        // and shuts down at the end: the store inside the chain, each once.
        let services = container.madeSingletons(as: (any Service).self)
        #expect(services.map { ObjectIdentifier($0.instance as AnyObject) } == [ObjectIdentifier(postgres)])
        let checks = container.madeSingletons(as: (any StartupCheck).self)
        #expect(checks.map { ObjectIdentifier($0.instance as AnyObject) } == [ObjectIdentifier(postgres)])
        let shutdowns = container.madeSingletons(as: (any AsyncShutdown).self)
        #expect(shutdowns.map { ObjectIdentifier($0.instance as AnyObject) } == [ObjectIdentifier(postgres)])
        // A failure is placed at the binding that made it: the store's, in production.json.
        let failure = try #require(checks.first?.binding?.diagnostic(.startUpFailed, "could not start"))
        #expect(failure.description.contains(try place(of: "\"postgres-store\"", inManifest: "production.json")), "\(failure)")
        // The decorator is listed too, as a made NoteStore, after the store it wraps.
        let stores = container.madeSingletons(as: (any NoteStore).self).map(\.instance)
        #expect(stores.count == 2 && stores.first is PostgresNoteStore && stores.last is TimingNoteStore)
    }

    @Test func developmentHasNoDecorator() throws {
        let container = try Self.container("development")
        #expect(try container.resolve((any NoteStore).self) is InMemoryNoteStore)
    }

    @Test func theTestEnvironmentRecordsEveryCallTheRoutesMake() async throws {
        let container = try Self.container("test")
        let router = NotesRoutes.router(environment: "test", dependencies: NoteDependencies(resolvingFrom: container))
        let created = Note(id: "test-1", text: "recorded", createdAt: try #require(ISO8601DateFormatter().date(from: "2026-01-01T09:00:00Z")))
        try await Application(router: router).test(.router) { client in
            try await client.execute(
                uri: "/notes", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"text":"recorded"}"#)
            ) { #expect($0.status == .created) }
            try await client.execute(uri: "/notes/test-1", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/notes/test-9", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/notes", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/health", method: .get) { #expect($0.status == .ok) }
        }
        let recorder = try #require(try container.resolve((any NoteStore).self) as? RecordingNoteStore)
        #expect(recorder.calls == [.save(created), .note(id: "test-1"), .note(id: "test-9"), .all])
        #expect(recorder.inner is InMemoryNoteStore)
        #expect(try await recorder.inner.all() == [created])
    }

    @Test func theRecorderIsRefusedOutsideTests() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notes-manifests-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: manifestsFolder, to: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("development.json")
        let text = try String(contentsOf: file, encoding: .utf8)
        try text.replacingOccurrences(
            of: #""factory": "in-memory-store" }"#, with: #""factory": "in-memory-store", "decorators": ["recording-store"] }"#
        ).write(to: file, atomically: true, encoding: .utf8)
        let directory = ManifestDirectory(url: folder, loader: ManifestLoader(environment: [:]))
        #expect {
            try Container(catalog: .notesServer, manifests: directory, environment: "development")
        } throws: { error in
            "\(error)".contains("recording-store") && "\(error)".contains("[environment-not-allowed]")
        }
    }
}
