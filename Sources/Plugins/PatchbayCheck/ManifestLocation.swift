// Shared by the PatchbayCheck and CheckManifests plugins through a symbolic
// link in Sources/Plugins/CheckManifests/, as swift-docc-plugin shares code between
// its plugins: a plugin target can depend on executables but not on a
// library, and the two must agree on where manifests live.
import Foundation
import PackagePlugin

/// A folder of manifests that `patchbay check` is given, and the files whose
/// change can change the verdict.
struct ManifestLocation {
    /// The folder passed to `patchbay check`, which takes every `*.json` in it
    /// except `catalog.json` and `*.schema.json` as a manifest and finds
    /// `catalog.json` beside them.
    let folder: URL
    /// Every JSON file in ``folder``: the manifests, and the catalog
    /// description and schemas, since a changed catalog changes the verdict.
    let inputs: [URL]

    /// The file at a package's root that names the folders to check instead
    /// of the defaults: one folder per line, relative to the package's root;
    /// blank lines and lines starting with `#` are ignored. A plain file, as
    /// a build-tool plugin takes no arguments; not `.json`, which would pass
    /// for a manifest in a folder of them.
    static let configurationFileName = ".patchbay-manifests"

    /// What a search found, and everywhere it looked, for the error that
    /// finding nothing is.
    struct Search {
        /// The folders that hold manifests, each once, in the order looked.
        var found: [ManifestLocation] = []
        /// Every folder looked in, in order.
        var looked: [URL] = []
        /// The configuration file that chose the folders, if one did.
        var configuration: URL?

        /// The folders looked in, one per line, for a message.
        var lookedList: String { ManifestLocation.list(looked) }
    }

    /// The manifests the app reads, for a target whose sources are in
    /// `directory` in the package at `package`: the folders that the
    /// package's configuration file lists, else the target's `Manifests`
    /// folder (or the target's folder itself when manifests lie there
    /// directly) and the package's `Manifests` folder, which an app run with
    /// `swift run` reads as `./Manifests`.
    ///
    /// - Throws: ``ConfigurationError`` when the configuration file cannot be
    ///   read or lists a folder that holds no manifest: a folder named on
    ///   purpose must not be skipped quietly.
    static func search(target directory: URL?, package: URL) throws -> Search {
        if let configured = try configuredFolders(package: package) {
            var search = Search(configuration: configured.file)
            for folder in configured.folders {
                search.looked.append(folder)
                guard let location = find(in: folder) else {
                    throw ConfigurationError(description: """
                        \(printable(configured.file.path)) lists \(printable(folder.path)), which holds no manifest \
                        (a *.json file other than catalog.json and *.schema.json)
                        """)
                }
                search.found.append(location)
            }
            return search
        }
        var search = Search()
        var candidates: [URL] = []
        if let directory {
            candidates += [directory.appendingPathComponent("Manifests"), directory]
        }
        candidates.append(package.appendingPathComponent("Manifests"))
        var targetFound = false
        for (index, folder) in candidates.enumerated() {
            let isTargetFolder = directory != nil && index < 2
            // The target's folder itself only when its Manifests folder has none.
            if isTargetFolder && targetFound { continue }
            let standard = folder.standardizedFileURL
            guard !search.looked.contains(standard) else { continue }
            search.looked.append(standard)
            if let location = find(in: standard) {
                search.found.append(location)
                if isTargetFolder { targetFound = true }
            }
        }
        return search
    }

    /// The folders the package's configuration file lists; nil when it has none.
    static func configuredFolders(package: URL) throws -> (file: URL, folders: [URL])? {
        let file = package.appendingPathComponent(configurationFileName)
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        guard let text = try? String(contentsOf: file, encoding: .utf8) else {
            throw ConfigurationError(description: "cannot read \(printable(file.path)) as UTF-8 text")
        }
        let lines = text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        guard !lines.isEmpty else {
            throw ConfigurationError(description: "\(printable(file.path)) names no folder: write one folder of manifests per line")
        }
        let folders = lines.map { line in
            (line.hasPrefix("/") ? URL(fileURLWithPath: line) : package.appendingPathComponent(line)).standardizedFileURL
        }
        return (file, folders)
    }

    /// The manifests in `folder`; `nil` when it holds none.
    static func find(in folder: URL) -> ManifestLocation? {
        let json = jsonFiles(in: folder)
        return json.contains(where: isManifest) ? ManifestLocation(folder: folder, inputs: json) : nil
    }

    /// The first of `folders` that holds at least one manifest.
    static func find(among folders: [URL]) -> ManifestLocation? {
        folders.lazy.compactMap(find(in:)).first
    }

    /// Whether `file` is a manifest by the rule `patchbay check` applies to a
    /// folder (`ManifestChecker.manifestFiles(at:)`): a catalog description or
    /// a schema alone is nothing to check.
    static func isManifest(_ file: URL) -> Bool {
        let name = file.lastPathComponent
        return name.hasSuffix(".json") && name != "catalog.json" && !name.hasSuffix(".schema.json")
    }

    /// The `*.json` files directly in `folder`, sorted so that commands and
    /// their inputs come out the same on every build; none when it is not a
    /// readable folder.
    private static func jsonFiles(in folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { folder.appendingPathComponent($0) }
    }

    /// A configuration file that cannot be followed; SwiftPM prints it and the build fails.
    /// Every path it quotes goes through ``printable(_:)``; the message's own
    /// line breaks stay, so the list of folders reads one per line.
    struct ConfigurationError: Error, CustomStringConvertible {
        let description: String
    }

    /// `folders`, one per line and indented, each path printable, for a message.
    static func list(_ folders: [URL]) -> String {
        folders.map { "  " + printable($0.path) }.joined(separator: "\n")
    }

    /// `text` with every control character written as an escape (`\u{1B}`), for the build log:
    /// the folders come from the configuration file, and a line break in one would forge a
    /// line of the log, so each quoted path is escaped as `patchbay check` escapes what it quotes.
    /// Nor can it make a line that a CI runner reads as a workflow command: `##[` is written
    /// `#\u{23}[`, and a leading `::` (after white space) `\u{3A}:`. This is a copy of the rule of
    /// `inertInWorkflowLogs` in the Patchbay module, which a plugin, a target of its own that
    /// depends on no library, cannot import; PluginTests hold both to the same cases.
    static func printable(_ text: String) -> String {
        var escaped = text.unicodeScalars.map { $0.value < 0x20 || (0x7F...0x9F).contains($0.value)
            ? "\\u{" + String($0.value, radix: 16, uppercase: true) + "}" : String($0) }.joined()
            .replacingOccurrences(of: "##[", with: "#\\u{23}[")
        if let start = escaped.firstIndex(where: { !$0.isWhitespace }), escaped[start...].hasPrefix("::") {
            escaped.replaceSubrange(start...start, with: "\\u{3A}")
        }
        return escaped
    }
}

extension Target {
    /// The folder of a target with sources. `Target.directoryURL` needs tools
    /// version 6.1, Patchbay's manifest says 6.0, and the older `directory`
    /// is deprecated; the concrete target types have the URL at 6.0.
    var sourceDirectory: URL? {
        switch self {
        case let target as SwiftSourceModuleTarget: target.directoryURL
        case let target as ClangSourceModuleTarget: target.directoryURL
        default: nil
        }
    }
}
