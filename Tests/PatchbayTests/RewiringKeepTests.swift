// Issue 56, "keep what did not change": a re-activation keeps the made
// singleton of every binding whose factory, parameters (after
// interpolation), lifetime, injector, decorators and needs' bindings are
// unchanged, and makes anew what changed and what depends on it. One test
// per clause of the reference's rule ("Re-activate while running").
import Foundation
import Testing
@testable import Patchbay

@Suite struct RewiringKeepTests {
    typealias R = Rewire
    let journal = Rewire.Journal()

    private func container(_ bindings: [String], environment: [String: String] = [:]) throws -> Container {
        try Container(catalog: R.catalog(journal), manifest: R.manifest(bindings, environment: environment))
    }

    /// The serials `container` serves for a store, its pool and the log now.
    private func serials(_ container: Container) throws -> (store: Int, pool: Int, log: Int) {
        (try R.serial(container, (any R.Store).self), try R.serial(container, (any R.Pool).self),
         try R.serial(container, (any R.Log).self))
    }

    @Test func theSameManifestAgainKeepsEverySingleton() throws {
        let container = try container([R.store, R.pool, R.log, R.ids])
        let before = try serials(container)
        let ids = try R.serial(container, (any R.IDs).self)
        #expect(container.generation == 1)
        try container.activate(R.manifest([R.ids, R.log, R.pool, R.store]))  // reordered: the same wiring
        #expect(container.generation == 2)
        #expect(try serials(container) == before)
        #expect(try R.serial(container, (any R.IDs).self) == ids)
    }

    @Test func changedParametersRemakeTheBindingAndWhatNeedsIt() throws {
        let container = try container([R.store, R.pool, R.log, R.ids])
        let before = try serials(container)
        let ids = try R.serial(container, (any R.IDs).self)
        try container.activate(R.manifest([
            R.store, #"{ "protocol": "Pool", "factory": "pool", "parameters": { "size": 5 } }"#, R.log, R.ids,
        ]))
        let after = try serials(container)
        #expect(after.pool != before.pool)
        #expect(after.store != before.store)  // it needs the pool
        #expect(after.log == before.log)
        #expect(try R.serial(container, (any R.IDs).self) == ids)
    }

    @Test func parametersAreComparedAfterInterpolation() throws {
        let pool = #"{ "protocol": "Pool", "factory": "pool", "parameters": { "size": "${POOL_SIZE:-4}" } }"#
        let container = try container([pool, R.log], environment: ["POOL_SIZE": "4"])
        let first = try R.serial(container, (any R.Pool).self)
        // The same text and the same value: kept; other text with the same value after interpolation too.
        try container.activate(R.manifest([pool, R.log], environment: ["POOL_SIZE": "4"]))
        #expect(try R.serial(container, (any R.Pool).self) == first)
        let other = #"{ "protocol": "Pool", "factory": "pool", "parameters": { "size": "${OTHER_SIZE:-4}" } }"#
        try container.activate(R.manifest([other, R.log]))
        #expect(try R.serial(container, (any R.Pool).self) == first)
        // Another value of the variable: made anew.
        try container.activate(R.manifest([pool, R.log], environment: ["POOL_SIZE": "9"]))
        #expect(try R.serial(container, (any R.Pool).self) != first)
    }

    @Test func anotherFactoryOfANeedRemakesWhatNeedsIt() throws {
        let container = try container([R.store, R.pool, R.log, R.ids])
        let before = try serials(container)
        let ids = try R.serial(container, (any R.IDs).self)
        try container.activate(R.manifest([R.store, R.pool, #"{ "protocol": "Log", "factory": "json-log" }"#, R.ids]))
        let after = try serials(container)
        #expect(after.log != before.log)
        #expect(after.pool != before.pool)  // the pool needs the log
        #expect(after.store != before.store)  // the store needs the pool
        #expect(try R.serial(container, (any R.IDs).self) == ids)
    }

    @Test func anotherLifetimeOrInjectorIsAnotherBinding() throws {
        let container = try container([R.log, R.ids])
        let ids = try R.serial(container, (any R.IDs).self)
        let log = try R.serial(container, (any R.Log).self)
        try container.activate(R.manifest([
            #"{ "protocol": "IDs", "factory": "ids", "parameters": { "size": 8 }, "lifetime": "weak" }"#, R.log,
        ]))
        #expect(try R.serial(container, (any R.IDs).self) != ids)
        // The log moved to the secondary injector: a primary request falls back to it, made anew.
        try container.activate(R.manifest([R.ids, #"{ "protocol": "Log", "factory": "console-log", "injector": "secondary" }"#]))
        #expect(try R.serial(container, (any R.Log).self) != log)
    }

    @Test func aProviderNeedKeepsItsHolderAndServesTheNewWiring() throws {
        let cache = #"{ "protocol": "Cache", "factory": "provided-cache" }"#
        let container = try container([cache, R.log])
        let held = try container.resolve((any R.Cache).self) as! R.Part
        let log = try R.serial(container, (any R.Log).self)
        try container.activate(R.manifest([cache, #"{ "protocol": "Log", "factory": "json-log" }"#]))
        // Kept: its `Provider` resolves from the wiring in force at each call.
        #expect(try R.serial(container, (any R.Cache).self) == held.serial)
        let provider = held.parts[0] as! Provider<any R.Log>
        let now = try provider.get() as! R.Part
        #expect(now.serial != log && now.name == "json-log")
    }

    @Test func aLazyNeedCountsAsANeed() throws {
        let feed = #"{ "protocol": "Feed", "factory": "feed" }"#
        let container = try container([feed, R.log])
        let first = try R.serial(container, (any R.Feed).self)
        try container.activate(R.manifest([feed, R.log]))
        #expect(try R.serial(container, (any R.Feed).self) == first)
        // A `Lazy` keeps what it resolved first, so its holder is made anew with the log.
        try container.activate(R.manifest([feed, #"{ "protocol": "Log", "factory": "json-log" }"#]))
        #expect(try R.serial(container, (any R.Feed).self) != first)
    }

    @Test func anOptionalNeedNowServedRemakesItsHolder() throws {
        let cache = #"{ "protocol": "Cache", "factory": "cache" }"#
        let container = try container([cache])
        let first = try R.serial(container, (any R.Cache).self)
        try container.activate(R.manifest([cache]))
        #expect(try R.serial(container, (any R.Cache).self) == first)
        try container.activate(R.manifest([cache, #"{ "protocol": "Clock", "factory": "clock" }"#]))
        let second = try R.serial(container, (any R.Cache).self)
        #expect(second != first)
        try container.activate(R.manifest([cache]))  // unserved again
        #expect(try R.serial(container, (any R.Cache).self) != second)
    }

    @Test func aCollectionKeepsItsElementsAndRemakesWhatReadsAChangedOne() throws {
        let registry = #"{ "protocol": "Registry", "factory": "registry" }"#
        let a = #"{ "collection": "Plugin", "factory": "plugin-a" }"#
        let b = #"{ "collection": "Plugin", "factory": "plugin-b" }"#
        let container = try container([registry, a])
        let first = try container.resolve((any R.Registry).self) as! R.Part
        let pluginA = (first.parts[0] as! R.Part).serial
        try container.activate(R.manifest([registry, a]))
        #expect(try R.serial(container, (any R.Registry).self) == first.serial)
        // An element added before it: `plugin-a` is kept, the registry that reads the list is made anew.
        try container.activate(R.manifest([registry, b, a]))
        let second = try container.resolve((any R.Registry).self) as! R.Part
        #expect(second.serial != first.serial)
        #expect(second.parts.map { ($0 as! R.Part).name } == ["plugin-b", "plugin-a"])
        #expect((second.parts[1] as! R.Part).serial == pluginA)
    }

    @Test func bindingsThatNeedEachOtherLazilyAreKeptTogether() throws {
        let ping = #"{ "protocol": "Ping", "factory": "ping" }"#, pong = #"{ "protocol": "Pong", "factory": "pong" }"#
        let container = try container([ping, pong, R.log])
        let (first, second) = (try R.serial(container, (any R.Ping).self), try R.serial(container, (any R.Pong).self))
        try container.activate(R.manifest([pong, ping, #"{ "protocol": "Log", "factory": "json-log" }"#]))
        #expect(try R.serial(container, (any R.Ping).self) == first)
        #expect(try R.serial(container, (any R.Pong).self) == second)
    }

    @Test func aChainIsKeptWholeAndItsProductWhenOnlyTheChainChanged() throws {
        func store(_ tag: String) -> String {
            #"{ "protocol": "Store", "factory": "store", "decorators": [{ "decorator": "tagged", "parameters": { "tag": "\#(tag)" } }] }"#
        }
        let container = try container([store("a"), R.pool, R.log])
        let outer = try container.resolve((any R.Store).self) as! R.Part
        let product = (outer.parts[0] as! R.Part).serial
        try container.activate(R.manifest([store("a"), R.pool, R.log]))
        #expect(try R.serial(container, (any R.Store).self) == outer.serial)
        // Another parameter of the link: a new link around the same product.
        try container.activate(R.manifest([store("b"), R.pool, R.log]))
        let next = try container.resolve((any R.Store).self) as! R.Part
        #expect(next.serial != outer.serial)
        #expect((next.parts[0] as! R.Part).serial == product)
        // The link's own need changed: the chain is made anew, the product (which needs the pool) too.
        try container.activate(R.manifest([store("b"), R.pool, #"{ "protocol": "Log", "factory": "json-log" }"#]))
        let last = try container.resolve((any R.Store).self) as! R.Part
        #expect(last.serial != next.serial && (last.parts[0] as! R.Part).serial != product)
    }

    @Test func aFirstDecoratorAddedOrTheLastRemovedKeepsTheProduct() throws {
        let tagged = #"{ "protocol": "Store", "factory": "store", "decorators": [{ "decorator": "tagged", "parameters": { "tag": "a" } }] }"#
        let container = try container([R.store, R.pool, R.log])
        let bare = try R.serial(container, (any R.Store).self)
        try container.activate(R.manifest([tagged, R.pool, R.log]))
        let outer = try container.resolve((any R.Store).self) as! R.Part
        #expect(outer.name == "tagged" && (outer.parts[0] as! R.Part).serial == bare)
        try container.activate(R.manifest([R.store, R.pool, R.log]))
        #expect(try R.serial(container, (any R.Store).self) == bare)
    }

    @Test func aScopesInstanceOfAnUnchangedBindingIsKept() throws {
        let container = try container([#"{ "protocol": "IDs", "factory": "ids", "parameters": { "size": 8 }, "lifetime": "scoped" }"#])
        let scope = Scope()
        let first = (try scope.resolve((any R.IDs).self, from: container) as! R.Part).serial
        try container.activate(R.manifest([#"{ "protocol": "IDs", "factory": "ids", "parameters": { "size": 8 }, "lifetime": "scoped" }"#]))
        #expect((try scope.resolve((any R.IDs).self, from: container) as! R.Part).serial == first)
        try container.activate(R.manifest([#"{ "protocol": "IDs", "factory": "ids", "parameters": { "size": 9 }, "lifetime": "scoped" }"#]))
        #expect((try scope.resolve((any R.IDs).self, from: container) as! R.Part).serial != first)
    }

    @Test func aResetAfterARewiringStillRenewsOnlyWhatItNames() throws {
        let container = try container([R.store, R.pool, R.log])
        let before = try serials(container)
        try container.activate(R.manifest([R.store, R.pool, R.log]))
        container.reset((any R.Log).self)
        let after = try serials(container)
        #expect(after.log != before.log && after.pool == before.pool && after.store == before.store)
        #expect(container.generation == 2)
    }
}
