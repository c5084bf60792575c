// The `.patchbay(...)` trait (Factory's `.container` trait, Swifjection's
// test bindings): each test its own container, overrides and singletons,
// however Swift Testing schedules them.
#if compiler(>=6.1)
import Foundation
import Patchbay
import PatchbayTesting
import Testing

/// A Widget, and a singleton Gadget made from it: a singleton that must not
/// leak from one test's overrides into another's.
private func traitContainer() throws -> Container {
    var catalog = FactoryCatalog()
    catalog.register("real", provides: (any Widget).self) { Part(tag: "real") }
    catalog.register("gadget", provides: (any Gadget).self, lifetime: .singleton) { (widget: any Widget) in
        Part(tag: "gadget of \(widget.tag)")
    }
    return try makeContainer(catalog, [bind("Widget", to: "real"), bind("Gadget", to: "gadget", .singleton)])
}

/// One container for both tests, so only the trait can keep them apart.
private let sharedContainer = try! traitContainer()

/// Lets two tests wait for each other, so their bodies overlap when Swift
/// Testing runs them in parallel (and, run one at a time, each goes on after a wait).
private final class Meeting: @unchecked Sendable {
    private let condition = NSCondition()
    private var arrivals = 0
    func arriveAndWait() {
        condition.lock()
        defer { condition.unlock() }
        arrivals += 1
        condition.broadcast()
        let deadline = Date(timeIntervalSinceNow: 5)
        while arrivals < 2, condition.wait(until: deadline) {}
    }
}
private let meeting = Meeting()

@Suite struct PatchbayTraitTests {
    @Test(.patchbay(sharedContainer, overrides: { $0.override((any Widget).self, with: Part(tag: "a")) }))
    func factoryContainerTraitIsolatesParallelTestsA() throws {
        try expectOwn("a")
    }

    @Test(.patchbay(sharedContainer, overrides: { $0.override((any Widget).self, with: Part(tag: "b")) }))
    func factoryContainerTraitIsolatesParallelTestsB() throws {
        try expectOwn("b")
    }

    /// What a test under the trait sees, checked before and after meeting the other test.
    private func expectOwn(_ tag: String) throws {
        let widget: any Widget = inject()
        #expect(widget.tag == tag, "the default container is the trait's, with its overrides")
        let gadget = try #require(PatchbaySystem.container).resolve((any Gadget).self)
        meeting.arriveAndWait()
        #expect(gadget.tag == "gadget of \(tag)", "a singleton of this test's own")
        #expect(try sharedContainer.resolve((any Gadget).self) === gadget)
        #expect(inject((any Widget).self).tag == tag, "still this test's after the other's ran")
    }

    @Test(.patchbay(try traitContainer()))
    func factoryContainerTraitWithoutOverridesGivesTheTestItsOwnContainer() throws {
        let container = try #require(PatchbaySystem.container)
        #expect(container !== sharedContainer)
        #expect(inject((any Widget).self).tag == "real")
    }
}
#endif
