import Foundation
import PackagePlugin

/// Checks a target's manifests with `patchbay check` on every build, so a
/// manifest that the app would refuse at start-up fails the build instead,
/// with each problem at its manifest's line and column:
///
///     .executableTarget(
///         name: "MyApp",
///         exclude: ["Manifests"],
///         plugins: [.plugin(name: "PatchbayCheck", package: "Patchbay")])
///
/// The manifests are the target's `Manifests` folder, else the `*.json`
/// files in the target's folder, with `catalog.json` beside them when there
/// is one. The check runs again only when one of those files (or the
/// `patchbay` tool) changes.
@main
struct PatchbayCheck: BuildToolPlugin {
    /// One command that checks the target's manifests, or none (with a
    /// warning) when the target has none or is not a Swift target.
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        // The check's stamp is a Swift file (see `checkCommand`), which only a
        // Swift target can take; a C target can use `swift package check-manifests`.
        guard target is SwiftSourceModuleTarget, let directory = target.sourceDirectory else {
            Diagnostics.warning("""
                PatchbayCheck checks the manifests of Swift targets only, and '\(target.name)' is not one; \
                run `swift package check-manifests --target \(target.name)` instead
                """)
            return []
        }
        guard let location = ManifestLocation.find(inTarget: directory) else {
            // The target asked for the check: finding nothing is a mistake worth
            // seeing, but not a reason to fail the build.
            Diagnostics.warning("""
                PatchbayCheck found no manifests for target '\(target.name)': put them in \
                \(directory.appendingPathComponent("Manifests").path)
                """)
            return []
        }
        return [location.checkCommand(
            patchbay: try context.tool(named: "patchbay").url,
            workDirectory: context.pluginWorkDirectoryURL,
            label: target.name)]
    }
}

extension ManifestLocation {
    /// The build command that checks the manifests.
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
    func checkCommand(patchbay: URL, workDirectory: URL, label: String) -> Command {
        let stamp = workDirectory.appendingPathComponent("PatchbayCheck-manifests-checked.swift")
        return .buildCommand(
            displayName: "Checking Patchbay manifests of \(label) in \(folder.path)",
            executable: URL(fileURLWithPath: "/bin/sh"),
            // `sh -c SCRIPT NAME ARG...`: the paths reach the script as $1 to
            // $4, never spliced into its text, so spaces in them are safe;
            // `: >` is the shell's own way to write the empty file, with no
            // other program to find on the build's PATH.
            arguments: [
                "-c", #"cd "$4" && "$1" check "$2" && : > "$3""#, "patchbay-check",
                patchbay.path, folder.path, stamp.path, workDirectory.path,
            ],
            inputFiles: inputs + [patchbay],
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
            Diagnostics.warning("""
                PatchbayCheck found no manifests for target '\(target.displayName)': put them in a \
                folder named Manifests, in the target or at \(project.appendingPathComponent("Manifests").path)
                """)
            return []
        }
        return [location.checkCommand(
            patchbay: try context.tool(named: "patchbay").url,
            workDirectory: context.pluginWorkDirectoryURL,
            label: target.displayName)]
    }
}
#endif
