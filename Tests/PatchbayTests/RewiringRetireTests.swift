// Issue 56, "retire what was replaced": a re-activation's replaced
// singletons that are `AsyncShutdown` are shut down exactly once, after
// the last lease that could reach them ends; kept ones never; `shutdown()`
// after reloads shuts down what still waits; and a new wiring that fails
// to start is refused while the old one serves.
import Foundation
import Testing
@testable import Patchbay

@Suite struct RewiringRetireTests {
    typealias R = Rewire
    let journal = Rewire.Journal()
    let json = #"{ "protocol": "Log", "factory": "json-log" }"#

    private func container(_ bindings: [String]) throws -> Container {
        try Container(catalog: R.catalog(journal), manifest: R.manifest(bindings))
    }

    @Test func aReplacedSingletonIsShutDownOnceWhenNoLeaseIsHeld() async throws {
        let container = try container([R.store, R.pool, R.log, R.ids])
        let (store, pool, log, ids) = (
            try R.serial(container, (any R.Store).self), try R.serial(container, (any R.Pool).self),
            try R.serial(container, (any R.Log).self), try R.serial(container, (any R.IDs).self))
        try container.activate(R.manifest([R.store, R.pool, json, R.ids]))
        await container.waitForRetirements()
        // What depends on the log first: the reverse of making.
        #expect(journal.shutdowns == ["shutdown store#\(store)", "shutdown pool#\(pool)", "shutdown console-log#\(log)"])
        // The ids were kept: never shut down, not even by the container's own shutdown after.
        try await container.shutdown()
        #expect(journal.shutdowns(of: "ids") == 1)
        #expect(journal.shutdowns(of: "console-log") == 1)
        _ = ids
    }

    @Test func aLeaseDefersTheShutdownUntilItEnds() async throws {
        let container = try container([R.log])
        let (entered, release) = (AsyncStream<Void>.makeStream(), AsyncStream<Void>.makeStream())
        let request = Task {
            try await container.withLease {
                let log = try container.resolve((any R.Log).self) as! R.Part
                entered.continuation.yield()
                for await _ in release.stream { break }
                journal.use(log.serial)  // still usable: not shut down under a lease
                return log.serial
            }
        }
        for await _ in entered.stream { break }
        try container.activate(R.manifest([json]))
        await container.waitForRetirements()
        #expect(journal.shutdowns.isEmpty)
        #expect(container.ledger.withLock { $0.pendingCount } == 1)
        release.continuation.yield()
        let serial = try await request.value
        await container.waitForRetirements()
        #expect(journal.shutdowns == ["shutdown console-log#\(serial)"])
        #expect(journal.usedAfterShutdown == 0)
    }

    @Test func aLeaseOfAnOlderGenerationHoldsWhatALaterOneKept() async throws {
        let container = try container([R.log, R.ids])
        // A lease on generation 1, which resolved the ids.
        let lease = await R.HeldLease(on: container)
        let ids = try R.serial(container, (any R.IDs).self)
        try container.activate(R.manifest([json, R.ids]))  // generation 2 keeps the ids
        try container.activate(R.manifest([json, #"{ "protocol": "IDs", "factory": "ids", "parameters": { "size": 1 } }"#]))
        await container.waitForRetirements()
        // Generation 2 has no lease, but the ids were made in 1, whose lease still runs.
        #expect(journal.shutdowns.isEmpty)
        await lease.end()
        await container.waitForRetirements()
        #expect(journal.shutdowns == ["shutdown ids#\(ids)"])
    }

    @Test func shutdownAfterReloadsShutsDownWhatWaitsAndNothingTwice() async throws {
        let container = try container([R.log, R.ids])
        _ = try container.resolve((any R.Log).self)
        let lease = await R.HeldLease(on: container)
        try container.activate(R.manifest([json, R.ids]))
        _ = try container.resolve((any R.Log).self)
        try container.activate(R.manifest([R.log, R.ids]))
        _ = try container.resolve((any R.Log).self)
        await container.waitForRetirements()
        // Generation 2 held no lease: its log is retired at once. Generation 1's waits for the lease.
        #expect(journal.shutdowns == ["shutdown json-log#2"])
        try await container.shutdown()
        // Then the one in force and the one still waiting, latest made first.
        #expect(journal.shutdowns == ["shutdown json-log#2", "shutdown console-log#3", "shutdown console-log#1"])
        await lease.end()
        await container.waitForRetirements()
        try await container.shutdown()
        #expect(journal.shutdowns.count == 3)
    }

    @Test func aFailedRetirementIsReportedOrThrownByTheNextShutdown() async throws {
        let failing = #"{ "protocol": "Pool", "factory": "failing-pool" }"#
        let container = try container([failing, R.log])
        _ = try container.resolve((any R.Pool).self)
        let heard = Locked<[(Int, [Diagnostic])]>([])
        try container.activate(R.manifest([R.pool, R.log]), reporting: { generation, failures in
            heard.withLock { $0.append((generation, failures)) }
        })
        await container.waitForRetirements()
        let reports = heard.withLock { $0 }
        #expect(reports.count == 1 && reports.first?.0 == 1)
        #expect(reports.first?.1.map(\.code) == [.shutdownFailed])
        #expect(reports.first?.1.first?.message.contains("factory 'failing-pool'") == true)
        // Without a watch to hear it, the next shutdown throws it.
        _ = try container.resolve((any R.Pool).self)
        try container.activate(R.manifest([failing, R.log]))
        _ = try container.resolve((any R.Pool).self)
        try container.activate(R.manifest([R.pool, R.log]))
        await container.waitForRetirements()
        let error = await #expect(throws: ManifestError.self) { try await container.shutdown() }
        #expect(error?.diagnostics.map(\.code) == [.shutdownFailed])
    }

    @Test func aWiringThatFailsToStartIsRefusedAndTheOldOneServes() async throws {
        let container = try container([R.store, R.pool, R.log])
        let store = try R.serial(container, (any R.Store).self)
        struct Unreachable: Error {}
        let error = await #expect(throws: ManifestError.self) {
            try await container.activate(R.manifest([R.store, R.pool, json])) { next in
                // The new wiring: a new log, pool and store, made but never served.
                _ = try next.resolve((any R.Store).self)
                throw Unreachable()
            }
        }
        #expect(error?.diagnostics.map(\.code) == [.startUpFailed])
        #expect(container.generation == 1)
        #expect(try R.serial(container, (any R.Store).self) == store)
        // What the refused wiring made was shut down; what it shared with the one in force was not.
        #expect(Set(journal.shutdowns.map { $0.split(separator: "#")[0] }) == ["shutdown store", "shutdown pool", "shutdown json-log"])
        #expect(journal.shutdowns(of: "console-log") == 0)
    }

    @Test func aWiringStartsBeforeItServes() async throws {
        let container = try container([R.store, R.pool, R.log, R.ids])
        let ids = try R.serial(container, (any R.IDs).self)
        let store = try R.serial(container, (any R.Store).self)
        try await container.activate(R.manifest([R.store, R.pool, json, R.ids])) { next in
            try next.makeSingletons()
            #expect(next.generation == 2 && container.generation == 1)
            // Still the old store in force while the new one starts.
            #expect(try R.serial(container, (any R.Store).self) == store)
            #expect(try R.serial(next, (any R.Store).self) != store)
            #expect(try R.serial(next, (any R.IDs).self) == ids)
        }
        #expect(container.generation == 2)
        #expect(try R.serial(container, (any R.Store).self) != store)
        #expect(try R.serial(container, (any R.IDs).self) == ids)
        await container.waitForRetirements()
        #expect(journal.shutdowns(of: "store") == 1 && journal.shutdowns(of: "ids") == 0)
    }

    /// Requests resolve under leases while the wiring flips between two
    /// manifests: no request ever uses a part after its shutdown, and every
    /// replaced part is shut down exactly once. Run under ThreadSanitizer.
    @Test func requestsUnderLeasesNeverSeeAShutDownPart() async throws {
        let container = try container([R.store, R.pool, R.log, R.ids])
        let wirings = [try R.manifest([R.store, R.pool, json, R.ids]), try R.manifest([R.store, R.pool, R.log, R.ids])]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<200 {
                        try await container.withLease {
                            let store = try container.resolve((any R.Store).self) as! R.Part
                            await Task.yield()
                            journal.use(store.serial)
                            journal.use((store.parts[0] as! R.Part).serial)
                        }
                    }
                }
            }
            group.addTask {
                for round in 0..<40 {
                    try container.activate(wirings[round % 2])
                    await Task.yield()
                }
            }
            try await group.waitForAll()
        }
        try await container.shutdown()
        #expect(journal.usedAfterShutdown == 0)
        let made = journal.all.filter { $0.hasPrefix("made") }.map { $0.dropFirst(5) }
        let shut = journal.shutdowns.map { $0.dropFirst(9) }
        #expect(shut.count == Set(shut).count)  // none twice
        #expect(Set(shut) == Set(made))  // every one made, once the container shut down too
    }
}
