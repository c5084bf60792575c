import Foundation

/// Rules `unused-factory` and `unused-decorator`: a catalog factory that no
/// manifest of a folder binds, and a catalog decorator that no binding's
/// chain names. A folder holds one manifest per environment, and a factory
/// bound in one environment only (`postgres` in production, `in-memory` in
/// development) is used, as is a decorator named in one environment's chain
/// only (`timing-store` in staging); so the rules are judged over the folder,
/// never over one manifest, which cannot see the other environments.
enum UnusedFactories {
    /// A warning for each factory of `catalog` that no manifest named, then
    /// for each decorator that no chain named (by place in the index, as
    /// ``ValidationResult/namedFactories`` records both), at the place it was
    /// registered, each kind sorted by name.
    static func warnings(named: [Bool], in catalog: CatalogIndex, folder: URL, manifests: Int) -> [Diagnostic] {
        let folderName = ManifestLoader.displayPath(for: folder)
        // A registration's `#fileID` (a live catalog's) as the file under the
        // package's Sources; a description's places are files already.
        let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let description = folder.appendingPathComponent("catalog.json")
        let fallback = FileManager.default.fileExists(atPath: description.path)
            ? SourceLocations.Place(file: ManifestLoader.displayPath(for: description), line: 1, column: 1)
            : SourceLocations.Place(file: folderName, line: 0, column: 0)
        let ofManifests = "\(manifests) manifest\(manifests == 1 ? "" : "s") in \(folderName)"
        func unused(_ places: Range<Int>, _ code: DiagnosticCode, _ message: (String) -> String) -> [Diagnostic] {
            places.filter { !named[$0] }.sorted { catalog.factories[$0].name < catalog.factories[$1].name }
                .map { offset in
                    let place = catalog.registeredAt(offset).flatMap { SourceLocations.displayed($0, root: root) } ?? fallback
                    return Diagnostic(
                        code: code, severity: .warning, message: message(catalog.factories[offset].name),
                        file: place.file, line: place.line, column: place.column ?? 1, path: "")
                }
        }
        let factories = unused(0..<catalog.decoratorStart, .unusedFactory) { name in
            "factory '\(name)' is not bound by any of the \(ofManifests); bind it in the environment that needs it, "
                + "or remove its registration"
        }
        let decorators = unused(catalog.decoratorStart..<catalog.factories.count, .unusedDecorator) { name in
            "decorator '\(MessageText.name(name))' is not in the '\(BindingKey.decorators)' of any binding of the "
                + "\(ofManifests); add it to the chain of a binding in the environment that needs it, or remove its "
                + "registration"
        }
        return factories + decorators
    }
}
