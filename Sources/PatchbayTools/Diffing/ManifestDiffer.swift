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
/// Each manifest is checked first, and read, by the code `patchbay check`
/// runs on each file of a folder: a file the check would not read (a link
/// leading outside its folder, one that is not a regular file, one over the
/// size limit) is not read here either; one that does not pass cannot be
/// compared, and ``Failure`` carries its diagnostics.
/// Manifests are read without the process environment: `${NAME:-default}`
/// is compared as written, and a `${NAME}` with no default is no error, so
/// the comparison is the same on a laptop and on a CI runner.
public struct ManifestDiffer: Sendable {
    /// Where the catalog comes from.
    let catalog: ManifestChecker.CatalogSource
    /// Reads the manifests: its limits; its environment is never read.
    public var loader: ManifestLoader
    /// The most differences a comparison lists (``WiringDiff/changes``), ``WiringDiff/defaultMaxDifferences``
    /// unless set; nil lists every one. Every difference is counted whatever the limit (``WiringDiff/omitted``).
    public var maxDifferences: Int? = WiringDiff.defaultMaxDifferences

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
        compare(try checked(environment: from, in: folder), try checked(environment: to, in: folder),
                labels: (from, to))
    }

    /// One environment in two folders: the base branch's and the pull request's.
    /// - Throws: ``Failure`` when a manifest is missing or does not pass the check.
    public func diff(from old: URL, to new: URL, environment: String) throws(Failure) -> WiringDiff {
        let before = try checked(environment: environment, in: old)
        let after = try checked(environment: environment, in: new)
        // One environment: its two files tell the sides apart.
        return compare(before, after, labels: (before.manifest.file, after.manifest.file))
    }

    /// The wiring of one environment of a folder, once its manifest passes the check.
    /// - Throws: ``Failure`` when the manifest is missing or does not pass the check.
    public func wiring(environment: String, in folder: URL, label: String) throws(Failure) -> Wiring {
        let side = try checked(environment: environment, in: folder)
        return Wiring(manifest: side.manifest, index: side.catalog, label: label)
    }

    /// The two sides' wirings compared. When only one side has a catalog (a
    /// pull request that adds `catalog.json`), both are read with it: the
    /// other side's types are then named as it names them (`NotesKit.Clock`,
    /// not `Clock`) and its factories' default lifetimes are known, so a
    /// manifest wired alike is not reported as every type removed and added.
    private func compare(_ before: CheckedSide, _ after: CheckedSide, labels: (String, String)) -> WiringDiff {
        WiringDiff(
            from: Wiring(manifest: before.manifest, index: before.catalog ?? after.catalog, label: labels.0),
            to: Wiring(manifest: after.manifest, index: after.catalog ?? before.catalog, label: labels.1),
            limit: maxDifferences)
    }

    /// One side, checked: its manifest as validated and the catalog that judged it.
    private struct CheckedSide {
        let manifest: Manifest
        let catalog: CatalogIndex?
    }

    /// Whether `file`, the file of the environment `name`, is a symbolic link (one that leads nowhere, when
    /// the folder has no manifest by that name).
    private static func isLink(_ file: URL, named name: String) -> Bool {
        !name.isEmpty && !name.contains("/") && ManifestDirectory.isManifestFileName(file.lastPathComponent)
            && (try? FileManager.default.attributesOfItem(atPath: file.path))?[.type] as? FileAttributeType == .typeSymbolicLink
    }

    /// An environment's manifest, read and checked as `patchbay check` reads and
    /// checks each file of the folder: through the same code, so a file the check
    /// refuses (a link leading outside the folder, one that is not a regular file,
    /// one over the size limit) is refused here with the same diagnostic, unread.
    /// - Throws: ``Failure`` when the manifest is missing or does not pass the check.
    private func checked(environment: String, in folder: URL) throws(Failure) -> CheckedSide {
        let file: URL
        do {
            file = try ManifestDirectory(url: folder, loader: loader).url(forEnvironment: environment)
        } catch where Self.isLink(folder.appendingPathComponent(environment + ".json"), named: environment) {
            // A link that leads to no file is there: the check says what it is, as for any file of the folder.
            file = folder.appendingPathComponent(environment + ".json")
        } catch {
            throw Failure("no manifest for environment '\(environment)' in \(folder.relativePath)",
                diagnostics: error.diagnostics)
        }
        let checked: CheckedManifest
        do {
            checked = try ManifestChecker(source: catalog, loader: loader).check(file, inFolder: folder)
        } catch {
            throw Failure(error.description, diagnostics: error.diagnostics)
        }
        let display = ManifestLoader.displayPath(for: file)
        guard !checked.report.failed(), let manifest = checked.manifest else {
            let errors = checked.report.diagnostics.filter { $0.severity == .error }.count
            // The folder's check, which reads the file as this did: a check of the file alone
            // would follow a link out of the folder and quote what it leads to.
            throw Failure(
                "\(display) does not pass the check (\(errors) error\(errors == 1 ? "" : "s")), so its wiring "
                    + "cannot be compared; fix it (`patchbay check \(ManifestLoader.displayPath(for: folder))`, "
                    + "which reads it as diff does) and compare again",
                diagnostics: checked.report.diagnostics)
        }
        return CheckedSide(manifest: manifest, catalog: checked.catalog)
    }
}
