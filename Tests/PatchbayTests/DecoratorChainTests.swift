// How a compiled chain runs (issue 55's engine): a link that needs nothing
// is a plain call and a link with needs runs in a frame, yet both fail the
// same way, naming the decorator with the path as it is; an error from a
// link's need keeps the name of what threw it; a throw inside a chain lets
// go of what the chain had made; and a need that comes back to the
// decorated type is a cycle.
import Foundation
import Testing
@testable import Patchbay

/// A class product that counts its instances alive, to see a chain let go of them.
final class CountedStore: TaggedStore {
    let alive: Counter, released: Counter
    let tags = ["counted-store"]
    init(_ alive: Counter, _ released: Counter) {
        (self.alive, self.released) = (alive, released)
        alive.increment()
    }
    deinit { released.increment() }
}

@Suite struct DecoratorChainTests {
    /// `DecoratorTests`' catalog, with a decorator with a need that throws,
    /// one that resolves its need, a clock that fails, and the counted store.
    static func catalog(alive: Counter = Counter(), released: Counter = Counter()) -> FactoryCatalog {
        var catalog = DecoratorTests.catalog()
        catalog.registerDecorator("failing-timed", decorates: (any TaggedStore).self) {
            (_: any TaggedStore, _: any TagClock) throws -> any TaggedStore in throw DecoratorFailure()
        }
        catalog.register("failing-clock", provides: (any TagClock).self) { () throws -> any TagClock in
            throw DecoratorFailure()
        }
        catalog.register("store-clock", provides: (any TagClock).self) { (_: any TaggedStore) in SomeClock() }
        catalog.register("counted-store", provides: (any TaggedStore).self) { CountedStore(alive, released) }
        return catalog
    }

    static func container(_ json: String, catalog: FactoryCatalog = catalog()) throws -> Container {
        try DecoratorTests.container(json, catalog: catalog)
    }

    static let clock = #",{ "protocol": "TagClock", "factory": "some-clock" }"#

    // MARK: - Naming a failure

    /// A link that needs nothing runs in no frame of its own, yet its failure
    /// reads as a frame's would: the decorator named, the path ending with it.
    @Test(arguments: ["transient", "singleton", "scoped"])
    func aNeedlessLinksFailureNamesTheDecorator(_ lifetime: String) throws {
        let container = try Self.container(DecoratorTests.manifest(#"["first", "failing", "second"]"#, lifetime: lifetime))
        let error = try #require(throws: ResolutionError.self) {
            try Scope().run { try container.resolve((any TaggedStore).self) }
        }
        #expect(error.reason == .factoryFailed)
        #expect(error.factory == "failing")
        #expect(error.underlying is DecoratorFailure)
        #expect(error.dependencyPath == ["TaggedStore", "TaggedStore"])
        #expect(error.description.contains("decorator 'failing' in the chain of TaggedStore threw"), "\(error)")
    }

    /// The same failure met as a need of another binding: the path goes on from it.
    @Test func aNeedlessLinksFailureKeepsTheWholePath() throws {
        let json = DecoratorTests.manifest(
            #"["failing"]"#, more: #",{ "protocol": "TagClock", "factory": "store-clock" }"#)
        let container = try Self.container(json)
        let error = try #require(throws: ResolutionError.self) { try container.resolve((any TagClock).self) }
        #expect(error.dependencyPath == ["TagClock", "TaggedStore", "TaggedStore"])
        #expect(error.description.contains("decorator 'failing' in the chain of TaggedStore threw"), "\(error)")
    }

    /// A link with needs runs in its frame: its own failure is named the same way.
    @Test(arguments: ["transient", "singleton"])
    func aLinkWithNeedsFailureNamesTheDecorator(_ lifetime: String) throws {
        let container = try Self.container(
            DecoratorTests.manifest(#"["first", "failing-timed"]"#, lifetime: lifetime, more: Self.clock))
        let error = try #require(throws: ResolutionError.self) { try container.resolve((any TaggedStore).self) }
        #expect(error.reason == .factoryFailed)
        #expect(error.factory == "failing-timed")
        #expect(error.underlying is DecoratorFailure)
        #expect(error.dependencyPath == ["TaggedStore", "TaggedStore"])
        #expect(error.description.contains("decorator 'failing-timed' in the chain of TaggedStore threw"), "\(error)")
    }

    /// What a link's need throws is that need's failure, named for what threw
    /// it: the frame that names a decorator is the link's own, not one found
    /// by name further out.
    @Test func aLinksNeedFailsUnderItsOwnName() throws {
        let failingClock = #",{ "protocol": "TagClock", "factory": "failing-clock" }"#
        let container = try Self.container(DecoratorTests.manifest(#"["timed"]"#, more: failingClock))
        let error = try #require(throws: ResolutionError.self) { try container.resolve((any TaggedStore).self) }
        #expect(error.factory == "failing-clock")
        #expect(error.dependencyPath == ["TaggedStore", "TaggedStore", "TagClock"])
        #expect(error.description.contains("factory 'failing-clock' threw"), "\(error)")
        #expect(!error.description.contains("decorator"), "\(error)")
    }

    /// A need's failure that carries the decorator's name (a test override,
    /// named "override", failing for a decorator of that name) is not taken
    /// for the decorator's own: the old rule matched failures by name.
    @Test func aNeedsFailureIsNotRenamedForSharingTheDecoratorsName() throws {
        var catalog = Self.catalog()
        catalog.registerDecorator("override", decorates: (any TaggedStore).self) {
            (inner: any TaggedStore, _: any TagClock) in Layer(inner, "override")
        }
        let container = try Self.container(DecoratorTests.manifest(#"["override"]"#, more: Self.clock), catalog: catalog)
        let error = try #require(throws: ResolutionError.self) {
            try container.withOverrides({ $0.override((any TagClock).self) { throw DecoratorFailure() } }) {
                try container.resolve((any TaggedStore).self)
            }
        }
        #expect(error.factory == "override")
        #expect(error.dependencyPath == ["TaggedStore", "TaggedStore", "TagClock"])
        #expect(error.description.contains("factory 'override' threw"), "\(error)")
        #expect(!error.description.contains("decorator 'override'"), "\(error)")
    }

    // MARK: - What a chain makes, and lets go of

    /// A link throwing inside a transient chain (made into the caller's
    /// memory) or a scoped one (boxed): what was made before it is let go
    /// of, the links after it never run, and the next request starts afresh.
    @Test(arguments: ["transient", "scoped"])
    func aThrowingLinkLetsGoOfWhatTheChainMade(_ lifetime: String) throws {
        let alive = Counter(), released = Counter(), counted = Counter()
        var catalog = Self.catalog(alive: alive, released: released)
        catalog.registerDecorator("counted-after", decorates: (any TaggedStore).self) { (inner: any TaggedStore) in
            counted.increment()
            return Layer(inner, "counted-after")
        }
        let json = DecoratorTests.manifest(#"["first", "failing", "counted-after"]"#, lifetime: lifetime)
            .replacingOccurrences(of: "base-store", with: "counted-store")
        let container = try Self.container(json, catalog: catalog)
        for _ in 0..<2 {
            #expect(throws: ResolutionError.self) { try Scope().run { try container.resolve((any TaggedStore).self) } }
        }
        #expect(alive.value == 2)
        #expect(released.value == 2)
        #expect(counted.value == 0)
    }

    /// A chain that succeeds hands over one instance, wrapped in order, and
    /// keeps nothing of it once the caller lets go.
    @Test func aTransientChainKeepsNothingOfWhatItMade() throws {
        let alive = Counter(), released = Counter()
        let json = DecoratorTests.manifest(#"["first", "timed", "second"]"#, more: Self.clock)
            .replacingOccurrences(of: "base-store", with: "counted-store")
        let container = try Self.container(json, catalog: Self.catalog(alive: alive, released: released))
        for _ in 0..<3 {
            #expect(try container.resolve((any TaggedStore).self).tags == ["counted-store", "first", "timed", "second"])
        }
        #expect(alive.value == 3)
        #expect(released.value == 3)
    }

    // MARK: - Cycles

    /// A link's need whose factory asks for the decorated type again: the
    /// decorated binding is on the path while its chain is made, so it is a
    /// cycle, found on the first loop, through the link's frame.
    @Test func aNeedOfALinkThatComesBackIsACycle() throws {
        let holder = Box<Container>()
        let calls = Counter()
        var catalog = Self.catalog()
        catalog.register("looping-clock", provides: (any TagClock).self) { () throws -> any TagClock in
            calls.increment()
            _ = try holder.value!.resolve((any TaggedStore).self)
            return SomeClock()
        }
        let container = try Self.container(DecoratorTests.manifest(
            #"["first", "timed"]"#, more: #",{ "protocol": "TagClock", "factory": "looping-clock" }"#), catalog: catalog)
        holder.value = container
        let error = try #require(throws: ResolutionError.self) { try container.resolve((any TaggedStore).self) }
        #expect(error.reason == .dependencyCycle)
        #expect(error.dependencyPath == ["TaggedStore", "TaggedStore", "TagClock", "TaggedStore"])
        #expect(calls.value == 1, "found on the first loop")
    }

    /// A link that needs nothing but resolves the decorated type by hand
    /// meets the decorated binding on the path too: a cycle, not a recursion.
    @Test func aNeedlessLinkThatResolvesTheDecoratedTypeIsACycle() throws {
        let holder = Box<Container>()
        let calls = Counter()
        var catalog = Self.catalog()
        catalog.registerDecorator("resolving", decorates: (any TaggedStore).self) { (inner: any TaggedStore) in
            calls.increment()
            _ = try holder.value!.resolve((any TaggedStore).self)
            return inner
        }
        let container = try Self.container(DecoratorTests.manifest(#"["resolving"]"#), catalog: catalog)
        holder.value = container
        let error = try #require(throws: ResolutionError.self) { try container.resolve((any TaggedStore).self) }
        #expect(error.reason == .dependencyCycle)
        #expect(error.dependencyPath.first == "TaggedStore" && error.dependencyPath.last == "TaggedStore")
        #expect(calls.value == 1, "found on the first loop")
    }
}
