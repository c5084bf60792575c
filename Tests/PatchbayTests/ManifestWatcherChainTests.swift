// Live reload follows the `extends` chain: a watched manifest re-activates
// when a parent (or a grandparent) changes, a parent named anew is watched
// from then on, a missing parent is waited for, and a ConfigMap swap of the
// file and its parent together is one activation.
import Foundation
import Testing

@testable import Patchbay

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

@Suite struct ManifestWatcherChainTests {
    // MARK: - A parent's edits

    @Test func editingOnlyTheParentReactivates() async throws {
        let folder = try ReloadFolder()
        try folder.write(greeter("english"), to: "base.json")
        let url = try folder.write(child(extending: "base.json"), to: "config.json")
        let container = try folder.container(url)
        let log = EventLog()
        let watch = started(container.watch(url, settleDelay: .milliseconds(20), onChange: log.append))
        defer { watch.cancel() }

        try Data(greeter("french").utf8).write(to: folder.url.appendingPathComponent("base.json"))
        #expect(await eventually { greeting(container) == "bonjour" })
        #expect(log.activated.count == 1)
        #expect(watch.watcher.chain.map(\.lastPathComponent) == ["config.json", "base.json"])

        // Saved by rename (a new inode): still followed.
        try Data(greeter("english").utf8).write(to: folder.url.appendingPathComponent("base.json"), options: .atomic)
        #expect(await eventually { greeting(container) == "hello" })
        #expect(await eventually { log.activated.count == 2 })
        #expect(log.rejected.isEmpty && log.missing.isEmpty)
    }

    @Test func pollingAloneSeesTheParentsEdits() async throws {
        let folder = try ReloadFolder()
        try folder.write(greeter("english"), to: "base.json")
        let url = try folder.write(child(extending: "base.json"), to: "config.json")
        let container = try folder.container(url)
        let log = EventLog()
        let watch = ManifestWatch(ManifestWatcher(
            container: container, url: url, loader: ManifestLoader(), settleDelay: .milliseconds(10),
            pollInterval: .milliseconds(20), fileEvents: false, queue: .global(), onChange: log.append))
        defer { watch.cancel() }
        watch.watcher.waitUntilIdle()
        #expect(!watch.watcher.usesFileEvents)
        // The first read finds the parent: polled from then on.
        #expect(await eventually { watch.watcher.chain.count == 2 })

        try Data(greeter("french").utf8).write(to: folder.url.appendingPathComponent("base.json"))
        #expect(await eventually { greeting(container) == "bonjour" })
        #expect(await eventually { log.activated.count == 1 })
    }

    @Test func editingTheGrandparentReactivates() async throws {
        let folder = try ReloadFolder()
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("shared"), withIntermediateDirectories: false)
        try folder.write(greeter("english"), to: "shared/grand.json")
        try folder.write(child(extending: "shared/grand.json"), to: "base.json")
        let url = try folder.write(child(extending: "base.json"), to: "config.json")
        let container = try folder.container(url)
        let log = EventLog()
        let watch = started(container.watch(url, settleDelay: .milliseconds(20), onChange: log.append))
        defer { watch.cancel() }

        // In a folder of its own, which the watch arms too.
        try Data(greeter("french").utf8).write(to: folder.url.appendingPathComponent("shared/grand.json"))
        #expect(await eventually { greeting(container) == "bonjour" })
        #expect(log.activated.count == 1)
        #expect(watch.watcher.chain.map(\.lastPathComponent) == ["config.json", "base.json", "grand.json"])
    }

    /// A parent rewritten in place in steps, each a fifth of the settle delay
    /// after the last: only whole generations of it are activated. The test's
    /// own clock decides what is quiet, as for the file itself
    /// (`ManifestWatcherTests.aFileWrittenInStepsIsActivatedOnlyWhole`): the
    /// parent is sampled as the file is, so a half-written parent is never read.
    @Test func aParentWrittenInStepsIsActivatedOnlyWhole() throws {
        let folder = try ReloadFolder()
        let base = try folder.write(SteppedManifest.text(generation: 0), to: "base.json")
        let url = try folder.write(child(extending: "base.json"), to: "config.json")
        let container = try folder.container(url)
        let log = EventLog()
        let clock = ManualWatchClock()
        let settle: UInt64 = 50_000_000
        let watch = ManifestWatch(ManifestWatcher(
            container: container, url: url, loader: ManifestLoader(), settleDelay: .nanoseconds(Int(settle)),
            pollInterval: nil, fileEvents: true, queue: .global(), clock: clock, onChange: log.append))
        defer { watch.cancel() }
        watch.watcher.waitUntilIdle()
        // Settle delays until the first read has found the parent (a read, and one more for the new chain).
        let deadline = Date().addingTimeInterval(10)
        while watch.watcher.chain.count < 2 && Date() < deadline {
            clock.advance(by: settle)
            Thread.sleep(forTimeInterval: 0.002)
        }
        #expect(watch.watcher.chain.count == 2)

        func pause(until generation: Int) {
            let deadline = Date().addingTimeInterval(10)
            while SteppedManifest.mark(of: container.manifest) != SteppedManifest.whole(generation), Date() < deadline {
                clock.advance(by: settle)
                Thread.sleep(forTimeInterval: 0.002)
            }
        }
        for generation in 1...12 {
            for part in 0..<SteppedManifest.parts {
                try SteppedManifest.write(part: part, of: generation, to: base)
                clock.advance(by: settle / 5)
            }
            if generation.isMultiple(of: 3) { pause(until: generation) }
        }
        #expect(log.activated.map(SteppedManifest.mark) == [3, 6, 9, 12].map(SteppedManifest.whole))
        #expect(log.rejected.isEmpty && log.missing.isEmpty)
    }

    // MARK: - A chain that changes

    @Test func aParentNamedAnewIsWatchedAndTheOldOneNoLonger() async throws {
        let folder = try ReloadFolder()
        try folder.write(greeter("english"), to: "a.json")
        try folder.write(greeter("french"), to: "b.json")
        let url = try folder.write(child(extending: "a.json"), to: "config.json")
        let container = try folder.container(url)
        let log = EventLog()
        let watch = started(container.watch(url, settleDelay: .milliseconds(20), onChange: log.append))
        defer { watch.cancel() }
        #expect(await eventually { watch.watcher.chain.map(\.lastPathComponent) == ["config.json", "a.json"] })

        try Data(child(extending: "b.json").utf8).write(to: url)
        #expect(await eventually { greeting(container) == "bonjour" })
        #expect(watch.watcher.chain.map(\.lastPathComponent) == ["config.json", "b.json"])

        // The new parent's edit re-activates.
        try Data(greeter("english").utf8).write(to: folder.url.appendingPathComponent("b.json"))
        #expect(await eventually { greeting(container) == "hello" })
        #expect(await eventually { log.activated.count == 2 })

        // The old parent's no longer does (nor is it sampled); the next edit of the new one is the only event.
        try Data(greeter("french").utf8).write(to: folder.url.appendingPathComponent("a.json"))
        try Data(greeter("french").utf8).write(to: folder.url.appendingPathComponent("b.json"))
        #expect(await eventually { log.activated.count == 3 })
        #expect(greeting(container) == "bonjour")
        #expect(watch.watcher.chain.map(\.lastPathComponent) == ["config.json", "b.json"])
        #expect(log.rejected.isEmpty && log.missing.isEmpty)
    }

    @Test func aDeletedParentIsRejectedThenWaitedFor() async throws {
        let folder = try ReloadFolder()
        let base = try folder.write(greeter("english"), to: "base.json")
        let url = try folder.write(child(extending: "base.json"), to: "config.json")
        let container = try folder.container(url)
        let log = EventLog()
        let watch = started(container.watch(url, settleDelay: .milliseconds(20), onChange: log.append))
        defer { watch.cancel() }

        try FileManager.default.removeItem(at: base)
        #expect(await eventually { log.rejected.count == 1 })
        #expect(log.rejected.first?.errors.map(\.code) == [.extendsNotFound])
        #expect(greeting(container) == "hello")
        // Still named by the chain, so its folder and path stay watched.
        #expect(watch.watcher.chain.map(\.lastPathComponent) == ["config.json", "base.json"])

        try folder.write(greeter("french"), to: "base.json")
        #expect(await eventually { greeting(container) == "bonjour" })
        #expect(await eventually { log.activated.count == 1 })
        #expect(log.events.count == 2)
    }

    @Test func aParentInAFolderMadeLaterIsWaitedFor() async throws {
        let folder = try ReloadFolder()
        try folder.write(greeter("english"), to: "base.json")
        let url = try folder.write(child(extending: "base.json"), to: "config.json")
        let container = try folder.container(url)
        let log = EventLog()
        let watch = started(container.watch(url, settleDelay: .milliseconds(20), onChange: log.append))
        defer { watch.cancel() }

        // Named before its folder exists: rejected, and the nearest folder that exists is watched for it.
        try Data(child(extending: "shared/deeper/base.json").utf8).write(to: url)
        #expect(await eventually { log.rejected.count == 1 })
        #expect(log.rejected.first?.errors.map(\.code) == [.extendsNotFound])

        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("shared/deeper"), withIntermediateDirectories: true)
        try folder.write(greeter("french"), to: "shared/deeper/base.json")
        #expect(await eventually { greeting(container) == "bonjour" })
        #expect(await eventually { log.activated.count == 1 })
    }

    // MARK: - A ConfigMap

    /// `config.json` and `base.json` both symlinks into `..data/`, and both
    /// changed in the folder `..data` is swapped to: one activation, of both.
    @Test func aConfigMapSwapOfTheFileAndItsParentIsOneActivation() async throws {
        let folder = try ReloadFolder()
        try folder.configMapVersion("..2024_01", files: [
            "config.json": child(extending: "base.json"), "base.json": greeter("english"),
        ])
        try folder.symlink("..data", to: "..2024_01")
        try folder.symlink("config.json", to: "..data/config.json")
        try folder.symlink("base.json", to: "..data/base.json")
        let url = folder.url.appendingPathComponent("config.json")
        let container = try folder.container(url)
        let log = EventLog()
        let watch = started(container.watch(url, settleDelay: .milliseconds(20), onChange: log.append))
        defer { watch.cancel() }

        // The child now binds french over the parent's, which binds a marked greeter: a mix of the
        // versions would bind english and french, or the marked greeter alone.
        let marked = #"{ "format": 1, "environment": "test", "bindings": [ { "protocol": "ReloadGreeter", "#
            + #""factory": "marked", "parameters": { "mark": "v2" } } ] }"#
        try folder.swapConfigMap(from: "..2024_01", to: "..2024_02", files: [
            "config.json": child(extending: "base.json", binding: "french"), "base.json": marked,
        ])
        #expect(await eventually { greeting(container) == "bonjour" })
        try await Task.sleep(nanoseconds: 100_000_000)  // five settle delays: a second activation would be in
        #expect(log.activated.map { $0.bindings.map(\.factory) } == [["marked", "french"]])
        #expect(log.events.count == 1)
    }
}

/// The loader names the files an `extends` chain read, beside the manifest.
@Suite struct ExtendsChainFilesTests {
    @Test func theChainsFilesAreListedAndTheManifestIsUnchanged() throws {
        let folder = try ReloadFolder()
        try folder.write(greeter("english"), to: "base.json")
        let url = try folder.write(child(extending: "base.json"), to: "config.json")
        let loader = ManifestLoader(environment: [:])

        let (manifest, diagnostics, files) = loader.loadChain(contentsOf: url)
        #expect(files == [url.standardizedFileURL, folder.url.appendingPathComponent("base.json").standardizedFileURL])
        #expect(!diagnostics.containsErrors)
        // The same files loaded again: the same manifest, whichever way.
        #expect(manifest == loader.loadCollecting(contentsOf: url).0)
        #expect(manifest == (try? loader.load(contentsOf: url)))

        // A parent named but missing is listed: where the chain would go on.
        try Data(child(extending: "missing.json").utf8).write(to: url)
        let missing = loader.loadChain(contentsOf: url)
        #expect(missing.files.map(\.lastPathComponent) == ["config.json", "missing.json"])
        #expect(missing.diagnostics.map(\.code) == [.extendsNotFound])

        // One outside the folder is not (it is never read), nor a file the file itself closes a cycle with.
        try Data(child(extending: "../outside.json").utf8).write(to: url)
        #expect(loader.loadChain(contentsOf: url).files.map(\.lastPathComponent) == ["config.json"])
        try Data(child(extending: "config.json").utf8).write(to: url)
        #expect(loader.loadChain(contentsOf: url).files.map(\.lastPathComponent) == ["config.json"])
    }
}

// MARK: - Helpers

/// A manifest that binds the greeter to `factory`.
private func greeter(_ factory: String) -> String {
    #"{ "format": 1, "environment": "test", "bindings": [ { "protocol": "ReloadGreeter", "factory": "\#(factory)" } ] }"#
}

/// A manifest that extends `parent`, binding the greeter to `binding` if given, else nothing.
private func child(extending parent: String, binding: String? = nil) -> String {
    let bindings = binding.map { #"{ "protocol": "ReloadGreeter", "factory": "\#($0)" }"# } ?? ""
    return #"{ "format": 1, "extends": "\#(parent)", "bindings": [ \#(bindings) ] }"#
}
