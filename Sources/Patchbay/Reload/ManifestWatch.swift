import Dispatch
import Foundation

extension Container {
    /// Watches the manifest file at `url`, and every file its `extends` chain
    /// reads, and activates each new version of it while the app runs; see
    /// ``ManifestWatch`` for what is watched and what happens to a bad,
    /// deleted or swapped file.
    ///
    ///     let watch = container.watch(URL(fileURLWithPath: "/etc/app/manifest.json")) { event in
    ///         if case .rejected(let diagnostics) = event { diagnostics.forEach { print($0) } }
    ///     }
    ///
    /// The watch does not keep the container alive, and stops when the
    /// returned handle is cancelled or released: keep the handle.
    ///
    /// - Parameters:
    ///   - url: The manifest file; a symlink is followed anew after every change.
    ///   - loader: Reads the file and its `extends` parents.
    ///   - settleDelay: How long the file and its parents must stay unchanged
    ///     before the file is read: it is read only once they have been quiet
    ///     for this whole delay after the last change (and when the watch
    ///     starts), so that a file written in several steps, each less than
    ///     this apart, is read once, whole. A file
    ///     that keeps changing for more than ten times this is reported with
    ///     ``ManifestReloadEvent/waitingForQuiet(_:)`` and read once quiet. A file
    ///     with errors modified less than this long ago is read again before
    ///     being rejected.
    ///   - pollInterval: When given, also compares the size, times and inode
    ///     of the file and its parents this often, as a safety net for file
    ///     systems that report no events (some network mounts). `nil`, the
    ///     default, polls only where file events cannot be had, once a second.
    ///   - queue: Where the watch reads files and calls `onChange`: on a serial
    ///     queue of its own that targets this one, so one call at a time.
    ///   - onChange: Told what each change of the file led to, and when the
    ///     singletons a new wiring replaced have been shut down (``ManifestReloadEvent/retired(generation:failures:)``).
    ///     (Before `start`, so that a trailing closure is still `onChange`.)
    ///   - start: When given, starts each new wiring before it serves, as
    ///     ``activate(_:isolation:startingWith:)`` does: a wiring it fails to start
    ///     is rejected (`start-up-failed`) and the one in force keeps serving.
    ///     No other change is read while it runs. It runs in a task of high
    ///     priority (`TaskPriority.high`), so that requests queued at the
    ///     default priority do not hold back its own steps (what it awaits
    ///     elsewhere runs at that work's priority); a `Task { }` it makes
    ///     inherits high priority, so give a long-running service's task the
    ///     priority it should have.
    /// - Returns: The handle that keeps the watch running.
    public func watch(
        _ url: URL,
        loader: ManifestLoader = ManifestLoader(),
        settleDelay: DispatchTimeInterval = .milliseconds(50),
        pollInterval: DispatchTimeInterval? = nil,
        queue: DispatchQueue = .global(qos: .utility),
        onChange: @escaping @Sendable (ManifestReloadEvent) -> Void = { _ in },
        startingWith start: (@Sendable (_ next: Container) async throws -> Void)? = nil
    ) -> ManifestWatch {
        ManifestWatch(ManifestWatcher(
            container: self, url: url, loader: loader, settleDelay: settleDelay, pollInterval: pollInterval,
            fileEvents: true, queue: queue, start: start, onChange: onChange))
    }
}

/// What a change of a watched manifest file led to.
public enum ManifestReloadEvent: Sendable, Hashable {
    /// The file's manifest is in force: it was valid and has been activated,
    /// or it already was the manifest in force (when the file comes back, fixed
    /// or restored, after a rejection or a deletion; then nothing is swapped).
    case activated(Manifest)
    /// The file has errors (in its JSON, or against the catalog): the running
    /// manifest stays active. Every problem, errors and warnings, in display order.
    case rejected([Diagnostic])
    /// The file is gone, or is a symlink that leads nowhere: the running
    /// manifest stays active and the watch waits for the file to come back.
    case fileMissing(URL)
    /// The file has kept changing for more than ten settle delays without a
    /// quiet one: nothing of it has been read, the running manifest stays
    /// active, and the file is read once it has been unchanged for a whole
    /// settle delay. Reported once per spell of changes.
    case waitingForQuiet(URL)
    /// The wiring of `generation`, which an activation replaced, is retired:
    /// no lease that could reach what it made and the new wiring did not keep
    /// is held any more (``Container/withLease(isolation:_:)``), and those
    /// singletons have been shut down (each that is an ``AsyncShutdown``, in
    /// reverse order of making). Told once for every generation replaced,
    /// even when there was nothing to shut down, so that an app can stop
    /// what it started for that wiring; `failures` holds a `shutdown-failed`
    /// diagnostic for each shutdown that threw, empty when none did. The
    /// shutdowns run in a task of high priority, as a watch's start does.
    case retired(generation: Int, failures: [Diagnostic])
}

/// A running watch of a manifest file, made by ``Container/watch(_:loader:settleDelay:pollInterval:queue:onChange:startingWith:)``.
///
/// The watch makes the file the source of the container's manifest: each
/// time the file or a parent its `extends` chain reads changes, the file is
/// read again (with its parents), validated, and activated if it has no
/// errors, all while the app keeps resolving. The `onChange` callback hears
/// what happened.
///
/// ## What is watched
///
/// The folder holding the file, the file its symlinks lead to, and that
/// file's folder when it is another; and the same for every file of its
/// `extends` chain (the parent, the parent's parent, and so on), with each
/// parent's folder. Editing only `base.json` re-activates the manifest that
/// extends it. The chain is the one the last read of the file found: editing
/// `extends` to name another parent watches that parent from then on, and
/// the old one no longer. A parent that is named but missing is rejected
/// (`extends-not-found`) and still watched for: creating it (or the folder
/// it is to be in) is a change. Watching folders is what catches
/// an editor's save by rename (a new file renamed over the old one) and
/// a Kubernetes ConfigMap update, where `manifest.json` is a symlink to
/// `..data/manifest.json`, `..data` a symlink to a timestamped folder, and an
/// update renames a new `..data` over the old one. After every change the
/// paths are resolved again and the watch follows the new files. A ConfigMap
/// that holds the file and its parent, both symlinks into `..data`, changes
/// both in one rename: that is one change, activated once, whole. Apple
/// platforms use Dispatch file-system sources; Linux, whose Dispatch has
/// none, uses inotify. A file whose bytes (and resolved path) did not change,
/// nor those of any of its parents, is not read again.
///
/// ## Settling
///
/// A file is read only once it and its parents have been quiet for the whole
/// settle delay after the last change: the watch compares, for each of them,
/// where its path leads, its `stat` and its bytes when it hears a change and
/// a settle delay later, and waits again while they differ or more changes
/// are heard. A writer that updates the file in place in several steps, each
/// less than a settle delay after the last, is therefore never read
/// half-written, even while the watch starts. A file or parent changed while
/// it is being loaded is waited for again (so a swap between reading the file
/// and its parent is never activated as a mix of the two versions), as is a
/// file whose `extends` now names other parents, which were never seen quiet
/// (so the first read of a file with parents, and the read after `extends`
/// is edited, take one more settle delay). A file that keeps changing for
/// more than ten settle delays is reported with
/// ``ManifestReloadEvent/waitingForQuiet(_:)``, and read once quiet.
///
/// ## A bad or deleted file
///
/// A file with errors is never activated: the running manifest stays in force
/// and ``ManifestReloadEvent/rejected(_:)`` carries the diagnostics. (A file
/// with errors that was modified within the settle delay is read again first:
/// an editor saving in place may have truncated it and not yet rewritten it.) A deleted
/// file leaves the running manifest too, reports
/// ``ManifestReloadEvent/fileMissing(_:)``, and the watch goes on; when the
/// file is created again it is read as a change.
///
/// ## Starting and stopping
///
/// When the watch starts, the file is read once it has been quiet for a
/// settle delay: if its manifest differs from the one in force, it is
/// activated (or rejected) as for a change; if it is the same, nothing happens. The watch holds the container weakly and stops
/// on ``cancel()``, when the handle is released, or when the container is gone.
///
/// ## Polling
///
/// Where file events cannot be had (a platform without them, a folder that
/// does not exist yet, inotify out of watches), the watch compares the `stat`
/// of the file and of each parent once a second instead. Pass `pollInterval`
/// to poll as well as watch, for file systems that report no events.
public final class ManifestWatch: Sendable {
    let watcher: ManifestWatcher

    init(_ watcher: ManifestWatcher) {
        self.watcher = watcher
        watcher.start()
    }

    deinit { watcher.cancel() }

    /// The watched file, as given.
    public var url: URL { watcher.url }

    /// Whether the watch has stopped: cancelled, or its container is gone.
    public var isCancelled: Bool { watcher.isCancelled }

    /// Stops the watch and closes what it had open. Once this returns no
    /// change is read any more; a change being read at that moment may still
    /// be activated and reported. Safe to call more than once, from any
    /// thread, and from `onChange` itself.
    public func cancel() { watcher.cancel() }
}
