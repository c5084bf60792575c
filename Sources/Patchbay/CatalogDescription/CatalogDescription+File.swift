import Foundation

// The committed `catalog.json` is what `patchbay check` and the PatchbayCheck
// build plugin judge manifests by when they cannot run the app's code. A
// description that no one remembers to refresh is worse than none: it passes
// a factory that was removed and refuses one that was added. So the refresh
// is a unit test's side effect, not a step for a person: the test writes the
// file when it is out of date and fails once, and the diff shows up in the
// commit it belongs to.

extension FactoryCatalog {
    /// Keeps a committed catalog description current, from a unit test, and
    /// with it, when asked, the manifest schema that lists this catalog's names.
    ///
    ///     @Test func catalogDescriptionIsCurrent() throws {
    ///         try FactoryCatalog.myApp.refreshDescription(
    ///             at: URL(fileURLWithPath: "Manifests/catalog.json"),
    ///             schema: URL(fileURLWithPath: "Manifests/manifest.schema.json"))
    ///     }
    ///
    /// When `file` holds this catalog's description (compared as
    /// descriptions, so the file's whitespace does not matter), nothing is
    /// written. When it is missing, unreadable or different, this catalog's
    /// ``describe()`` is written there and a ``ManifestError`` is thrown, one
    /// `stale-catalog` error at the file (line 0): the test fails once, naming the file to review and commit,
    /// and passes on the next run. (`swift test` runs from the package's
    /// folder, so a relative path is the package's.)
    ///
    /// The description records where each factory is registered, as a file
    /// of the package (`Sources/App/Catalog.swift:12:9`), and a fingerprint
    /// of the Swift files of the modules that register them, so that
    /// `patchbay check` and the PatchbayCheck plugin know a description
    /// older than the code. When only that fingerprint changed (the code
    /// changed, not what the catalog says of itself), the file is rewritten
    /// and the test passes.
    ///
    /// - Parameters:
    ///   - file: The description beside the manifests, usually `Manifests/catalog.json`.
    ///   - schema: Where to keep the manifest JSON Schema that lists this
    ///     catalog's protocols, factories and parameter keys
    ///     (`ManifestSchema.jsonData(catalog:)` of PatchbayTools), for the manifests'
    ///     `"$schema"`, so an editor completes factory names; nil for none.
    /// - Throws: ``ManifestError`` (`stale-catalog`) after writing a file that
    ///   was missing or out of date; the file system's error when it cannot be written.
    public func refreshDescription(at file: URL, schema: URL? = nil) throws {
        let current = describe().locatingSources(in: SourceLocations.packageRoot(above: file.deletingLastPathComponent()))
        let existing = FileManager.default.contents(atPath: file.path)
        let previous = existing.flatMap { try? CatalogDescription(jsonData: $0) }
        var refreshed: Refreshed?
        if previous != current {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try current.jsonData().write(to: file, options: .atomic)
            if previous?.withoutFingerprint != current.withoutFingerprint {
                refreshed = Refreshed(file: ManifestLoader.displayPath(for: file), wasMissing: existing == nil)
            }
        }
        if let schema {
            let written = FileManager.default.contents(atPath: schema.path)
            let wanted = ManifestSchemaBuilder.jsonData(catalog: current)
            if written != wanted {
                try wanted.write(to: schema, options: .atomic)
                let path = ManifestLoader.displayPath(for: schema)
                refreshed?.schema = path  // named beside the description, when that was rewritten too
                if refreshed == nil { refreshed = Refreshed(file: path, wasMissing: written == nil) }
            }
        }
        if let refreshed { throw ManifestError(diagnostics: [refreshed.diagnostic]) }
    }
}

extension CatalogDescription {
    /// The description with no fingerprint of its sources: what it says of the catalog itself.
    fileprivate var withoutFingerprint: CatalogDescription {
        var description = self
        description.sources?.fingerprint = ""
        return description
    }
}

/// ``FactoryCatalog/refreshDescription(at:schema:)`` found a catalog
/// description (or its schema) missing or out of date, and wrote the current
/// one: now a ``ManifestError`` holding one `stale-catalog` error, whose
/// `file` is the file written.
@available(*, deprecated, renamed: "ManifestError")
public typealias CatalogDescriptionRefreshed = ManifestError

/// What ``FactoryCatalog/refreshDescription(at:schema:)`` wrote, said as its error.
private struct Refreshed {
    /// The file written, relative to the current folder when it is below it.
    let file: String
    /// Whether there was no file before.
    let wasMissing: Bool
    /// The schema written with the description, when both were out of date.
    var schema: String?

    /// A `stale-catalog` error at the file written (no line: the whole file
    /// is new), saying what happened and what to do: review the file and commit it.
    var diagnostic: Diagnostic {
        Diagnostic(
            code: .staleCatalog,
            message: (wasMissing ? "did not exist; wrote" : "was out of date with the catalog; rewrote")
                + " it from the live catalog" + (schema.map { ", and \($0) with it" } ?? "")
                + ". Review and commit it: `patchbay check` and the PatchbayCheck plugin"
                + " check factory names, parameters and dependencies with it. The next run passes.",
            file: file, line: 0, column: 0)
    }
}
