// A rewiring's own tasks (a watch's start of a new wiring, the shutdown of
// a retired one) are not kept waiting behind default-priority work, as a
// busy server's requests are: the global executor runs the jobs of one
// priority in the order they were queued, so a task queued behind a backlog
// waited for all of it (over five minutes, once, under a full suite on two
// cores, where every test is such work).
import Foundation
import Testing
@testable import Patchbay

#if canImport(Glibc)
import Glibc
#endif

@Suite struct RewiringBacklogTests {
    typealias R = Rewire
    let journal = Rewire.Journal()

    /// Default-priority work that holds every thread of the default priority until opened, as a
    /// busy server's requests hold theirs: a job per core, each blocking its thread. A job of the
    /// default priority queued meanwhile cannot run before `open()` (or a minute); one of another priority can.
    final class Backlog: Sendable {
        let count = ProcessInfo.processInfo.activeProcessorCount
        private let state = Locked((started: 0, finished: 0, isOpen: false))
        init() {
            for _ in 0..<count {
                Task(priority: .medium) { [state] in
                    state.withLock { $0.started += 1 }
                    // Blocking on purpose: the thread is held, as a request that computes holds it;
                    // for a minute at most, so that a platform where nothing else could run then fails, not hangs.
                    let deadline = Date().addingTimeInterval(60)
                    while !state.withLock({ $0.isOpen }) && Date() < deadline { usleep(1_000) }
                    state.withLock { $0.finished += 1 }
                }
            }
        }
        var started: Int { state.withLock { $0.started } }
        var finished: Int { state.withLock { $0.finished } }
        func open() { state.withLock { $0.isOpen = true } }
    }

    /// Runs `trigger` once a backlog (put in `holder`) holds every default-priority thread, and
    /// returns how much of the backlog had started and finished when `seen` first held (nil if it
    /// did not within 30 s, after which the backlog is let go). A job of the default priority sees
    /// (cores, 0) never: it runs only once the backlog is let go. All of it in a task of high
    /// priority, since a step of the default priority (this test's own) would wait for the backlog
    /// it must let go.
    private static func underBacklog(
        _ holder: Locked<Backlog?>, trigger: @escaping @Sendable () throws -> Void,
        seen: @escaping @Sendable () -> (started: Int, finished: Int)?
    ) async throws -> (count: Int, seen: (started: Int, finished: Int)?) {
        try await Task(priority: .high) {
            let backlog = Backlog()
            holder.withLock { $0 = backlog }
            defer { backlog.open() }
            // Every thread held. Its jobs are queued behind the rest of a full suite's tests, which
            // under a sanitizer on two cores take five minutes to run: a wait ended as soon as they run.
            let full = await eventually(within: 900) { backlog.started == backlog.count }
            try #require(full, "the backlog never held every thread: \(backlog.started) of \(backlog.count) started")
            try trigger()
            _ = await eventually(within: 30) { seen() != nil }
            return (backlog.count, seen())
        }.value
    }

    @Test func aWatchStartsTheNewWiringAheadOfTheBacklog() async throws {
        let folder = try ReloadFolder()
        let url = try folder.write(#"{ "format": 1, "bindings": [\#(R.store), \#(R.pool), \#(R.log)] }"#, to: "app.json")
        let container = try Container(catalog: R.catalog(journal), manifestAt: url)
        let backlog = Locked<Backlog?>(nil)
        let startedUnder = Locked<(started: Int, finished: Int)?>(nil)
        let watch = started(container.watch(url, settleDelay: .milliseconds(20), onChange: { _ in }, startingWith: { _ in
            startedUnder.withLock { $0 = $0 ?? backlog.withLock { $0.map { ($0.started, $0.finished) } } }
        }))
        defer { watch.cancel() }
        let (count, seen) = try await Self.underBacklog(
            backlog,
            trigger: {
                try Data(#"{ "format": 1, "bindings": [\#(R.store), \#(R.pool), { "protocol": "Log", "factory": "json-log" }] }"#.utf8)
                    .write(to: url)
            },
            seen: { startedUnder.withLock { $0 } })
        let under = try #require(seen, "the new wiring did not start within 30 s of the change, behind the backlog")
        #expect(under.started == count && under.finished == 0, "started with \(under) of \(count) jobs started and finished")
        #expect(await eventually(within: 300) { container.generation == 2 })
    }

    /// A singleton that records, when shut down, the backlog's progress.
    final class Tap: AsyncShutdown, Sendable {
        let shutDownUnder = Locked<(started: Int, finished: Int)?>(nil)
        let backlog: Locked<Backlog?>
        init(_ backlog: Locked<Backlog?>) { self.backlog = backlog }
        func shutdown() async throws {
            shutDownUnder.withLock { $0 = $0 ?? backlog.withLock { $0.map { ($0.started, $0.finished) } } }
        }
    }

    @Test func aRetiredWiringIsShutDownAheadOfTheBacklog() async throws {
        let backlog = Locked<Backlog?>(nil)
        let first = Tap(backlog)
        var catalog = FactoryCatalog()
        catalog.register("first", provides: Tap.self, lifetime: .singleton) { first }
        catalog.register("second", provides: Tap.self, lifetime: .singleton) { Tap(backlog) }
        let manifest = { @Sendable (factory: String) in
            try ManifestLoader().load(
                data: Data(#"{ "format": 1, "bindings": [ { "protocol": "Tap", "factory": "\#(factory)" } ] }"#.utf8),
                file: "app.json")
        }
        let container = try Container(catalog: catalog, manifest: manifest("first"))
        _ = try container.resolve(Tap.self)
        // Replacing the tap shuts it down once no lease holds its generation: at once, here.
        let (count, seen) = try await Self.underBacklog(
            backlog,
            trigger: { try container.activate(manifest("second")) }, seen: { first.shutDownUnder.withLock { $0 } })
        let under = try #require(seen, "the replaced tap was not shut down within 30 s, behind the backlog")
        #expect(under.started == count && under.finished == 0, "shut down with \(under) of \(count) jobs started and finished")
    }
}
