import Foundation
import Patchbay

// `diff`: argument handling and output only; the comparison is ManifestDiffer's.

extension PatchbayCommandLine {
    var diffUsage: String {
        """
        OVERVIEW: Compare the effective wiring of two environments, or of one environment in two
        folders: per type and injector, the factory, lifetime, collection elements and parameters
        (as written) once extends is merged, and which injector each request falls back to.

        USAGE: \(commandName) diff [--catalog FILE] [--format text|json|markdown] [--max-differences N]
                    FOLDER --from ENV --to ENV
               \(commandName) diff [--catalog FILE] [--format text|json|markdown] [--max-differences N]
                    OLD NEW --environment ENV

        ARGUMENTS:
          FOLDER            A folder of manifests, one per environment.
          OLD NEW           Two folders of manifests (the base branch's and the pull request's).

        OPTIONS:
          --from ENV        The environment compared from (with FOLDER).
          --to ENV          The environment compared to (with FOLDER).
          --environment ENV The environment compared (with OLD and NEW).
          --format FORMAT   text (default), json, or markdown (for a pull-request comment).
          --max-differences N
                            List at most N differences, then one line with how many more
                            (default \(WiringDiff.defaultMaxDifferences); 0 lists all). The summary and the
                            exit status count them all.
        \(diffCatalogHelp)
          -h, --help        Show help information.

        Each manifest is checked first, and read, as check reads a file of its folder: one with
        errors, or that check would not read (a link leading outside the folder), cannot be
        compared, and its diagnostics are printed. ${NAME:-default} is compared as written; the
        environment is never read. A difference is one type served differently, listed with
        every injector whose requests it changes.

        EXIT STATUS: 0 the wirings are the same; 1 they differ; 2 the command could not run (a
        manifest missing or failing the check, a bad argument), or could not write its output.

        """
    }

    private var diffCatalogHelp: String {
        "  --catalog FILE    A catalog description (FactoryCatalog.describe().jsonData()) for both sides.\n"
            + (catalog == nil ? "                    Without it, catalog.json beside each side's manifests is used."
                : "                    Without it, this app's catalog is used.")
    }

    /// Runs `diff`.
    func diff(_ arguments: [String], _ output: Output) throws -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            output.standard(diffUsage)
            return 0
        }
        let parsed = try CommandArguments(
            arguments, valued: ["--catalog", "--format", "--from", "--to", "--environment", "--max-differences"],
            boolean: [])
        let format = try parsed.choice("--format", among: ["text", "json", "markdown"], default: "text")
        let limit = try parsed.count("--max-differences", default: WiringDiff.defaultMaxDifferences)
        let (from, to, environment) = (parsed.options["--from"], parsed.options["--to"], parsed.options["--environment"])
        var differ = ManifestDiffer(source: try catalogSource(parsed.options["--catalog"]), loader: loader)
        differ.maxDifferences = limit
        let result: WiringDiff
        do {
            switch parsed.operands.count {
            case 1:
                guard let from, let to, environment == nil else {
                    throw CommandArguments.Problem(description: "with one FOLDER, name the two environments to compare "
                        + "with --from ENV and --to ENV")
                }
                result = try differ.diff(folder: URL(fileURLWithPath: parsed.operands[0]), from: from, to: to)
            case 2:
                guard let environment, from == nil, to == nil else {
                    throw CommandArguments.Problem(description: "with two folders OLD and NEW, name the environment "
                        + "to compare with --environment ENV")
                }
                result = try differ.diff(
                    from: URL(fileURLWithPath: parsed.operands[0]), to: URL(fileURLWithPath: parsed.operands[1]),
                    environment: environment)
            case 0:
                throw CommandArguments.Problem(description: "missing FOLDER: name a folder of manifests")
            default:
                throw CommandArguments.Problem(description: "unexpected argument '\(parsed.operands[2])': diff "
                    + "compares one FOLDER's two environments, or OLD and NEW")
            }
        } catch let failure as ManifestDiffer.Failure {
            let (shown, more) = Diagnostic.printed(
                failure.diagnostics, limit: Diagnostic.defaultPrintLimit, hint: "`patchbay check` lists every one")
            shown.forEach { output.error("\($0)\n") }
            if let more { output.error(more + "\n") }
            output.error("Error: \(failure.description)\n")
            return 2
        }
        switch format {
        case "json": output.standard(String(decoding: result.jsonData(), as: UTF8.self))
        case "markdown": output.standard(result.markdown())
        default: output.standard(result.text())
        }
        return result.isEqual ? 0 : 1
    }
}
