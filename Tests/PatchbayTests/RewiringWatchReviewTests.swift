// Issue 56's hostile review of the watch: a chain's hostile parents, and starting a wiring from a watch.
import Foundation
import Testing
@testable import Patchbay

#if canImport(Glibc)
import Glibc
#endif

@Suite struct RewiringWatchReviewTests {
    private func base(_ factory: String) -> String {
        #"{ "format": 1, "environment": "test", "bindings": [ { "protocol": "ReloadGreeter", "factory": "\#(factory)" } ] }"#
    }
    private func child(_ parent: String) -> String { #"{ "format": 1, "extends": "\#(parent)", "bindings": [] }"# }

    // A parent that is a FIFO: the watch must refuse it (as the loader does, "not a file") and keep
    // watching, never block its queue on it.
    @Test func aFifoParentDoesNotHangTheWatch() async throws {
        let folder = try ReloadFolder()
        try folder.write(base("english"), to: "base.json")
        let url = try folder.write(child("base.json"), to: "config.json")
        let container = try folder.container(url)
        let log = EventLog()
        let watch = started(container.watch(url, settleDelay: .milliseconds(20), onChange: log.append))
        defer { watch.cancel() }
        let fifo = folder.url.appendingPathComponent("pipe.json").path
        #expect(mkfifo(fifo, 0o644) == 0)
        defer {
            // Unblocks a reader stuck on the FIFO: a writer that opens and closes at once.
            let fd = open(fifo, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
        }
        try Data(child("pipe.json").utf8).write(to: url)
        let rejected = await eventually(within: 30) { !log.rejected.isEmpty }
        #expect(rejected, "no event after extending a FIFO: events \(log.events)")
        // Back to a good parent: the watch must still be alive.
        try folder.write(base("french"), to: "base2.json")
        try Data(child("base2.json").utf8).write(to: url)
        #expect(await eventually(within: 30) { greeting(container) == "bonjour" }, "the watch hung: events \(log.events)")
    }

    // A parent that is a symlink loop: rejected, never hangs.
    @Test func aSymlinkLoopParentIsRejected() async throws {
        let folder = try ReloadFolder()
        try folder.write(base("english"), to: "base.json")
        let url = try folder.write(child("base.json"), to: "config.json")
        let container = try folder.container(url)
        let log = EventLog()
        let watch = started(container.watch(url, settleDelay: .milliseconds(20), onChange: log.append))
        defer { watch.cancel() }
        let loop = folder.url.appendingPathComponent("loop.json").path
        #expect(symlink(loop, loop) == 0)
        try Data(child("loop.json").utf8).write(to: url)
        #expect(await eventually(within: 30) { !log.rejected.isEmpty || !log.missing.isEmpty }, "events \(log.events)")
        try folder.write(base("french"), to: "base2.json")
        try Data(child("base2.json").utf8).write(to: url)
        #expect(await eventually(within: 30) { greeting(container) == "bonjour" })
    }

    // A 30-deep chain (the loader caps chains at 32): each file watched; an edit of the deepest re-activates.
    @Test func aDeepChainIsFollowed() async throws {
        let folder = try ReloadFolder()
        let depth = 30
        try folder.write(base("english"), to: "p\(depth).json")
        for level in stride(from: depth - 1, through: 1, by: -1) {
            try folder.write(child("p\(level + 1).json"), to: "p\(level).json")
        }
        let url = try folder.write(child("p1.json"), to: "config.json")
        let container = try folder.container(url)
        let log = EventLog()
        let watch = started(container.watch(url, settleDelay: .milliseconds(20), onChange: log.append))
        defer { watch.cancel() }
        try Data(base("french").utf8).write(to: folder.url.appendingPathComponent("p\(depth).json"))
        #expect(await eventually(within: 30) { greeting(container) == "bonjour" }, "events \(log.events)")
    }

    // `queue`'s doc: "Where the watch reads files and calls onChange". With `startingWith:`,
    // the `.activated` event is told from a task of the cooperative pool instead.
    @Test func aStartingWatchTellsOnChangeOnItsQueue() async throws {
        let folder = try ReloadFolder()
        try folder.write(base("english"), to: "base.json")
        let url = try folder.write(child("base.json"), to: "config.json")
        let container = try folder.container(url)
        let key = DispatchSpecificKey<Int>()
        let queue = DispatchQueue(label: "attack.watch")
        queue.setSpecific(key: key, value: 42)
        let offQueue = Locked<[String]>([])
        let log = EventLog()
        let watch = container.watch(url, settleDelay: .milliseconds(20), queue: queue, onChange: { event in
            if DispatchQueue.getSpecific(key: key) != 42 { offQueue.withLock { $0.append("\(event)") } }
            log.append(event)
        }, startingWith: { _ in })
        defer { watch.cancel() }
        watch.watcher.waitUntilIdle()
        try Data(base("french").utf8).write(to: folder.url.appendingPathComponent("base.json"))
        #expect(await eventually(within: 300) { log.activated.count == 1 })
        #expect(offQueue.withLock { $0 }.isEmpty, "told off its queue: \(offQueue.withLock { $0 })")
    }

    // A slow start while the file changes again: the later change is read once the start ends.
    @Test func aChangeDuringASlowStartIsReadAfterIt() async throws {
        let folder = try ReloadFolder()
        try folder.write(base("english"), to: "base.json")
        let url = try folder.write(child("base.json"), to: "config.json")
        let container = try folder.container(url)
        let log = EventLog()
        let started = Locked(0)
        let watch = container.watch(url, settleDelay: .milliseconds(20), onChange: log.append, startingWith: { _ in
            started.withLock { $0 += 1 }
            try await Task.sleep(nanoseconds: 400_000_000)
        })
        defer { watch.cancel() }
        watch.watcher.waitUntilIdle()
        try Data(base("french").utf8).write(to: folder.url.appendingPathComponent("base.json"))
        #expect(await eventually(within: 300) { started.withLock { $0 } == 1 })
        try Data(base("english").utf8).write(to: folder.url.appendingPathComponent("base.json"))
        try await Task.sleep(nanoseconds: 100_000_000)
        try Data(base("french").utf8).write(to: folder.url.appendingPathComponent("base.json"))
        try await Task.sleep(nanoseconds: 100_000_000)
        try Data(base("english").utf8).write(to: folder.url.appendingPathComponent("base.json"))
        // The last write says english; after the slow start of french, english must win.
        #expect(await eventually(within: 300) { log.activated.count == 2 && greeting(container) == "hello" },
            "events: \(log.events.count), starts: \(started.withLock { $0 })")
    }

    // cancel() during a start: nothing is told after cancel returns.
    @Test func nothingIsToldAfterCancelDuringAStart() async throws {
        let folder = try ReloadFolder()
        try folder.write(base("english"), to: "base.json")
        let url = try folder.write(child("base.json"), to: "config.json")
        let container = try folder.container(url)
        let log = EventLog()
        let started = Locked(0)
        let watch = container.watch(url, settleDelay: .milliseconds(20), onChange: log.append, startingWith: { _ in
            started.withLock { $0 += 1 }
            try await Task.sleep(nanoseconds: 300_000_000)
        })
        watch.watcher.waitUntilIdle()
        try Data(base("french").utf8).write(to: folder.url.appendingPathComponent("base.json"))
        #expect(await eventually(within: 300) { started.withLock { $0 } == 1 })
        watch.cancel()
        let told = log.events.count
        try await Task.sleep(nanoseconds: 700_000_000)
        #expect(log.events.count == told)
    }
}
