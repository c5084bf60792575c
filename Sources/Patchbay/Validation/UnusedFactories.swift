import Foundation

/// Rule `unused-factory`: a catalog factory that no manifest of a folder
/// binds. A folder holds one manifest per environment, and a factory bound
/// in one environment only (`postgres` in production, `in-memory` in
/// development) is used; so the rule is judged over the folder, never over
/// one manifest, which cannot see the other environments.
enum UnusedFactories {
    /// A warning for each factory of `catalog` that no manifest named (by
    /// place in the index, as ``ValidationResult/namedFactories`` records
    /// it), at the place it was registered, sorted by name.
    static func warnings(named: [Bool], in catalog: CatalogIndex, folder: URL, manifests: Int) -> [Diagnostic] {
        let folderName = ManifestLoader.displayPath(for: folder)
        // A registration's `#fileID` (a live catalog's) as the file under the
        // package's Sources; a description's places are files already.
        let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let description = folder.appendingPathComponent("catalog.json")
        let fallback = FileManager.default.fileExists(atPath: description.path)
            ? SourceLocations.Place(file: ManifestLoader.displayPath(for: description), line: 1, column: 1)
            : SourceLocations.Place(file: folderName, line: 0, column: 0)
        return catalog.factories[..<catalog.decoratorStart].indices.filter { !named[$0] }.sorted { catalog.factories[$0].name < catalog.factories[$1].name }
            .map { offset in
                let name = catalog.factories[offset].name
                let place = catalog.registeredAt(offset).flatMap { SourceLocations.displayed($0, root: root) } ?? fallback
                return Diagnostic(
                    code: .unusedFactory, severity: .warning,
                    message: "factory '\(name)' is not bound by any of the \(manifests) manifest"
                        + "\(manifests == 1 ? "" : "s") in \(folderName); bind it in the environment that needs it, "
                        + "or remove its registration",
                    file: place.file, line: place.line, column: place.column ?? 1, path: "")
            }
    }
}
