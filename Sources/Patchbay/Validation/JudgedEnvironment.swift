/// Which environment a manifest is judged as, and how two environment names
/// compare: one rule for `patchbay check`, the app's own check, activation,
/// a watched file's reloads and `patchbay diff`.
///
/// A manifest is judged as the environment it is loaded as. When the app
/// names the environment (``ManifestDirectory``'s `environment:` argument,
/// else `PATCHBAY_ENV`, else `development`), that name is judged, and in a
/// checked folder each file is judged as the name the app loads it by, its
/// file's name (`production` for `production.json`). A file loaded alone by
/// its URL, no environment named, is judged as its own `environment` label,
/// else its file's name; a manifest made in code (`<memory>`) as its label,
/// else not at all. A parent under `extends` is judged as each file that
/// loads it, never as itself. The label never chooses the environment: when
/// it names another one than the environment judged, that is an error at
/// the label (`environment-label-mismatch`).
///
/// Two names are one environment when Swift's `String`s are equal: Unicode
/// canonical equivalence (`café` composed or decomposed is one name), case
/// and every other character counting, the rule keys follow. A folder's
/// file is found by listing the folder and comparing names by this rule, so
/// `Production` finds no `production.json` on a case-insensitive disk either.
enum JudgedEnvironment {
    /// Whether two environment names are one environment.
    static func same(_ lhs: String, _ rhs: String) -> Bool { lhs == rhs }

    /// The environment a manifest file named `name` (no folder) is loaded as
    /// from its folder: `production` for `production.json`; nil when the name
    /// is not a non-empty name followed by `.json` exactly, as `.json` and
    /// `x.JSON` are, which no environment name loads.
    static func ofFolderFile(named name: String) -> String? {
        guard name.hasSuffix(".json"), name.utf8.count > ".json".utf8.count else { return nil }
        return String(name.dropLast(".json".count))
    }

    /// The environment a file loaded alone gives by its name: its name
    /// without a last `.json` extension in any case (`x.JSON` is `x`, `.json` is
    /// the empty name, which no `environments:` list holds).
    static func ofLoneFile(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let cut = name.utf8.count >= 5 && name.lowercased().hasSuffix(".json") ? 5 : 0
        return String(name.dropLast(cut))
    }
}

extension Manifest {
    /// The environment the manifest is judged as by each factory's
    /// ``FactoryEnvironments`` (see ``JudgedEnvironment``): the name it is
    /// loaded as (the app's, or a folder file's name) when given, else the
    /// file's own label (a parent's does not count), else the lone file's
    /// name; nil for a manifest made in code that names none.
    package var judgedEnvironment: String? {
        loadedAs ?? (environmentIsInherited ? nil : environment) ?? (file == "<memory>" ? nil : JudgedEnvironment.ofLoneFile(file))
    }

    /// The manifest, judged as the environment `name` whatever its label
    /// says: what the app named, or a checked folder's file name.
    package func judged(as name: String?) -> Manifest {
        var manifest = self
        manifest.loadedAs = name
        return manifest
    }
}
