import Foundation
import Patchbay

/// What `GET /health` tells about the wiring: its generation, the
/// fingerprint of the manifest files it was read from, and the last manifest
/// refused while it serves. The ``WiringService`` writes it; requests read it.
public final class WiringStatus: @unchecked Sendable {
    /// A manifest the server refused: why, and when.
    public struct Refusal: Codable, Sendable, Equatable {
        /// When it was refused, ISO 8601.
        public var at: String
        /// Every diagnostic, as the check prints it (`file:line:column: error: ... [code]`).
        public var diagnostics: [String]
    }

    /// What a request reads, all at once.
    public struct Snapshot: Sendable {
        public var generation: Int
        public var fingerprint: String
        public var files: [String]
        public var lastRefusal: Refusal?
    }

    // Guards `state`: the watch writes from its queue, requests read from theirs.
    private let lock = NSLock()
    private var state: Snapshot

    /// The status of generation `generation`, read from `files`.
    init(generation: Int, files: [URL]) {
        state = Snapshot(
            generation: generation, fingerprint: ManifestFingerprint.of(files), files: files.map(\.path), lastRefusal: nil)
    }

    /// The status now.
    public var snapshot: Snapshot { lock.withLock { state } }

    /// A new generation is in force: its files, and no refusal since (the
    /// refused file was replaced by the one now in force).
    func activated(generation: Int, files: [URL]) -> Snapshot {
        let fingerprint = ManifestFingerprint.of(files)
        return lock.withLock {
            state = Snapshot(generation: generation, fingerprint: fingerprint, files: files.map(\.path), lastRefusal: nil)
            return state
        }
    }

    /// A manifest was refused; the wiring in force keeps serving.
    func refused(_ diagnostics: [Diagnostic], at date: Date = Date()) {
        let refusal = Refusal(
            at: date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)),
            diagnostics: diagnostics.map(\.description))
        lock.withLock { state.lastRefusal = refusal }
    }
}

/// The fingerprint of a manifest: FNV-1a, 64 bits, in 16 hex digits, over
/// the bytes of every file of its `extends` chain, the file first, then its
/// parent, and so on, read from disk when the activation is reported. The
/// same files give the same fingerprint on every machine and every run.
enum ManifestFingerprint {
    static func of(_ files: [URL]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for file in files {
            for byte in (try? Data(contentsOf: file)) ?? Data() {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The file and the parents its `extends` chain names, in order, each
    /// relative to the folder of the file that names it; stops at a missing
    /// or unreadable file, and after 16 (the loader refuses longer chains).
    static func chain(from file: URL) -> [URL] {
        var files: [URL] = [], next: URL? = file.standardizedFileURL
        while let current = next, files.count < 16, !files.contains(current),
            let data = try? Data(contentsOf: current)
        {
            files.append(current)
            next = ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any])?["extends"]
                .flatMap { $0 as? String }
                .map { URL(fileURLWithPath: $0, relativeTo: current.deletingLastPathComponent()).standardizedFileURL }
        }
        return files
    }
}
