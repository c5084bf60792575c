// A rewiring's own tasks (a watch's start of a new wiring, the shutdown of
// a retired one) are not kept waiting behind a backlog of default-priority
// work, as a busy server's queued requests are: the global executor runs
// work of one priority in the order it was queued, so a task queued behind
// a backlog waited for all of it (over five minutes, once, under a full
// suite on two cores, where every test is such work).
import Foundation
import Testing
@testable import Patchbay

#if canImport(Glibc)
import Glibc
#endif

@Suite struct RewiringBacklogTests {
    typealias R = Rewire
    let journal = Rewire.Journal()

    /// Default-priority work queued at once, each job holding its thread as a request that computes
    /// does: `count` jobs of 20 ms, which the two threads of a two-core machine take a while to drain.
    final class Backlog: Sendable {
        let count: Int
        private let finished = Locked(0)
        init(count: Int = 100) {
            self.count = count
            for _ in 0..<count {
                Task(priority: .medium) { [finished] in
                    usleep(20_000)  // Blocking on purpose: a request's computing holds its thread.
                    finished.withLock { $0 += 1 }
                }
            }
        }
        var done: Int { finished.withLock { $0 } }
    }

    /// Waits, without holding a thread, until `condition` holds; false after five minutes.
    private func eventually(_ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(300)
        while Date() < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }

    @Test func aWatchStartsTheNewWiringAheadOfTheBacklog() async throws {
        let folder = try ReloadFolder()
        let url = try folder.write(#"{ "format": 1, "bindings": [\#(R.store), \#(R.pool), \#(R.log)] }"#, to: "app.json")
        let container = try Container(catalog: R.catalog(journal), manifestAt: url)
        let startedAfter = Locked<Int?>(nil)
        let backlog = Locked<Backlog?>(nil)
        let watch = started(container.watch(url, settleDelay: .milliseconds(20), onChange: { _ in }, startingWith: { _ in
            startedAfter.withLock { $0 = backlog.withLock { $0?.done } }
        }))
        defer { watch.cancel() }
        backlog.withLock { $0 = Backlog() }
        try folder.write(#"{ "format": 1, "bindings": [\#(R.store), \#(R.pool), { "protocol": "Log", "factory": "json-log" }] }"#, to: "app.json")
        #expect(await eventually { startedAfter.withLock { $0 } != nil })
        let done = try #require(startedAfter.withLock { $0 })
        // Queued behind the backlog, it would start once the backlog's last jobs had (done ≥ count - 2).
        #expect(done < backlog.withLock { $0!.count } / 2, "started after \(done) jobs of the backlog")
        #expect(await eventually { container.generation == 2 })
        withExtendedLifetime(container) {}
    }

    /// A singleton that says, when shut down, how much of `backlog` was done by then.
    final class Tap: AsyncShutdown, Sendable {
        let shutDownAfter = Locked<Int?>(nil)
        let backlog: Locked<Backlog?>
        init(_ backlog: Locked<Backlog?>) { self.backlog = backlog }
        func shutdown() async throws { shutDownAfter.withLock { $0 = backlog.withLock { $0?.done } } }
    }

    @Test func aRetiredWiringIsShutDownAheadOfTheBacklog() async throws {
        let backlog = Locked<Backlog?>(nil)
        let first = Tap(backlog)
        var catalog = FactoryCatalog()
        catalog.register("first", provides: Tap.self, lifetime: .singleton) { first }
        catalog.register("second", provides: Tap.self, lifetime: .singleton) { Tap(backlog) }
        let manifest = { (factory: String) in
            try ManifestLoader().load(data: Data(#"{ "format": 1, "bindings": [ { "protocol": "Tap", "factory": "\#(factory)" } ] }"#.utf8), file: "app.json")
        }
        let container = try Container(catalog: catalog, manifest: manifest("first"))
        _ = try container.resolve(Tap.self)
        backlog.withLock { $0 = Backlog() }
        // Replaces the tap, which is shut down once no lease holds its generation: at once, here.
        try container.activate(manifest("second"))
        #expect(await eventually { first.shutDownAfter.withLock { $0 } != nil })
        let done = try #require(first.shutDownAfter.withLock { $0 })
        #expect(done < backlog.withLock { $0!.count } / 2, "shut down after \(done) jobs of the backlog")
    }
}
