/// A singleton that holds something to let go of when the app stops: a
/// connection pool, a file to flush, a background task. ``Container/shutdown()``
/// calls ``shutdown()`` on each one the container made, in reverse order of
/// making, so what depends on a thing stops before the thing.
///
///     final class AuditLog: AsyncShutdown {
///         func shutdown() async throws { try await file.flushAndClose() }
///     }
///
/// Conform the product type of the factory (or the type it makes): the
/// container finds it by a cast of the made value, whatever protocol the
/// manifest bound it as.
public protocol AsyncShutdown: Sendable {
    /// Lets go of what the instance holds. Called once per ``Container/shutdown()``,
    /// after every singleton made after this one has shut down.
    func shutdown() async throws
}
