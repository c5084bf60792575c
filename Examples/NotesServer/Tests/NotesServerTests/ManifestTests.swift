// The example's manifests against its catalog: with the live catalog, and
// offline with the committed catalog.json as CI's `patchbay check` reads it.
import Foundation
import NotesServerKit
import Patchbay
import PatchbayTools
import Testing

@Suite struct ManifestTests {
    static let everyVariable = [
        "NOTES_DB_HOST": "db.internal", "NOTES_DB_PORT": "5432", "NOTES_DB_NAME": "notes",
        "NOTES_DB_USER": "notes", "NOTES_DB_PASSWORD": "secret",
    ]

    @Test func manifestsAreValidAndCatalogJSONIsCurrent() throws {
        try checkManifests(at: manifestsFolder, catalog: .notesServer, loader: ManifestLoader(environment: Self.everyVariable))
        try FactoryCatalog.notesServer.refreshDescription(at: manifestsFolder.appendingPathComponent("catalog.json"))
    }

    @Test func everyEnvironmentIsThere() {
        #expect(ManifestDirectory(url: manifestsFolder).environments() == ["base", "development", "production", "test"])
    }

    /// `patchbay check --require-env --catalog catalog.json Manifests`, as CI runs it for production.
    func check(_ variables: [String: String]) -> (Int32, String) {
        nonisolated(unsafe) var printed = ""
        let output = PatchbayCommandLine.Output(standard: { printed += $0 }, error: { printed += $0 })
        let status = PatchbayCommandLine(loader: ManifestLoader(environment: variables)).run(
            ["check", "--require-env", "--catalog", manifestsFolder.appendingPathComponent("catalog.json").path,
             manifestsFolder.path], output: output)
        return (status, printed)
    }

    @Test func theOfflineCheckPassesWithEveryVariableSet() {
        let (status, printed) = check(Self.everyVariable)
        #expect(status == 0, "\(printed)")
        #expect(printed.contains("0 errors"), "\(printed)")
    }

    @Test func theOfflineCheckNamesTheMissingPassword() {
        var variables = Self.everyVariable
        variables["NOTES_DB_PASSWORD"] = nil
        let (status, printed) = check(variables)
        #expect(status == 1, "\(printed)")
        #expect(printed.contains("production.json"), "\(printed)")
        #expect(printed.contains("NOTES_DB_PASSWORD"), "\(printed)")
        #expect(printed.contains("[env-var-missing]"), "\(printed)")
    }

    @Test func developmentNeedsNoVariable() throws {
        let folder = ManifestDirectory(url: manifestsFolder, loader: ManifestLoader(environment: [:]))
        for environment in ["development", "test"] {
            let container = try Container(catalog: .notesServer, manifests: folder, environment: environment)
            #expect(try container.resolve((any NoteStore).self).kind == "in-memory")
        }
    }
}
