// Issue 56 through a watch: a file change re-activates keeping what did
// not change, reports when the replaced singletons were shut down
// (`.retired`), and with `startingWith:` starts the new wiring before it
// serves, rejecting one that fails to start while the old one serves.
import Foundation
import Testing
@testable import Patchbay

@Suite struct RewiringWatchTests {
    typealias R = Rewire
    let journal = Rewire.Journal()

    /// Every event a watch reported.
    final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [ManifestReloadEvent] = []
        @Sendable func append(_ event: ManifestReloadEvent) { lock.withLock { stored.append(event) } }
        var all: [ManifestReloadEvent] { lock.withLock { stored } }
        var activated: Int { all.filter { if case .activated = $0 { true } else { false } }.count }
        var rejected: [[Diagnostic]] { all.compactMap { if case .rejected(let found) = $0 { found } else { nil } } }
        var retired: [(Int, [Diagnostic])] {
            all.compactMap { if case .retired(let generation, let failures) = $0 { (generation, failures) } else { nil } }
        }
    }

    /// Whether `condition` holds within five minutes: a generous bound, as a wait that succeeds costs
    /// only its own time. What it waits for runs in a rewiring's own task, ahead of the suite's other
    /// work (`RewiringBacklogTests`); this test's own steps may still wait behind that work.
    private func eventually(_ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(300)
        while Date() < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    private func file(_ bindings: [String]) -> Data {
        Data((#"{ "format": 1, "bindings": ["# + bindings.joined(separator: ",") + "] }").utf8)
    }

    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("rewiring-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func aChangedFileKeepsWhatDidNotChangeAndReportsTheRetirement() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("app.json")
        try file([R.store, R.pool, R.log, R.ids]).write(to: url)
        let container = try Container(catalog: R.catalog(journal), manifestAt: url)
        let (ids, store) = (try R.serial(container, (any R.IDs).self), try R.serial(container, (any R.Store).self))
        let events = Events()
        let watch = container.watch(url, settleDelay: .milliseconds(20), onChange: events.append)
        defer { watch.cancel() }
        try file([R.store, R.pool, #"{ "protocol": "Log", "factory": "json-log" }"#, R.ids]).write(to: url)
        #expect(await eventually { events.retired.count == 1 }, "\(events.all), \(journal.all), generation \(container.generation)")
        #expect(events.activated == 1)
        #expect(events.retired.first?.0 == 1 && events.retired.first?.1.isEmpty == true)
        #expect(container.generation == 2)
        #expect(try R.serial(container, (any R.IDs).self) == ids)
        #expect(try R.serial(container, (any R.Store).self) != store)
        #expect(journal.shutdowns(of: "store") == 1 && journal.shutdowns(of: "ids") == 0)
    }

    @Test func aWiringThatFailsToStartIsRejectedAndTheNextFixedOneStarts() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("app.json")
        try file([R.store, R.pool, R.log]).write(to: url)
        let container = try Container(catalog: R.catalog(journal), manifestAt: url)
        let store = try R.serial(container, (any R.Store).self)
        let events = Events()
        struct Refused: Error, CustomStringConvertible { var description: String { "the database refused the password" } }
        let watch = container.watch(url, settleDelay: .milliseconds(20), onChange: events.append) { next in
            try next.makeSingletons()
            // A start-up check: a pool of size 13 cannot start.
            if try next.resolve((any R.Pool).self) is R.Part, next.manifest.bindings.contains(where: { $0.parameters == .object(["size": .integer(13)]) }) {
                throw Refused()
            }
        }
        defer { watch.cancel() }
        try file([R.store, #"{ "protocol": "Pool", "factory": "pool", "parameters": { "size": 13 } }"#, R.log]).write(to: url)
        #expect(await eventually { events.rejected.count == 1 }, "\(events.all), \(journal.all), generation \(container.generation)")
        #expect(events.rejected.first?.map(\.code) == [.startUpFailed])
        #expect(events.rejected.first?.first?.message.contains("the database refused the password") == true)
        #expect(container.generation == 1)
        #expect(try R.serial(container, (any R.Store).self) == store)
        // What the refused wiring made was shut down; the one in force was not.
        #expect(await eventually { journal.shutdowns(of: "pool") == 1 })
        #expect(journal.shutdowns(of: "console-log") == 0)
        try file([R.store, #"{ "protocol": "Pool", "factory": "pool", "parameters": { "size": 5 } }"#, R.log]).write(to: url)
        #expect(await eventually { events.activated == 1 })
        #expect(container.generation == 2)
        #expect(try R.serial(container, (any R.Store).self) != store)
    }

    @Test func aReplacedWiringIsReportedRetiredEvenWithNothingToShutDown() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("app.json")
        // Singletons that are never made: nothing to shut down when they are replaced.
        try file([R.ids]).write(to: url)
        let container = try Container(catalog: R.catalog(journal), manifestAt: url)
        let events = Events()
        let lease = await R.HeldLease(on: container)
        let watch = container.watch(url, settleDelay: .milliseconds(20), onChange: events.append)
        defer { watch.cancel() }
        try file([#"{ "protocol": "IDs", "factory": "ids", "parameters": { "size": 2 } }"#]).write(to: url)
        #expect(await eventually { events.activated == 1 })
        // Generation 1 is still leased: not retired yet.
        try await Task.sleep(for: .milliseconds(100))
        #expect(events.retired.isEmpty)
        await lease.end()
        #expect(await eventually { events.retired.count == 1 })
        #expect(events.retired.first?.0 == 1 && events.retired.first?.1.isEmpty == true)
        #expect(journal.shutdowns.isEmpty)
    }
}
