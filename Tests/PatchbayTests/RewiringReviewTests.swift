// Issue 56's hostile review (rewire a running server): each test is a probe a
// reviewer wrote against the first version, kept as a test of the fix.
import Foundation
import Testing
@testable import Patchbay

enum RewireReview {
    /// A singleton that reads its log through `@Injected`, not a factory parameter.
    final class Service: @unchecked Sendable {
        @Injected var log: any Rewire.Log
        init() {}
    }

    final class Gate: @unchecked Sendable {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        var armed = false
    }
    struct Blocker: Sendable {}
    protocol Holder: Sendable {}
    struct HolderImpl: Holder { let ids: any Rewire.IDs }

    static func catalog(_ journal: Rewire.Journal, gate: Gate = Gate()) -> FactoryCatalog {
        var catalog = Rewire.catalog(journal)
        catalog.register("service", provides: Service.self, lifetime: .singleton) { Service() }
        catalog.register("blocker", provides: Blocker.self, lifetime: .transient) { () -> Blocker in
            if gate.armed {
                gate.entered.signal()
                gate.release.wait()
            }
            return Blocker()
        }
        catalog.register("holder", provides: (any Holder).self, lifetime: .singleton) {
            (_: Blocker, ids: any Rewire.IDs) -> any Holder in HolderImpl(ids: ids)
        }
        return catalog
    }
}

@Suite(.serialized) struct RewiringReviewTests {
    typealias R = Rewire
    let journal = Rewire.Journal()
    let json = #"{ "protocol": "Log", "factory": "json-log" }"#

    // 1. A Provider made by the staging container inside `startingWith` holds
    // that container weakly: once the new wiring is in force, the kept singleton's
    // provider resolves from a container that is gone.
    @Test func aProviderMadeWhileStartingStillResolvesAfterPublish() async throws {
        let container = try Container(catalog: R.catalog(journal), manifest: R.manifest([R.log]))
        let cached = #"{ "protocol": "Cache", "factory": "provided-cache" }"#
        try await container.activate(R.manifest([R.log, cached])) { next in
            _ = try next.resolve((any R.Cache).self)
        }
        let cache = try container.resolve((any R.Cache).self) as! R.Part
        let provider = cache.parts[0] as! Provider<any R.Log>
        #expect(throws: Never.self) { _ = try provider.get() }
    }

    // 1b. The same with a Lazy made while starting.
    @Test func aLazyMadeWhileStartingStillResolvesAfterPublish() async throws {
        let container = try Container(catalog: R.catalog(journal), manifest: R.manifest([R.log]))
        let feed = #"{ "protocol": "Feed", "factory": "feed" }"#
        try await container.activate(R.manifest([R.log, feed])) { next in
            _ = try next.resolve((any R.Feed).self)
        }
        let made = try container.resolve((any R.Feed).self) as! R.Part
        let lazy = made.parts[0] as! Lazy<any R.Log>
        #expect(throws: Never.self) { _ = try lazy.get() }
    }

    // 2. A refused start (another manifest was activated meanwhile) shuts down
    // what the new wiring kept from the old one, ignoring the lease that holds it.
    @Test func aRefusedStartDoesNotShutDownWhatALeaseHolds() async throws {
        let container = try Container(catalog: R.catalog(journal), manifest: R.manifest([R.log, R.ids]))
        let ids = try R.serial(container, (any R.IDs).self)
        let (leased, endLease) = (AsyncStream<Void>.makeStream(), AsyncStream<Void>.makeStream())
        let request = Task {
            await container.withLease {
                leased.continuation.yield()
                for await _ in endLease.stream { break }
                journal.use(ids)
            }
        }
        for await _ in leased.stream { break }
        let (starting, finishStart) = (AsyncStream<Void>.makeStream(), AsyncStream<Void>.makeStream())
        let slow = Task {
            try await container.activate(R.manifest([R.log, R.ids, #"{ "protocol": "Clock", "factory": "clock" }"#])) { _ in
                starting.continuation.yield()
                for await _ in finishStart.stream { break }
            }
        }
        for await _ in starting.stream { break }
        // Meanwhile another manifest replaces the ids: their retirement waits for the lease on 1.
        try container.activate(R.manifest([json, #"{ "protocol": "IDs", "factory": "ids", "parameters": { "size": 1 } }"#]))
        finishStart.continuation.yield()
        await #expect(throws: ManifestError.self) { try await slow.value }
        // The lease on generation 1 still runs: nothing it could reach may be shut down yet.
        #expect(journal.shutdowns.isEmpty)
        endLease.continuation.yield()
        await request.value
        #expect(journal.usedAfterShutdown == 0)
        await container.waitForRetirements()
        #expect(journal.shutdowns(of: "ids") == 1)
    }

    // 3. A resolution under way when a manifest is activated makes its singletons
    // in the replaced activation's storages after the swap: no retirement lists
    // them, and `shutdown()` looks only at the wiring in force: never shut down.
    @Test func aSingletonMadeByAResolutionUnderWayIsShutDownSomeday() async throws {
        let gate = RewireReview.Gate()
        let manifest = { (size: Int) in
            try R.manifest([
                #"{ "protocol": "Blocker", "factory": "blocker" }"#,
                #"{ "protocol": "Holder", "factory": "holder" }"#,
                #"{ "protocol": "IDs", "factory": "ids", "parameters": { "size": \#(size) } }"#,
            ])
        }
        let container = try Container(catalog: RewireReview.catalog(journal, gate: gate), manifest: manifest(8))
        gate.armed = true
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? container.resolve((any RewireReview.Holder).self)
            done.signal()
        }
        gate.entered.wait()
        try container.activate(manifest(1))  // the ids change: the old storage is dropped, still empty
        gate.armed = false
        gate.release.signal()
        done.wait()
        #expect(journal.all.filter { $0.hasPrefix("made ids") }.count == 1)
        await container.waitForRetirements()
        try await container.shutdown()
        // The ids made by the old wiring after the swap: shut down by someone, once.
        #expect(journal.shutdowns(of: "ids") == 1)
    }

    // 4. `@Injected` needs are invisible to the keep rule: a kept singleton keeps
    // the log it read, which the re-activation replaced and shut down.
    @Test func anInjectedNeedThatChangedIsNotKeptShutDown() async throws {
        let container = try Container(
            catalog: RewireReview.catalog(journal), manifest: R.manifest([R.log, #"{ "protocol": "Service", "factory": "service" }"#]))
        let before = try container.resolve(RewireReview.Service.self)
        let oldLog = (before.log as! R.Part).serial
        try container.activate(R.manifest([json, #"{ "protocol": "Service", "factory": "service" }"#]))
        await container.waitForRetirements()
        let after = try container.resolve(RewireReview.Service.self)
        let log = after.log as! R.Part
        journal.use(log.serial)
        // A known limit, documented in "Re-activate while running": an `@Injected` read is no need the
        // manifest shows, so the kept service keeps the log it read, which was replaced and shut down.
        withKnownIssue("@Injected reads are invisible to the keep rule; read a rewired dependency through a Provider") {
            #expect(log.name == "json-log" || journal.usedAfterShutdown == 0, "kept service holds console-log#\(oldLog), shut down")
        }
    }

    // 5. A `${VAR}` whose value changes between two activations is a change.
    @Test func anInterpolatedParameterThatChangedRemakes() async throws {
        let tagged = #"{ "protocol": "Store", "factory": "store", "decorators": [{ "decorator": "tagged", "parameters": { "tag": "${TAG}" } }] }"#
        let container = try Container(
            catalog: R.catalog(journal), manifest: R.manifest([tagged, R.pool, R.log], environment: ["TAG": "a"]))
        let first = try R.serial(container, (any R.Store).self)
        try container.activate(R.manifest([tagged, R.pool, R.log], environment: ["TAG": "b"]))
        #expect(try R.serial(container, (any R.Store).self) != first)
    }

    // 6. 1,000 swaps: what grows with them.
    @Test func thousandSwapsGrowNothing() async throws {
        let container = try Container(catalog: R.catalog(journal), manifest: R.manifest([R.log]))
        for round in 0..<1000 {
            try container.activate(R.manifest([round % 2 == 0 ? json : R.log]))
            _ = try container.resolve((any R.Log).self)
        }
        await container.waitForRetirements()
        let unmade = container.retiring.withLock { $0.late.count }
        let tasks = container.retiring.withLock { $0.tasks.count }
        let pending = container.ledger.withLock { $0.pendingCount }
        #expect(unmade == 0, "nothing was made late")
        #expect(tasks == 0 && pending == 0)
        #expect(container.generation == 1001)
    }

    // 7. Test overrides do not reach the staging container: start makes the real thing.
    @Test func overridesReachTheStartingWiring() async throws {
        let container = try Container(catalog: R.catalog(journal), manifest: R.manifest([R.log]))
        let fake = R.Part("fake-log", journal)
        try await container.withOverrides({ $0.override((any R.Log).self, with: fake as any R.Log) }) {
            try await container.activate(R.manifest([json])) { next in
                let log = try next.resolve((any R.Log).self) as! R.Part
                #expect(log.name == "fake-log", "the staging container made \(log.name) under an override")
            }
        }
    }

    // 8. A need served through injector fallback, then by a binding of its own injector: remade.
    @Test func aNeedNoLongerServedByFallbackRemakes() async throws {
        let store = #"{ "protocol": "Store", "factory": "store", "injector": "secondary" }"#
        let pool = #"{ "protocol": "Pool", "factory": "pool", "parameters": { "size": 4 } }"#
        let pool2 = #"{ "protocol": "Pool", "factory": "pool", "parameters": { "size": 2 }, "injector": "secondary" }"#
        let container = try Container(catalog: R.catalog(journal), manifest: R.manifest([store, pool, R.log]))
        let first = (try container.resolve((any R.Store).self, from: "secondary") as! R.Part).serial
        try container.activate(R.manifest([store, pool, pool2, R.log]))
        let second = (try container.resolve((any R.Store).self, from: "secondary") as! R.Part).serial
        #expect(first != second)
    }

    // 9. A collection whose elements swap order: the registry sees another order, so it is remade.
    @Test func aCollectionReorderedRemakesItsHolder() async throws {
        let a = #"{ "collection": "Plugin", "factory": "plugin-a" }"#
        let b = #"{ "collection": "Plugin", "factory": "plugin-b" }"#
        let registry = #"{ "protocol": "Registry", "factory": "registry" }"#
        let container = try Container(catalog: R.catalog(journal), manifest: R.manifest([registry, a, b]))
        let first = try R.serial(container, (any R.Registry).self)
        try container.activate(R.manifest([registry, b, a]))
        #expect(try R.serial(container, (any R.Registry).self) != first)
    }

    // 10. Memory over 3,000 swaps after a warm-up: resident size should not keep growing. Not under
    // AddressSanitizer (`.ci/run` sets ASAN_OPTIONS), whose quarantine holds freed memory on purpose.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["ASAN_OPTIONS"] == nil, "AddressSanitizer keeps freed memory"))
    func swapsDoNotGrowResidentMemory() async throws {
        func rss() -> Int {
            let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? "0 0"
            return (Int(statm.split(separator: " ")[1]) ?? 0) * 4096
        }
        let container = try Container(catalog: R.catalog(journal), manifest: R.manifest([R.log, R.pool, R.store]))
        let wirings = [try R.manifest([json, R.pool, R.store]), try R.manifest([R.log, R.pool, R.store])]
        func swap(_ count: Int) async throws {
            for round in 0..<count {
                try container.activate(wirings[round % 2])
                try container.withLease { _ = try container.resolve((any R.Store).self) }
            }
            await container.waitForRetirements()
        }
        try await swap(1000)
        let before = rss()
        try await swap(3000)
        let after = rss()
        #expect(after - before < 8_000_000)
    }

    // 11. A change only in the manifest's top-level `decorate` section (a decorator's parameters):
    // the chain must be remade, as it is when the binding's own `decorators` change.
    @Test func aChangedDecorateSectionRemakesTheChain() async throws {
        func manifest(_ tag: String) throws -> Manifest {
            try R.manifest(#"""
                { "format": 1, "bindings": [\#(R.store), \#(R.pool), \#(R.log)],
                  "decorate": [{ "protocol": "Store", "add": [{ "decorator": "tagged", "parameters": { "tag": "\#(tag)" } }] }] }
                """#)
        }
        let container = try Container(catalog: R.catalog(journal), manifest: manifest("a"))
        let first = try container.resolve((any R.Store).self) as! R.Part
        #expect(first.name == "tagged")
        try container.activate(manifest("b"))
        let second = try container.resolve((any R.Store).self) as! R.Part
        #expect(second.serial != first.serial, "the tagged chain with tag 'a' was kept for tag 'b'")
    }

    // 12. Two `activate(_:startingWith:)` at once: one wins, the other is refused, and the
    // refusal shuts down nothing the winner serves.
    @Test func twoConcurrentStartsShutDownNothingInForce() async throws {
        let container = try Container(catalog: R.catalog(journal), manifest: R.manifest([R.log, R.ids]))
        _ = try R.serial(container, (any R.IDs).self)
        let bothIn = AsyncStream<Void>.makeStream()
        let gos = [AsyncStream<Void>.makeStream(), AsyncStream<Void>.makeStream()]
        let wirings = [try R.manifest([json, R.ids]), try R.manifest([R.log, R.ids, R.pool])]
        let starts = zip(wirings, gos).map { wiring, go in
            Task {
                try await container.activate(wiring) { next in
                    _ = try next.resolve((any R.Log).self)
                    bothIn.continuation.yield()
                    for await _ in go.stream { break }
                }
            }
        }
        var entered = 0
        for await _ in bothIn.stream { entered += 1; if entered == 2 { break } }
        for go in gos { go.continuation.yield() }
        var refused = 0
        for start in starts { if (try? await start.value) == nil { refused += 1 } }
        #expect(refused == 1)
        await container.waitForRetirements()
        let log = try container.resolve((any R.Log).self) as! R.Part
        let ids = try container.resolve((any R.IDs).self) as! R.Part
        journal.use(log.serial)
        journal.use(ids.serial)
        #expect(journal.usedAfterShutdown == 0, "journal: \(journal.all)")
    }

    // 13. `@Injected` in a singleton made by the staging container: after publish its first read
    // resolves from the released staging container (the getter would trap; `$log.resolve()` throws).
    @Test func anInjectedPropertyMadeWhileStartingResolvesAfterPublish() async throws {
        let service = #"{ "protocol": "Service", "factory": "service" }"#
        let container = try Container(catalog: RewireReview.catalog(journal), manifest: R.manifest([R.log]))
        try await container.activate(R.manifest([R.log, service])) { next in
            _ = try next.resolve(RewireReview.Service.self)
        }
        let made = try container.resolve(RewireReview.Service.self)
        #expect(throws: Never.self) { _ = try made.$log.resolve() }
    }

    // 14. A reset during a start: no manifest was activated, yet the start is refused as if one
    // were, and the refusal shuts down the singletons reset() only forgot (reset shuts nothing down).
    @Test func aResetDuringAStartIsNotAnotherManifest() async throws {
        let container = try Container(catalog: R.catalog(journal), manifest: R.manifest([R.log, R.ids]))
        _ = try R.serial(container, (any R.IDs).self)
        let (starting, finish) = (AsyncStream<Void>.makeStream(), AsyncStream<Void>.makeStream())
        let start = Task {
            try await container.activate(R.manifest([R.log, R.ids, R.pool])) { _ in
                starting.continuation.yield()
                for await _ in finish.stream { break }
            }
        }
        for await _ in starting.stream { break }
        container.reset()
        finish.continuation.yield()
        let error = await #expect(throws: ManifestError.self) { try await start.value }
        #expect(error?.diagnostics.first?.message.contains("reset") == true)
        #expect(journal.shutdowns.isEmpty, "a reset shuts nothing down, yet: \(journal.shutdowns)")
    }

    // 15. Parameters equal in value, written differently (spacing, key order): nothing changed.
    @Test func parametersEqualInValueButNotInTextAreKept() async throws {
        let container = try Container(
            catalog: R.catalog(journal),
            manifest: R.manifest([#"{ "protocol": "IDs", "factory": "ids", "parameters": { "size": 8 } }"#]))
        let first = try R.serial(container, (any R.IDs).self)
        try container.activate(R.manifest([#"{ "protocol": "IDs", "factory": "ids", "parameters": {"size":8.0} }"#]))
        let second = try R.serial(container, (any R.IDs).self)
        #expect(first == second)
    }
}
