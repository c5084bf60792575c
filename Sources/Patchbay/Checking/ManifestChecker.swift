import Foundation

/// Validates manifest files and folders the way `patchbay check` does, as a
/// library call that apps, tests and the command share.
///
///     let report = try ManifestChecker(catalog: catalog).check([URL(fileURLWithPath: "Manifests")])
///     print(report.text())
///
/// A folder means every `*.json` manifest in it (`catalog.json` and
/// `*.schema.json` are not manifests), one per environment: a factory that no
/// manifest of the folder binds is reported once as `unused-factory`, and a
/// decorator that no binding's chain names as `unused-decorator`. Single
/// files are checked alone, and unused factories and decorators are not
/// judged, since the other environments are not in view. With a live catalog, `parameters` are
/// also decoded with their real types; with a catalog description, what the
/// description records of them is checked; with none, only what needs no catalog.
///
/// A `${NAME}` with no default whose variable is unset here is not an error
/// unless ``requiresEnvironment`` is set: it is listed in
/// ``CheckReport/requiredVariables``, as the check usually runs where
/// production's secrets are not. The app refuses such a manifest at activation.
public struct ManifestChecker: Sendable {
    /// Where the catalog comes from.
    package enum CatalogSource: Sendable {
        /// The app's own catalog: every check, parameters decoded with their real types.
        case live(FactoryCatalog)
        /// A catalog description file's content.
        case description(CatalogDescription)
        /// `catalog.json` beside each manifest, when there is one; else no catalog.
        case discover
    }

    /// The catalog to check against.
    package var catalog: CatalogSource
    /// The file a ``CatalogSource/description(_:)`` was read from, when it
    /// was: its diagnostics' place, and where the sources it records are.
    package var descriptionFile: URL?
    /// Reads the manifests (its limits and the environment for `${...}`).
    public var loader: ManifestLoader
    /// Whether a `${NAME}` with no default whose variable is unset is an
    /// error (`env-var-missing`), as it is in the app; false by default.
    public var requiresEnvironment: Bool
    /// The environment a file named alone is judged as, as the app names it
    /// (`patchbay diff --from staging`); nil judges it as a file loaded
    /// alone. A folder's files are judged as their names (see ``JudgedEnvironment``).
    package var environmentName: String?
    /// How many files are read and validated at once: nil or 0 for one per
    /// core (`patchbay check --jobs N` sets it), 1 for one after another. The
    /// report is the same either way, in the same order.
    package var jobs: Int?

    /// Creates a checker that checks against the app's own catalog: every
    /// check, parameters decoded with their real types.
    public init(catalog: FactoryCatalog, loader: ManifestLoader = ManifestLoader(), requiresEnvironment: Bool = false) {
        self.init(source: .live(catalog), loader: loader, requiresEnvironment: requiresEnvironment)
    }

    /// Creates a checker that checks against a catalog description (`catalog.json`'s content).
    public init(
        description: CatalogDescription, loader: ManifestLoader = ManifestLoader(), requiresEnvironment: Bool = false
    ) {
        self.init(source: .description(description), loader: loader, requiresEnvironment: requiresEnvironment)
    }

    /// Creates a checker that reads `catalog.json` beside each manifest when
    /// there is one, and otherwise checks only what needs no catalog.
    public init(loader: ManifestLoader = ManifestLoader(), requiresEnvironment: Bool = false) {
        self.init(source: .discover, loader: loader, requiresEnvironment: requiresEnvironment)
    }

    /// Creates a checker reading its catalog from `source`.
    package init(source: CatalogSource, loader: ManifestLoader = ManifestLoader(), requiresEnvironment: Bool = false) {
        self.catalog = source
        self.loader = loader
        self.requiresEnvironment = requiresEnvironment
    }

    /// A path that could not be checked at all: now a ``ManifestError``
    /// holding one `unreadable` error with no place in a file (line 0).
    @available(*, deprecated, renamed: "ManifestError")
    public typealias UnusablePath = ManifestError

    /// Checks every manifest at `paths` (files or folders) and reports every problem.
    /// - Throws: ``ManifestError`` when a path cannot be checked at all (it
    ///   does not exist or cannot be read, or a discovered `catalog.json` is
    ///   not a catalog description): an `unreadable` error with no place in
    ///   a file (line 0), after the description's own problems. What the
    ///   manifests get wrong is in the report, not thrown.
    public func check(_ paths: [URL]) throws(ManifestError) -> CheckReport {
        var run = CheckRun(checker: self)
        var manifestCount = 0
        // Each file is checked and counted once however it is named (`a.json`, `./a.json`, a folder twice).
        var seen: Set<String> = []
        for path in paths {
            let listed = try manifestFiles(at: path)
            let isFolder = SystemCall.isDirectory(atPath: path.path) == true
            if isFolder {
                // Names that are one String (`café` composed and decomposed, two files on Linux) are one
                // environment, so the app could not tell which it loads: the second is refused, not checked.
                var first: [String: URL] = [:]
                for file in listed {
                    if let earlier = first[file.lastPathComponent] {
                        run.add([Self.namesNoEnvironment(file, sameAs: earlier)])
                    } else {
                        first[file.lastPathComponent] = file
                    }
                }
            }
            let files = listed.filter { seen.insert(PhysicalPath.of($0.standardizedFileURL.path)).inserted }
            guard !files.isEmpty else { continue }
            manifestCount += files.count
            var unused: Manifest?
            let named = try checkFiles(files, inFolder: isFolder ? path : nil, run: &run, keeping: nil, into: &unused)
            if isFolder, let named, let catalog = try run.validator(forFolder: path).catalog {
                run.diagnostics += UnusedFactories.warnings(named: named, in: catalog, folder: path, manifests: files.count)
            }
        }
        return run.report(manifestCount: manifestCount)
    }

    /// The manifests at a path: the file itself, or the manifests in a folder, sorted.
    func manifestFiles(at path: URL) throws(ManifestError) -> [URL] {
        guard let isDirectory = SystemCall.isDirectory(atPath: path.path) else {
            // A link that leads nowhere is there, but names no file: said as such, not as "no such file".
            if (try? FileManager.default.attributesOfItem(atPath: path.path))?[.type] as? FileAttributeType == .typeSymbolicLink {
                throw .unusable(at: path, "\(path.relativePath): " + ManifestLoader.NotAFile.brokenLink)
            }
            throw .unusable(at: path, "no such file or folder: \(path.relativePath)")
        }
        guard isDirectory else {
            let type = (try? FileManager.default.attributesOfItem(atPath: path.resolvingSymlinksInPath().path))?[.type]
            guard type as? FileAttributeType == .typeRegular else {
                throw .unusable(at: path, "\(path.relativePath) is not a manifest file or a folder of them "
                    + "(a FIFO, a socket or a device); name a .json file or a folder")
            }
            guard FileManager.default.isReadableFile(atPath: path.path) else {
                throw .unusable(at: path, "cannot read \(path.relativePath)")
            }
            return [path]
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path.path) else {
            throw .unusable(at: path, "cannot read the folder \(path.relativePath)")
        }
        // `x.JSON` too, which no environment name loads: checked, and refused by name.
        let files = names.filter { ManifestDirectory.isManifestFileName($0.lowercased()) }.sorted()
            .map { path.appendingPathComponent($0) }
        guard !files.isEmpty else {
            // A green check that checked nothing would pass a CI that named the wrong folder.
            throw .unusable(at: path, "no manifest to check in \(path.relativePath) (\(path.path)): it has no "
                + ".json file other than catalog.json; name the folder that holds the environments' manifests")
        }
        return files
    }

    /// `environment-file-name`: a folder's file whose name no environment loads
    /// (`.json`, `x.JSON`), so the app never loads it and no environment judges it.
    /// With `sameAs`, a file whose name is another's written otherwise (`café` composed and decomposed),
    /// which the app could not tell apart.
    static func namesNoEnvironment(_ file: URL, sameAs first: URL? = nil) -> Diagnostic {
        let name = file.lastPathComponent, stem = JudgedEnvironment.ofLoneFile(name)
        let message = first.map { first in
            "the name \(MessageText.name(name)) names the same environment as \(MessageText.name(first.lastPathComponent)), "
                + "written with other Unicode characters that read the same (environment names compare as "
                + "canonically equivalent text), so the app could not tell which one an environment name loads; "
                + "keep one file per environment"
        } ?? "the name \(MessageText.name(name)) loads no environment: the app loads an environment's file by "
            + "its exact name, '<environment>.json' with a non-empty name and '.json' in lowercase, so no "
            + "\(ManifestDirectory.environmentVariable) loads this file and no environment's rules judge it; "
            + (stem.isEmpty ? "name it after its environment (production.json)" : "rename it \(stem).json")
            + ", or move it out of the folder"
        return Diagnostic(code: .environmentFileName, message: message, file: ManifestLoader.displayPath(for: file))
    }

    /// The `catalog.json` in a folder, if any.
    /// - Throws: ``ManifestError`` (see ``check(_:)``) when it is a link to a file outside the folder: not read, by the rule
    ///   manifests in a checked folder follow, since its text would be quoted in a (perhaps public) CI log.
    ///   A description kept elsewhere is named with `--catalog`, which reads what it names.
    package static func discoverCatalog(in folder: URL) throws(ManifestError) -> CatalogDescription? {
        let file = folder.appendingPathComponent("catalog.json")
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        let physicalFolder = PhysicalPath.of(folder.standardizedFileURL.path)
        guard PhysicalPath.relative(PhysicalPath.of(file.standardizedFileURL.path), below: physicalFolder) != nil else {
            throw .unusable(at: file, "the catalog \(file.relativePath) is a link leading outside its folder "
                + "(\(physicalFolder)), so it was not read; keep catalog.json in the manifests' folder, or name the "
                + "description with --catalog FILE")
        }
        return try readCatalog(file)
    }

    /// Reads a catalog description file, checked as a manifest is (see ``CatalogDescription/init(jsonData:file:)``).
    /// - Throws: ``ManifestError`` when it is missing or unreadable, or, with
    ///   its every problem before the `unreadable` error, not a description this build reads
    ///   (the `unreadable` error has no place in a file: line 0).
    public static func readCatalog(_ file: URL) throws(ManifestError) -> CatalogDescription {
        // Read as a manifest is: only a regular file (a FIFO would block, a device never end), and one
        // over the manifest size limit not whole.
        let data: Data
        do {
            data = try ManifestLoader.read(file, limit: ManifestLoader.defaultMaxBytes)
        } catch let error as ManifestLoader.NotAFile {
            throw .unusable(at: file, "the catalog \(file.relativePath) is not a regular file ("
                + (error.type == .typeDirectory ? "a folder" : "a FIFO, a socket or a device") + "); name catalog.json")
        } catch let error as ManifestLoader.TooLarge {
            throw .unusable(at: file, "the catalog \(file.relativePath) is \(error.size) bytes, over the limit of "
                + "\(ManifestLoader.defaultMaxBytes) bytes; is it a catalog description?")
        } catch {
            throw .unusable(at: file, "cannot read the catalog \(file.relativePath)")
        }
        do {
            // Its places as diagnostics print them: files relative to the current folder.
            let root = SourceLocations.packageRoot(above: file.deletingLastPathComponent())
            return try CatalogDescription(jsonData: data, file: file.relativePath, packageRoot: root)
                .displayingSources(describedIn: file)
        } catch {
            let count = error.diagnostics.count
            throw .unusable(
                at: file, "\(file.relativePath) is not a catalog description this build can read "
                    + "(\(count) error\(count == 1 ? "" : "s")). " + CatalogDescription.howToRegenerate(file.relativePath),
                after: error.diagnostics)
        }
    }
}

extension ManifestError {
    /// A path that could not be checked at all (the command exits 2 for it):
    /// `problems`, a catalog description's own, then one `unreadable` error
    /// saying what is wrong, with no place in a file (line 0), as the
    /// command prints it last.
    package static func unusable(at path: URL, _ message: String, after problems: [Diagnostic] = []) -> ManifestError {
        ManifestError(diagnostics: problems + [
            Diagnostic(code: .unreadable, message: message, file: path.relativePath, line: 0, column: 0),
        ])
    }

    /// The `unreadable` error of ``unusable(at:_:after:)``, when this is one.
    package var unusablePath: Diagnostic? { diagnostics.last { $0.code == .unreadable && $0.line == 0 } }
}

/// What a check found: every diagnostic, and how many manifests were read.
public struct CheckReport: Sendable {
    /// Every problem, in file and position order.
    public let diagnostics: [Diagnostic]
    /// The number of manifest files checked.
    public let manifestCount: Int
    /// One-line notes, such as "no catalog: checked ... only".
    public let notes: [String]
    /// The variables that `${NAME}` references with no default need and that
    /// are unset where the check ran: the app's environment must provide them.
    public let requiredVariables: [String]

    /// Whether the check fails: any error, or any warning when `strict`.
    public func failed(strict: Bool = false) -> Bool {
        diagnostics.containsErrors || (strict && diagnostics.contains { $0.severity == .warning })
    }

    /// "2 errors, 1 warning in 2 manifests".
    public var summary: String {
        ManifestError.summary(of: diagnostics) + " in \(manifestCount) manifest\(manifestCount == 1 ? "" : "s")"
    }
}

/// Checks the manifests at `url` (a file or a folder) against a live catalog,
/// for a unit test that fails with every problem listed:
///
///     @Test func manifestsAreValid() throws {
///         try checkManifests(at: URL(fileURLWithPath: "Manifests"), catalog: .notes)
///     }
///
/// - Parameters:
///   - url: A manifest file, or a folder of manifests.
///   - catalog: The app's live catalog; parameters are decoded with their real types.
///   - strict: Fail on warnings too.
///   - loader: Reads the files (limits, and the environment for `${...}`).
/// - Throws: ``ManifestError`` with every diagnostic when any is an error (or, with `strict`, a warning).
public func checkManifests(
    at url: URL, catalog: FactoryCatalog, strict: Bool = false, loader: ManifestLoader = ManifestLoader()
) throws(ManifestError) {
    let report: CheckReport
    do {
        report = try ManifestChecker(catalog: catalog, loader: loader).check([url])
    } catch {
        throw ManifestError(diagnostics: [Diagnostic(
            code: .unreadable, message: error.description, file: ManifestLoader.displayPath(for: url))])
    }
    if report.failed(strict: strict) { throw ManifestError(diagnostics: report.diagnostics) }
}
