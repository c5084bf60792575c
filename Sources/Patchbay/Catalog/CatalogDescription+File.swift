import Foundation

// The committed `catalog.json` is what `patchbay check` and the PatchbayCheck
// build plugin judge manifests by when they cannot run the app's code. A
// description that no one remembers to refresh is worse than none: it passes
// a factory that was removed and refuses one that was added. So the refresh
// is a unit test's side effect, not a step for a person: the test writes the
// file when it is out of date and fails once, and the diff shows up in the
// commit it belongs to.

extension FactoryCatalog {
    /// Keeps a committed catalog description current, from a unit test.
    ///
    ///     @Test func catalogDescriptionIsCurrent() throws {
    ///         try FactoryCatalog.myApp.refreshDescription(at: URL(fileURLWithPath: "Manifests/catalog.json"))
    ///     }
    ///
    /// When `file` holds this catalog's description (compared as
    /// descriptions, so the file's whitespace does not matter), nothing is
    /// written. When it is missing, unreadable or different, this catalog's
    /// ``describe()`` is written there and ``CatalogDescriptionRefreshed`` is
    /// thrown: the test fails once, naming the file to review and commit,
    /// and passes on the next run. (`swift test` runs from the package's
    /// folder, so a relative path is the package's.)
    ///
    /// A description records where each factory is registered, for the
    /// warnings it places there; moving a registration refreshes the file.
    ///
    /// - Parameter file: The description beside the manifests, usually `Manifests/catalog.json`.
    /// - Throws: ``CatalogDescriptionRefreshed`` after writing the file; the
    ///   file system's error when it cannot be written.
    public func refreshDescription(at file: URL) throws {
        let current = describe()
        let existing = FileManager.default.contents(atPath: file.path)
        if let existing, (try? CatalogDescription(jsonData: existing)) == current { return }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try current.jsonData().write(to: file, options: .atomic)
        throw CatalogDescriptionRefreshed(file: ManifestLoader.displayPath(for: file), wasMissing: existing == nil)
    }
}

/// ``FactoryCatalog/refreshDescription(at:)`` found a catalog description
/// missing or out of date, and wrote the current one.
public struct CatalogDescriptionRefreshed: Error, Sendable, CustomStringConvertible {
    /// The file written, relative to the current folder when it is below it.
    public let file: String
    /// Whether there was no file before.
    public let wasMissing: Bool

    /// What happened and what to do: review the file and commit it.
    public var description: String {
        (wasMissing ? "\(file) did not exist; wrote" : "\(file) was out of date with the catalog; rewrote")
            + " it from the live catalog. Review and commit it: `patchbay check` and the PatchbayCheck plugin"
            + " check factory names, parameters and dependencies with it. The next run passes."
    }
}
