import Foundation
import NotesKit
import Testing
@testable import Patchbay
@testable import PatchbayTools

/// `patchbay explain`, `graph` and `schema`: arguments, outputs and exit statuses.
struct InspectCommandTests {
    struct Run {
        let status: Int32
        let standard: String
        let error: String
    }

    private func run(_ arguments: [String], catalog: FactoryCatalog? = nil) -> Run {
        let standard = Collected<String>(), error = Collected<String>()
        let status = PatchbayCommandLine(catalog: catalog, loader: ManifestLoader(environment: [:]))
            .run(arguments, output: .init(standard: standard.append, error: error.append))
        return Run(status: status, standard: standard.all.joined(), error: error.all.joined())
    }

    private static let manifests = Golden.packageRoot.appendingPathComponent("Manifests")
    private static let production = manifests.appendingPathComponent("production.json").path

    // MARK: - explain

    @Test func explainPrintsTheExplanationAndExitsZero() {
        let result = run(["explain", "--manifest", Self.production, "NoteService"])
        #expect(result.status == 0)
        #expect(result.standard.contains("factory:      note-service"))
        #expect(result.standard.contains(#"NoteStore    <- primary: file-store (singleton) parameters {"path":"/tmp/patchbay-notes/production.json"}"#))
        #expect(result.error.isEmpty)
    }

    @Test func explainFindsCatalogJSONBesideTheManifestOrTakesOneNamed() {
        let discovered = run(["explain", "--manifest", Self.production, "--injector=secondary", "Logger"])
        let named = run(["explain", "--catalog", Self.manifests.appendingPathComponent("catalog.json").path,
            "--manifest", Self.production, "--injector", "secondary", "Logger"])
        let live = run(["explain", "--manifest", Self.production, "--injector", "secondary", "Logger"], catalog: .notes)
        #expect(discovered.status == 0)
        #expect(discovered.standard.contains("served by:    secondary"))
        #expect(discovered.standard.contains("needs:        nothing"))
        #expect(named.standard == discovered.standard)
        #expect(live.standard == discovered.standard)
    }

    @Test func explainOfAnUnboundTypeExitsOne() {
        let result = run(["explain", "--manifest", Self.production, "Mailr"])
        #expect(result.status == 1)
        #expect(result.standard.contains("Mailr is not bound in"))
        #expect(result.standard.contains("did you mean: Mailer"))
    }

    @Test func explainOfABrokenManifestStillExplainsButExitsOne() throws {
        let folder = try ManifestFolder(["app.json": #"""
            { "format": 1, "bindings": [
              { "protocol": "Clock", "factory": "system-clock" },
              { "protocol": "Mailer", "factory": "smtp-mailr" }
            ] }
            """#])
        let result = run(["explain", "--catalog", Self.manifests.appendingPathComponent("catalog.json").path,
            "--manifest", folder.file("app.json").path, "Clock"])
        #expect(result.status == 1)
        #expect(result.standard.contains("factory:      system-clock"))
        #expect(result.error.contains("unknown factory 'smtp-mailr'"))
        // NoteService, the example's entry point, is unbound too.
        #expect(result.error.contains("NoteService is an entry point of the app"))
        #expect(result.error.contains("has 2 errors, so a container would not activate it"))
    }

    @Test func explainWithoutACatalogSaysWhatItCannotShow() throws {
        let folder = try ManifestFolder(["app.json": #"{ "format": 1, "bindings": [ { "protocol": "Clock", "factory": "system-clock" } ] }"#])
        let result = run(["explain", "--manifest", folder.file("app.json").path, "Clock"])
        #expect(result.status == 0)
        #expect(result.standard.contains("needs:        unknown without a catalog"))
        #expect(result.error.contains("note: no catalog.json beside"))
    }

    @Test func anUnreadableManifestIsExitOneAndAMissingOneExitTwo() throws {
        let folder = try ManifestFolder(["bad.json": "{ \"format\": 1, "])
        let broken = run(["explain", "--manifest", folder.file("bad.json").path, "Clock"])
        #expect(broken.status == 1)
        #expect(broken.standard.isEmpty)
        #expect(broken.error.contains("[syntax]"))
        let missing = run(["explain", "--manifest", folder.file("nope.json").path, "Clock"])
        #expect(missing.status == 2)
        #expect(missing.error.contains("no such file"))
        #expect(run(["graph", folder.url.path]).status == 2)
    }

    @Test(arguments: [
        (["explain", "NoteService"], "missing '--manifest FILE'"),
        (["explain", "--manifest", "x.json"], "missing TYPE"),
        (["explain", "--manifest", "x.json", "A", "B"], "unexpected argument 'B'"),
        (["explain", "--manifests", "x.json", "A"], "did you mean '--manifest'?"),
        (["graph"], "missing MANIFEST"),
        (["graph", "--format", "svg", "x.json"], "invalid value 'svg' for '--format'"),
        (["schema", "extra"], "unexpected argument 'extra'"),
        (["grap"], "did you mean 'graph'?"),
    ])
    func usageMistakesExitTwoWithTheUsage(arguments: [String], message: String) {
        let result = run(arguments)
        #expect(result.status == 2)
        #expect(result.error.contains(message))
        #expect(result.error.contains("USAGE:"))
        #expect(result.standard.isEmpty)
    }

    @Test(arguments: ["explain", "graph", "schema"])
    func everySubcommandHasHelp(subcommand: String) {
        let result = run([subcommand, "--help"])
        #expect(result.status == 0)
        #expect(result.standard.contains("USAGE: patchbay \(subcommand)"))
        #expect(run(["--help"]).standard.contains("  \(subcommand) "))
    }

    // MARK: - graph

    @Test func graphPrintsMermaidByDefaultAndDOTOnRequest() {
        let mermaid = run(["graph", Self.production])
        #expect(mermaid.status == 0)
        #expect(mermaid.standard.hasPrefix("flowchart LR\n"))
        let dot = run(["graph", "--format=dot", Self.production])
        #expect(dot.status == 0)
        #expect(dot.standard.hasPrefix("digraph manifest {\n"))
        #expect(dot.standard.contains("n5 -> n6;"))
    }

    @Test func graphOfAManifestWithErrorsDrawsItAndExitsOne() throws {
        let folder = try ManifestFolder(["app.json": #"{ "format": 1, "bindings": [ { "protocol": "Mailer", "factory": "smtp-mailer", "parameters": { "host": "h", "port": 1 } } ] }"#])
        let result = run(["graph", folder.file("app.json").path], catalog: .notes)
        #expect(result.status == 1)
        #expect(result.standard.contains("u1[\"Logger<br/>not bound\"]"))
        #expect(result.error.contains("[missing-dependency]"))
    }

    // MARK: - schema

    @Test func schemaPrintsThePlainSchemaOrTheCatalogs() {
        let plain = run(["schema"])
        #expect(plain.status == 0)
        #expect(plain.standard == String(decoding: ManifestSchema.jsonData(), as: UTF8.self))
        let described = run(["schema", "--catalog", Self.manifests.appendingPathComponent("catalog.json").path])
        let notes = String(decoding: ManifestSchema.jsonData(catalog: FactoryCatalog.notes.describe()), as: UTF8.self)
        #expect(described.standard == notes)
        #expect(run(["schema"], catalog: .notes).standard == notes)
        #expect(run(["schema", "--catalog", "/nonexistent/catalog.json"]).status == 2)
    }
}
