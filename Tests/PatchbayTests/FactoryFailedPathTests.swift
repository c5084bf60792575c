// A `factory-failed` error names the whole path that reached the failing
// binding, outermost first, wherever in the engine it is raised: here the
// check that a `weak` binding's product is a class instance, which runs
// after its factory returned, synchronously and awaited; and an `async`
// factory's own error, thrown where the engine runs its closure directly.
@testable import Patchbay
import Testing

/// Front -> Middle -> Leaf, where Leaf is `weak` and its factory makes a struct.
struct FactoryFailedPathTests {
    protocol Front: Sendable {}
    protocol Middle: Sendable {}
    protocol Leaf: Sendable {}
    struct FrontPart: Front { let middle: any Middle }
    struct MiddlePart: Middle { let leaf: any Leaf }
    /// A value type: a weak reference cannot hold it, which only the value tells.
    struct LeafValue: Leaf {}

    private let bindings = [bind("Front", to: "front"), bind("Middle", to: "middle"), bind("Leaf", to: "leaf", .weak)]

    @Test func aSynchronousWeakValueTypeNamesThePathThatReachedIt() throws {
        var catalog = FactoryCatalog()
        catalog.register("front", provides: (any Front).self) { (middle: any Middle) in FrontPart(middle: middle) }
        catalog.register("middle", provides: (any Middle).self) { (leaf: any Leaf) in MiddlePart(leaf: leaf) }
        catalog.register("leaf", provides: (any Leaf).self) { LeafValue() }
        let container = try makeContainer(catalog, bindings)
        let error = try #require(throws: ResolutionError.self) { try container.resolve((any Front).self) }
        #expect(error.reason == .factoryFailed && error.factory == "leaf")
        #expect((error.underlying as? RegistrationError) == .weakValueType)
        #expect(error.dependencyPath == ["Front", "Middle", "Leaf"], "\(error)")
        // The underlying error's sentence ends the message once: no "class..".
        #expect(!"\(error)".contains(".."), "\(error)")
    }

    @Test func anAwaitedWeakValueTypeNamesThePathThatReachedIt() async throws {
        var catalog = FactoryCatalog()
        catalog.register("front", provides: (any Front).self) { (middle: any Middle) async in FrontPart(middle: middle) }
        catalog.register("middle", provides: (any Middle).self) { (leaf: any Leaf) async in MiddlePart(leaf: leaf) }
        catalog.register("leaf", provides: (any Leaf).self) { () async in LeafValue() }
        let container = try makeContainer(catalog, bindings)
        let error = await #expect(throws: ResolutionError.self) { try await container.resolve(awaiting: (any Front).self) }
        #expect(error?.reason == .factoryFailed && error?.factory == "leaf")
        #expect((error?.underlying as? RegistrationError) == .weakValueType)
        #expect(error?.dependencyPath == ["Front", "Middle", "Leaf"], "\(String(describing: error))")
    }

    /// An `async` factory that needs nothing runs as the task-local push's
    /// own operation, with no closure around it (`AwaitedMaking.direct`),
    /// where its lifetime keeps no cell (transient, graph), and inside the
    /// cell's making where it does (singleton): on each way, it runs as the
    /// task's innermost call, its error is wrapped with the path, and the
    /// push is undone, so the next resolve in the task starts a path of its own.
    @Test(arguments: [Lifetime.transient, .graph, .singleton])
    func anAwaitedFactoryThatNeedsNothingAndThrowsNamesThePath(lifetime: Lifetime) async throws {
        struct Refused: Error {}
        struct NotItsOwnCall: Error {}
        var catalog = FactoryCatalog()
        catalog.register("front", provides: (any Front).self) { (middle: any Middle) async in FrontPart(middle: middle) }
        catalog.register("middle", provides: (any Middle).self) { () async throws -> any Middle in
            guard AwaitingCall.running?.binding.key.name == "Middle" else { throw NotItsOwnCall() }
            throw Refused()
        }
        let container = try makeContainer(catalog, [bind("Front", to: "front"), bind("Middle", to: "middle", lifetime)])
        let middle = try #require(container.currentActivation().binding(serving: ObjectIdentifier((any Middle).self), from: .primary))
        guard case .direct = middle.definition.buildAwaiting else {
            Issue.record("the form that needs nothing should make its product directly")
            return
        }
        for _ in 0..<2 {
            let nested = await #expect(throws: ResolutionError.self) { try await container.resolve(awaiting: (any Front).self) }
            #expect(nested?.reason == .factoryFailed && nested?.factory == "middle" && nested?.underlying is Refused)
            #expect(nested?.dependencyPath == ["Front", "Middle"], "\(String(describing: nested))")
            let alone = await #expect(throws: ResolutionError.self) { try await container.resolve(awaiting: (any Middle).self) }
            #expect(alone?.reason == .factoryFailed && alone?.underlying is Refused, "\(String(describing: alone))")
            #expect(alone?.dependencyPath == ["Middle"], "\(String(describing: alone))")
        }
    }
}
