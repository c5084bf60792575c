import Foundation

/// Paths with every symbolic link resolved by the C library's `realpath`:
/// the form `getcwd` gives the current folder in, so that two spellings of
/// one place compare equal when both go through here.
///
/// Foundation's `resolvingSymlinksInPath` is not used for comparing: on
/// Apple platforms it also removes a leading `/private` (`/private/var` and
/// `/private/tmp` are where `/var` and `/tmp` lead), but only for a path that
/// exists, and the answer for a path that does not exist has differed
/// between Foundation's releases. `realpath` gives the same physical path on
/// every platform, and the folder above a missing file is resolved instead.
enum PhysicalPath {
    /// The path with every symlink resolved, or `nil` when it leads nowhere.
    static func ofExisting(_ path: String) -> String? { SystemCall.realPath(path) }

    /// The path with every symlink resolved, for a file that may not exist
    /// (a manifest named by mistake, a parent that `extends` names): the
    /// nearest folder above it that exists is resolved, and the rest of the
    /// path is kept as written. A relative path is taken from the current folder.
    static func of(_ path: String) -> String {
        if let resolved = ofExisting(path) { return resolved }
        let parent = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        // At the top ("/" or ""), or a name that ends no further up ("..").
        guard !parent.isEmpty, parent != path, name != ".." else { return path }
        return (of(parent) as NSString).appendingPathComponent(name)
    }

    /// `path` relative to `folder` when it is `folder` (".") or below it; `nil` otherwise.
    /// Compares the two as given: resolve both the same way first.
    static func relative(_ path: String, below folder: String) -> String? {
        if path == folder || path + "/" == folder { return "." }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : nil
    }
}
