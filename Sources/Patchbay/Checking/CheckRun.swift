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

    init(checker: ManifestChecker) { self.checker = checker }

    /// The validator for the manifests of `folder`.
    /// - Throws: ``ManifestChecker/UnusablePath`` when its `catalog.json` is not a description.
    mutating func validator(forFolder folder: URL) throws(ManifestChecker.UnusablePath) -> ManifestValidator {
        let validator = try makeValidator(forFolder: folder)
        if let catalog = validator.catalog, catalog.entryPoints.isEmpty, !warnedOfNoEntryPoints {
            warnedOfNoEntryPoints = true
            // Named the same whether the catalog is live or described: one verdict either way.
            diagnostics.append(Diagnostic(
                code: .noEntryPoints, severity: .warning,
                message: "the catalog declares no entry points, so this check cannot prove that the types the app "
                    + "resolves itself (resolve, @Injected) are bound in every environment; declare each in the "
                    + "catalog with catalog.entryPoint(T.self)", file: "catalog"))
        }
        return validator
    }

    private mutating func makeValidator(forFolder folder: URL) throws(ManifestChecker.UnusablePath) -> ManifestValidator {
        switch checker.catalog {
        case .live(let catalog):
            if shared == nil { shared = ManifestValidator(catalog: catalog) }
            return shared!
        case .description(let description):
            if shared == nil { shared = ManifestValidator(description: description) }
            return shared!
        case .discover:
            let key = folder.standardizedFileURL.path
            if let known = validators[key] { return known }
            let description = try ManifestChecker.discoverCatalog(in: folder)
            if description == nil {
                // What was not checked, and the one command that fixes it:
                // a build plugin cannot pass --catalog, so that is the last resort.
                let file = ManifestLoader.displayPath(for: folder.appendingPathComponent("catalog.json"))
                notes.append("no catalog.json in \(ManifestLoader.displayPath(for: folder)), so factory names, "
                    + "what they provide, parameters and the dependency graph were not checked (only syntax, shape, "
                    + "keys, lifetimes, injectors, extends, env vars and duplicates). Write it with `swift test`, "
                    + "from a test that calls `try catalog.refreshDescription(at: URL(fileURLWithPath: "
                    + "\"\(file)\"))` with the app's catalog; or pass --catalog FILE")
            }
            let validator = description.map(ManifestValidator.init(description:)) ?? ManifestValidator()
            validators[key] = validator
            return validator
        }
    }

    /// Notes each variable a binding references that is unset here.
    mutating func noteUnsetVariables(in manifest: Manifest) {
        for binding in manifest.bindings {
            for (pointer, reference) in binding.interpolation.unset {
                let position = reference.position ?? binding.origin?.position(at: "/\(BindingKey.parameters)" + pointer)
                    ?? SourcePosition(line: 1, column: 1)
                let place = "\(binding.origin?.file ?? manifest.file):\(position.line):\(position.column)"
                for name in reference.variables where unsetVariables[name] == nil { unsetVariables[name] = place }
            }
        }
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
