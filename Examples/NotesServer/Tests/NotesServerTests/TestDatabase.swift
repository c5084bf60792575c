// The PostgreSQL server the database tests use: the one `.ci/postgres start`
// started (it prints the NOTES_TEST_DB_* variables), or any other named by them.
import Foundation
import Logging
import PostgresNIO
import Testing

enum TestDatabase {
    /// Where it is, from NOTES_TEST_DB_HOST, _PORT, _NAME, _USER and _PASSWORD; nil when not set.
    static let settings: [String: String]? = {
        let environment = ProcessInfo.processInfo.environment
        var settings: [String: String] = [:]
        for field in ["HOST", "PORT", "NAME", "USER", "PASSWORD"] {
            guard let value = environment["NOTES_TEST_DB_\(field)"], !value.isEmpty else { return nil }
            settings[field] = value
        }
        return settings
    }()

    /// Whether the database tests can run.
    static var isConfigured: Bool { settings != nil }

    /// Why they skip when they cannot.
    static let skipReason: Comment =
        "no PostgreSQL for the database tests: set NOTES_TEST_DB_HOST, _PORT, _NAME, _USER and _PASSWORD (`eval \"$(bash .ci/postgres start)\"` starts one on loopback and prints them)"

    /// The server's environment for production against this database, `overrides` on top.
    static func productionEnvironment(_ overrides: [String: String] = [:]) -> [String: String] {
        let settings = settings ?? [:]
        var environment = [
            "PATCHBAY_ENV": "production",
            "NOTES_DB_HOST": settings["HOST"] ?? "", "NOTES_DB_PORT": settings["PORT"] ?? "",
            "NOTES_DB_NAME": settings["NAME"] ?? "", "NOTES_DB_USER": settings["USER"] ?? "",
            "NOTES_DB_PASSWORD": settings["PASSWORD"] ?? "",
        ]
        environment.merge(overrides) { _, new in new }
        return environment
    }

    /// Runs `body` on a connection of the test's own.
    static func withConnection<T>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        guard let settings, let port = Int(settings["PORT"]!) else { throw Failure("no test database") }
        let configuration = PostgresConnection.Configuration(
            host: settings["HOST"]!, port: port, username: settings["USER"]!, password: settings["PASSWORD"],
            database: settings["NAME"], tls: .disable)
        let connection = try await PostgresConnection.connect(
            configuration: configuration, id: 1, logger: Logger(label: "notes-server-tests"))
        do {
            let result = try await body(connection)
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// The connections to the database other than this query's own, whoever opened them.
    static func otherConnections() async throws -> Int {
        try await withConnection { connection in
            let rows = try await connection.query(
                "SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
                logger: Logger(label: "notes-server-tests"))
            for try await count in rows.decode(Int.self) { return count }
            return -1
        }
    }

    /// The database's clock now.
    static func now() async throws -> Date {
        try await withConnection { connection in
            let rows = try await connection.query("SELECT now()", logger: Logger(label: "notes-server-tests"))
            for try await date in rows.decode(Date.self) { return date }
            throw Failure("no time")
        }
    }

    /// The connections to the database other than this query's own that were opened before `date`.
    static func otherConnections(openedBefore date: Date) async throws -> Int {
        try await withConnection { connection in
            let rows = try await connection.query(
                "SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_start < \(date)",
                logger: Logger(label: "notes-server-tests"))
            for try await count in rows.decode(Int.self) { return count }
            return -1
        }
    }

    /// The text of the note `id` in the table, if it is there.
    static func storedText(of id: String) async throws -> String? {
        try await withConnection { connection in
            let rows = try await connection.query(
                "SELECT text FROM notes WHERE id = \(id)", logger: Logger(label: "notes-server-tests"))
            for try await text in rows.decode(String.self) { return text }
            return nil
        }
    }
}
