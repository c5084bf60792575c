// FactoryCatalog.refreshDescription(at:): the unit test that keeps a
// committed catalog.json current writes it when it is missing or stale,
// fails that once, and passes when it is current.
import Foundation
import NotesKit
@testable import Patchbay
import Testing

@Suite struct CatalogDescriptionFileTests {
    /// What the refresh writes for the notes catalog in `folder`: its places
    /// as files of the package the folder is in (here, where the tests run).
    func written(in folder: URL) -> CatalogDescription {
        FactoryCatalog.notes.describe().locatingSources(in: SourceLocations.packageRoot(above: folder))
    }

    @Test func aMissingDescriptionIsWrittenAndFailsOnce() throws {
        let folder = try ManifestFolder(["development.json": "{}"])
        let file = folder.file("catalog.json")
        let refreshed = try #require(throws: ManifestError.self) {
            try FactoryCatalog.notes.refreshDescription(at: file)
        }
        let stale = try #require(refreshed.diagnostics.only(.staleCatalog), "\(refreshed)")
        #expect(stale.file.hasSuffix("catalog.json") && stale.line == 0, "\(stale)")
        #expect(stale.message == "did not exist; wrote it from the live catalog. Review and "
            + "commit it: `patchbay check` and the PatchbayCheck plugin check factory names, parameters and "
            + "dependencies with it. The next run passes.", "\(refreshed)")
        #expect(try Data(contentsOf: file) == written(in: folder.url).jsonData())
        // The next run finds it current.
        try FactoryCatalog.notes.refreshDescription(at: file)
    }

    @Test func aStaleDescriptionIsRewritten() throws {
        var other = FactoryCatalog()
        other.register("sundial", provides: String.self) { "noon" }
        let folder = try ManifestFolder(["catalog.json": String(decoding: try other.describe().jsonData(), as: UTF8.self)])
        let file = folder.file("catalog.json")
        let refreshed = try #require(throws: ManifestError.self) {
            try FactoryCatalog.notes.refreshDescription(at: file)
        }
        let stale = try #require(refreshed.diagnostics.only(.staleCatalog), "\(refreshed)")
        #expect(stale.message.hasPrefix("was out of date with the catalog; rewrote it"), "\(stale)")
        #expect(refreshed.description.contains("catalog.json: error: was out of date with the catalog; rewrote it"))
        #expect(try CatalogDescription(jsonData: Data(contentsOf: file)) == written(in: folder.url))
    }

    @Test func aCurrentDescriptionIsLeftAsItIsWhateverItsLayout() throws {
        // The same description, compact: equal as a description, so not rewritten.
        let place = try ManifestFolder([:])
        let compact = try JSONEncoder().encode(written(in: place.url))
        let folder = try ManifestFolder(["catalog.json": String(decoding: compact, as: UTF8.self)])
        try FactoryCatalog.notes.refreshDescription(at: folder.file("catalog.json"))
        #expect(try Data(contentsOf: folder.file("catalog.json")) == compact)
    }

    @Test func somethingThatIsNotADescriptionIsReplaced() throws {
        let folder = try ManifestFolder(["catalog.json": "not json"])
        #expect(throws: ManifestError.self) {
            try FactoryCatalog.notes.refreshDescription(at: folder.file("catalog.json"))
        }
        #expect(try CatalogDescription(jsonData: Data(contentsOf: folder.file("catalog.json"))) == written(in: folder.url))
    }
}
