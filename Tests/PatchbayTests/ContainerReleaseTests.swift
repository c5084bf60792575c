// A released container lets go of its singletons at once, even though the
// resolving thread caches the activation it last read.
import Testing
@testable import Patchbay

private final class Heavy: Sendable {}
private protocol HeavyService: AnyObject, Sendable {}
extension Heavy: HeavyService {}

@Suite struct ContainerReleaseTests {
    @Test func aReleasedContainerFreesItsSingletonsThoughThisThreadCachedItsActivation() throws {
        var catalog = FactoryCatalog()
        catalog.register("heavy", provides: (any HeavyService).self, lifetime: .singleton) { Heavy() }
        weak var weakContainer: Container?
        weak var weakSingleton: (any HeavyService)?
        try {
            let container = try Container(catalog: catalog, manifest: Manifest(bindings: [
                Binding(protocol: "HeavyService", factory: "heavy"),
            ]))
            let singleton = try container.resolve((any HeavyService).self)
            #expect(try container.resolve((any HeavyService).self) === singleton)  // now cached on this thread
            weakContainer = container
            weakSingleton = singleton
        }()
        #expect(weakContainer == nil)
        #expect(weakSingleton == nil, "the thread's resolve cache kept a released container's singleton alive")
    }

    @Test func aReleasedContainersActivationIsFreedOnTheThreadThatReleasedIt() throws {
        var catalog = FactoryCatalog()
        catalog.register("heavy", provides: (any HeavyService).self, lifetime: .singleton) { Heavy() }
        weak var weakActivation: Activation?
        try {
            let container = try Container(catalog: catalog, manifest: Manifest(bindings: [
                Binding(protocol: "HeavyService", factory: "heavy"),
            ]))
            _ = try container.resolve((any HeavyService).self)
            _ = try container.resolve((any HeavyService).self)  // cached on this thread
            weakActivation = container.currentActivation()
        }()
        #expect(weakActivation == nil, "this thread's resolve cache kept a released container's activation")
    }

    @Test func aReplacedManifestsSingletonsStayValidForTheirHolders() throws {
        var catalog = FactoryCatalog()
        catalog.register("heavy", provides: (any HeavyService).self, lifetime: .singleton) { Heavy() }
        let manifest = Manifest(bindings: [Binding(protocol: "HeavyService", factory: "heavy")])
        let container = try Container(catalog: catalog, manifest: manifest)
        let old = try container.resolve((any HeavyService).self)
        // Another lifetime: a changed binding, so a new instance (an unchanged one would keep it).
        try container.activate(Manifest(bindings: [Binding(protocol: "HeavyService", factory: "heavy", lifetime: .weak)]))
        let new = try container.resolve((any HeavyService).self)
        #expect(old !== new)
        #expect(try container.resolve((any HeavyService).self) === new)
    }
}
