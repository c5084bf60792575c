import Foundation
import Patchbay

/// The `patchbay` command: `check`, `diff`, `explain`, `graph` and `schema`, as a
/// library so an app can expose the same subcommands from its own executable
/// with its live catalog (then `parameters` are decoded with their real types):
///
///     // Sources/MyAppTool/main.swift
///     import PatchbayTools
///     PatchbayCommandLine(catalog: .myApp, commandName: "myapp-manifests").main()
///
/// The executable that ships with the package is `PatchbayCommandLine().main()`:
/// it reads catalog descriptions (`--catalog FILE`, or `catalog.json` beside
/// the manifests) and needs nothing of the app's code.
public struct PatchbayCommandLine: Sendable {
    /// The live catalog, when the command runs inside the app.
    public let catalog: FactoryCatalog?
    /// The name shown in usage lines.
    public let commandName: String
    /// Reads manifests (limits and the environment for `${...}`).
    public var loader: ManifestLoader

    /// The command's version.
    public static let version = "1.0.0"

    /// Creates the command.
    /// - Parameters:
    ///   - catalog: The app's live catalog; `nil` for catalog description files.
    ///   - commandName: The name in usage lines.
    ///   - loader: Reads the manifests (limits, and the environment for `${...}`).
    public init(catalog: FactoryCatalog? = nil, commandName: String = "patchbay", loader: ManifestLoader = ManifestLoader()) {
        self.catalog = catalog
        self.commandName = commandName
        self.loader = loader
    }

    /// Where the command writes.
    public struct Output {
        /// Standard output.
        public var standard: (String) -> Void
        /// Standard error.
        public var error: (String) -> Void
        /// The first write that failed, described (`standard output: No space left on device`),
        /// or `nil` while every write has succeeded. A run that ends with a failure exits 2.
        public var failure: () -> String?
        /// Creates an output.
        /// - Parameters:
        ///   - standard: Writes to standard output.
        ///   - error: Writes to standard error.
        ///   - failure: The first write that failed, described; by default none ever fails.
        public init(
            standard: @escaping (String) -> Void, error: @escaping (String) -> Void,
            failure: @escaping () -> String? = { nil }
        ) {
            self.standard = standard
            self.error = error
            self.failure = failure
        }
        /// The process's standard output and error. A write that fails (a closed
        /// descriptor, a full disk, a closed pipe with SIGPIPE ignored) never traps:
        /// nothing more is written to that stream, and the run exits 2.
        public static var process: Output {
            let standard = ProcessStream(name: "standard output", descriptor: STDOUT_FILENO)
            let error = ProcessStream(name: "standard error", descriptor: STDERR_FILENO)
            return Output(
                standard: standard.write, error: error.write,
                failure: { standard.failureDescription ?? error.failureDescription })
        }
    }

    /// Runs with the process's arguments and exits with the command's status.
    public func main() -> Never {
        exit(run(Array(CommandLine.arguments.dropFirst()), output: .process))
    }

    /// Runs with `arguments` (without the command name) and returns the exit status:
    /// 0 no errors, 1 problems found, 2 the command could not run as asked, or could
    /// not write its output (``Output/failure``).
    public func run(_ arguments: [String], output: Output) -> Int32 {
        // Standard error quotes arguments, paths and names in messages, and CI logs hold it: no line of it
        // may be read as a workflow command. Each printer makes its standard output so itself
        // (`--format github` by GitHub's own escaping), as `inertInWorkflowLogs` says.
        let guarded = Output(
            standard: output.standard, error: { output.error($0.inertInWorkflowLogs()) }, failure: output.failure)
        let status = execute(arguments, guarded)
        guard let failure = output.failure() else { return status }
        // On standard error, unless that is the stream that failed (then nothing more is written to it).
        output.error("Error: could not write to \(failure); the output is incomplete\n")
        return 2
    }

    private func execute(_ arguments: [String], _ output: Output) -> Int32 {
        guard let subcommand = arguments.first else {
            output.error(usage)
            return 2
        }
        let rest = Array(arguments.dropFirst())
        do {
            switch subcommand {
            case "check":
                do {
                    return try check(rest, output)
                } catch let problem as CommandArguments.Problem {
                    output.error("Error: \(problem.description)\n\n" + checkUsage)
                    return 2
                }
            case "diff":
                do {
                    return try diff(rest, output)
                } catch let problem as CommandArguments.Problem {
                    output.error("Error: \(problem.description)\n\n" + diffUsage)
                    return 2
                }
            case "explain", "graph", "schema":
                do {
                    return try inspect(subcommand, rest, output)
                } catch let problem as CommandArguments.Problem {
                    output.error("Error: \(problem.description)\n\n" + usage(of: subcommand))
                    return 2
                }
            case "catalog" where catalog != nil: return try describeCatalog(rest, output)
            case "--version", "version":
                output.standard("\(commandName) \(Self.version)\n")
                return 0
            case "--help", "-h", "help":
                output.standard(usage)
                return 0
            default:
                let known = ["check", "diff", "explain", "graph", "schema"]
                let suggestion = EditDistance.suggestions(for: subcommand, among: known).first
                throw CommandArguments.Problem(description: "unknown subcommand '\(subcommand)'"
                    + (suggestion.map { "; did you mean '\($0)'?" } ?? ""))
            }
        } catch let problem as CommandArguments.Problem {
            output.error("Error: \(problem.description)\n\n" + usage)
            return 2
        } catch let problem as ManifestError {
            guard let unusable = problem.unusablePath else {
                output.error("Error: \(problem.description.escapingControlCharacters)\n")
                return 2
            }
            // A broken catalog description's problems, in the compiler's format, then what to do about them.
            // As many as a check lists, then how many more (the description is fixed by regenerating it whole).
            let (shown, more) = Diagnostic.printed(
                problem.diagnostics.filter { $0 != unusable }, limit: Diagnostic.defaultPrintLimit,
                hint: "regenerate the description")
            shown.forEach { output.error("\($0)\n") }
            if let more { output.error(more + "\n") }
            output.error("Error: \(unusable.message)\n")
            return 2
        } catch {
            output.error("Error: \("\(error)".escapingControlCharacters)\n")
            return 2
        }
    }

    var usage: String {
        """
        OVERVIEW: Validate, explain and draw Patchbay manifests.

        USAGE: \(commandName) <subcommand>

        SUBCOMMANDS:
          check     Validate manifests (files or folders) and report every problem.
          diff      Compare the effective wiring of two environments, or of one in two folders.
          explain   Show how a type resolves under a manifest, and what its factory needs.
          graph     Print a manifest's dependency graph as Mermaid or Graphviz DOT.
          schema    Print a JSON Schema for manifests (with a catalog: its legal names).\(catalog == nil ? "" : """

                  catalog   Print this app's catalog description (for catalog.json).
                """)

        OPTIONS:
          --version   Show the version.
          -h, --help  Show help information.

          See '\(commandName) <subcommand> --help' for a subcommand's options.

        """
    }

    // MARK: - catalog

    /// Prints the live catalog's description, for `--catalog` and `catalog.json`.
    private func describeCatalog(_ arguments: [String], _ output: Output) throws -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            output.standard("""
                OVERVIEW: Print the app's catalog description (for catalog.json and --catalog).

                USAGE: \(commandName) catalog > Manifests/catalog.json

                """)
            return 0
        }
        _ = try CommandArguments(arguments, valued: [], boolean: [])
        // Printed to be kept in the package it runs in (`swift run` runs at its root):
        // its places as that package's files, and the fingerprint of their modules.
        let data = try catalog!.describe()
            .locatingSources(in: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).jsonData()
        output.standard(String(decoding: data, as: UTF8.self))
        return 0
    }

    // MARK: - check

    var checkUsage: String {
        """
        OVERVIEW: Validate manifests and report every problem at once.

        USAGE: \(commandName) check [--catalog FILE] [--format text|json|github] [--strict] [--require-env]
                  [--max-diagnostics N] [--jobs N] PATH...

        ARGUMENTS:
          PATH              A manifest file, or a folder: every *.json in it except
                            catalog.json and *.schema.json.

        OPTIONS:
          --catalog FILE    A catalog description (FactoryCatalog.describe().jsonData()).
                            Without it, catalog.json beside each manifest is used; without
                            that, only what needs no catalog is checked.
          --format FORMAT   text (default, file:line:col: severity: message [code]),
                            json, or github (workflow commands for GitHub Actions).
          --strict          Fail on warnings too.
          --require-env     Fail when a ${NAME} with no default is unset here (for a job
                            that runs with production's environment). Without it, such
                            variables are listed in a note and their values not checked.
          --max-diagnostics N
                            List at most N diagnostics, then one line with how many more
                            (default \(CheckReport.defaultMaxDiagnostics); 0 lists all). The summary and
                            the exit status count them all.
          --jobs N          Read and validate at most N manifests at once (default 0: one
                            per core). The report is the same, in the same order.
          -h, --help        Show help information.

        EXIT STATUS: 0 no errors; 1 errors (or warnings with --strict); 2 the command could not run,
        or could not write its output.

        """
    }

    private func check(_ arguments: [String], _ output: Output) throws -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            output.standard(checkUsage)
            return 0
        }
        let parsed = try CommandArguments(
            arguments, valued: ["--catalog", "--format", "--max-diagnostics", "--jobs"], boolean: ["--strict", "--require-env"])
        let format = try parsed.choice("--format", among: ["text", "json", "github"], default: "text")
        let limit = try parsed.count("--max-diagnostics", default: CheckReport.defaultMaxDiagnostics)
        guard !parsed.operands.isEmpty else {
            throw CommandArguments.Problem(description: "missing PATH: name a manifest file or a folder of manifests")
        }
        // An empty argument (an unset shell variable, "$MANIFESTS") would be the current folder to Foundation.
        guard !parsed.operands.contains("") else {
            throw CommandArguments.Problem(description: "an empty PATH names no file (is a shell variable unset?); "
                + "name a manifest file or a folder of manifests")
        }
        let source = try catalogSource(parsed.options["--catalog"])
        var checker = ManifestChecker(
            source: source, loader: loader, requiresEnvironment: parsed.flags.contains("--require-env"))
        checker.descriptionFile = parsed.options["--catalog"].map { URL(fileURLWithPath: $0) }
        checker.jobs = try parsed.count("--jobs", default: 0)
        let report = try checker.check(parsed.operands.map { URL(fileURLWithPath: $0) })
        if format == "text" {
            // As many notes as diagnostics are listed (one per folder without a catalog.json: a check of
            // 10,000 folders must not print 10,000 of them), then how many more there are.
            let notes = limit.map { report.notes.prefix($0) } ?? report.notes[...]
            notes.forEach { output.error("note: \($0)\n") }
            if notes.count < report.notes.count {
                output.error("note: ... and \(report.notes.count - notes.count) more notes not shown; "
                    + "--max-diagnostics N lists N, 0 lists all\n")
            }
        }
        switch format {
        case "json": report.writeJSON(maxDiagnostics: limit, to: output.standard)
        case "github": report.writeGitHub(maxDiagnostics: limit, to: output.standard)
        default: report.writeText(maxDiagnostics: limit, to: output.standard)
        }
        return report.failed(strict: parsed.flags.contains("--strict")) ? 1 : 0
    }

    /// The live catalog, else the named description file, else discovery.
    func catalogSource(_ file: String?) throws -> ManifestChecker.CatalogSource {
        if let file { return .description(try ManifestChecker.readCatalog(URL(fileURLWithPath: file))) }
        if let catalog { return .live(catalog) }
        return .discover
    }
}
