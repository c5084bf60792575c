import Foundation
import Patchbay

/// Compares the effective wiring of two manifests, as `patchbay diff` does:
/// two environments of one folder, or one environment in two folders (the
/// base branch's checkout and the pull request's).
///
///     let differ = ManifestDiffer(catalog: .myApp)
///     let diff = try differ.diff(folder: URL(fileURLWithPath: "Manifests"), from: "staging", to: "production")
///     print(diff.markdown())
///
/// Each manifest is checked first, as `patchbay check` checks it: one that
/// does not pass cannot be compared, and ``Failure`` carries its diagnostics.
/// Manifests are read without the process environment: `${NAME:-default}`
/// is compared as written, and a `${NAME}` with no default is no error, so
/// the comparison is the same on a laptop and on a CI runner.
public struct ManifestDiffer: Sendable {
    /// Where the catalog comes from.
    let catalog: ManifestChecker.CatalogSource
    /// Reads the manifests: its limits; its environment is never read.
    public var loader: ManifestLoader

    /// Compares against the app's own catalog.
    public init(catalog: FactoryCatalog, loader: ManifestLoader = ManifestLoader()) {
        self.init(source: .live(catalog), loader: loader)
    }

    /// Compares against a catalog description (`catalog.json`'s content), for both sides.
    public init(description: CatalogDescription, loader: ManifestLoader = ManifestLoader()) {
        self.init(source: .description(description), loader: loader)
    }

    /// Reads `catalog.json` beside each side's manifest when there is one.
    public init(loader: ManifestLoader = ManifestLoader()) {
        self.init(source: .discover, loader: loader)
    }

    /// Compares against a catalog from `source`.
    package init(source: ManifestChecker.CatalogSource, loader: ManifestLoader = ManifestLoader()) {
        self.catalog = source
        var loader = loader
        loader.environment = [:]
        loader.allowsUnsetVariables = true
        self.loader = loader
    }

    /// Why a comparison could not be made: `patchbay diff` prints the
    /// diagnostics, then the description, and exits 2.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// What is wrong, in one line.
        public let description: String
        /// The problems of a manifest that does not pass the check, or of an unreadable catalog; may be empty.
        public let diagnostics: [Diagnostic]

        init(_ description: String, diagnostics: [Diagnostic] = []) {
            self.description = description.escapingControlCharacters
            self.diagnostics = diagnostics
        }
    }

    /// Two environments of one folder: `staging` to `production`.
    /// - Throws: ``Failure`` when a manifest is missing or does not pass the check.
    public func diff(folder: URL, from: String, to: String) throws(Failure) -> WiringDiff {
        WiringDiff(
            from: try wiring(environment: from, in: folder, label: from),
            to: try wiring(environment: to, in: folder, label: to))
    }

    /// One environment in two folders: the base branch's and the pull request's.
    /// - Throws: ``Failure`` when a manifest is missing or does not pass the check.
    public func diff(from old: URL, to new: URL, environment: String) throws(Failure) -> WiringDiff {
        var before = try wiring(environment: environment, in: old, label: environment)
        var after = try wiring(environment: environment, in: new, label: environment)
        // One environment: its two files tell the sides apart.
        before.label = before.file
        after.label = after.file
        return WiringDiff(from: before, to: after)
    }

    /// The wiring of one environment of a folder, once its manifest passes the check.
    /// - Throws: ``Failure`` when the manifest is missing or does not pass the check.
    public func wiring(environment: String, in folder: URL, label: String) throws(Failure) -> Wiring {
        let file: URL
        do {
            file = try ManifestDirectory(url: folder, loader: loader).url(forEnvironment: environment)
        } catch {
            throw Failure("no manifest for environment '\(environment)' in \(folder.relativePath)",
                diagnostics: error.diagnostics)
        }
        let report: CheckReport
        do {
            // Judged as the environment named, as the app loading it by that name judges it.
            var checker = ManifestChecker(source: catalog, loader: loader)
            checker.environmentName = environment
            report = try checker.check([file])
        } catch {
            throw Failure(error.description, diagnostics: error.diagnostics)
        }
        let display = ManifestLoader.displayPath(for: file)
        if report.failed() {
            let errors = report.diagnostics.filter { $0.severity == .error }.count
            throw Failure(
                "\(display) does not pass the check (\(errors) error\(errors == 1 ? "" : "s")), so its wiring "
                    + "cannot be compared; fix it (`patchbay check \(display)`) and compare again",
                diagnostics: report.diagnostics)
        }
        let manifest: Manifest
        do {
            manifest = try loader.load(contentsOf: file).judged(as: environment)
        } catch {
            throw Failure("\(display) could not be read", diagnostics: error.diagnostics)
        }
        return Wiring(manifest: manifest, catalog: try description(for: folder), label: label)
    }

    /// The catalog description the wiring reads factories' default lifetimes from.
    private func description(for folder: URL) throws(Failure) -> CatalogDescription? {
        switch catalog {
        case .live(let live): return live.describe()
        case .description(let description): return description
        case .discover:
            do {
                return try ManifestChecker.discoverCatalog(in: folder)
            } catch {
                throw Failure(error.description, diagnostics: error.diagnostics)
            }
        }
    }
}
