// The light transient path is a specialization of the general resolution
// engine, chosen per binding at activation. To hold it to that, the suites
// that resolve (lifetimes, cycles, overrides, faults, injection, errors,
// concurrency) carry this trait: when PATCHBAY_GENERAL_ENGINE_ONLY=1 is set,
// every container they make takes the general engine for every resolve,
// and they must pass unchanged. `.ci/run` runs them both ways.
import Foundation
import Testing
@testable import Patchbay

/// Runs a suite's tests with the light path switched off when the environment asks for it.
struct GeneralEngineWhenAsked: SuiteTrait, TestTrait, TestScoping {
    /// Whether this run is the general engine's.
    static let isRequested = ProcessInfo.processInfo.environment["PATCHBAY_GENERAL_ENGINE_ONLY"] == "1"

    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard Self.isRequested else { return try await function() }
        try await Activation.$usesGeneralEngineOnly.withValue(true) { try await function() }
    }
}

extension Trait where Self == GeneralEngineWhenAsked {
    /// Both engines: see ``GeneralEngineWhenAsked``.
    static var bothEngines: Self { GeneralEngineWhenAsked() }
}
