// A copy of the example's manifests in a temporary folder, which a test
// rewrites while the built server watches it, and what `/health` says of the wiring.
import Foundation
import NotesServerKit

struct ReloadFixture {
    let folder: URL

    /// A fresh copy of `Manifests/`.
    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("notes-manifests-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: manifestsFolder, to: folder)
    }

    /// The arguments that make the server read this folder.
    var arguments: [String] { ["--manifests", folder.path] }

    /// Replaces `name` as an editor's save does: a new file renamed over the old one.
    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: folder.appendingPathComponent(name), options: .atomic)
    }

    /// A development manifest: sequential ids with `prefix`, the in-memory store, `timing-store` around it when `timed`.
    static func development(prefix: String, timed: Bool = false, store: String = "in-memory-store") -> String {
        let decorators = timed ? #", "decorators": [{ "decorator": "timing-store", "parameters": { "slowerThanMilliseconds": 1000 } }]"# : ""
        return """
            { "format": 1, "environment": "development", "extends": "base.json",
              "bindings": [
                { "protocol": "NoteStore", "factory": "\(store)"\(decorators) },
                { "protocol": "NoteIDGenerator", "factory": "sequential-ids", "parameters": { "prefix": "\(prefix)" } } ] }
            """
    }

    /// A production manifest like the example's, with sequential ids with `prefix`,
    /// the timing decorator when `timed`, a pool of `poolSize`, the password `password` and the log level `level`.
    static func production(
        prefix: String, timed: Bool = true, poolSize: Int = 20, password: String = "${NOTES_DB_PASSWORD}",
        level: String = "info"
    ) -> String {
        let decorators = timed ? #", "decorators": [{ "decorator": "timing-store", "parameters": { "slowerThanMilliseconds": 1000 } }]"# : ""
        return """
            { "format": 1, "environment": "production", "extends": "base.json",
              "bindings": [
                { "protocol": "NoteStore", "factory": "postgres-store",
                  "parameters": { "host": "${NOTES_DB_HOST}", "port": "${NOTES_DB_PORT}", "database": "${NOTES_DB_NAME}",
                    "user": "${NOTES_DB_USER}", "password": "\(password)", "poolSize": \(poolSize) }\(decorators) },
                { "protocol": "NoteIDGenerator", "factory": "sequential-ids", "parameters": { "prefix": "\(prefix)" } },
                { "protocol": "Logger", "factory": "json-logger", "parameters": { "label": "notes-server", "level": "\(level)" } } ] }
            """
    }
}

/// `GET /health`, decoded.
struct HealthReport: Decodable {
    var status: String
    var generation: Int?
    var fingerprint: String?
    var lastRefusal: Refusal?

    struct Refusal: Decodable {
        var at: String
        var diagnostics: [String]
    }
}

extension ServerProcess {
    func health() async throws -> HealthReport {
        let (_, body) = try await request("GET", "/health")
        return try JSONDecoder().decode(HealthReport.self, from: body)
    }

    /// Waits until `/health` satisfies `condition`; what it said then.
    @discardableResult
    func waitForHealth(seconds: Double = 20, _ condition: (HealthReport) -> Bool) async throws -> HealthReport {
        let deadline = Date().addingTimeInterval(seconds)
        var last = try await health()
        while !condition(last) {
            guard Date() < deadline else {
                throw Failure("/health never got there; last: \(last)\n\(standardError)\n\(standardOutput)")
            }
            try await Task.sleep(for: .milliseconds(50))
            last = try await health()
        }
        return last
    }
}
