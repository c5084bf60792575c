// Shared by the PatchbayCheck and CheckManifests plugins through a symbolic
// link in Sources/Plugins/CheckManifests/, as swift-docc-plugin shares code between
// its plugins: a plugin target can depend on executables but not on a
// library, and the two must agree on where manifests live.
import Foundation
import PackagePlugin

/// The folder of manifests that `patchbay check` is given for one target, and
/// the files whose change can change the verdict.
struct ManifestLocation {
    /// The folder passed to `patchbay check`, which takes every `*.json` in it
    /// except `catalog.json` and `*.schema.json` as a manifest and finds
    /// `catalog.json` beside them.
    let folder: URL
    /// Every JSON file in ``folder``: the manifests, and the catalog
    /// description and schemas, since a changed catalog changes the verdict.
    let inputs: [URL]

    /// The manifests of a target whose sources are in `directory`: its
    /// `Manifests` folder, else the target's folder itself when manifests lie
    /// there directly; `nil` when neither holds a manifest.
    static func find(inTarget directory: URL) -> ManifestLocation? {
        find(among: [directory.appendingPathComponent("Manifests"), directory])
    }

    /// The first of `folders` that holds at least one manifest.
    static func find(among folders: [URL]) -> ManifestLocation? {
        for folder in folders {
            let json = jsonFiles(in: folder)
            if json.contains(where: isManifest) {
                return ManifestLocation(folder: folder, inputs: json)
            }
        }
        return nil
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
