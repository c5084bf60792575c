import Dispatch
import Foundation

/// The engine behind a ``ManifestWatch``: hears file events, reads the file
/// again, compares, activates and reports.
///
/// Everything except `cancel()` and `isCancelled` runs on `queue`, a private
/// serial queue (file events, the settle delay, the poll timer), so the state
/// confined to it needs no lock. The lock guards only what `cancel()` touches
/// from any thread, and is never held while reading, activating or calling back.
final class ManifestWatcher: @unchecked Sendable {
    let url: URL
    private let loader: ManifestLoader
    private let settleDelay: DispatchTimeInterval
    private let pollInterval: DispatchTimeInterval?
    /// `false` in tests of the polling safety net: never use file events.
    private let fileEvents: Bool
    private let queue: DispatchQueue
    private let onChange: @Sendable (ManifestReloadEvent) -> Void
    /// Weak: the container does not know its watches, and a watch must not keep it alive.
    private weak var container: Container?

    /// How often to poll where file events cannot be had.
    static let fallbackPollInterval = DispatchTimeInterval.seconds(1)

    /// What `cancel()` needs, from any thread.
    private struct Shared {
        var cancelled = false
        var monitor: FileChangeMonitor?
        var poller: (any DispatchSourceTimer)?
    }
    private let shared = Locked(Shared())

    // Confined to `queue`.
    private var armedTargets: [WatchTarget]?
    private var pollerInterval: DispatchTimeInterval?
    private var checkScheduled = false
    private var lastFingerprint: FileFingerprint?
    /// The resolved path and bytes last read: the same again is not parsed again.
    private var lastContent: (path: String, bytes: Data)?
    private var lastOutcome: Outcome?
    /// Whether the last report was good news (or nothing was reported yet).
    private var healthy = true

    private enum Outcome: Equatable {
        case missing
        case loaded(Manifest)
        case invalid([Diagnostic])
    }

    init(
        container: Container, url: URL, loader: ManifestLoader, settleDelay: DispatchTimeInterval,
        pollInterval: DispatchTimeInterval?, fileEvents: Bool, queue: DispatchQueue,
        onChange: @escaping @Sendable (ManifestReloadEvent) -> Void
    ) {
        self.container = container
        self.url = url
        self.loader = loader
        self.settleDelay = settleDelay
        self.pollInterval = pollInterval
        self.fileEvents = fileEvents
        self.queue = DispatchQueue(label: "Patchbay.ManifestWatch", target: queue)
        self.onChange = onChange
    }

    deinit { cancel() }

    var isCancelled: Bool { shared.withLock { $0.cancelled } }

    /// Whether file events are armed (rather than only polling). For tests.
    var usesFileEvents: Bool { shared.withLock { $0.monitor != nil } }

    /// Waits until the work queued so far (such as the first read) is done. For tests; never from `queue`.
    func waitUntilIdle() { queue.sync {} }

    /// Arms the watch and reads the file once, on the queue.
    func start() {
        queue.async { [weak self] in self?.check() }
    }

    func cancel() {
        let (monitor, poller) = shared.withLock { shared in
            shared.cancelled = true
            defer { (shared.monitor, shared.poller) = (nil, nil) }
            return (shared.monitor, shared.poller)
        }
        monitor?.cancel()
        poller?.cancel()
    }

    // MARK: - Events

    /// Something may have changed: read once the settle delay has passed,
    /// however many more events come meanwhile.
    private func changed() {
        guard !checkScheduled else { return }
        checkScheduled = true
        queue.asyncAfter(deadline: .now() + settleDelay) { [weak self] in
            guard let self else { return }
            self.checkScheduled = false
            self.check()
        }
    }

    /// The safety net: a cheap `stat`, and a read when it differs.
    private func poll() {
        let fingerprint = FileFingerprint(path: url.path)
        guard fingerprint != lastFingerprint else { return }
        lastFingerprint = fingerprint
        changed()
    }

    private func check() {
        guard !isCancelled else { return }
        guard let container else { return cancel() }
        rearm()
        lastFingerprint = FileFingerprint(path: url.path)
        guard let event = read(into: container), !isCancelled else { return }
        onChange(event)
    }

    // MARK: - Reading

    /// Reads the file and acts on it; returns what to report, if anything.
    private func read(into container: Container) -> ManifestReloadEvent? {
        guard let real = PhysicalPath.ofExisting(url.path) else {
            lastContent = nil
            return settle(.missing, container)
        }
        // The bytes, unless the loader will refuse the file as too large anyway.
        let small = (FileFingerprint(path: real)?.size ?? 0) <= Int64(loader.limits.maxBytes)
        let bytes = small ? try? Data(contentsOf: URL(fileURLWithPath: real)) : nil
        if let bytes, let last = lastContent, last.path == real, last.bytes == bytes { return nil }
        lastContent = bytes.map { (real, $0) }

        let (manifest, diagnostics) = loader.loadCollecting(contentsOf: url)
        if let manifest, !diagnostics.containsErrors { return settle(.loaded(manifest), container) }
        if PhysicalPath.ofExisting(url.path) == nil {  // deleted while being read
            lastContent = nil
            return settle(.missing, container)
        }
        if isBeingWritten(real) {  // truncated and not yet rewritten, say: look again soon
            lastContent = nil
            changed()
            return nil
        }
        // Every problem at once, as at start-up: what the validator finds in
        // the rest of the file too, not only what the file reader found.
        let validated = manifest.map { ManifestValidator(catalog: container.catalog).validate($0) } ?? []
        return settle(.invalid(Diagnostic.sortedForDisplay(diagnostics + validated)), container)
    }

    /// Whether the file was modified less than a settle delay ago: an editor
    /// that rewrites in place may be between truncating and writing, so a
    /// syntax error then is not yet worth reporting.
    private func isBeingWritten(_ path: String) -> Bool {
        guard let fingerprint = FileFingerprint(path: path) else { return false }
        let modified = Double(fingerprint.modified) + Double(fingerprint.modifiedNanoseconds) / 1e9
        let settle: Double
        switch settleDelay {
        case .seconds(let value): settle = Double(value)
        case .milliseconds(let value): settle = Double(value) / 1e3
        case .microseconds(let value): settle = Double(value) / 1e6
        case .nanoseconds(let value): settle = Double(value) / 1e9
        default: settle = 0
        }
        // Far in the future (another clock, over a network mount) counts as settled.
        return abs(Date().timeIntervalSince1970 - modified) < settle
    }

    /// Activates a new manifest; returns what to report, if anything.
    private func settle(_ outcome: Outcome, _ container: Container) -> ManifestReloadEvent? {
        guard outcome != lastOutcome else { return nil }
        lastOutcome = outcome
        switch outcome {
        case .missing:
            healthy = false
            return .fileMissing(url)
        case .invalid(let diagnostics):
            healthy = false
            return .rejected(diagnostics)
        case .loaded(let manifest):
            if manifest == container.manifest {
                // Already in force: worth saying only to clear an earlier problem.
                defer { healthy = true }
                return healthy ? nil : .activated(manifest)
            }
            guard !isCancelled else { return nil }
            do {
                try container.activate(manifest)
                healthy = true
                return .activated(manifest)
            } catch {
                healthy = false
                return .rejected(error.diagnostics)
            }
        }
    }

    // MARK: - Arming

    /// Watches what the path leads to now, if that changed since last time,
    /// and polls when file events cannot be had.
    private func rearm() {
        let targets = fileEvents ? WatchTarget.targets(for: url) : []
        guard targets != armedTargets else { return }
        armedTargets = targets
        let monitor = FileChangeMonitor.start(targets, queue: queue) { [weak self] in self?.changed() }
        let replaced = shared.withLock { shared -> FileChangeMonitor? in
            if shared.cancelled { return monitor }
            defer { shared.monitor = monitor }
            return shared.monitor
        }
        replaced?.cancel()
        updatePoller(fileEventsWork: monitor != nil)
    }

    private func updatePoller(fileEventsWork: Bool) {
        let interval = pollInterval ?? (fileEventsWork ? nil : Self.fallbackPollInterval)
        guard interval != pollerInterval else { return }
        pollerInterval = interval
        var timer: (any DispatchSourceTimer)?
        if let interval {
            let source = DispatchSource.makeTimerSource(queue: queue)
            source.setEventHandler { [weak self] in self?.poll() }
            source.schedule(deadline: .now() + interval, repeating: interval)
            source.activate()
            timer = source
        }
        let replaced = shared.withLock { shared -> (any DispatchSourceTimer)? in
            if shared.cancelled { return timer }
            defer { shared.poller = timer }
            return shared.poller
        }
        replaced?.cancel()
    }
}
