/// The container that `@Injected` and `inject()` use when
/// they are not given one: set once at start-up, like swift-log's
/// `LoggingSystem.bootstrap`.
///
///     @main struct App {
///         static func main() throws {
///             PatchbaySystem.bootstrap(try Container(catalog: .app, manifestAt: manifestURL))
///             ...
///         }
///     }
///
/// Tests that must not share one global container run their code inside
/// ``withContainer(_:operation:)``, which sets the default for that
/// task only, so parallel tests each see their own.
public enum PatchbaySystem {
    private static let bootstrapped = Locked<(container: Container, location: CodeLocation)?>(nil)

    @TaskLocal private static var taskContainer: Container?

    /// Sets the default container. Call it once, at start-up.
    ///
    /// Calling it a second time stops the program, naming both calls: two
    /// parts of an app disagreeing on the container is a mistake in code.
    public static func bootstrap(_ container: Container, file: StaticString = #fileID, line: UInt = #line) {
        let location = CodeLocation(file, line)
        let previous = bootstrapped.withLock { current -> CodeLocation? in
            if let current { return current.location }
            current = (container, location)
            return nil
        }
        if let previous {
            fatalError(
                "PatchbaySystem.bootstrap was called twice, at \(previous) and at \(location); call it once at "
                    + "start-up (tests: use PatchbaySystem.withContainer(_:operation:))")
        }
    }

    /// The default container for code running now: the task's (from
    /// ``withContainer(_:operation:)``), else the bootstrapped one.
    public static var container: Container? {
        taskContainer ?? bootstrapped.withLock { $0?.container }
    }

    /// Runs `operation` with `container` as the default for this task and the tasks it starts.
    public static func withContainer<Result>(_ container: Container, operation: () throws -> Result) rethrows -> Result {
        try $taskContainer.withValue(container, operation: operation)
    }

    /// Runs `operation` with `container` as the default for this task and the tasks it starts.
    public static func withContainer<Result>(
        _ container: Container, isolation: isolated (any Actor)? = #isolation, operation: () async throws -> Result
    ) async rethrows -> Result {
        try await $taskContainer.withValue(container, operation: operation, isolation: isolation)
    }

    /// The container to use: the given one, else the default.
    static func resolveContainer(_ explicit: Container?, for type: Any.Type) throws(ResolutionError) -> Container {
        if let container = explicit ?? container { return container }
        throw ResolutionError(.notBootstrapped, type: String(describing: type))
    }

    /// For tests of the bootstrap itself: forget the bootstrapped container.
    static func resetBootstrapForTesting() {
        bootstrapped.withLock { $0 = nil }
    }
}
