import Foundation
import Patchbay

// The subcommands that read one manifest (`explain`, `graph`) or none
// (`schema`): argument handling and output only; the work is done by
// ManifestExplainer, DependencyGraph and ManifestSchema.

extension PatchbayCommandLine {
    /// Runs `explain`, `graph` or `schema`.
    func inspect(_ subcommand: String, _ arguments: [String], _ output: Output) throws -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            output.standard(usage(of: subcommand))
            return 0
        }
        switch subcommand {
        case "explain": return try explain(arguments, output)
        case "graph": return try graph(arguments, output)
        default: return try schema(arguments, output)
        }
    }

    /// The usage text of `explain`, `graph` or `schema`.
    func usage(of subcommand: String) -> String {
        switch subcommand {
        case "explain":
            """
            OVERVIEW: Show how a type resolves under a manifest: the binding that wins, the bindings it
            shadows, its factory, lifetime and parameters, and the tree of what the factory needs.

            USAGE: \(commandName) explain [--catalog FILE] --manifest FILE [--injector NAME] TYPE

            ARGUMENTS:
              TYPE              The requested type, short (NoteService) or module-qualified.

            OPTIONS:
              --manifest FILE   The manifest (its extends chain is followed).
              --injector NAME   The requesting injector (default: primary); without a binding of
                                its own it falls back to the injectors in order.
            \(catalogOptionHelp)
              -h, --help        Show help information.

            EXIT STATUS: 0 explained; 1 TYPE is not bound, or the manifest has errors; 2 the command
            could not run, or could not write its output.

            """
        case "graph":
            """
            OVERVIEW: Print a manifest's dependency graph: a node per binding, an edge per need, the
            injectors as groups.

            USAGE: \(commandName) graph [--catalog FILE] [--format mermaid|dot] MANIFEST

            ARGUMENTS:
              MANIFEST          The manifest (its extends chain is followed).

            OPTIONS:
              --format FORMAT   mermaid (default; GitHub renders it in Markdown) or dot (Graphviz).
            \(catalogOptionHelp)
              -h, --help        Show help information.

            EXIT STATUS: 0 drawn; 1 the manifest has errors (what can be drawn still is); 2 the
            command could not run, or could not write its output.

            """
        default:
            """
            OVERVIEW: Print a JSON Schema (draft 2020-12) for manifests, for editors to validate and
            autocomplete them.

            USAGE: \(commandName) schema [--catalog FILE] > Manifests/manifest.schema.json

            OPTIONS:
              --catalog FILE    A catalog description: protocol, factory and parameters then list the
                                catalog's names. Without it, \(schemaDefault).
              -h, --help        Show help information.

            """
        }
    }

    private var schemaDefault: String {
        catalog == nil ? "the schema checks shape only" : "this app's catalog is used"
    }

    private var catalogOptionHelp: String {
        "  --catalog FILE    A catalog description (FactoryCatalog.describe().jsonData()).\n"
            + (catalog == nil ? "                    Without it, catalog.json beside the manifest is used."
                : "                    Without it, this app's catalog is used.")
    }

    // MARK: - explain

    private func explain(_ arguments: [String], _ output: Output) throws -> Int32 {
        let parsed = try CommandArguments(arguments, valued: ["--catalog", "--manifest", "--injector"], boolean: [])
        guard let file = parsed.options["--manifest"] else {
            throw CommandArguments.Problem(
                description: "missing '--manifest FILE': name the manifest to explain TYPE under")
        }
        guard let type = parsed.operands.first else {
            throw CommandArguments.Problem(description: "missing TYPE: name the type to explain, such as NoteService")
        }
        guard parsed.operands.count == 1 else {
            throw CommandArguments.Problem(
                description: "unexpected argument '\(parsed.operands[1])': explain takes one TYPE")
        }
        let injector = parsed.options["--injector"] ?? InjectorName.primary.rawValue
        guard !injector.isEmpty else {
            throw CommandArguments.Problem(description: "'--injector' needs a non-empty name")
        }
        guard let loaded = try load(file, catalogFile: parsed.options["--catalog"], output) else { return 1 }
        let explanation = ManifestExplainer(manifest: loaded.manifest, catalog: loaded.catalog)
            .explain(type, from: InjectorName(injector))
        output.standard(explanation.text())
        return explanation.isBound && !loaded.hasErrors ? 0 : 1
    }

    // MARK: - graph

    private func graph(_ arguments: [String], _ output: Output) throws -> Int32 {
        let parsed = try CommandArguments(arguments, valued: ["--catalog", "--format"], boolean: [])
        let format = try parsed.choice("--format", among: ["mermaid", "dot"], default: "mermaid")
        guard let file = parsed.operands.first else {
            throw CommandArguments.Problem(description: "missing MANIFEST: name the manifest file to draw")
        }
        guard parsed.operands.count == 1 else {
            throw CommandArguments.Problem(
                description: "unexpected argument '\(parsed.operands[1])': graph draws one MANIFEST")
        }
        guard let loaded = try load(file, catalogFile: parsed.options["--catalog"], output) else { return 1 }
        let graph = DependencyGraph(manifest: loaded.manifest, catalog: loaded.catalog)
        output.standard(format == "dot" ? graph.dot() : graph.mermaid())
        return loaded.hasErrors ? 1 : 0
    }

    // MARK: - schema

    private func schema(_ arguments: [String], _ output: Output) throws -> Int32 {
        let parsed = try CommandArguments(arguments, valued: ["--catalog"], boolean: [])
        if let extra = parsed.operands.first {
            throw CommandArguments.Problem(description: "unexpected argument '\(extra)': schema takes no operands")
        }
        let description: CatalogDescription? =
            if let file = parsed.options["--catalog"] { try ManifestChecker.readCatalog(URL(fileURLWithPath: file)) }
            else { catalog?.describe() }
        output.standard(String(decoding: ManifestSchema.jsonData(catalog: description), as: UTF8.self))
        return 0
    }

    // MARK: - Reading one manifest

    /// A manifest read for `explain` or `graph`, with its catalog.
    private struct Loaded {
        let manifest: Manifest
        let catalog: CatalogDescription?
        /// Whether loading or validation found errors (printed on standard error).
        let hasErrors: Bool
    }

    /// Reads the manifest and its catalog (the named file, else the live
    /// catalog, else `catalog.json` beside the manifest), prints its errors on
    /// standard error, and returns `nil` when it could not be read at all.
    /// - Throws: ``ManifestError`` for a missing file or catalog (exit 2).
    private func load(_ path: String, catalogFile: String?, _ output: Output) throws -> Loaded? {
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ManifestError.unusable(at: url, "no such file: \(path)")
        }
        guard !isDirectory.boolValue else {
            throw ManifestError.unusable(at: url, "\(path) is a folder; name one manifest file in it")
        }
        let validator: ManifestValidator
        let description: CatalogDescription?
        switch try catalogSource(catalogFile) {
        case .live(let live):
            (validator, description) = (ManifestValidator(catalog: live), live.describe())
        case .description(let named):
            (validator, description) = (ManifestValidator(description: named), named)
        case .discover:
            description = try ManifestChecker.discoverCatalog(in: url.deletingLastPathComponent())
            validator = description.map(ManifestValidator.init(description:)) ?? ManifestValidator()
            if description == nil {
                output.error("note: no catalog.json beside \(path.escapingControlCharacters): what factories need and their default "
                    + "lifetimes are unknown; pass --catalog FILE\n")
            }
        }
        let (manifest, loadDiagnostics) = loader.loadCollecting(contentsOf: url)
        var errors = loadDiagnostics.errors
        if let manifest { errors += validator.validate(manifest).errors }
        errors = Diagnostic.sortedForDisplay(errors)
        errors.forEach { output.error("\($0)\n") }
        guard let manifest else { return nil }
        if !errors.isEmpty {
            let count = "\(errors.count) error\(errors.count == 1 ? "" : "s")"
            output.error("note: \(ManifestLoader.displayPath(for: url).escapingControlCharacters) has \(count), "
                + "so a container would not activate it; this shows what it says as written\n")
        }
        return Loaded(manifest: manifest, catalog: description, hasErrors: !errors.isEmpty)
    }
}
