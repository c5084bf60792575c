import Foundation

/// What a manifest watch compares to decide that a manifest is quiet: for
/// each file of its `extends` chain, the manifest first, where its path
/// leads, its `stat` (size, times, inode) and its bytes (unless the loader
/// will refuse it as too large anyway, or it is no regular file). The bytes catch a write that a
/// coarse modification time does not; a change to any file of the chain is
/// a change of the manifest.
struct Sample: Equatable {
    /// One file of the chain as it was sampled.
    struct File: Equatable {
        let path: String?
        let fingerprint: FileFingerprint?
        let bytes: Data?

        init(_ url: URL, maxBytes: Int) {
            path = PhysicalPath.ofExisting(url.path)
            fingerprint = path.flatMap { FileFingerprint(path: $0) }
            let small = fingerprint.map { $0.isRegular && $0.size <= Int64(maxBytes) } ?? false
            bytes = small ? path.flatMap { try? Data(contentsOf: URL(fileURLWithPath: $0)) } : nil
        }
    }

    /// Where a file's path led and what it held, as read.
    struct Content: Equatable {
        let path: String
        let bytes: Data
    }

    let files: [File]

    /// Samples each file of `chain` in turn.
    init(_ chain: [URL], maxBytes: Int) {
        files = chain.map { File($0, maxBytes: maxBytes) }
    }

    /// What the poll compares.
    var fingerprints: [FileFingerprint?] { files.map(\.fingerprint) }

    /// Each file's resolved path and bytes, when every file was there and read whole: the same
    /// again need not be parsed again. `nil` when one is missing or too large, which is always read.
    var content: [Content]? {
        var content: [Content] = []
        for file in files {
            guard let path = file.path, let bytes = file.bytes else { return nil }
            content.append(Content(path: path, bytes: bytes))
        }
        return content
    }
}
