// One manifest of a folder, checked as a check of the whole folder checks
// it, for the tools that go on to read what it serves (`patchbay diff`).
// They read it only through the check: a file the check refuses (a link to a
// place outside the folder, a FIFO, a file over the size limit) is refused
// there too, with the same diagnostic, and nothing is read a second time by
// another path that could follow other rules.

import Foundation

/// What ``ManifestChecker/check(_:inFolder:)`` concluded of one manifest.
package struct CheckedManifest: Sendable {
    /// The check's report, as `patchbay check` would give it for this file alone in its folder.
    package let report: CheckReport
    /// The manifest as validated, its `extends` chain merged; nil when it could not be read.
    package let manifest: Manifest?
    /// The catalog it was judged by: the live catalog, the named description,
    /// or the folder's `catalog.json`; nil when there is none.
    package let catalog: CatalogIndex?
}

extension ManifestChecker {
    /// Checks one manifest of `folder` by the rules a check of the folder
    /// follows for each of its files (one leading outside the folder is not
    /// read; only a regular file within the size limit is), without judging
    /// the folder's other files, and keeps the manifest it read.
    /// - Throws: ``UnusablePath`` when the folder's `catalog.json` is not a description this build reads.
    package func check(_ file: URL, inFolder folder: URL) throws(UnusablePath) -> CheckedManifest {
        var run = CheckRun(checker: self)
        var manifest: Manifest?
        _ = try checkFiles([file], inFolder: folder, run: &run, keeping: file, into: &manifest)
        // The validator that judged it, made once per run (a second call finds it made).
        let catalog = manifest == nil ? nil : try run.validator(forFolder: file.deletingLastPathComponent()).catalog
        return CheckedManifest(report: run.report(manifestCount: 1), manifest: manifest, catalog: catalog)
    }
}
