/// The `extends` links between the files of one checked folder, each file read alone: what a folder
/// check needs to know which chains an app loads, without loading every file's chain.
enum ExtendsLinks {
    /// A file and the parent its `extends` names, both as physical paths (see ``PhysicalPath``).
    struct Link {
        let file: String
        let parent: String?
    }

    /// One file of each cycle the links form (a file that extends itself is one), in one pass over them:
    /// every file of such a cycle is a parent, so no child outside it would follow it and report it.
    static func cycleEntries(of links: [Link]) -> Set<String> {
        let parentOf = Dictionary(links.map { ($0.file, $0.parent) }, uniquingKeysWith: { first, _ in first })
        var done = Set<String>(), entries = Set<String>()
        for start in links.map(\.file) where !done.contains(start) {
            var onWalk = Set<String>()
            var current: String? = start
            while let file = current, !done.contains(file), !onWalk.contains(file) {
                onWalk.insert(file)
                current = parentOf[file] ?? nil  // nil too for a parent outside the folder: the walk ends there
            }
            if let file = current, onWalk.contains(file) { entries.insert(file) }
            done.formUnion(onWalk)
        }
        return entries
    }
}
