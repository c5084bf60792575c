// Live reload: a watched manifest file is re-read, validated and activated
// when it changes in place, is renamed over, or is swapped ConfigMap-style.
import Foundation
import Testing

@testable import Patchbay

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

protocol ReloadGreeter: Sendable {
    func greet() -> String
}

private struct EnglishGreeter: ReloadGreeter {
    func greet() -> String { "hello" }
}

private struct FrenchGreeter: ReloadGreeter {
    func greet() -> String { "bonjour" }
}

@Suite struct ManifestWatcherTests {
    // MARK: - Edits

    @Test func editInPlaceServesTheNewFactory() async throws {
        let folder = try ReloadFolder()
        let url = try folder.write(manifest("english"), to: "config.json")
        let container = try folder.container(url)
        let log = EventLog()
        let watch = started(container.watch(url, onChange: log.append))
        defer { watch.cancel() }

        let inode = FileFingerprint(path: url.path)?.inode
        try Data(manifest("french").utf8).write(to: url)  // not atomic: the same inode, rewritten
        #expect(FileFingerprint(path: url.path)?.inode == inode)

        #expect(await eventually { greeting(container) == "bonjour" })
        #expect(await eventually { log.activated.count == 1 })
        #expect(log.events.count == 1)
    }

    @Test func renameOverTheFileIsFollowed() async throws {
        let folder = try ReloadFolder()
        let url = try folder.write(manifest("english"), to: "config.json")
        let container = try folder.container(url)
        let log = EventLog()
        let watch = started(container.watch(url, onChange: log.append))
        defer { watch.cancel() }

        // An editor's save: a temporary file renamed over the original, whose inode goes away.
        let temporary = try folder.write(manifest("french"), to: ".config.json.swp")
        #expect(rename(temporary.path, url.path) == 0)
        #expect(await eventually { greeting(container) == "bonjour" })

        // The watch follows the new inode: a second save by rename (Foundation's this time) is seen too.
        try Data(manifest("english").utf8).write(to: url, options: .atomic)
        #expect(await eventually { greeting(container) == "hello" })
        #expect(await eventually { log.activated.count == 2 })
    }

    @Test func configMapSymlinkSwapIsFollowed() async throws {
        // config.json -> ..data/config.json, base.json -> ..data/base.json, ..data -> ..2024_01
        let folder = try ReloadFolder()
        let child = #"{ "format": 1, "extends": "base.json", "bindings": [] }"#
        try folder.configMapVersion("..2024_01", files: ["config.json": child, "base.json": manifest("english")])
        try folder.symlink("..data", to: "..2024_01")
        try folder.symlink("config.json", to: "..data/config.json")
        try folder.symlink("base.json", to: "..data/base.json")
        let url = folder.url.appendingPathComponent("config.json")
        let container = try folder.container(url)
        #expect(greeting(container) == "hello")
        let log = EventLog()
        let watch = started(container.watch(url, onChange: log.append))
        defer { watch.cancel() }

        // Only the parent changes; config.json keeps its bytes but now lives in another folder.
        try folder.swapConfigMap(from: "..2024_01", to: "..2024_02", files: ["config.json": child, "base.json": manifest("french")])
        #expect(await eventually { greeting(container) == "bonjour" })

        // The watch now follows the new folder: a second update is seen too.
        // (Unlabelled as the child was: a file loaded alone stays the environment it started as, here its name.)
        let unlabelled = #"{ "format": 1, "bindings": [ { "protocol": "ReloadGreeter", "factory": "english" } ] }"#
        try folder.swapConfigMap(from: "..2024_02", to: "..2024_03", files: ["config.json": unlabelled])
        #expect(await eventually { greeting(container) == "hello" })
        #expect(await eventually { log.activated.count == 2 })
        #expect(log.rejected.isEmpty && log.missing.isEmpty)
    }

    // MARK: - Bad and missing files

    @Test func badFileKeepsTheRunningManifest() async throws {
        let folder = try ReloadFolder()
        let url = try folder.write(manifest("english"), to: "config.json")
        let container = try folder.container(url)
        let log = EventLog()
        let watch = started(container.watch(url, onChange: log.append))
        defer { watch.cancel() }

        try Data(#"{ "format": 1, "bindings": [ "#.utf8).write(to: url)
        #expect(await eventually { log.rejected.count == 1 })
        #expect(log.rejected.last?.errors.map(\.code).contains(.syntax) == true)
        #expect(greeting(container) == "hello")

        // Valid JSON that names a factory the catalog lacks: rejected when activated.
        try Data(manifest("german").utf8).write(to: url)
        #expect(await eventually { log.rejected.count == 2 })
        #expect(log.rejected.last?.errors.map(\.code) == [.unknownFactory])
        #expect(greeting(container) == "hello")
        #expect(container.manifest.bindings.map(\.factory) == ["english"])

        // A file with a problem of shape and one of names: both in one event, as at start-up.
        try Data(#"{ "format": 1, "bindings": [ { "protocol": "ReloadGreeter", "factory": "klingon", "colour": 1 } ] }"#
            .utf8).write(to: url)
        #expect(await eventually { log.rejected.count == 3 })
        #expect(log.rejected.last?.errors.map(\.code).sorted { $0.rawValue < $1.rawValue } == [.unknownFactory, .unknownKey])

        // Fixed: activated.
        try Data(manifest("french").utf8).write(to: url)
        #expect(await eventually { greeting(container) == "bonjour" })
        #expect(await eventually { log.activated.count == 1 })
    }

    @Test func deletedFileKeepsTheRunningManifestUntilItComesBack() async throws {
        let folder = try ReloadFolder()
        let url = try folder.write(manifest("english"), to: "config.json")
        let container = try folder.container(url)
        let log = EventLog()
        let watch = started(container.watch(url, onChange: log.append))
        defer { watch.cancel() }

        try FileManager.default.removeItem(at: url)
        #expect(await eventually { log.missing == [url] })
        #expect(greeting(container) == "hello")

        try folder.write(manifest("french"), to: "config.json")
        #expect(await eventually { greeting(container) == "bonjour" })
        #expect(await eventually { log.activated.count == 1 })
        #expect(log.missing.count == 1)
    }

    @Test func unchangedContentIsNotReported() async throws {
        let folder = try ReloadFolder()
        let url = try folder.write(manifest("english"), to: "config.json")
        let container = try folder.container(url)
        let log = EventLog()
        let watch = started(container.watch(url, onChange: log.append))
        defer { watch.cancel() }

        // Same bytes rewritten, a permission change, a change of whitespace only, another file.
        try Data(manifest("english").utf8).write(to: url)
        try await Task.sleep(nanoseconds: 100_000_000)
        #expect(chmod(url.path, 0o600) == 0)
        try await Task.sleep(nanoseconds: 100_000_000)
        try Data((manifest("english") + "\n\n").utf8).write(to: url, options: .atomic)
        try await Task.sleep(nanoseconds: 100_000_000)
        try folder.write("scratch", to: "notes.txt")
        try await Task.sleep(nanoseconds: 100_000_000)
        #expect(log.events.isEmpty)

        // Then a real change: the only event.
        try Data(manifest("french").utf8).write(to: url)
        #expect(await eventually { log.events.count == 1 })
        #expect(greeting(container) == "bonjour")
    }

    // MARK: - Stopping

    @Test func cancelledWatchNoLongerReloads() async throws {
        let folder = try ReloadFolder()
        let url = try folder.write(manifest("english"), to: "config.json")
        let container = try folder.container(url)
        let log = EventLog()
        let watch = started(container.watch(url, onChange: log.append))

        try Data(manifest("french").utf8).write(to: url)
        #expect(await eventually { greeting(container) == "bonjour" })  // the watch was running
        watch.cancel()
        #expect(watch.isCancelled)

        try Data(manifest("english").utf8).write(to: url)
        try await Task.sleep(nanoseconds: 300_000_000)  // many settle delays: a running watch would have reloaded
        #expect(greeting(container) == "bonjour")
        #expect(log.events.count == 1)
    }

    @Test func releasedHandleStopsTheWatch() async throws {
        let folder = try ReloadFolder()
        let url = try folder.write(manifest("english"), to: "config.json")
        let container = try folder.container(url)
        let released = WeakReference(started(container.watch(url)))
        #expect(await eventually { released.object == nil })
        try Data(manifest("french").utf8).write(to: url)
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(greeting(container) == "hello")
    }

    @Test func watchDoesNotKeepTheContainerAlive() async throws {
        let folder = try ReloadFolder()
        let url = try folder.write(manifest("english"), to: "config.json")
        var container: Container? = try folder.container(url)
        let freed = WeakReference(container)
        let watch = started(container!.watch(url))
        defer { watch.cancel() }
        container = nil
        #expect(await eventually { freed.object == nil })

        // The next change finds the container gone and stops the watch.
        try Data(manifest("french").utf8).write(to: url)
        #expect(await eventually { watch.isCancelled })
    }

    // MARK: - Settling

    /// A writer that updates the file in place in three steps, each a fifth
    /// of the settle delay after the last, starting before the watch does:
    /// no half-written generation is ever activated (each would be a valid
    /// manifest), a spell of changes longer than ten settle delays is
    /// reported, and each pause of a settle delay activates the whole file.
    /// Time is the test's own clock, so how busy the machine is (or when file
    /// events arrive) cannot let a half-written file look quiet: the file is
    /// read only after a whole settle delay of the test's time without a change.
    @Test func aFileWrittenInStepsIsActivatedOnlyWhole() throws {
        let folder = try ReloadFolder()
        let url = try folder.write(SteppedManifest.text(generation: 0), to: "config.json")
        let container = try folder.container(url)
        let log = EventLog()
        let clock = ManualWatchClock()
        let settle: UInt64 = 50_000_000
        // Generation 1 is being written when the watch starts.
        try SteppedManifest.write(part: 0, of: 1, to: url)
        let watch = ManifestWatch(ManifestWatcher(
            container: container, url: url, loader: ManifestLoader(), settleDelay: .nanoseconds(Int(settle)),
            pollInterval: nil, fileEvents: true, queue: .global(), clock: clock, onChange: log.append))
        defer { watch.cancel() }
        watch.watcher.waitUntilIdle()

        func write(_ generation: Int) throws {
            for part in 0..<SteppedManifest.parts {
                // Generation 1's first part was written before the watch started.
                if generation > 1 || part > 0 { try SteppedManifest.write(part: part, of: generation, to: url) }
                clock.advance(by: settle / 5)
            }
        }
        // A pause: settle delays of quiet until `generation` is in force. File events arrive in real
        // time, so it waits for them too (up to 10 s, as `eventually` does); only a pause lets the test's
        // clock pass a settle delay without a write, so only a whole generation can be read.
        func pause(until generation: Int) {
            let deadline = Date().addingTimeInterval(10)
            while SteppedManifest.mark(of: container.manifest) != SteppedManifest.whole(generation), Date() < deadline {
                clock.advance(by: settle)
                Thread.sleep(forTimeInterval: 0.002)
            }
        }

        // Twenty generations without a pause: 12 settle delays of changes, so the watch says it is waiting.
        for generation in 1...20 { try write(generation) }
        #expect(log.activated.isEmpty, "\(log.activated.map(SteppedManifest.mark))")
        #expect(log.events == [.waitingForQuiet(url)], "\(log.events)")
        #expect(SteppedManifest.mark(of: container.manifest) == SteppedManifest.whole(0))
        pause(until: 20)
        // Then a pause of a settle delay after every fourth generation.
        for generation in 21...60 {
            try write(generation)
            if generation.isMultiple(of: 4) { pause(until: generation) }
        }
        let expected = [20] + Array(stride(from: 24, through: 60, by: 4))
        #expect(log.activated.map(SteppedManifest.mark) == expected.map(SteppedManifest.whole))
        #expect(log.events.filter { if case .waitingForQuiet = $0 { true } else { false } }.count == 1)
        #expect(log.rejected.isEmpty && log.missing.isEmpty)
    }

    // MARK: - Polling

    @Test func pollingAloneSeesEditsAndSwaps() async throws {
        let folder = try ReloadFolder()
        try folder.configMapVersion("..2024_01", files: ["config.json": manifest("english")])
        try folder.symlink("..data", to: "..2024_01")
        try folder.symlink("config.json", to: "..data/config.json")
        let url = folder.url.appendingPathComponent("config.json")
        let container = try folder.container(url)
        let log = EventLog()
        let watch = ManifestWatch(ManifestWatcher(
            container: container, url: url, loader: ManifestLoader(), settleDelay: .milliseconds(10),
            pollInterval: .milliseconds(20), fileEvents: false, queue: .global(), onChange: log.append))
        defer { watch.cancel() }
        watch.watcher.waitUntilIdle()
        #expect(!watch.watcher.usesFileEvents)

        try folder.swapConfigMap(from: "..2024_01", to: "..2024_02", files: ["config.json": manifest("french")])
        #expect(await eventually { greeting(container) == "bonjour" })
        let real = folder.url.appendingPathComponent("..2024_02/config.json")
        try Data(manifest("english").utf8).write(to: real)
        #expect(await eventually { greeting(container) == "hello" })
        #expect(await eventually { log.activated.count == 2 })
    }
}

// MARK: - Helpers

private func manifest(_ factory: String, environment: String = "test") -> String {
    #"{ "format": 1, "environment": "\#(environment)", "bindings": [ { "protocol": "ReloadGreeter", "factory": "\#(factory)" } ] }"#
}

func greeting(_ container: Container) -> String? {
    try? container.resolve((any ReloadGreeter).self).greet()
}

let greeterCatalog: FactoryCatalog = {
    var catalog = FactoryCatalog()
    catalog.register("english", provides: (any ReloadGreeter).self) { EnglishGreeter() }
    catalog.register("french", provides: (any ReloadGreeter).self) { FrenchGreeter() }
    // A manifest's generation marker, for the stepped writer: a parameter, as the
    // environment label of a file loaded alone must stay what it started as.
    catalog.register("marked", provides: (any ReloadGreeter).self, parameters: SteppedManifest.Mark.self) { _ in
        EnglishGreeter()
    }
    return catalog
}()

/// The watch once its first read is done and file events are armed, so that
/// later changes reach it through events (not through that first read, nor polling).
func started(_ watch: ManifestWatch) -> ManifestWatch {
    watch.watcher.waitUntilIdle()
    #expect(watch.watcher.usesFileEvents)
    return watch
}

/// Polls `condition` every 10 ms for up to `seconds`.
func eventually(within seconds: Double = 5, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 10_000_000)
    }
    return condition()
}

/// A manifest written in place in parts: its marker is `gggg-gggg-gggg`
/// when whole, and each part is rewritten with the next generation's number
/// in turn, so that every half-written state is a valid manifest too (with a
/// mixed marker, `0002-0001-0001`), as a real writer's may be.
enum SteppedManifest {
    static let parts = 3

    static func whole(_ generation: Int) -> String {
        Array(repeating: number(generation), count: parts).joined(separator: "-")
    }

    /// The marker's parameter type.
    struct Mark: Decodable, Sendable { var mark: String }

    static func text(generation: Int) -> String {
        prefix + whole(generation) + #"" } } ] }"#
    }

    /// The manifest's text before the marker.
    private static let prefix =
        #"{ "format": 1, "bindings": [ { "protocol": "ReloadGreeter", "factory": "marked", "parameters": { "mark": ""#

    /// The generation marker of `manifest`, as `whole(_:)` writes it.
    static func mark(of manifest: Manifest) -> String? {
        guard case .object(let fields)? = manifest.bindings.first?.parameters, case .string(let mark)? = fields["mark"]
        else { return nil }
        return mark
    }

    private static func number(_ generation: Int) -> String { String(format: "%04d", generation) }

    /// Rewrites part `part` in place with `generation`'s number: one write, the file's size unchanged.
    static func write(part: Int, of generation: Int, to url: URL) throws {
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(prefix.utf8.count + 5 * part))
        try handle.write(contentsOf: Data(number(generation).utf8))
    }
}

/// A clock that moves only when the test moves it: each piece of work the
/// watch scheduled runs, on the watch's queue, when time passes its deadline.
final class ManualWatchClock: WatchClock, @unchecked Sendable {
    private let lock = NSLock()
    private var time: UInt64 = 0
    private var pending: [(deadline: UInt64, queue: DispatchQueue, work: @Sendable () -> Void)] = []

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    func now() -> UInt64 { locked { time } }

    func schedule(after delay: UInt64, on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void) {
        locked { pending.append((time + delay, queue, work)) }
    }

    /// Moves time on by `delay`, running what falls due in deadline order, each to its end.
    func advance(by delay: UInt64) {
        let end = now() + delay
        while let (queue, work) = locked({ () -> (DispatchQueue, @Sendable () -> Void)? in
            guard let next = pending.indices.min(by: { pending[$0].deadline < pending[$1].deadline }),
                pending[next].deadline <= end
            else {
                time = end
                return nil
            }
            let due = pending.remove(at: next)
            time = max(time, due.deadline)
            return (due.queue, due.work)
        }) {
            queue.sync(execute: work)
        }
    }
}

/// Holds an object without keeping it alive.
private final class WeakReference<Object: AnyObject>: @unchecked Sendable {
    weak var object: Object?
    init(_ object: Object?) { self.object = object }
}

/// What a watch reported, from its queue.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [ManifestReloadEvent] = []

    @Sendable func append(_ event: ManifestReloadEvent) {
        lock.lock()
        defer { lock.unlock() }
        stored.append(event)
    }

    /// What the file's changes led to: every event but `.retired`, which
    /// follows each activation once no lease holds the wiring it replaced
    /// (see `RewiringWatchTests`), at a moment of its own.
    var events: [ManifestReloadEvent] {
        lock.lock()
        defer { lock.unlock() }
        return stored.filter { if case .retired = $0 { false } else { true } }
    }

    var activated: [Manifest] { events.compactMap { if case .activated(let m) = $0 { m } else { nil } } }
    var rejected: [[Diagnostic]] { events.compactMap { if case .rejected(let d) = $0 { d } else { nil } } }
    var missing: [URL] { events.compactMap { if case .fileMissing(let u) = $0 { u } else { nil } } }
}

/// A temporary folder, removed when released.
final class ReloadFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("patchbay-watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func container(_ manifest: URL) throws -> Container {
        try Container(catalog: greeterCatalog, manifestAt: manifest)
    }

    @discardableResult
    func write(_ text: String, to name: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file
    }

    func symlink(_ name: String, to destination: String) throws {
        try FileManager.default.createSymbolicLink(
            atPath: url.appendingPathComponent(name).path, withDestinationPath: destination)
    }

    func configMapVersion(_ version: String, files: [String: String]) throws {
        try FileManager.default.createDirectory(at: url.appendingPathComponent(version), withIntermediateDirectories: false)
        for (name, text) in files { try write(text, to: "\(version)/\(name)") }
    }

    /// What the kubelet does: a new version folder, a new `..data_tmp` symlink renamed over `..data`, the old folder removed.
    func swapConfigMap(from old: String, to new: String, files: [String: String]) throws {
        try configMapVersion(new, files: files)
        try symlink("..data_tmp", to: new)
        #expect(rename(url.appendingPathComponent("..data_tmp").path, url.appendingPathComponent("..data").path) == 0)
        try FileManager.default.removeItem(at: url.appendingPathComponent(old))
    }
}
