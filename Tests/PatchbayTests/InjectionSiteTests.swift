// A failure of `@Injected` (of `T` or `T?`) or `inject()` names the app's
// code that asked (the property's declaration, the call), not the library's
// file: in the thrown error, and in the message of the trap a getter or a
// default argument must make instead of throwing.
import Foundation
import Testing
@testable import Patchbay

/// Where the properties below are declared, for the expectations.
private let injectedLine = #line + 4
private let safelyInjectedLine = #line + 5

private final class SiteFixture {
    @Injected(container: SiteFixture.emptyContainer) var widget: any Widget
    // `Widget` is bound below but its factory throws: not `nil`, an error.
    @Injected(container: SiteFixture.failingContainer) var failing: (any Widget)?

    /// A container with nothing bound.
    static let emptyContainer: Container = {
        try! Container(catalog: FactoryCatalog(), manifest: Manifest(bindings: []))
    }()

    /// A container whose Widget factory throws.
    static let failingContainer: Container = {
        var catalog = FactoryCatalog()
        catalog.register("broken", provides: (any Widget).self) { () throws -> any Widget in throw SiteError() }
        return try! Container(catalog: catalog, manifest: Manifest(bindings: [Binding(protocol: "Widget", factory: "broken")]))
    }()
}

private struct SiteError: Error {}

/// Where `injectWidget` calls `inject()`.
private let injectCallLine = #line + 2
private func injectWidget() -> any Widget {
    inject()
}

@Suite struct InjectionSiteTests {
    @Test func theThrownErrorNamesThePropertysDeclaration() throws {
        let fixture = SiteFixture()
        let error = try #require(throws: ResolutionError.self) { try fixture.$widget.resolve() }
        #expect(error.requestedAt == CodeLocation(fileID: "PatchbayTests/InjectionSiteTests.swift", line: injectedLine))
        #expect(error.description.hasPrefix(
            "Patchbay cannot resolve Widget (for the property declared at PatchbayTests/InjectionSiteTests.swift:\(injectedLine)): "))

        let failing = try #require(throws: ResolutionError.self) { try fixture.$failing.resolve() }
        #expect(failing.reason == .factoryFailed)
        #expect(failing.requestedAt?.line == safelyInjectedLine)
    }

    @Test func aTrapOfInjectedStopsAtThePropertysDeclaration() async throws {
        let result = try #require(await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = SiteFixture().widget
        })
        let output = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(output.contains("PatchbayTests/InjectionSiteTests.swift:\(injectedLine): Fatal error: "
            + "Patchbay cannot resolve Widget (for the property declared at PatchbayTests/InjectionSiteTests.swift:\(injectedLine))"),
            "\(output)")
        // The getter cannot know who read it; the message says where to look.
        #expect(output.contains("bind it in the manifest. The code that read the property is the frame below the "
            + "property's getter in the backtrace."), "\(output)")
        #expect(!output.contains("Injected.swift"), "\(output)")
    }

    @Test func aTrapOfInjectStopsAtTheCall() async throws {
        let callLine = injectCallLine
        let result = try #require(await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            PatchbaySystem.resetBootstrapForTesting()
            _ = injectWidget()
        })
        let output = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(output.contains("PatchbayTests/InjectionSiteTests.swift:\(callLine): Fatal error: "
            + "Patchbay cannot resolve"), "\(output)")
        #expect(output.contains("no container is set"), "\(output)")
        // A call knows its line: the message names it as the requester, with no hint about getters.
        #expect(output.contains("(requested at PatchbayTests/InjectionSiteTests.swift:\(callLine))"), "\(output)")
        #expect(!output.contains("getter"), "\(output)")
    }
}
