// How a check reads and validates manifest files: the one loop that
// `patchbay check` runs over a folder's files, and that one manifest of a
// folder is checked by for the tools that go on to read what it serves
// (`patchbay diff`). They read it only through the check: a file the check
// refuses (a link to a place outside the folder, a FIFO, a file over the size
// limit) is refused there too, with the same diagnostic, and nothing is read
// a second time by another path that could follow other rules.

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
    /// - Throws: ``ManifestError`` when the folder's `catalog.json` is not a description this build reads.
    package func check(_ file: URL, inFolder folder: URL) throws(ManifestError) -> CheckedManifest {
        var run = CheckRun(checker: self)
        var manifest: Manifest?
        _ = try checkFiles([file], inFolder: folder, run: &run, keeping: file, into: &manifest)
        // The validator that judged it, made once per run (a second call finds it made).
        let catalog = manifest == nil ? nil : try run.validator(forFolder: file.deletingLastPathComponent()).catalog
        return CheckedManifest(report: run.report(manifestCount: 1), manifest: manifest, catalog: catalog)
    }

    /// Reads and validates `files`, the manifests of `folder` (nil for files named alone), into `run`:
    /// the one way a check, and `patchbay diff`, read manifests.
    /// - Parameters:
    ///   - kept: A file whose manifest, as validated (its `extends` merged), is wanted; nil for none.
    ///   - keptManifest: Set to that manifest, when it was read and validated.
    /// - Returns: Which of the catalog's factories the files name, when they were judged by a catalog.
    func checkFiles(
        _ files: [URL], inFolder path: URL?, run: inout CheckRun, keeping kept: URL?, into keptManifest: inout Manifest?
    ) throws(ManifestError) -> [Bool]? {
        var loader = self.loader
        loader.allowsUnsetVariables = !requiresEnvironment  // unset variables allowed unless required
        // A manifest in a checked folder that is a link to a file outside it is
        // refused unread, by the rule `extends` follows: CI logs are often public.
        let folder = path.map { PhysicalPath.of($0.standardizedFileURL.path) }
        // Each file is read on its own first, its `extends` not followed: that is enough to know
        // which files are parents, and a folder of 10,000 files each extending the next must not
        // load every chain of 32 (the limit) once per file.
        var loaded = files.map { file -> (file: URL, result: (Manifest?, [Diagnostic])) in
            if let folder, PhysicalPath.relative(PhysicalPath.of(file.standardizedFileURL.path), below: folder) == nil {
                return (file, (nil, [Diagnostic(
                    code: .unreadable, message: "not read: it is a link to a place outside the folder checked "
                        + "(\(folder)); keep manifests inside the folder, as 'extends' requires",
                    file: ManifestLoader.displayPath(for: file))]))
            }
            return (file, loader.loadCollecting(contentsOf: file, followingExtends: false))
        }
        // A file that another checked manifest extends is a partial manifest
        // (a shared base): its bindings are validated through each child, at
        // their places in the parent file, not on their own, and its own
        // `extends` is followed by each child's chain, as an app follows it.
        let links = loaded.map { file, result in
            ExtendsLinks.Link(file: PhysicalPath.of(file.standardizedFileURL.path), parent: result.0?.extends.map {
                PhysicalPath.of(URL(fileURLWithPath: $0, relativeTo: file.deletingLastPathComponent()).standardizedFileURL.path)
            })
        }
        let parents = Set(links.compactMap(\.parent))
        // A cycle of parents has no child outside it to follow it: one file of each is followed too.
        let cycleEntries = ExtendsLinks.cycleEntries(of: links)
        var named: [Bool]?
        for index in loaded.indices {
            let file = loaded[index].file
            let (alone, loadDiagnostics) = loaded[index].result
            var manifest = alone
            // Each manifest, with the text it was read from, is let go once validated.
            loaded[index].result = (nil, [])
            let isParent = parents.contains(links[index].file)
            run.add(loadDiagnostics)
            if !isParent || cycleEntries.contains(links[index].file), let alone, alone.extends != nil {
                // A manifest an app loads: its chain followed, every parent's problems with it.
                let (merged, chainDiagnostics) = loader.resolvingExtends(of: alone, at: file)
                manifest = merged
                run.add(chainDiagnostics)
            }
            // Judged as the app loads it: a folder's file as its name, which
            // PATCHBAY_ENV names; a file named alone as the name given, else alone.
            let environment = folder == nil ? environmentName : JudgedEnvironment.ofFolderFile(named: file.lastPathComponent)
            if folder != nil, environment == nil, !isParent { run.add([Self.namesNoEnvironment(file)]) }
            guard let read = manifest, !isParent else { continue }
            manifest = nil
            let judged = read.judged(as: environment)
            run.noteUnsetVariables(in: judged)
            let validator = try run.validator(forFolder: file.deletingLastPathComponent())
            let result = validator.run(judged)
            let stale = run.isJudgedByStaleCatalog(file.deletingLastPathComponent())
            run.add(stale ? run.softened(result.diagnostics, of: judged) : result.diagnostics)
            if file == kept { keptManifest = judged }
            // A stale description's factories may be gone or renamed: none is called unused by it.
            if validator.catalog != nil, !stale {
                named = named.map { zip($0, result.namedFactories).map { $0 || $1 } } ?? result.namedFactories
            }
        }
        return named
    }
}
