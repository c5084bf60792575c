import Dispatch
import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// The operating-system side of a manifest watch: which files and folders to
// watch, and a monitor that says "something changed there".
//
// On Apple platforms the monitor is a Dispatch file-system object source
// (kqueue `EVFILT_VNODE`) per watched file and folder. On Linux, Dispatch has
// no such source (`DISPATCH_SOURCE_TYPE_VNODE` is marked unavailable and is
// not in libdispatch), so the monitor reads an inotify descriptor through a
// Dispatch read source. Elsewhere there is no monitor and the watch polls.

/// A file or folder a watch keeps an eye on, with the identity it had when
/// it was looked at: a different inode at the same path means "watch again".
struct WatchTarget: Hashable, Sendable {
    enum Kind: Hashable, Sendable { case file, directory }

    let path: String
    let kind: Kind
    let device: UInt64
    let inode: UInt64

    /// The thing at `path` now (following symlinks), or `nil` when there is none.
    init?(path: String, kind: Kind) {
        guard let info = SystemCall.status(ofPath: path) else { return nil }
        self.path = path
        self.kind = kind
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
    }

    /// What to watch for a manifest and the files its `extends` chain read
    /// (`chain[0]` is the manifest), each thing once: the manifest's folder,
    /// then for each file of the chain the file its symlinks lead to and that
    /// file's folder (the timestamped folder of a Kubernetes ConfigMap), and
    /// for each parent its folder too. A parent's folder that is missing is
    /// stood in for by the nearest folder above it that exists, which hears
    /// the folder made (and each change re-arms the watch, one level deeper).
    /// Empty when the manifest's folder is missing: the watch then polls.
    static func targets(for chain: [URL]) -> [WatchTarget] {
        guard let manifest = chain.first,
            let folder = WatchTarget(path: manifest.deletingLastPathComponent().path, kind: .directory)
        else { return [] }
        var targets = [folder]
        func add(_ target: WatchTarget?) {
            guard let target, !targets.contains(where: { $0.device == target.device && $0.inode == target.inode })
            else { return }
            targets.append(target)
        }
        for (index, file) in chain.enumerated() {
            if index > 0 { add(existingFolder(above: file.path)) }
            guard let real = PhysicalPath.ofExisting(file.path) else { continue }
            add(WatchTarget(path: real, kind: .file))
            add(WatchTarget(path: (real as NSString).deletingLastPathComponent, kind: .directory))
        }
        return targets
    }

    /// The folder holding `path`, or the nearest one above it that exists.
    private static func existingFolder(above path: String) -> WatchTarget? {
        var folder = (path as NSString).deletingLastPathComponent
        while !folder.isEmpty {
            if let target = WatchTarget(path: folder, kind: .directory) { return target }
            let above = (folder as NSString).deletingLastPathComponent
            guard above != folder else { return nil }
            folder = above
        }
        return nil
    }
}

/// What a cheap `stat` sees of a file, for the polling safety net: a change
/// of any field means the file may have changed.
struct FileFingerprint: Hashable, Sendable {
    let device: UInt64, inode: UInt64, size: Int64
    let modified: Int64, modifiedNanoseconds: Int64, changed: Int64, changedNanoseconds: Int64
    /// Whether it is a regular file: only one is read (a device such as `/dev/zero`
    /// says size 0 and never ends, a FIFO blocks).
    let isRegular: Bool

    /// The file at `path` now (following symlinks), or `nil` when there is none.
    init?(path: String) {
        guard let info = SystemCall.status(ofPath: path) else { return nil }
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
        size = Int64(info.st_size)
        isRegular = (info.st_mode & S_IFMT) == S_IFREG
        #if canImport(Darwin)
        let (mtime, ctime) = (info.st_mtimespec, info.st_ctimespec)
        #else
        let (mtime, ctime) = (info.st_mtim, info.st_ctim)
        #endif
        modified = Int64(mtime.tv_sec)
        modifiedNanoseconds = Int64(mtime.tv_nsec)
        changed = Int64(ctime.tv_sec)
        changedNanoseconds = Int64(ctime.tv_nsec)
    }
}

/// Calls its handler on the watch's queue when something may have changed at
/// one of its targets. Says nothing about what changed: the watch re-reads.
final class FileChangeMonitor: Sendable {
    /// Not `Sendable` types, so behind a lock; Dispatch sources may be cancelled from any thread.
    private let sources: Locked<[any DispatchSourceProtocol]>

    private init(sources: [any DispatchSourceProtocol]) {
        self.sources = Locked(sources)
    }

    /// Stops the monitor; the cancel handlers close the descriptors.
    func cancel() { sources.withLock { for source in $0 { source.cancel() } } }

    deinit { cancel() }

    /// Starts watching `targets` (the first is the manifest's folder; any other that cannot be watched is left out), or
    /// returns `nil` when this platform has no file events or the folder
    /// cannot be watched; the watch then polls.
    static func start(
        _ targets: [WatchTarget], queue: DispatchQueue, onEvent: @escaping @Sendable () -> Void
    ) -> FileChangeMonitor? {
        guard targets.first?.kind == .directory else { return nil }
        #if canImport(Darwin)
        var sources: [any DispatchSourceProtocol] = []
        for target in targets {
            let descriptor = SystemCall.openForEvents(target.path)
            guard descriptor >= 0 else {
                if target == targets[0] { return nil }  // the folder comes first: nothing to undo
                continue
            }
            // A folder reports `.write` when an entry is added, removed or renamed.
            let mask: DispatchSource.FileSystemEvent = target.kind == .file
                ? [.write, .extend, .attrib, .delete, .rename, .link, .revoke]
                : [.write, .delete, .rename, .link, .revoke]
            let source = DispatchSource.makeFileSystemObjectSource(
                fileDescriptor: descriptor, eventMask: mask, queue: queue)
            source.setEventHandler { onEvent() }
            source.setCancelHandler { close(descriptor) }
            source.activate()
            sources.append(source)
        }
        return FileChangeMonitor(sources: sources)
        #elseif os(Linux) && canImport(Glibc)
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        // A folder watch also reports writes to the files in it, by name.
        let folderMask = UInt32(
            IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_MODIFY | IN_CLOSE_WRITE | IN_ATTRIB
                | IN_DELETE_SELF | IN_MOVE_SELF)
        let fileMask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)
        for target in targets {
            let watch = SystemCall.addWatch(descriptor, path: target.path, mask: target.kind == .file ? fileMask : folderMask)
            if watch < 0 && target == targets[0] {  // the folder; ENOSPC: out of inotify watches, say
                close(descriptor)
                return nil
            }
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler {
            // Drain every queued event; the watch re-reads whatever they were.
            SystemCall.drain(descriptor)
            onEvent()
        }
        source.setCancelHandler { close(descriptor) }  // closing the descriptor removes its watches
        source.activate()
        return FileChangeMonitor(sources: [source])
        #else
        return nil
        #endif
    }
}
