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
        return catalog.factories.indices.filter { !named[$0] }.sorted { catalog.factories[$0].name < catalog.factories[$1].name }
            .map { offset in
                let name = catalog.factories[offset].name
                let place = catalog.registeredAt(offset).flatMap { CodePlace($0) } ?? CodePlace(file: folderName, line: 1)
                return Diagnostic(
                    code: .unusedFactory, severity: .warning,
                    message: "factory '\(name)' is not bound by any of the \(manifests) manifest"
                        + "\(manifests == 1 ? "" : "s") in \(folderName); bind it in the environment that needs it, "
                        + "or remove its registration",
                    file: place.file, line: place.line, column: 1, path: "")
            }
    }

    /// `NotesKit/NotesCatalog.swift:41`, split.
    fileprivate struct CodePlace {
        let file: String
        let line: Int
    }
}

extension UnusedFactories.CodePlace {
    /// Splits `file:line`; nil when the text has no line number.
    init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), let line = Int(text[text.index(after: colon)...]), line > 0
        else { return nil }
        self.init(file: String(text[..<colon]), line: line)
    }
}
