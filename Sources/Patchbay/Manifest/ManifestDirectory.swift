import Foundation

/// A folder of manifests, one file per environment: `development.json`,
/// `staging.json`, `production.json`, `test.json`, optionally sharing a
/// `base.json` through `extends`.
///
///     let folder = ManifestDirectory(url: URL(fileURLWithPath: "Manifests"))
///     let manifest = try folder.load()   // --environment, else PATCHBAY_ENV, else development
///
/// The environment is chosen by name: an explicit name, else the
/// `PATCHBAY_ENV` environment variable, else `development` (as Spring's
/// `spring.profiles.active` or .NET's `ASPNETCORE_ENVIRONMENT`). A name with
/// no file is an error listing the environments found.
public struct ManifestDirectory: Sendable {
    /// The folder.
    public let url: URL
    /// Reads the files; its `environment` also supplies `PATCHBAY_ENV`.
    public var loader: ManifestLoader

    /// The environment variable that names the environment.
    public static let environmentVariable = "PATCHBAY_ENV"
    /// The environment used when none is named.
    public static let defaultEnvironment = "development"

    /// A folder of manifests on disk.
    public init(url: URL, loader: ManifestLoader = ManifestLoader()) {
        self.url = url
        self.loader = loader
    }

    /// The `Manifests` folder of a bundle's resources (`Bundle.module`, or the app's `Bundle.main`).
    /// `nil` when the bundle has no such folder.
    public init?(bundle: Bundle, subdirectory: String = "Manifests", loader: ManifestLoader = ManifestLoader()) {
        guard let resources = bundle.resourceURL else { return nil }
        let folder = resources.appendingPathComponent(subdirectory, isDirectory: true)
        guard SystemCall.isDirectory(atPath: folder.path) == true else { return nil }
        self.init(url: folder, loader: loader)
    }

    /// The environments with a file here, sorted: every `*.json` except
    /// `catalog.json` and `*.schema.json` (and `.json`, which names none), and a link that leads to no file.
    public func environments() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { Self.isManifestFileName($0) && FileManager.default.fileExists(atPath: url.appendingPathComponent($0).path) }
            .compactMap(JudgedEnvironment.ofFolderFile(named:)).reduce(into: Set<String>()) { $0.insert($1) }.sorted()
    }

    /// Whether a file name is a manifest's (not the catalog description or a schema).
    public static func isManifestFileName(_ name: String) -> Bool {
        name.hasSuffix(".json") && name != "catalog.json" && !name.hasSuffix(".schema.json")
    }

    /// The environment to use: `explicit`, else `PATCHBAY_ENV`, else `development`.
    ///
    /// An empty `explicit` name is returned as it is, and names no manifest
    /// (the empty name is no environment); an empty `PATCHBAY_ENV` is as
    /// unset, as the shell's `${PATCHBAY_ENV:-development}` reads it.
    public func selectedEnvironment(_ explicit: String? = nil) -> String {
        if let explicit { return explicit }
        if let named = loader.environment[Self.environmentVariable], !named.isEmpty { return named }
        return Self.defaultEnvironment
    }

    /// The file of an environment.
    ///
    /// Found by listing the folder and comparing each manifest's name with
    /// `name` by the one rule environment names follow (see
    /// `JudgedEnvironment`), never by asking the disk for `name.json`: a
    /// case-insensitive disk (macOS's) would open `production.json` for
    /// `Production`, which Linux refuses. The empty name is no environment.
    /// - Throws: ``ManifestError`` (`unknown-environment`) listing the environments found.
    public func url(forEnvironment name: String) throws(ManifestError) -> URL {
        // `catalog` and `manifest.schema` name files of the folder that are not manifests: no environment.
        let listed = ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
        let match = name.isEmpty || name.contains("/") || !Self.isManifestFileName(name + ".json") ? nil
            : listed.first { JudgedEnvironment.ofFolderFile(named: $0).map { JudgedEnvironment.same($0, name) } == true }
        guard let match, case let file = url.appendingPathComponent(match), FileManager.default.fileExists(atPath: file.path) else {
            let found = environments()
            let suggestion = EditDistance.suggestions(for: name, among: found).first
            let folder = ManifestLoader.displayPath(for: url)
            let message: String
            let absolute = url.standardizedFileURL.path, relative = !url.relativePath.hasPrefix("/")
            if SystemCall.isDirectory(atPath: absolute) != true {
                // The folder itself is missing: say where a relative path was looked up.
                message = "no manifest for environment '\(MessageText.name(name))' in \(folder): there is no folder \(absolute)"
                    + (relative ? " (a relative path is looked up from the working directory, "
                        + "\(FileManager.default.currentDirectoryPath))" : "")
                    + ". Run the program from the folder that holds \(relative ? url.relativePath : "the manifests"), "
                    + "or give ManifestDirectory an absolute URL (such as one from the app's bundle)"
            } else if name.isEmpty {
                let named = found.filter { !$0.isEmpty }
                message = "the environment name is empty, which names no manifest of \(folder) "
                    + "(the empty name is not an environment: no environment name loads .json); "
                    + (named.isEmpty ? "the folder has no manifests" : "environments found: " + named.joined(separator: ", "))
                    + ". Name one of them (\(Self.environmentVariable), the 'environment:' argument, or diff's --from and --to)"
            } else if !Self.isManifestFileName(name + ".json"), !name.contains("/") {
                message = "'\(MessageText.name(name))' is not an environment: \(name).json is "
                    + (name == "catalog" ? "the catalog description" : "a JSON Schema") + ", not a manifest; "
                    + (found.isEmpty ? "the folder has no manifests" : "environments found: " + found.joined(separator: ", "))
                    + ". Set \(Self.environmentVariable) (or the 'environment:' argument) to one of them"
            } else {
                message = "no manifest for environment '\(MessageText.name(name))' in \(folder); "
                    + (found.isEmpty
                        ? "the folder (\(url.standardizedFileURL.path)) has no manifests"
                        : "environments found: " + found.joined(separator: ", "))
                    + (suggestion.map { "; did you mean '\($0)'? " } ?? ". ")
                    // Said where only the case differs: what a case-insensitive disk used to forgive.
                    + (found.contains { $0.lowercased() == name.lowercased() }
                        ? "Environment names compare exactly, case included, on every disk. " : "")
                    + "Choose the environment with the 'environment:' argument or the \(Self.environmentVariable) "
                    + "environment variable (else '\(Self.defaultEnvironment)' is used), or add \(name).json to \(folder)"
            }
            // About the folder, not a place in a file: no line and column.
            throw ManifestError(diagnostics: [Diagnostic(
                code: .unknownEnvironment, message: message,
                file: folder, line: 0, column: 0, suggestion: suggestion)])
        }
        return file
    }

    /// Loads the manifest of an environment (chosen as ``selectedEnvironment(_:)`` says), judged as
    /// that environment whatever its `environment` label says (see `JudgedEnvironment`).
    /// - Throws: ``ManifestError`` listing every problem.
    public func load(environment explicit: String? = nil) throws(ManifestError) -> Manifest {
        let name = selectedEnvironment(explicit)
        return try loader.load(contentsOf: url(forEnvironment: name)).judged(as: name)
    }
}

extension Container {
    /// Creates a container serving an environment's manifest from a folder.
    ///
    ///     let container = try Container(catalog: catalog, manifests: ManifestDirectory(url: folder),
    ///                                   environment: "production")
    /// - Parameters:
    ///   - catalog: The factories the manifest chooses among.
    ///   - manifests: The folder of manifests, one per environment.
    ///   - environment: The name; `nil` means `PATCHBAY_ENV`, else `development`.
    /// - Throws: ``ManifestError`` listing every problem.
    public convenience init(
        catalog: FactoryCatalog, manifests: ManifestDirectory, environment: String? = nil
    ) throws(ManifestError) {
        let name = manifests.selectedEnvironment(environment)
        let url = try manifests.url(forEnvironment: name)
        // Judged as the name the app gave, whatever the file's label says.
        self.init(catalog: catalog, activation: try Activation.load(
            contentsOf: url, loader: manifests.loader, catalog: catalog, environment: name))
    }
}
