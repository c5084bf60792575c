import Foundation
import PackagePlugin

/// Checks the manifests an app reads with `patchbay check` on every build, so
/// a manifest that the app would refuse at start-up fails the build instead,
/// with each problem at its manifest's line and column:
///
///     .executableTarget(
///         name: "MyApp",
///         plugins: [.plugin(name: "PatchbayCheck", package: "Patchbay")])
///
/// The manifests are the package's `Manifests` folder (what an app run with
/// `swift run` reads as `./Manifests`) and the target's `Manifests` folder
/// (else the `*.json` manifests in the target's folder), each with
/// `catalog.json` beside it when there is one; or, when the package's root
/// holds a `.patchbay-manifests` file, the folders it lists, one per line.
/// Finding none is an error that lists every place looked. The check runs
/// again only when one of those files (or the `patchbay` tool) changes.
@main
struct PatchbayCheck: BuildToolPlugin {
    /// One command that checks the manifests; throws (failing the build) when
    /// there are none where the target asked for a check.
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        // The check's stamp is a Swift file (see `checkCommand`), which only a
        // Swift target can take; a C target can use `swift package check-manifests`.
        guard target is SwiftSourceModuleTarget, let directory = target.sourceDirectory else {
            Diagnostics.warning("""
                PatchbayCheck checks the manifests of Swift targets only, and '\(ManifestLocation.printable(target.name))' \
                is not one; run `swift package check-manifests --target \(ManifestLocation.printable(target.name))` instead
                """)
            return []
        }
        let search = try ManifestLocation.search(target: directory, package: context.package.directoryURL)
        guard !search.found.isEmpty else {
            // The target asked for the check: a build that checks nothing
            // would pass every mistake, so it fails, saying where it looked.
            throw ManifestLocation.ConfigurationError(description: """
                PatchbayCheck found no manifests for target '\(ManifestLocation.printable(target.name))'. It looked in:
                \(search.lookedList)
                Put the manifests (*.json) in one of these folders, or list the folders that hold them, \
                one per line, in \(context.package.directoryURL.appendingPathComponent(ManifestLocation.configurationFileName).path)
                """)
        }
        return [ManifestLocation.checkCommand(
            search.found,
            patchbay: try context.tool(named: "patchbay").url,
            workDirectory: context.pluginWorkDirectoryURL,
            label: target.name)]
    }
}

extension ManifestLocation {
    /// The build command that checks the manifests of `locations`, all in one run.
    ///
    /// A build command runs only when its outputs are out of date with its
    /// inputs, and `patchbay check` writes no file; so a shell runs the check
    /// and then empties a stamp file in the plugin's work directory, the
    /// command's one output. The stamp is an empty Swift file: SwiftPM
    /// compiles a generated `.swift` file into the target (which makes the
    /// target's compilation wait for the check) and would bundle a file of
    /// any other type into the app as a resource. When the check fails the
    /// stamp is not written, and the next build checks again. The `patchbay`
    /// executable is an input too, so the build makes it first, and a new
    /// version of the rules checks again.
    ///
    /// The diagnostics go to the build log as `patchbay` prints them,
    /// `file:line:col: error: message [code]`, which is what `swift build`
    /// shows and Xcode puts at the manifest's line. `patchbay` prints a path
    /// below its current folder relative to it, and a build command's
    /// current folder is the package's; so the command runs from the work
    /// directory, where the paths come out absolute, as Xcode needs them.
    static func checkCommand(_ locations: [ManifestLocation], patchbay: URL, workDirectory: URL, label: String) -> Command {
        let stamp = workDirectory.appendingPathComponent("PatchbayCheck-manifests-checked.swift")
        let folders = locations.map(\.folder.path)
        return .buildCommand(
            // The build log prints it: each name escaped as every message of the plugin is.
            displayName: "Checking Patchbay manifests of \(printable(label)) in "
                + folders.map(printable).joined(separator: ", "),
            executable: URL(fileURLWithPath: "/bin/sh"),
            // `sh -c SCRIPT NAME ARG...`: the paths reach the script as $1,
            // $2, $3 and the folders after them, never spliced into its text,
            // so spaces in them are safe; `: >` is the shell's own way to
            // write the empty file, with no other program to find on the
            // build's PATH.
            arguments: [
                "-c", #"p="$1" s="$2" w="$3"; shift 3; cd "$w" && "$p" check "$@" && : > "$s""#, "patchbay-check",
                patchbay.path, stamp.path, workDirectory.path,
            ] + folders,
            inputFiles: locations.flatMap(\.inputs) + [patchbay],
            outputFiles: [stamp])
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension PatchbayCheck: XcodeBuildToolPlugin {
    /// The same check for a target of an Xcode project, which has no folder of
    /// its own: its manifests are a `Manifests` folder among the target's
    /// files (usually bundled as resources), else `TARGET/Manifests` or
    /// `Manifests` in the project's folder.
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        let project = context.xcodeProject.directoryURL
        // A group of JSON files lists each file; a folder reference (a blue
        // folder, which bundles the folder whole) lists the folder itself.
        let ownFolders = target.inputFiles.map(\.url)
            .map { $0.pathExtension == "json" ? $0.deletingLastPathComponent() : $0 }
            .filter { $0.lastPathComponent == "Manifests" }
        var candidates: [URL] = []
        for folder in ownFolders + [
            project.appendingPathComponent(target.displayName).appendingPathComponent("Manifests"),
            project.appendingPathComponent("Manifests"),
        ] where !candidates.contains(folder) {
            candidates.append(folder)
        }
        guard let location = ManifestLocation.find(among: candidates) else {
            // As for a package: a target that asked for the check and checks nothing fails.
            throw ManifestLocation.ConfigurationError(description: """
                PatchbayCheck found no manifests for target '\(target.displayName)'. It looked in:
                \(ManifestLocation.list(candidates))
                Put the manifests (*.json) in a folder named Manifests, in the target or at \
                \(project.appendingPathComponent("Manifests").path)
                """)
        }
        return [ManifestLocation.checkCommand(
            [location],
            patchbay: try context.tool(named: "patchbay").url,
            workDirectory: context.pluginWorkDirectoryURL,
            label: target.displayName)]
    }
}
#endif
