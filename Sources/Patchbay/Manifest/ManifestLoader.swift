import Foundation

/// Reads manifest files: enforces the limits, checks syntax and shape,
/// follows `extends`, and interpolates `${...}` in parameters, reporting every
/// problem at once.
///
///     let manifest = try ManifestLoader().load(contentsOf: URL(fileURLWithPath: "Manifests/production.json"))
///
/// Loading checks everything that needs no catalog. Checking names against
/// the catalog, and the dependency graph, happens when a ``Container``
/// activates the manifest (or in ``ManifestValidator``).
public struct ManifestLoader: Sendable {
    /// The largest file accepted, in bytes: 16 MiB by default; at most 4 GiB whatever is set.
    public var maxBytes: Int
    /// The deepest nesting of objects and arrays accepted: 64 by default.
    public var maxDepth: Int
    /// The longest `extends` chain followed, in files after the first: 32 by
    /// default, far beyond any real deployment's. Checked before each parent
    /// is loaded; parents are loaded in a loop, not a call per parent, so
    /// even a limit raised far lets no chain of files exhaust the stack.
    public var maxExtendsChain: Int
    /// The variables `${NAME}` reads: the process environment unless you give others.
    public var environment: [String: String]
    /// Whether a `${NAME}` with no default whose variable is unset is allowed,
    /// left as written for the check to list, rather than an error
    /// (`env-var-missing`). False by default, as an app needs every value;
    /// `patchbay check` sets it, since it runs where production's secrets are not.
    public var allowsUnsetVariables = false
    /// How many threads may decode one file's bindings: every active core, as an app wants its
    /// manifest activated soon; `patchbay check --jobs N` sets it to `N`.
    var threads = ProcessInfo.processInfo.activeProcessorCount

    /// The default ``maxBytes``, which a catalog description is read within too.
    @usableFromInline package static let defaultMaxBytes = 16 * 1024 * 1024
    /// The default ``maxDepth``, which a catalog description is read within too.
    @usableFromInline package static let defaultMaxDepth = 64

    /// Creates a loader.
    /// - Parameters:
    ///   - maxBytes: The largest file accepted, in bytes; 16 MiB by default.
    ///   - maxDepth: The deepest nesting of objects and arrays accepted; 64 by default.
    ///   - maxExtendsChain: The longest `extends` chain followed; 32 parents by default.
    ///   - environment: The variables for `${NAME}`; the process environment by default.
    public init(
        maxBytes: Int = defaultMaxBytes, maxDepth: Int = defaultMaxDepth, maxExtendsChain: Int = 32,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.maxExtendsChain = maxExtendsChain
        self.environment = environment
    }

    /// Loads a manifest file and its `extends` chain.
    /// - Parameter url: A file URL.
    /// - Parameter displayPath: How to name the file in diagnostics; the URL's path relative to the
    ///   current folder when it is below it, else its full path.
    /// - Throws: ``ManifestError`` listing every problem found.
    public func load(contentsOf url: URL, displayPath: String? = nil) throws(ManifestError) -> Manifest {
        let (manifest, diagnostics) = loadCollecting(contentsOf: url, displayPath: displayPath)
        guard let manifest, !diagnostics.containsErrors else { throw ManifestError(diagnostics: diagnostics) }
        return manifest
    }

    /// Loads a manifest from bytes. `extends` is resolved relative to the
    /// folder of `file` (a path from the current folder, or an absolute one),
    /// and its parents must stay inside the current folder, or inside the
    /// folder of an absolute `file`.
    /// - Throws: ``ManifestError`` listing every problem found.
    public func load(data: Data, file: String = "<memory>") throws(ManifestError) -> Manifest {
        var diagnostics: [Diagnostic] = []
        var files: [URL] = []
        // Bytes from memory: the file at `url` is not what was read.
        let manifest = read(data, display: file, startIsOnDisk: false, diagnostics: &diagnostics, files: &files) {
            let base = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            // An absolute `file` stands on its own (appended to the current
            // folder it would name a file that does not exist), and so
            // does its folder, as the first file's folder does in `load(contentsOf:)`.
            let url = URL(fileURLWithPath: file, relativeTo: base).absoluteURL.standardizedFileURL
            return (url, file.hasPrefix("/") ? url.deletingLastPathComponent() : base)
        }
        guard let manifest, !diagnostics.containsErrors else { throw ManifestError(diagnostics: diagnostics) }
        return manifest
    }

    /// Loads a file, returning whatever could be read and every diagnostic.
    /// - Parameter followingExtends: Whether its `extends` chain is loaded and merged (as an app loads
    ///   it); without, the file alone is read, with `extends` left as written.
    package func loadCollecting(
        contentsOf url: URL, displayPath: String? = nil, followingExtends: Bool = true
    ) -> (Manifest?, [Diagnostic]) {
        let (manifest, diagnostics, _) = loadChain(
            contentsOf: url, displayPath: displayPath, followingExtends: followingExtends)
        return (manifest, diagnostics)
    }

    /// Loads a file as `loadCollecting(contentsOf:displayPath:followingExtends:)` does, and names the files
    /// its `extends` chain led to: the file, then each parent in turn, standardized but with symlinks kept.
    /// A parent that is named but missing, a folder or unreadable is listed too (it is where the chain
    /// would go on), so that a watch sees it appear; one outside the folder, or closing a cycle, is not.
    /// The list is beside the manifest, not in it: two loads of the same files stay equal manifests.
    package func loadChain(
        contentsOf url: URL, displayPath: String? = nil, followingExtends: Bool = true
    ) -> (manifest: Manifest?, diagnostics: [Diagnostic], files: [URL]) {
        var diagnostics: [Diagnostic] = []
        let url = url.standardizedFileURL
        var files = [url]
        let manifest = loadFile(
            url, display: displayPath ?? Self.displayPath(for: url), root: url.deletingLastPathComponent(), depth: 0,
            followingExtends: followingExtends, diagnostics: &diagnostics, files: &files)
        return (manifest, diagnostics, files)
    }

    /// Follows the `extends` chain of `manifest`, read from `url` alone (by `loadCollecting(contentsOf:displayPath:followingExtends:)`
    /// without following it), as loading the file with its chain would: a check that read every file of a
    /// folder alone reads the manifests an app loads no second time.
    package func resolvingExtends(of manifest: Manifest, at url: URL) -> (Manifest, [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        var files: [URL] = []
        let url = url.standardizedFileURL
        let merged = resolveExtends(
            of: manifest, at: url, root: url.deletingLastPathComponent(), diagnostics: &diagnostics, files: &files)
        return (merged, diagnostics)
    }

    // MARK: - Files and extends

    /// - Parameter files: The chain's files so far, which the parents this file's `extends` leads to are added to.
    private func loadFile(
        _ url: URL, display: String, root: URL, depth: Int,
        followingExtends: Bool = true, diagnostics: inout [Diagnostic], files: inout [URL]
    ) -> Manifest? {
        let data: Data
        do {
            data = try Self.read(url, limit: maxBytes)
        } catch let error as TooLarge {
            diagnostics.append(Diagnostic(
                code: .tooLarge, message: "manifest is \(error.size) bytes, over the limit of \(maxBytes) "
                    + "bytes; split it with 'extends' or raise ManifestLoader.maxBytes", file: display))
            return nil
        } catch {
            let reason = (error as? NotAFile)?.description ?? error.localizedDescription
            diagnostics.append(Diagnostic(code: .unreadable, message: "cannot read the manifest: \(reason)", file: display))
            return nil
        }
        return read(
            data, display: display, depth: depth, followingExtends: followingExtends, diagnostics: &diagnostics,
            files: &files
        ) { (url, root) }
    }

    /// Parses and interpolates a file's bytes, and follows its `extends` from `place` (the file's URL
    /// and the folder its parents must stay in), asked for only when it has one.
    private func read(
        _ data: Data, display: String, depth: Int = 0, followingExtends: Bool = true, startIsOnDisk: Bool = true,
        diagnostics: inout [Diagnostic], files: inout [URL], at place: () -> (url: URL, root: URL)
    ) -> Manifest? {
        var parser = ManifestParser(file: display, maxBytes: maxBytes, maxDepth: maxDepth, depth: depth)
        parser.threads = threads
        let parsed = parser.parse(data)
        diagnostics += parser.diagnostics
        guard let parsed, let manifest = interpolate(parsed, size: data.count, diagnostics: &diagnostics) else { return nil }
        guard manifest.extends != nil, followingExtends else { return manifest }
        let (url, root) = place()
        return resolveExtends(
            of: manifest, at: url, root: root, startIsOnDisk: startIsOnDisk, diagnostics: &diagnostics, files: &files)
    }

    /// Loads the chain of parents of `child`, each file alone, and merges it
    /// from the topmost parent down: a child's bindings come after its
    /// parent's, and the validator lets them replace the parent's with the
    /// same key. A loop, not a recursion: `maxExtendsChain` bounds the chain,
    /// an app may raise it, and no chain of files may then exhaust the stack
    /// (a secondary thread's is 512 KiB on Apple platforms).
    /// - Parameter startIsOnDisk: Whether `child` was read from `url`; a
    ///   parent that is that file closes a cycle further up the chain only
    ///   then (extending it directly always does).
    /// - Parameter files: Where each parent's URL is added, as ``loadChain(contentsOf:displayPath:followingExtends:)`` lists them.
    private func resolveExtends(
        of child: Manifest, at url: URL, root: URL, startIsOnDisk: Bool = true, diagnostics: inout [Diagnostic],
        files named: inout [URL]
    ) -> Manifest {
        // Each path is resolved once (see ``PhysicalPath``): the root for
        // every containment check, each file for the cycle checks.
        let resolvedRoot = PhysicalPath.of(root.path)
        var files = [child]
        var current = (manifest: child, url: url, resolved: PhysicalPath.of(url.path))
        var visited: Set<String> = startIsOnDisk ? [current.resolved] : []
        while let parent = loadParent(
            of: current, root: root, resolvedRoot: resolvedRoot, loaded: files, visited: visited,
            diagnostics: &diagnostics, files: &named)
        {
            files.append(parent.manifest)
            visited.insert(parent.resolved)
            current = parent
        }
        var merged = files.removeLast()
        while let child = files.popLast() {
            // The validator lets a binding of a shallower file (the child)
            // replace the parent's binding with the same key.
            merged.bindings = merged.bindings + child.bindings
            // A file's edits of inherited chains apply after its parents' (see ``Decoration``).
            merged.decorations = merged.decorations + child.decorations
            merged.file = child.file
            merged.origin = child.origin
            merged.extends = child.extends
            // A parent's label, when the child has none, is shown (explain), never judged as the child's environment.
            merged.environmentIsInherited = child.environment == nil && merged.environment != nil
            merged.environment = child.environment ?? merged.environment
            merged.injectors = child.injectors ?? merged.injectors
            merged.format = child.format
        }
        return merged
    }

    /// The parent that `child`'s `extends` names, read alone; nil, with the
    /// problem reported at the `extends`, when it is outside the folder,
    /// closes a cycle, is missing or a folder, would make the chain too long,
    /// or cannot be read. `loaded` is the chain so far, for messages. The
    /// parent's URL is added to `files` once it is known to be inside the
    /// folder and no cycle, whether or not it can be read.
    private func loadParent(
        of link: ExtendsLink, root: URL, resolvedRoot: String, loaded: [Manifest], visited: Set<String>,
        diagnostics: inout [Diagnostic], files: inout [URL]
    ) -> ExtendsLink? {
        let (child, url) = (link.manifest, link.url)
        guard let relative = child.extends else { return nil }
        func report(_ code: DiagnosticCode, _ message: String) {
            diagnostics.append(child.diagnostic(code, message, at: .extends))
        }
        let parentURL = URL(fileURLWithPath: relative, relativeTo: url.deletingLastPathComponent())
            .standardizedFileURL
        let parentDisplay = Self.display(
            parentURL, relativeTo: url, childDisplay: child.file, relative: relative, root: root)
        var chain: String { (loaded.map(\.file) + [parentDisplay]).joined(separator: " -> ") }
        // Resolved the same way as the root, whether or not the parent
        // exists (see ``PhysicalPath``), so that a root under a symlink
        // (`/var` on macOS) still contains a parent that is missing.
        let resolvedParent = PhysicalPath.of(parentURL.path)
        guard resolvedParent.hasPrefix(resolvedRoot.hasSuffix("/") ? resolvedRoot : resolvedRoot + "/") else {
            report(.extendsOutside, "'extends' names \(relative), which is outside the manifests folder "
                + "\(Self.displayPath(for: root)); chain: \(chain). "
                + "Keep every parent manifest inside the folder of the first one loaded")
            return nil
        }
        if visited.contains(resolvedParent) || resolvedParent == link.resolved {
            report(.extendsCycle, "'extends' forms a cycle: \(chain); "
                + "remove 'extends' from one of these files")
            return nil
        }
        // Where the chain goes on: a watch follows it here even when it is not there yet.
        files.append(parentURL)
        guard let isFolder = SystemCall.isDirectory(atPath: parentURL.path) else {
            report(.extendsNotFound, "'extends' names \(relative), which does not exist (looked for "
                + "\(parentDisplay)); chain: \(chain)")
            return nil
        }
        guard !isFolder else {
            report(.extendsNotFound, "'extends' names \(relative), which is a folder, not a manifest file; "
                + "chain: \(chain). Name the parent's .json file")
            return nil
        }
        let depth = (child.origin?.depth ?? 0) + 1
        guard depth <= maxExtendsChain else {
            report(.extendsTooLong, "'extends' chain is longer than \(maxExtendsChain) files (the limit) at "
                + "\(child.file) -> \(parentDisplay); flatten the chain, or raise ManifestLoader.maxExtendsChain")
            return nil
        }
        let parent = loadFile(
            parentURL, display: parentDisplay, root: root, depth: depth, followingExtends: false,
            diagnostics: &diagnostics, files: &files)
        return parent.map { (manifest: $0, url: parentURL, resolved: resolvedParent) }
    }

    /// A file of an `extends` chain: what it holds, where it is, and its
    /// path with every link resolved, for the cycle check.
    private typealias ExtendsLink = (manifest: Manifest, url: URL, resolved: String)

    /// The path names something other than a regular file.
    struct NotAFile: Error, CustomStringConvertible {
        let type: FileAttributeType
        var description: String {
            switch type {
            case .typeDirectory: "it is a folder, not a manifest file; name the .json file in it"
            case .typeSymbolicLink: Self.brokenLink
            default: "it is not a regular file (a FIFO, a socket or a device); name a manifest file"
            }
        }

        /// A link that resolves to no file: a loop of links, or a missing target.
        static let brokenLink = "it is a symbolic link that leads to no file (a loop of links, or a link "
            + "whose target is missing); fix the link, or name the manifest file itself"
    }

    /// The file is over the size limit.
    struct TooLarge: Error { let size: Int64 }

    /// Reads a file, refusing one over the limit before reading it whole.
    ///
    /// The size is read as 64 bits: on a 32-bit watch, a file of 2 GiB or
    /// more does not fit an `Int`, and `as? Int` would let it through to be
    /// read whole.
    /// Also how `patchbay check` reads a catalog description, by the same rule.
    static func read(_ url: URL, limit: Int) throws -> Data {
        // Only a regular file is read: a FIFO would block, a device never end.
        let attributes = try FileManager.default.attributesOfItem(atPath: url.resolvingSymlinksInPath().path)
        if let type = attributes[.type] as? FileAttributeType, type != .typeRegular { throw NotAFile(type: type) }
        if let size = (attributes[.size] as? NSNumber)?.int64Value, size > Int64(limit) { throw TooLarge(size: size) }
        let data = try Data(contentsOf: url)
        if data.count > limit { throw TooLarge(size: Int64(data.count)) }
        return data
    }

    // MARK: - Interpolation

    /// Interpolates the parameters of a file of `size` bytes: what a value adds counts against the size
    /// limit, as the file's own bytes do. Nil when that passes the limit: the file is then not usable at
    /// all, as one over the limit as written is, and its later strings are left as written.
    private func interpolate(_ manifest: Manifest, size: Int, diagnostics: inout [Diagnostic]) -> Manifest? {
        // The parameters of the decorators a `decorate` entry adds first, as a binding's decorators' are.
        func mayRefer(_ entry: Decoration) -> Bool { entry.add.contains { $0.parameterSource.map(Interpolation.mayRefer) ?? false } }
        guard manifest.decorations.contains(where: mayRefer) else {
            return interpolateBindings(of: manifest, room: maxBytes - size, size: size, diagnostics: &diagnostics)
        }
        var edited = manifest
        var room = maxBytes - size
        interpolateDecorations(
            of: &edited, with: Interpolation(environment: environment, allowsUnset: allowsUnsetVariables),
            room: &room, size: size, diagnostics: &diagnostics)
        return room >= 0 ? interpolateBindings(of: edited, room: room, size: size, diagnostics: &diagnostics) : nil
    }

    /// Interpolates the parameters of `manifest`'s bindings and their decorators, with `room` bytes to grow by.
    private func interpolateBindings(
        of manifest: Manifest, room: Int, size: Int, diagnostics: inout [Diagnostic]
    ) -> Manifest? {
        // Only the bindings whose parameters may hold a reference are touched, and a
        // manifest with none is returned as it is: the optimizer makes the binding list
        // unique before a loop that may change it, and the caller still holds the list,
        // so entering the loop copied every binding (about 1% of an activation, measured).
        // A decorator's parameters are interpolated as its binding's are.
        func mayRefer(_ binding: Binding) -> Bool {
            (binding.parameterSource.map(Interpolation.mayRefer) ?? false)
                || binding.decorators.contains { $0.parameterSource.map(Interpolation.mayRefer) ?? false }
        }
        guard let first = manifest.bindings.firstIndex(where: mayRefer) else { return manifest }
        var manifest = manifest
        var room = room
        let interpolation = Interpolation(environment: environment, allowsUnset: allowsUnsetVariables)
        for offset in manifest.bindings.indices[first...] where room >= 0 {
            guard mayRefer(manifest.bindings[offset]) else { continue }
            // The binding's own parameters, then each decorator's, as (field, problems) to report.
            var found: [(field: String, owner: String?, problems: [Interpolation.Located])] = []
            if var parameters = manifest.bindings[offset].parameterSource, Interpolation.mayRefer(parameters) {
                found.append((BindingKey.parameters.rawValue, nil, interpolation.apply(
                    to: &parameters, record: &manifest.bindings[offset].interpolation, room: &room)))
                manifest.bindings[offset].parameterSource = parameters
            }
            for link in manifest.bindings[offset].decorators.indices where room >= 0 {
                guard var parameters = manifest.bindings[offset].decorators[link].parameterSource,
                    Interpolation.mayRefer(parameters)
                else { continue }
                let decorator = "decorator '\(MessageText.name(manifest.bindings[offset].decorators[link].name))' of "
                found.append(("\(BindingKey.decorators)/\(link)/\(DecoratorKey.parameters)", decorator, interpolation.apply(
                    to: &parameters, record: &manifest.bindings[offset].decorators[link].interpolation, room: &room)))
                manifest.bindings[offset].decorators[link].parameterSource = parameters
            }
            guard found.contains(where: { !$0.problems.isEmpty }) else { continue }
            manifest.bindings[offset].isBroken = true
            let binding = manifest.bindings[offset]
            for (field, owner, problems) in found { for located in problems {
                let (code, message): (DiagnosticCode, String) = switch located.problem {
                case .missing(let variable):
                    (.envVarMissing, "environment variable '\(variable)' is not set and has no default, in the parameters "
                        + "of \(owner ?? "")binding \(binding.displayKey) -> '\(binding.displayFactory)'; set \(variable) or write "
                        + "${\(variable):-default}")
                case .malformed(let text):
                    (.invalidParameters, text + ", in the parameters of \(owner ?? "")binding \(binding.displayKey)")
                case .overLimit:
                    (.tooLarge, "interpolating the parameters of binding \(binding.displayKey) makes the manifest "
                        + "larger than the limit of \(maxBytes) bytes (the file is \(size) bytes; what each "
                        + "${NAME} adds counts as if written in it); shorten the variables' values, or raise "
                        + "ManifestLoader.maxBytes")
                }
                diagnostics.append(binding.diagnostic(
                    code, message, field: field + located.pointer, position: located.position,
                    fallbackFile: manifest.file))
            } }
        }
        return room >= 0 ? manifest : nil
    }

    /// Interpolates the parameters of each decorator that `manifest`'s `decorate` entries add, reporting
    /// each problem at its value, as for a binding's decorators; what the values add counts against `room`.
    private func interpolateDecorations(
        of manifest: inout Manifest, with interpolation: Interpolation, room: inout Int, size: Int,
        diagnostics: inout [Diagnostic]
    ) {
        for entry in manifest.decorations.indices where room >= 0 {
            for link in manifest.decorations[entry].add.indices where room >= 0 {
                guard var parameters = manifest.decorations[entry].add[link].parameterSource,
                    Interpolation.mayRefer(parameters)
                else { continue }
                let problems = interpolation.apply(
                    to: &parameters, record: &manifest.decorations[entry].add[link].interpolation, room: &room)
                manifest.decorations[entry].add[link].parameterSource = parameters
                let use = manifest.decorations[entry].add[link]
                let owner = "decorator '\(MessageText.name(use.name))' added to \(manifest.decorations[entry].displayKey) "
                    + "by '\(ManifestKey.decorate)'"
                for located in problems {
                    let (code, message): (DiagnosticCode, String) = switch located.problem {
                    case .missing(let variable):
                        (.envVarMissing, "environment variable '\(variable)' is not set and has no default, in the "
                            + "parameters of \(owner); set \(variable) or write ${\(variable):-default}")
                    case .malformed(let text): (.invalidParameters, text + ", in the parameters of \(owner)")
                    case .overLimit:
                        (.tooLarge, "interpolating the parameters of \(owner) makes the manifest larger than the limit "
                            + "of \(maxBytes) bytes (the file is \(size) bytes); shorten the variables' values, or raise "
                            + "ManifestLoader.maxBytes")
                    }
                    var diagnostic = Decoration.diagnostic(
                        code, message, at: use.origin, field: DecoratorKey.parameters.rawValue + located.pointer,
                        fallbackFile: manifest.file)
                    if let position = located.position { (diagnostic.line, diagnostic.column) = (position.line, position.column) }
                    diagnostics.append(diagnostic)
                }
            }
        }
    }

    // MARK: - Display paths

    /// A path relative to the current folder when the file is below it, else the full path.
    ///
    /// The current folder is a physical path (`getcwd` resolves symlinks:
    /// on macOS a folder under `$TMPDIR` is `/private/var/...`), while the
    /// URL is spelled as its maker chose (`/var/...`, or with `/private`
    /// removed by `standardizedFileURL`). So the two are compared as written
    /// first, which keeps a symlink below the current folder (a `Manifests`
    /// link to a shared folder) under its own name, and then with every
    /// symlink resolved on both sides by ``PhysicalPath``. The full path,
    /// when shown, is the URL's as written.
    /// - Parameter currentDirectory: The folder to be relative to; the process's current folder by default.
    package static func displayPath(
        for url: URL, currentDirectory: String = FileManager.default.currentDirectoryPath
    ) -> String {
        let path = url.standardizedFileURL.path
        return PhysicalPath.relative(path, below: currentDirectory)
            ?? PhysicalPath.relative(PhysicalPath.of(path), below: PhysicalPath.of(currentDirectory))
            ?? path
    }

    /// `file`, a path as diagnostics print it (relative to the current
    /// folder, or absolute), relative to `folder` instead when it is below
    /// it: for GitHub Actions, which places an annotation by a path relative
    /// to `GITHUB_WORKSPACE` whatever folder the check ran in.
    package static func path(
        _ file: String, relativeTo folder: String, currentDirectory: String = FileManager.default.currentDirectoryPath
    ) -> String {
        let absolute = file.hasPrefix("/") ? file : currentDirectory + "/" + file
        return displayPath(for: URL(fileURLWithPath: absolute), currentDirectory: folder)
            .replacingOccurrences(of: "//", with: "/")
    }

    /// The parent's display path, in the same style as the child's.
    ///
    /// An absolute `extends` inside the manifests folder (`root`) is shown as
    /// the relative path that names the same file, so that a file has one
    /// name in every diagnostic and chain whichever way it was reached;
    /// outside the folder it is shown as the absolute path it names.
    private static func display(
        _ parent: URL, relativeTo child: URL, childDisplay: String, relative: String, root: URL
    ) -> String {
        var relative = relative
        if relative.hasPrefix("/") {
            guard let fromChild = relativePath(
                of: parent.path, from: child.deletingLastPathComponent().path, within: root.standardizedFileURL.path)
            else { return parent.path }
            relative = fromChild
        }
        let childFolder = (childDisplay as NSString).deletingLastPathComponent
        let joined = childFolder.isEmpty ? relative : childFolder + "/" + relative
        return normalized(joined)
    }

    /// The path from the folder `base` to `target` (`../base.json`), both
    /// absolute and standardized; nil when `target` is not below `folder`.
    static func relativePath(of target: String, from base: String, within folder: String) -> String? {
        let target = target.split(separator: "/"), base = base.split(separator: "/")
        let folder = folder.split(separator: "/")
        guard target.count > folder.count, target.starts(with: folder) else { return nil }
        let shared = zip(target, base).prefix { $0 == $1 }.count
        return (Array(repeating: "..", count: base.count - shared) + target[shared...].map(String.init))
            .joined(separator: "/")
    }

    /// Removes `.` and resolves `name/..` in a path, keeping leading `..`s:
    /// `nested/../base.json` is `base.json`, `../x.json` stays.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else {
                parts.append(part)
            }
        }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }
}
