import Hummingbird
import Patchbay

/// Holds a lease on the wiring in force for the whole of each request
/// (`container.withLease`), so that the singletons a handler resolved (the
/// store and its pool) are not shut down under it when a new manifest
/// replaces them: they are retired once the last request that could reach
/// them has answered. It costs two short lock holds a request, none a resolve.
///
/// The lease covers the handler and the making of its response. Every route
/// here returns its JSON in a `ByteBuffer` made by the handler, so the body is
/// complete inside the lease; a route that streamed its body from the store
/// after returning would have to hold a lease of its own while it writes.
public struct LeaseMiddleware<Context: RequestContext>: RouterMiddleware {
    let container: Container

    /// A middleware that takes its leases from `container`.
    public init(container: Container) { self.container = container }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        try await container.withLease { try await next(request, context) }
    }
}
