// A Swift Testing trait, in a library of its own so that apps, which link
// Patchbay, never link Testing; test targets add this product beside it.
// `TestScoping` arrived in Swift 6.1.
#if compiler(>=6.1)
import Patchbay
import Testing

/// Runs a test, or every test of a suite, with a container of its own as
/// the default one (``PatchbaySystem/container``, what `@Injected` and
/// `inject()` read) and with test overrides in force.
///
///     @Suite(.patchbay(try Container(catalog: .app, manifests: .appManifests, environment: "test")) {
///         $0.override((any Clock).self, with: FixedClock(at: .distantPast))
///     })
///     struct CheckoutTests {
///         @Test func totals() throws { ... }   // sees its own container, its own fixed clock
///     }
///
/// The container expression is evaluated again for each test (and each
/// case of a parameterized test), so every test has its own singletons;
/// an expression that returns one shared container still gives each test
/// singletons of its own, since singletons made inside overrides belong to
/// them (see ``Overrides``). Everything is task-local: tests that Swift
/// Testing runs in parallel never see each other's container or overrides.
public struct PatchbayTrait: TestTrait, SuiteTrait, TestScoping {
    let makeContainer: @Sendable () throws -> Container
    let configure: @Sendable (inout Overrides) -> Void

    /// Applied to each test of a suite, not once around the whole suite:
    /// each test gets its own container and singletons.
    public var isRecursive: Bool { true }

    /// Runs `function` with the container as the task's default and the overrides in force.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let container = try makeContainer()
        try await PatchbaySystem.withContainer(container) {
            try await container.withOverrides(configure) { try await function() }
        }
    }
}

extension Trait where Self == PatchbayTrait {
    /// A container of the test's own, made by `container` for each test, as
    /// the default container, with `overrides` in force.
    /// - Parameters:
    ///   - container: Makes the container; evaluated once per test. To use
    ///     the `test` environment, `Container(catalog:manifests:environment:)`
    ///     with `environment: "test"`.
    ///   - overrides: Replaces types for the test (nothing when omitted).
    public static func patchbay(
        _ container: @escaping @autoclosure @Sendable () throws -> Container,
        overrides: @escaping @Sendable (inout Overrides) -> Void = { _ in }
    ) -> Self {
        PatchbayTrait(makeContainer: container, configure: overrides)
    }
}
#endif
