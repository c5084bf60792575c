import Foundation
import Logging
import NIOCore
import Patchbay
import PostgresNIO
import ServiceLifecycle

/// Notes in a PostgreSQL table, `notes`, created at start if missing.
///
/// It owns a `PostgresClient`, a pool of connections that works only while
/// its `run()` runs: the store is a swift-service-lifecycle `Service`, and
/// the server runs it with the HTTP server (the container lists it among the
/// made singletons that are services), so a graceful shutdown closes the pool
/// after the last request. It is an `AsyncShutdown` too: the container's
/// `shutdown()` stops a pool still running (a program that ran it outside a
/// service group, a test) and returns once its connections are closed. At
/// start, ``checkStartup()`` connects once on its own and creates the table,
/// so a refused password or an unreachable server stops the start with the
/// cause, before the port is opened.
public final class PostgresNoteStore: NoteStore, Service, StartupCheck, AsyncShutdown, @unchecked Sendable {
    /// The binding's parameters: where the database is and who to be there.
    public struct Options: Decodable, Sendable {
        /// The server's host name or address.
        public var host: String
        /// Its port.
        public var port: Int
        /// The database.
        public var database: String
        /// The user.
        public var user: String
        /// The user's password (from the environment in every manifest: `${NOTES_DB_PASSWORD}`).
        public var password: String
        /// Seconds to wait for a connection before giving up; 5 when not given.
        public var connectTimeout: Int?
        /// The most connections the pool opens (`PostgresClient`'s
        /// `maximumConnections`); 20 when not given. A change makes a new
        /// store, whose pool replaces this one's once its requests are done.
        public var poolSize: Int?
    }

    public var kind: String { "postgres" }

    private let options: Options
    private let client: PostgresClient
    /// The logger of the wiring in force, read at each query: a manifest
    /// that changes only the logger keeps this store and its pool (see the
    /// README, "Reloading"). The pool's own background logger is the one in
    /// force when the store was made.
    private let logger: @Sendable () -> Logger
    // Guards `pool`: `run()` and `shutdown()` come from different tasks.
    private let lock = NSLock()
    /// The task that runs the client while `run()` runs; nil before.
    private var pool: Task<Void, Never>?

    /// A store that will connect as `options` say, logging through the
    /// logger `logger` returns at each query; it connects nothing until checked or run.
    public init(options: Options, logger: @escaping @Sendable () -> Logger) {
        self.options = options
        self.logger = logger
        var configuration = PostgresClient.Configuration(
            host: options.host, port: options.port, username: options.user, password: options.password,
            database: options.database, tls: .disable)
        configuration.options.connectTimeout = .seconds(Int64(options.connectTimeout ?? 5))
        configuration.options.maximumConnections = max(1, options.poolSize ?? 20)
        client = PostgresClient(configuration: configuration, backgroundLogger: logger())
    }

    /// A store that logs through `logger` always.
    public convenience init(options: Options, logger: Logger) {
        self.init(options: options, logger: { logger })
    }

    /// Runs the connection pool until the service group shuts it down, or
    /// until ``shutdown()`` (then it closes every connection).
    ///
    /// The client runs in a task of its own so that ``shutdown()`` can stop
    /// it; the task inherits this one's task-locals, so the service group's
    /// graceful shutdown still reaches the client, and cancelling this task
    /// cancels it.
    public func run() async throws {
        let pool = lock.withLock { () -> Task<Void, Never> in
            let pool = Task { [client] in await client.run() }
            self.pool = pool
            return pool
        }
        await withTaskCancellationHandler { await pool.value } onCancel: { pool.cancel() }
    }

    /// Stops the pool if it still runs, and returns once it has closed its
    /// connections; returns at once when it never ran or has stopped already.
    public func shutdown() async throws {
        guard let pool = lock.withLock({ self.pool }) else { return }
        pool.cancel()
        await pool.value
    }

    /// Connects once, outside the pool, and creates the table if missing.
    /// - Throws: ``DatabaseUnavailable``, saying what the server or the network answered.
    public func checkStartup() async throws {
        var configuration = PostgresConnection.Configuration(
            host: options.host, port: options.port, username: options.user, password: options.password,
            database: options.database, tls: .disable)
        configuration.options.connectTimeout = .seconds(Int64(options.connectTimeout ?? 5))
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger())
        } catch {
            throw DatabaseUnavailable(options: options, cause: error)
        }
        do {
            try await connection.query(Self.createTable, logger: logger())
            try await connection.close()
        } catch {
            try? await connection.close()
            throw DatabaseUnavailable(options: options, cause: error)
        }
    }

    static let createTable: PostgresQuery = """
        CREATE TABLE IF NOT EXISTS notes (
            id text PRIMARY KEY, text text NOT NULL, created_at timestamptz NOT NULL)
        """

    public func save(_ note: Note) async throws {
        try await client.query(
            "INSERT INTO notes (id, text, created_at) VALUES (\(note.id), \(note.text), \(note.createdAt))",
            logger: logger())
    }

    public func note(id: String) async throws -> Note? {
        let rows = try await client.query("SELECT id, text, created_at FROM notes WHERE id = \(id)", logger: logger())
        for try await (id, text, createdAt) in rows.decode((String, String, Date).self) {
            return Note(id: id, text: text, createdAt: createdAt)
        }
        return nil
    }

    public func all() async throws -> [Note] {
        let rows = try await client.query("SELECT id, text, created_at FROM notes ORDER BY created_at, id", logger: logger())
        var notes: [Note] = []
        for try await (id, text, createdAt) in rows.decode((String, String, Date).self) {
            notes.append(Note(id: id, text: text, createdAt: createdAt))
        }
        return notes
    }
}

/// The database could not be used at start: what was tried and what answered.
public struct DatabaseUnavailable: Error, CustomStringConvertible {
    let options: PostgresNoteStore.Options
    let cause: any Error

    public var description: String {
        "PostgreSQL at \(options.host):\(options.port), database '\(options.database)', user '\(options.user)': "
            + Self.explain(cause)
    }

    /// PostgresNIO's errors print a fixed text (so that no query leaks into a
    /// log); what went wrong is in their fields. Then what to check.
    static func explain(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return "\(error)" }
        if let info = error.serverInfo, let message = info[.message] {
            let state = info[.sqlState]
            // Class 28: invalid authorization; 3D000: no such database.
            let advice = state?.hasPrefix("28") == true ? "; check the binding's user and password"
                : state == "3D000" ? "; check the binding's database" : ""
            return "the server said: \(message)" + (state.map { " (SQLSTATE \($0))" } ?? "") + advice
        }
        let advice = "; check that PostgreSQL runs there and that the binding's host and port name it"
        if let underlying = error.underlying { return "\(error.code): \(underlying)" + advice }
        return "\(error.code)" + advice
    }
}
