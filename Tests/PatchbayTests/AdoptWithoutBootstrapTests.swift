// The migration guide's adopt samples (ComingFromAnotherContainer.md,
// "Scopes an object owns"), run as written with no default container: an
// object adopted into a scope that knows a container, made with it or having
// resolved from it, resolves its `@Injected` properties from that container.
@testable import Patchbay
import Testing

struct AdoptWithoutBootstrapTests {
    protocol Session: AnyObject, Sendable {}
    final class AppSession: Session {}
    final class SummaryModel { @Injected var session: any Session }
    final class CheckoutModel {
        @Injected var session: any Session
        let summary = SummaryModel()   // its own @Injected session follows the model's scope
    }
    final class CheckoutSummary { @Injected var session: any Session }
    final class CheckoutScreen {
        let scope = Scope()                  // owns the screen's `scoped` instances
        let model: CheckoutModel
        init(container: Container) throws {
            model = try scope.resolve(CheckoutModel.self, from: container)
        }
    }

    private func container() throws -> Container {
        var catalog = FactoryCatalog()
        catalog.register("session", provides: (any Session).self) { AppSession() }
        catalog.register("model", provides: CheckoutModel.self) { CheckoutModel() }
        catalog.register("summary", provides: CheckoutSummary.self) { CheckoutSummary() }
        return try makeContainer(catalog, [
            bind("Session", to: "session", .scoped), bind("CheckoutModel", to: "model"),
            bind("CheckoutSummary", to: "summary"),
        ])
    }

    /// The guide's `Scope(container:)` sample.
    @Test func theGuidesAdoptSampleRunsWithNoDefaultContainer() throws {
        #expect(PatchbaySystem.container == nil, "the sample runs with no bootstrap")
        let container = try container()
        let scope = Scope(container: container)
        let model = scope.adopt(CheckoutModel())   // made by hand: now the scope's, from `container`
        let summary = try Scope.of(model)!.resolve(CheckoutSummary.self)   // the same session
        #expect(model.session === summary.session)
        #expect(model.summary.session === model.session, "the child follows the model's scope")
        #expect(try scope.resolve((any Session).self) === model.session)
    }

    /// The guide's `CheckoutScreen`, whose `Scope()` resolved its model from
    /// `container`, adopting another model: this was `not-bootstrapped`.
    @Test func aScopeThatResolvedFromAContainerServesWhatItAdopts() throws {
        #expect(PatchbaySystem.container == nil, "the sample runs with no bootstrap")
        let container = try container()
        let screen = try CheckoutScreen(container: container)   // the scope resolved from `container`
        let model = screen.scope.adopt(CheckoutModel())          // the screen's session, from `container`
        #expect(try model.$session.resolve() === screen.model.session, "the screen's session")
        #expect(model.summary.session === screen.model.session)
        let summary = try Scope.of(model)!.resolve(CheckoutSummary.self)
        #expect(summary.session === screen.model.session)
    }

    @Test func aDefaultContainerStillWinsOverTheOneTheScopeResolvedFrom() throws {
        let container = try container()
        var otherCatalog = FactoryCatalog()
        otherCatalog.register("other", provides: (any Session).self) { AppSession() }
        let other = try makeContainer(otherCatalog, [bind("Session", to: "other", .scoped)])
        let screen = try CheckoutScreen(container: container)
        let model = screen.scope.adopt(CheckoutModel())
        let session = try PatchbaySystem.withContainer(other) { try model.$session.resolve() }
        #expect(session !== screen.model.session, "as before: the default container serves an adopted object")
        #expect(try screen.scope.resolve((any Session).self, from: other) === session)
    }
}
