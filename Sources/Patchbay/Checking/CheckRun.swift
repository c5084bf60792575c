import Foundation

/// What one ``ManifestChecker/check(_:)`` call gathers as it goes: the
/// diagnostics, one validator per catalog, the notes, and the unset
/// variables the app's environment must provide.
struct CheckRun {
    let checker: ManifestChecker
    var diagnostics: [Diagnostic] = []
    private var notes: [String] = []
    /// Discovered validators, by folder: `catalog.json` is read once per folder.
    private var validators: [String: ManifestValidator] = [:]
    /// The one validator of a live catalog or a named description.
    private var shared: ManifestValidator?
    /// Each unset variable, with the first place that references it.
    private var unsetVariables: [String: String] = [:]
    /// Whether `no-entry-points` has been reported: once per run, whatever the number of folders.
    private var warnedOfNoEntryPoints = false
    /// The folders (standardized paths) whose description is older than the
    /// code it describes; "" for a shared one (a named description).
    private var staleFolders: Set<String> = []

    init(checker: ManifestChecker) { self.checker = checker }

    /// The validator for the manifests of `folder`.
    /// - Throws: ``ManifestError`` when its `catalog.json` is not a description.
    mutating func validator(forFolder folder: URL) throws(ManifestError) -> ManifestValidator {
        let validator = try makeValidator(forFolder: folder)
        if let catalog = validator.catalog, catalog.entryPoints.isEmpty, !warnedOfNoEntryPoints {
            warnedOfNoEntryPoints = true
            // Named the same whether the catalog is live or described: one verdict either way.
            // At the description's first line, or the first registration of a live catalog:
            // a file the reader can open, where the declarations go.
            let place = catalogPlace(for: folder, catalog: catalog)
            diagnostics.append(Diagnostic(
                code: .noEntryPoints, severity: .warning,
                message: "the catalog declares no entry points, so this check cannot prove that the types the app "
                    + "resolves itself (resolve, @Injected) are bound in every environment; declare each in the "
                    + "catalog with catalog.entryPoint(T.self)", file: place.file, line: place.line, column: place.column))
        }
        return validator
    }

    /// Whether the manifests of `folder` are judged by a description older than its code.
    func isJudgedByStaleCatalog(_ folder: URL) -> Bool {
        staleFolders.contains("") || staleFolders.contains(folder.standardizedFileURL.path)
    }

    /// `found`, by a description older than its code, with each error that
    /// a check without the catalog does not make a warning that says why:
    /// the names it judges may be the code's new ones, and the build that
    /// would refuse them must let the test that refreshes the description run.
    ///
    /// An environment rule (`environment-not-allowed`) stays an error: a
    /// stale rule may be wrong either way, and the wrong way serves a test
    /// double in production, where the app's own check is the last line; so
    /// the message says to refresh the description instead. `unknown-factory`
    /// is softened: a name the description lacks is usually new in the code,
    /// and the app itself refuses a name its catalog lacks, serving nothing.
    static func softened(_ found: [Diagnostic], of manifest: Manifest) -> [Diagnostic] {
        struct Place: Hashable { let code: DiagnosticCode, file: String, line: Int, column: Int }
        let withoutCatalog = Set(ManifestValidator().run(manifest).diagnostics.map {
            Place(code: $0.code, file: $0.file, line: $0.line, column: $0.column)
        })
        return found.map { diagnostic in
            guard diagnostic.severity == .error,
                  !withoutCatalog.contains(Place(code: diagnostic.code, file: diagnostic.file, line: diagnostic.line,
                                                 column: diagnostic.column))
            else { return diagnostic }
            var softened = diagnostic
            if diagnostic.code == .environmentNotAllowed {
                softened.message += " (judged by a catalog.json older than the code; an environment rule stays an "
                    + "error: if the code now allows this, refresh the description with `swift test`: see stale-catalog)"
            } else {
                softened.severity = .warning
                softened.message += " (judged by a catalog.json older than the code: see stale-catalog)"
            }
            return softened
        }
    }

    /// Where a catalog-wide diagnostic goes: the description's file, or a
    /// live catalog's first registration; the folder, with no line, when neither is known.
    private func catalogPlace(for folder: URL, catalog: CatalogIndex) -> (file: String, line: Int, column: Int) {
        switch checker.catalog {
        case .discover:
            return (ManifestLoader.displayPath(for: folder.appendingPathComponent("catalog.json")), 1, 1)
        case .description where checker.descriptionFile != nil:
            return (ManifestLoader.displayPath(for: checker.descriptionFile!), 1, 1)
        case .live, .description:
            let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            // The registration of the first factory by name, whatever order the catalog keeps them in.
            if let first = catalog.factories[..<catalog.decoratorStart].indices.min(by: { catalog.factories[$0].name < catalog.factories[$1].name }),
               let registered = catalog.registeredAt(first), let place = SourceLocations.displayed(registered, root: root) {
                return (place.file, place.line, place.column ?? 1)
            }
            return (ManifestLoader.displayPath(for: folder), 0, 0)
        }
    }

    private mutating func makeValidator(forFolder folder: URL) throws(ManifestError) -> ManifestValidator {
        if let shared { return shared }  // only a live catalog's or a named description's
        switch checker.catalog {
        case .live(let catalog):
            shared = ManifestValidator(catalog: catalog)
        case .description(let description):
            shared = ManifestValidator(description: description)
            if let file = checker.descriptionFile, description.isStale(describedIn: file) {
                noteStale(file, description, folderKey: "")
            }
        case .discover:
            let key = folder.standardizedFileURL.path
            if let known = validators[key] { return known }
            let file = folder.appendingPathComponent("catalog.json")
            let description = try ManifestChecker.discoverCatalog(in: folder)
            if description == nil {
                // What was not checked, and the one command that fixes it:
                // a build plugin cannot pass --catalog, so that is the last resort.
                let file = ManifestLoader.displayPath(for: file)
                notes.append("no catalog.json in \(ManifestLoader.displayPath(for: folder)), so factory names, "
                    + "what they provide, parameters and the dependency graph were not checked (only syntax, shape, "
                    + "keys, lifetimes, injectors, extends, env vars and duplicates). Write it with `swift test`, "
                    + "from a test that calls `try catalog.refreshDescription(at: URL(fileURLWithPath: "
                    + "\"\(file)\"))` with the app's catalog; or pass --catalog FILE")
            } else if let description, description.isStale(describedIn: file) {
                noteStale(file, description, folderKey: key)
            }
            let validator = description.map(ManifestValidator.init(description:)) ?? ManifestValidator()
            validators[key] = validator
            return validator
        }
        return shared!
    }

    /// Records that the description `file` is older than its code, with the
    /// warning that says so and the one command that refreshes it.
    private mutating func noteStale(_ file: URL, _ description: CatalogDescription, folderKey: String) {
        staleFolders.insert(folderKey)
        let folders = (description.sources?.folders ?? []).joined(separator: ", ")
        diagnostics.append(Diagnostic(
            code: .staleCatalog, severity: .warning,
            message: "this catalog description is stale: the Swift files in \(folders) changed since it was written "
                + "(its sources fingerprint differs), so the problems it alone finds (factory names, what they "
                + "provide, parameters, dependencies) are warnings until it is refreshed, except the environments a "
                + "factory may be bound in, which it still judges as errors (environment-not-allowed: a stale rule may "
                + "be wrong either way); refresh it with `swift test` "
                + "(the test that calls catalog.refreshDescription(at:) rewrites it), then commit it",
            file: ManifestLoader.displayPath(for: file), line: 1, column: 1))
    }

    /// Notes each variable a binding references that is unset here: in its
    /// factory's parameters, in its chain's links' and in the links each
    /// `decorate` entry adds (kept on the entry, each at its own place).
    mutating func noteUnsetVariables(in manifest: Manifest) {
        note(Self.unsetReferences(in: manifest))
    }

    /// Notes `references` (from ``unsetReferences(in:)``), each variable at the first place found.
    mutating func note(_ references: [UnsetReference]) {
        for reference in references where unsetVariables[reference.name] == nil {
            unsetVariables[reference.name] = reference.place
        }
    }

    /// An unset variable, and a place that references it ("file:line:column").
    struct UnsetReference: Sendable { let name: String, place: String }

    /// The unset variables `manifest` references, in the order ``noteUnsetVariables(in:)`` meets them:
    /// found apart from the run, so that manifests checked in parallel are noted in order after.
    static func unsetReferences(in manifest: Manifest) -> [UnsetReference] {
        var found: [UnsetReference] = []
        for binding in manifest.bindings {
            unset(binding.interpolation, at: binding.origin, in: manifest, into: &found)
            for link in binding.decorators { unset(link.interpolation, at: link.origin ?? binding.origin, in: manifest, into: &found) }
        }
        for entry in manifest.decorations {
            for link in entry.add { unset(link.interpolation, at: link.origin ?? entry.origin, in: manifest, into: &found) }
        }
        return found
    }

    /// The unset variables of one `parameters`, whose owner (a binding, or a link) stands at `origin`.
    private static func unset(
        _ interpolation: InterpolationRecord, at origin: SourceOrigin?, in manifest: Manifest, into found: inout [UnsetReference]
    ) {
        for (pointer, reference) in interpolation.unset {
            let position = reference.position ?? origin?.position(at: "/\(BindingKey.parameters)" + pointer)
                ?? SourcePosition(line: 1, column: 1)
            let place = "\(origin?.file ?? manifest.file):\(position.line):\(position.column)"
            for name in reference.variables { found.append(UnsetReference(name: name, place: place)) }
        }
    }

    /// A validator made before its turn, with what making it reported (a
    /// warning, a note), held back until ``tell(_:)`` at its turn.
    struct PreparedValidator: Sendable {
        let validator: ManifestValidator
        /// Whether it judges by a description older than its code (see ``isJudgedByStaleCatalog(_:)``).
        let isStale: Bool
        fileprivate let diagnostics: [Diagnostic]
        fileprivate let notes: [String]
    }

    /// The validator for each of `folders`, made in order as ``validator(forFolder:)`` makes them one
    /// at a time (the same one thrown first), with what each reports held back: manifests validated in
    /// parallel are then told in order, and the report is the one a check in order gives.
    mutating func prepareValidators(forFolders folders: [URL]) throws(ManifestError) -> [PreparedValidator] {
        var held = ([Diagnostic](), [String]())
        swap(&held.0, &diagnostics)
        swap(&held.1, &notes)
        defer {
            swap(&held.0, &diagnostics)
            swap(&held.1, &notes)
        }
        var prepared: [PreparedValidator] = []
        prepared.reserveCapacity(folders.count)
        for folder in folders {
            let (diagnosticCount, noteCount) = (diagnostics.count, notes.count)
            let validator = try validator(forFolder: folder)
            prepared.append(PreparedValidator(
                validator: validator, isStale: isJudgedByStaleCatalog(folder),
                diagnostics: Array(diagnostics[diagnosticCount...]), notes: Array(notes[noteCount...])))
        }
        return prepared
    }

    /// Reports what making `prepared` reported, at the turn it would have been made.
    mutating func tell(_ prepared: PreparedValidator) {
        add(prepared.diagnostics)
        notes += prepared.notes
    }

    /// Adds diagnostics found, taking over the array when it is the first:
    /// a hostile manifest's may be hundreds of thousands, not to be copied.
    mutating func add(_ found: [Diagnostic]) {
        if diagnostics.isEmpty { diagnostics = found } else { diagnostics += found }
    }

    /// The report: each diagnostic once (a parent's problem is found through
    /// each of its children), errors first. The run's diagnostics are moved
    /// into it, sorted where they stand.
    mutating func report(manifestCount: Int) -> CheckReport {
        var notes = self.notes
        let variables = unsetVariables.keys.sorted()
        if !variables.isEmpty {
            // Listed as diagnostics are, the first few: a manifest may reference a million variables.
            let listed = variables.prefix(Diagnostic.defaultPrintLimit)
            notes.append("the app's environment must provide "
                + listed.map { "\(MessageText.name($0)) (used at \(unsetVariables[$0]!))" }.joined(separator: ", ")
                + (variables.count > listed.count ? " and \(variables.count - listed.count) more" : "")
                + "; unset here, so those values were not checked (pass --require-env to make this an error)")
        }
        var sorted: [Diagnostic] = []
        swap(&sorted, &diagnostics)
        Diagnostic.sortForDisplay(&sorted, removingRepeats: true)
        return CheckReport(
            // A note names folders and files, escaped as a diagnostic's are.
            diagnostics: sorted, manifestCount: manifestCount, notes: notes.map(\.escapingControlCharacters),
            requiredVariables: variables)
    }
}
