import Foundation
import Hummingbird
import Logging
import Patchbay

/// What a request handler uses, each read when the request is handled: so
/// the same handlers serve the Patchbay-wired server (which resolves from
/// the container on every request) and a hand-wired one (which returns what
/// it captured), and the load run compares only the wiring.
public struct NoteDependencies: Sendable {
    /// The store.
    public var store: @Sendable () throws -> any NoteStore
    /// The clock.
    public var clock: @Sendable () throws -> any NoteClock
    /// The identifier generator.
    public var ids: @Sendable () throws -> any NoteIDGenerator
    /// The logger.
    public var logger: @Sendable () throws -> Logger

    /// Dependencies read by these closures.
    public init(
        store: @escaping @Sendable () throws -> any NoteStore, clock: @escaping @Sendable () throws -> any NoteClock,
        ids: @escaping @Sendable () throws -> any NoteIDGenerator, logger: @escaping @Sendable () throws -> Logger
    ) {
        (self.store, self.clock, self.ids, self.logger) = (store, clock, ids, logger)
    }
}

/// The JSON API: `GET /health`, `POST /notes`, `GET /notes`, `GET /notes/{id}`.
public enum NotesRoutes {
    /// The body of `GET /health`.
    public struct Health: ResponseCodable {
        /// `ok`.
        public var status: String
        /// The environment whose manifest wired the server.
        public var environment: String
        /// The store's kind: `in-memory`, `postgres`.
        public var store: String
        /// The generation of the wiring in force: 1 at start, one more for
        /// each manifest activated since. Absent when wired by hand.
        public var generation: Int?
        /// The fingerprint of the manifest files of that generation (see ``WiringStatus``).
        public var fingerprint: String?
        /// The last manifest refused since that generation was activated, while it serves.
        public var lastRefusal: WiringStatus.Refusal?
    }

    /// A router with the API's routes, reading `dependencies` on every request;
    /// with `container`, each request holds a lease on its wiring
    /// (``LeaseMiddleware``), and `/health` reports `status`.
    public static func router(
        environment: String, dependencies: NoteDependencies, container: Container? = nil, status: WiringStatus? = nil
    ) -> Router<BasicRequestContext> {
        let router = Router()
        if let container { router.add(middleware: LeaseMiddleware(container: container)) }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .sortedKeys

        router.get("health") { _, _ in
            let wiring = status?.snapshot
            return Health(
                status: "ok", environment: environment, store: try dependencies.store().kind,
                generation: wiring?.generation, fingerprint: wiring?.fingerprint, lastRefusal: wiring?.lastRefusal)
        }
        router.post("notes") { request, context -> Response in
            let body = try await request.decode(as: NewNote.self, context: context)
            let note = Note(id: try dependencies.ids().next(), text: body.text, createdAt: try dependencies.clock().now())
            try await dependencies.store().save(note)
            try dependencies.logger().info("saved note", metadata: ["note.id": "\(note.id)"])
            return try json(note, status: .created, encoder)
        }
        router.get("notes") { _, _ -> Response in
            try json(try await dependencies.store().all(), status: .ok, encoder)
        }
        router.get("notes/:id") { _, context -> Response in
            let id = try context.parameters.require("id")
            guard let note = try await dependencies.store().note(id: id) else {
                throw HTTPError(.notFound, message: "no note '\(id)'")
            }
            return try json(note, status: .ok, encoder)
        }
        return router
    }

    private static func json(_ value: some Encodable, status: HTTPResponse.Status, _ encoder: JSONEncoder) throws -> Response {
        var buffer = ByteBuffer()
        buffer.writeBytes(try encoder.encode(value))
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: buffer))
    }
}
