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
        // Several files at once already use every core a job has: one file's own work then stays on its
        // thread (helpers of its own only slowed the folder down, 0.59x one core's time becoming 0.73x).
        let threads = files.count > 1 ? 1 : threads
        let loader = readingLoader(threads: threads)
        // A manifest in a checked folder that is a link to a file outside it is
        // refused unread, by the rule `extends` follows: CI logs are often public.
        let folder = path.map { PhysicalPath.of($0.standardizedFileURL.path) }
        // Each file is read on its own first, its `extends` not followed: that is enough to know
        // which files are parents, and a folder of 10,000 files each extending the next must not
        // load every chain of 32 (the limit) once per file. Each file is read on whichever core is free.
        let loaded = ParallelMap.map(count: files.count, jobs: jobs) { index -> (Manifest?, [Diagnostic]) in
            let file = files[index]
            if let folder, PhysicalPath.relative(PhysicalPath.of(file.standardizedFileURL.path), below: folder) == nil {
                return (nil, [Diagnostic(
                    code: .unreadable, message: "not read: it is a link to a place outside the folder checked "
                        + "(\(folder)); keep manifests inside the folder, as 'extends' requires",
                    file: ManifestLoader.displayPath(for: file))])
            }
            return loader.loadCollecting(contentsOf: file, followingExtends: false)
        }
        // A file that another checked manifest extends is a partial manifest
        // (a shared base): its bindings are validated through each child, at
        // their places in the parent file, not on their own, and its own
        // `extends` is followed by each child's chain, as an app follows it.
        let links = zip(files, loaded).map { file, result in
            ExtendsLinks.Link(file: PhysicalPath.of(file.standardizedFileURL.path), parent: result.0?.extends.map {
                PhysicalPath.of(URL(fileURLWithPath: $0, relativeTo: file.deletingLastPathComponent()).standardizedFileURL.path)
            })
        }
        let parents = Set(links.compactMap(\.parent))
        // A cycle of parents has no child outside it to follow it: one file of each is followed too.
        let cycleEntries = ExtendsLinks.cycleEntries(of: links)
        let isParent = links.map { parents.contains($0.file) }
        // The files an app loads are validated (a file read, not a parent), each by its folder's
        // validator: made here, in order, what making each reports held back until its file's turn.
        let validated = files.indices.filter { loaded[$0].0 != nil && !isParent[$0] }
        let prepared = try run.prepareValidators(forFolders: validated.map { files[$0].deletingLastPathComponent() })
        let preparedAt = Dictionary(uniqueKeysWithValues: zip(validated, prepared))
        // What each file needs is its own: its chain followed, judged and validated on whichever core
        // is free, then told below in the files' order, so the report is the one a run on one core gives.
        let checked = ParallelMap.map(count: files.count, jobs: jobs) { index in
            checkLoaded(files[index], loaded[index].0, inFolder: folder, isParent: isParent[index],
                        followsChain: !isParent[index] || cycleEntries.contains(links[index].file),
                        validator: preparedAt[index], keeping: kept, threads: threads)
        }
        var named: [Bool]?
        for index in files.indices {
            let file = files[index], result = checked[index]
            run.add(loaded[index].1)
            run.add(result.chainDiagnostics)
            if folder != nil, result.environment == nil, !isParent[index] { run.add([Self.namesNoEnvironment(file)]) }
            guard let prepared = preparedAt[index] else { continue }
            run.note(result.unsetReferences)
            run.tell(prepared)
            run.add(result.diagnostics)
            if file == kept { keptManifest = result.kept }
            // A stale description's factories may be gone or renamed: none is called unused by it.
            if prepared.validator.catalog != nil, !prepared.isStale, let found = result.namedFactories {
                named = named.map { zip($0, found).map { $0 || $1 } } ?? found
            }
        }
        return named
    }

    /// The loader a check reads with: unset variables allowed unless required, and a file's own
    /// work on at most `threads` threads.
    private func readingLoader(threads: Int) -> ManifestLoader {
        var loader = self.loader
        loader.allowsUnsetVariables = !requiresEnvironment
        loader.threads = threads
        return loader
    }

    /// How many threads one file's reading and validating may use (see `BindingRunQueue` and
    /// `ValidationRun.checkDeferredParameters(in:)`): as many as files run at once, so that
    /// `--jobs 1` keeps the whole check on one core, and never more than the cores.
    private var threads: Int {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        return jobs.map { $0 > 0 ? min($0, cores) : cores } ?? cores
    }

    /// What checking one file found, to be told in the files' order.
    private struct CheckedFile: Sendable {
        var chainDiagnostics: [Diagnostic] = []
        /// The environment it is judged as (nil: none, or a file named alone with no name given).
        var environment: String?
        var unsetReferences: [CheckRun.UnsetReference] = []
        var diagnostics: [Diagnostic] = []
        var namedFactories: [Bool]?
        /// The manifest as validated, for the file kept only.
        var kept: Manifest?
    }

    /// Checks one file read alone (`alone`, nil when it could not be read): its `extends` chain
    /// followed when `followsChain`, judged as the app loads it, and validated by `prepared` when
    /// it is one the app loads. Touches nothing shared: files are checked at once on many cores.
    private func checkLoaded(
        _ file: URL, _ alone: Manifest?, inFolder folder: String?, isParent: Bool, followsChain: Bool,
        validator prepared: CheckRun.PreparedValidator?, keeping kept: URL?, threads: Int
    ) -> CheckedFile {
        var checked = CheckedFile()
        var manifest = alone
        if followsChain, let alone, alone.extends != nil {
            // A manifest an app loads: its chain followed, every parent's problems with it.
            let (merged, chainDiagnostics) = readingLoader(threads: threads).resolvingExtends(of: alone, at: file)
            manifest = merged
            checked.chainDiagnostics = chainDiagnostics
        }
        // Judged as the app loads it: a folder's file as its name, which
        // PATCHBAY_ENV names; a file named alone as the name given, else alone.
        checked.environment = folder == nil ? environmentName : JudgedEnvironment.ofFolderFile(named: file.lastPathComponent)
        guard let read = manifest, !isParent, let prepared else { return checked }
        manifest = nil
        let judged = read.judged(as: checked.environment)
        checked.unsetReferences = CheckRun.unsetReferences(in: judged)
        var validator = prepared.validator
        validator.cores = threads  // `--jobs 1` keeps a file's own work on one core too
        let result = validator.run(judged)
        checked.diagnostics = prepared.isStale ? CheckRun.softened(result.diagnostics, of: judged) : result.diagnostics
        checked.namedFactories = result.namedFactories
        if file == kept { checked.kept = judged }
        return checked
    }
}
