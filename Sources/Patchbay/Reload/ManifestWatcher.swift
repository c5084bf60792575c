import Dispatch
import Foundation

/// The engine behind a ``ManifestWatch``: hears file events, reads the file
/// again, compares, activates and reports.
///
/// What is watched and sampled is the file's chain: the file and every file
/// its `extends` chain read when it was last loaded (`Confined.chain`), a
/// parent named but missing included. A change to any of them is a change
/// of the manifest, and a load that names other parents (an `extends`
/// edited) re-arms the watch on the new chain.
///
/// A file is read only once it has been quiet for a whole settle delay: the
/// watch samples its chain (for each file, where its path leads, its `stat`,
/// its bytes) when a change is heard, and again a settle delay later, and
/// reads it only when the two samples are equal and no change was heard in
/// between; otherwise it samples again a settle delay later. So a file
/// written in several steps, each within a settle delay of the last, is
/// never read half-written, however the steps fall against file events, and
/// a write in progress when the watch starts is waited out too. The file is
/// loaded from disk, then its chain is sampled once more: a chain that
/// changed while it was loaded (a ConfigMap swapped between reading the file
/// and its parent, say), or that the load found to be other files, is
/// waited for again. A file that keeps changing for more than ten settle
/// delays is reported (``ManifestReloadEvent/waitingForQuiet(_:)``), once per spell.
///
/// Everything except `cancel()` and `isCancelled` runs on `queue`, a private
/// serial queue (file events, the settle delay, the poll timer): its state is
/// behind a lock only to be `Sendable`. `shared` holds what `cancel()` touches
/// from any thread. No lock is held while reading, activating or calling back.
final class ManifestWatcher: Sendable {
    let url: URL
    private let loader: ManifestLoader
    /// The settle delay, in nanoseconds of `clock`.
    private let settle: UInt64
    private let clock: any WatchClock
    private let pollInterval: DispatchTimeInterval?
    /// `false` in tests of the polling safety net: never use file events.
    private let fileEvents: Bool
    private let queue: DispatchQueue
    private let onChange: @Sendable (ManifestReloadEvent) -> Void
    /// Starts each new wiring before it serves (see ``Container/activate(_:isolation:startingWith:)``); nil: activated at once.
    private let starting: (@Sendable (Container) async throws -> Void)?

    /// What `cancel()` needs, from any thread.
    private struct Shared {
        var cancelled = false
        var monitor: FileChangeMonitor?
        var poller: (any DispatchSourceTimer)?
    }
    private let shared = Locked(Shared())

    /// What only `queue` touches. Behind a lock only so that the class is
    /// `Sendable` without exceptions: never contended, never held while calling out.
    private struct Confined {
        /// Weak: the container does not know its watches, and a watch must not keep it alive.
        weak var container: Container?
        /// The file, then each file its `extends` chain read at the last load: what is sampled, polled and watched.
        var chain: [URL]
        var armedTargets: [WatchTarget]?
        var pollerInterval: DispatchTimeInterval?
        var tickScheduled = false
        /// The chain's files as the poll last saw them.
        var lastFingerprints: [FileFingerprint?] = []
        /// The chain as last sampled, and when (by `clock`); `nil` before the first sample.
        var sample: (file: Sample, at: UInt64)?
        /// Whether a change was heard (a file event, the poll) since `sample` was taken.
        var changedSinceSample = false
        /// Since when the file has been changing without a quiet settle delay, and whether that was reported.
        var busy: (since: UInt64, reported: Bool)?
        /// The chain's resolved paths and bytes last read: the same again is not parsed again.
        var lastContent: [Sample.Content]?
        var lastOutcome: Outcome?
        /// Whether the last report was good news (or nothing was reported yet).
        var healthy = true
        /// Whether a new wiring is starting (`start`): no change is read until it is in force or refused.
        var starting = false
    }
    private let confined: Locked<Confined>
    private var state: Confined { get { confined.withLock { $0 } } set { confined.withLock { $0 = newValue } } }

    private enum Outcome: Equatable {
        case missing
        case loaded(Manifest)
        case invalid([Diagnostic])
    }

    init(
        container: Container, url: URL, loader: ManifestLoader, settleDelay: DispatchTimeInterval,
        pollInterval: DispatchTimeInterval?, fileEvents: Bool, queue: DispatchQueue,
        clock: any WatchClock = SystemWatchClock(), start: (@Sendable (Container) async throws -> Void)? = nil,
        onChange: @escaping @Sendable (ManifestReloadEvent) -> Void
    ) {
        self.starting = start
        // Standardized as the loader lists a chain's files, so that an unchanged chain compares equal.
        confined = Locked(Confined(container: container, chain: [url.standardizedFileURL]))
        self.url = url
        self.loader = loader
        self.settle = settleDelay.nanoseconds
        self.clock = clock
        self.pollInterval = pollInterval
        self.fileEvents = fileEvents
        self.queue = DispatchQueue(label: "Patchbay.ManifestWatch", target: queue)
        self.onChange = onChange
    }

    deinit { cancel() }

    var isCancelled: Bool { shared.withLock { $0.cancelled } }

    /// Whether file events are armed (rather than only polling). For tests.
    var usesFileEvents: Bool { shared.withLock { $0.monitor != nil } }

    /// The files sampled and watched now: the manifest, then those its `extends` chain read at the last load. For tests.
    var chain: [URL] { confined.withLock { $0.chain } }

    /// Waits until the work queued so far (such as the first sample) is done. For tests; never from `queue`.
    func waitUntilIdle() { queue.sync {} }

    /// Arms the watch and samples the file, on the queue; the file is read
    /// once it has been quiet for a settle delay, as after any change.
    func start() {
        queue.async { [weak self] in
            guard let self else { return }
            state.changedSinceSample = true
            self.tick()
        }
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

    /// Something may have changed: sample the file now, unless a sample is
    /// already due (it will see that a change was heard).
    private func changed() {
        state.changedSinceSample = true
        scheduleTick(after: 0)
    }

    private func scheduleTick(after delay: UInt64) {
        guard !state.tickScheduled else { return }
        state.tickScheduled = true
        clock.schedule(after: delay, on: queue) { [weak self] in
            guard let self else { return }
            state.tickScheduled = false
            self.tick()
        }
    }

    /// The safety net: a cheap `stat` of each file of the chain, and a sample when one differs.
    private func poll() {
        let fingerprints = state.chain.map { FileFingerprint(path: $0.path) }
        guard fingerprints != state.lastFingerprints else { return }
        state.lastFingerprints = fingerprints
        changed()
    }

    /// Samples the file; reads it when it is as it was a whole settle delay
    /// ago with no change heard since, else samples again a settle delay later.
    private func tick() {
        guard !isCancelled else { return }
        guard let container = state.container else { return cancel() }
        // A wiring still starting: sampled again a settle delay later (a change heard meanwhile is kept).
        guard !state.starting else { return scheduleTick(after: settle) }
        rearm()
        let now = clock.now()
        let current = Sample(state.chain, maxBytes: loader.maxBytes)
        state.lastFingerprints = current.fingerprints
        if let sample = state.sample, sample.file == current, !state.changedSinceSample, now &- sample.at >= settle {
            state.busy = nil
            guard let event = read(current, into: container), !isCancelled else { return }
            return onChange(event)
        }
        state.sample = (current, now)
        state.changedSinceSample = false
        let spell = state.busy ?? (now, false)
        state.busy = spell
        scheduleTick(after: settle)
        // Changing for more than ten settle delays: say why nothing is read.
        if !spell.reported, (now &- spell.since) / 10 > settle {
            state.busy?.reported = true
            onChange(.waitingForQuiet(url))
        }
    }

    // MARK: - Reading

    /// Reads the file, its chain quiet as `quiet` says, and acts on it; returns what to report, if anything.
    private func read(_ quiet: Sample, into container: Container) -> ManifestReloadEvent? {
        guard quiet.files.first?.path != nil else {
            state.lastContent = nil
            return settle(.missing, container)
        }
        if let content = quiet.content, content == state.lastContent { return nil }

        // Judged as the environment the manifest in force is judged as (the one the app named, else,
        // for a file loaded alone, what it started as), whatever the new label says: one word edited in
        // a running production's file must not make it another environment.
        let (read, diagnostics, chain) = loader.loadChain(contentsOf: url)
        // A lone file judged as before by its own label or name is left as read, so an unchanged
        // file is still the same manifest (nothing to report).
        let inForce = container.manifest
        let judged = inForce.loadedAs ?? inForce.judgedEnvironment
        let manifest = inForce.loadedAs == nil && read?.judgedEnvironment == judged ? read : read?.judged(as: judged)
        // Changed while it was loaded, so what was loaded may be half of it (or the file from before a
        // ConfigMap swap, its parent from after); or its chain is other files now (an `extends` edited),
        // which were never seen quiet; or, refused, deleted while being read, or truncated and not yet
        // rewritten (say): each but a deletion waits for quiet again, watching the new chain.
        let settled = chain == state.chain && Sample(chain, maxBytes: loader.maxBytes) == quiet
        state.chain = chain
        let usable = settled && manifest != nil && !diagnostics.containsErrors
        let deleted = settled && !usable && PhysicalPath.ofExisting(url.path) == nil
        // Or modified less than a settle delay ago: an editor that rewrites in place may be between truncating
        // and writing, so a syntax error then is not yet worth reporting (far in the future, from another
        // clock over a network mount, counts as settled).
        // (Any file of the chain: a parent is saved in place as the file is.)
        let waiting = !settled || (!usable && !deleted && quiet.fingerprints.contains { $0.map {
            abs(Date().timeIntervalSince1970 - (Double($0.modified) + Double($0.modifiedNanoseconds) / 1e9)) < Double(settle) / 1e9
        } == true })
        state.lastContent = waiting || deleted ? nil : quiet.content
        if waiting {
            changed()
            return nil
        }
        if deleted { return settle(.missing, container) }
        if let manifest, usable { return settle(.loaded(manifest), container) }
        // Every problem at once, as at start-up: what the validator finds in
        // the rest of the file too, not only what the file reader found.
        let validated = manifest.map { ManifestValidator(catalog: container.catalog).validate($0) } ?? []
        return settle(.invalid(Diagnostic.sortedForDisplay(diagnostics + validated)), container)
    }

    /// Activates a new manifest; returns what to report, if anything.
    private func settle(_ outcome: Outcome, _ container: Container) -> ManifestReloadEvent? {
        guard outcome != state.lastOutcome else { return nil }
        state.lastOutcome = outcome
        switch outcome {
        case .missing:
            state.healthy = false
            return .fileMissing(url)
        case .invalid(let diagnostics):
            state.healthy = false
            return .rejected(diagnostics)
        case .loaded(let manifest):
            if manifest == container.manifest {
                // Already in force: worth saying only to clear an earlier problem.
                defer { state.healthy = true }
                return state.healthy ? nil : .activated(manifest)
            }
            guard !isCancelled else { return nil }
            // The generations it replaces are retired later, when their last lease ends: told on the queue, as every event.
            let report: @Sendable (Int, [Diagnostic]) -> Void = { [weak self] generation, failures in
                guard let self else { return }
                queue.async { if !self.isCancelled { self.onChange(.retired(generation: generation, failures: failures)) } }
            }
            guard let starting else {
                do {
                    try container.activate(manifest, reporting: report)
                    state.healthy = true
                    return .activated(manifest)
                } catch {
                    state.healthy = false
                    return .rejected(error.diagnostics)
                }
            }
            // Started in a task; no other change is read meanwhile (a tick waits, see `tick()`), and what it
            // led to is told on the queue, as every event.
            state.starting = true
            // Not at the watch queue's priority (utility by default), nor behind a busy server's
            // requests: the new wiring should start when it is read (see `TaskPriority.rewiring`).
            Task(priority: .rewiring) { [self] in
                let event: ManifestReloadEvent
                do throws(ManifestError) {
                    try await container.activate(manifest, startingWith: starting, reporting: report)
                    event = .activated(manifest)
                } catch {
                    event = .rejected(error.diagnostics)
                }
                queue.async { [self] in
                    state.starting = false
                    state.healthy = event == .activated(manifest)
                    if !isCancelled { onChange(event) }
                }
            }
            return nil
        }
    }

    // MARK: - Arming

    /// Watches what the chain's paths lead to now, if that changed since last
    /// time (a file swapped, a parent added or removed), and polls when file events cannot be had.
    private func rearm() {
        let targets = fileEvents ? WatchTarget.targets(for: state.chain) : []
        guard targets != state.armedTargets else { return }
        state.armedTargets = targets
        var monitor = FileChangeMonitor.start(targets, queue: queue) { [weak self] in self?.changed() }
        // Where file events cannot be had, polled once a second.
        let interval = pollInterval ?? (monitor != nil ? nil : .seconds(1))
        // Swapped in, unless the watch was cancelled meanwhile; what is left here is cancelled.
        shared.withLock { if !$0.cancelled { swap(&$0.monitor, &monitor) } }
        monitor?.cancel()
        guard interval != state.pollerInterval else { return }
        state.pollerInterval = interval
        var timer: (any DispatchSourceTimer)? = interval.map { interval in
            let source = DispatchSource.makeTimerSource(queue: queue)
            source.setEventHandler { [weak self] in self?.poll() }
            source.schedule(deadline: .now() + interval, repeating: interval)
            source.activate()
            return source
        }
        shared.withLock { if !$0.cancelled { swap(&$0.poller, &timer) } }  // as the monitor above
        timer?.cancel()
    }
}
