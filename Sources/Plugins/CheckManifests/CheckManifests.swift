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
/// Without a PATH it checks the manifests of every target (its `Manifests`
/// folder, else the `*.json` manifests in its folder, as the build-tool plugin
/// finds them) and the package's top-level `Manifests` folder. The other
/// options of `patchbay check` (`--strict`, `--format`, `--catalog`,
/// `--require-env`) are passed on. It prints `patchbay check`'s diagnostics
/// and fails when the check finds errors.
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
            let targets = targetNames.isEmpty ? context.package.targets : try context.package.targets(named: targetNames)
            var found = targets.compactMap(\.sourceDirectory).compactMap(ManifestLocation.find(inTarget:))
            if targetNames.isEmpty,
               let root = ManifestLocation.find(among: [context.package.directoryURL.appendingPathComponent("Manifests")]) {
                found.append(root)
            }
            // A target at the package's root has the root's Manifests folder: check it once.
            var folders: [URL] = []
            for folder in found.map(\.folder) where !folders.contains(folder) {
                folders.append(folder)
            }
            guard !folders.isEmpty else {
                throw Failure(description: """
                    found no manifests to check: put them in a target's Manifests folder or in \
                    Manifests at the package's root, or name a file or folder: swift package check-manifests PATH
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
    /// its options that take one (`--catalog FILE`, `--format FORMAT`) are
    /// not paths to check; everything after `--` is. (A new valued option of
    /// `patchbay check` belongs here too: its value would pass for a PATH.)
    static func hasOperand(_ arguments: [String]) -> Bool {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--" { return !rest.isEmpty }
            if argument == "--catalog" || argument == "--format" {
                _ = rest.popFirst()
            } else if !argument.hasPrefix("-") || argument == "-" {
                return true
            }
        }
        return false
    }

    static let usage = """
        OVERVIEW: Check Patchbay manifests with `patchbay check`, as the PatchbayCheck build-tool plugin does on every build.

        USAGE: swift package check-manifests [--target NAME]... [--strict] [--format text|json|github] [--catalog FILE] [--require-env] [PATH...]

        ARGUMENTS:
          PATH            A manifest file, or a folder of manifests with catalog.json beside them.
                          Default: every target's Manifests folder (else the *.json manifests in
                          its folder), and Manifests at the package's root.

        OPTIONS:
          --target NAME   Check only this target's manifests (repeatable).
          Other options are those of `patchbay check --help`.

        """

    /// Why the check failed; SwiftPM prints it and `swift package` exits non-zero.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }
}
