import Foundation
import PackagePlugin

/// `swift package check-manifests [PATH...]`: the check that the
/// `PatchbayCheck` build-tool plugin runs on every build, on demand, for
/// people who do not want it in every build.
///
///     swift package check-manifests                       # every target's manifests
///     swift package check-manifests Manifests --strict    # one folder, warnings fail too
///     swift package check-manifests --target MyApp
///
/// Without a PATH it checks what the build-tool plugin checks: the manifests
/// of every target (its `Manifests` folder, else the `*.json` manifests in
/// its folder) and the package's top-level `Manifests` folder, or the
/// folders listed in the package's `.patchbay-manifests` file. The other
/// options of `patchbay check` (`--strict`, `--format`, `--catalog`,
/// `--require-env`, `--max-diagnostics`) are passed on. It prints `patchbay
/// check`'s diagnostics and fails when the check finds errors.
@main
struct CheckManifests: CommandPlugin {
    /// Runs `patchbay check` on the named paths, or on every target's
    /// manifests, and throws (so `swift package` exits non-zero) when it fails.
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        if arguments.contains("--help") || arguments.contains("-h") {
            print(Self.usage)
            return
        }
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        var forwarded = extractor.remainingArguments
        if !Self.hasOperand(forwarded) {
            let package = context.package.directoryURL
            let targets = targetNames.isEmpty ? context.package.targets : try context.package.targets(named: targetNames)
            // What the build plugin checks for each target (its folder and
            // the package's Manifests, or the configuration file's folders);
            // with no target named, the package's Manifests even if no
            // target has sources.
            var searches = try targets.compactMap(\.sourceDirectory).map {
                try ManifestLocation.search(target: $0, package: package)
            }
            if targetNames.isEmpty { searches.append(try ManifestLocation.search(target: nil, package: package)) }
            // A folder several targets share (the package's Manifests) is checked once.
            var folders: [URL] = [], looked: [URL] = []
            for search in searches {
                for folder in search.found.map(\.folder) where !folders.contains(folder) { folders.append(folder) }
                for folder in search.looked where !looked.contains(folder) { looked.append(folder) }
            }
            guard !folders.isEmpty else {
                throw Failure(description: """
                    found no manifests to check. It looked in:
                    \(ManifestLocation.list(looked))
                    Put the manifests (*.json) in one of these folders, list the folders that hold them in \
                    \(package.appendingPathComponent(ManifestLocation.configurationFileName).path), \
                    or name a file or folder: swift package check-manifests PATH
                    """)
            }
            forwarded += folders.map(\.path)
        }

        let process = Process()
        process.executableURL = try context.tool(named: "patchbay").url
        process.arguments = ["check"] + forwarded
        // Standard output and error are inherited: the diagnostics reach the
        // terminal exactly as `patchbay check` prints them.
        try process.run()
        process.waitUntilExit()
        switch (process.terminationReason, process.terminationStatus) {
        case (.exit, 0):
            return
        case (.exit, 1):
            throw Failure(description: "patchbay check found problems in the manifests")
        case (.exit, let status):
            throw Failure(description: "patchbay check could not run as asked (exit status \(status))")
        case (_, let signal):
            throw Failure(description: "patchbay check was stopped by signal \(signal)")
        }
    }

    /// Whether the arguments for `patchbay check` name a PATH. The values of
    /// its options that take one (`--catalog FILE`, `--format FORMAT`, `--max-diagnostics N`) are
    /// not paths to check; everything after `--` is. (A new valued option of
    /// `patchbay check` belongs here too: its value would pass for a PATH.)
    static func hasOperand(_ arguments: [String]) -> Bool {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--" { return !rest.isEmpty }
            if argument == "--catalog" || argument == "--format" || argument == "--max-diagnostics" {
                _ = rest.popFirst()
            } else if !argument.hasPrefix("-") || argument == "-" {
                return true
            }
        }
        return false
    }

    static let usage = """
        OVERVIEW: Check Patchbay manifests with `patchbay check`, as the PatchbayCheck build-tool plugin does on every build.

        USAGE: swift package check-manifests [--target NAME]... [--strict] [--format text|json|github] [--catalog FILE] [--require-env] [--max-diagnostics N] [PATH...]

        ARGUMENTS:
          PATH            A manifest file, or a folder of manifests with catalog.json beside them.
                          Default: every target's Manifests folder (else the *.json manifests in
                          its folder), and Manifests at the package's root; or the folders listed,
                          one per line, in .patchbay-manifests at the package's root.

        OPTIONS:
          --target NAME   Check only this target's manifests (repeatable).
          Other options are those of `patchbay check --help`.

        """

    /// Why the check failed; SwiftPM prints it and `swift package` exits non-zero.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }
}
