import Foundation

// A committed `catalog.json` goes stale the moment the code it describes
// changes: rename a factory in the code and the manifest, and the build
// plugin, judging the manifest by the old description, would refuse the new
// name before the test that rewrites the description can run. So a
// description records a fingerprint of the Swift files of the modules its
// factories were registered in; a check that finds them changed since knows
// the description may be out of date, and judges names by it no longer.
// FNV-1a, since it only has to notice a change, not resist one (the
// description is no secret), and Foundation has no digest on Linux.

extension CatalogDescription {
    /// The sources a description was made from: the folders of the modules
    /// that registered its factories and declared its entry points, and a
    /// fingerprint of their Swift files.
    package struct Sources: Codable, Sendable, Hashable {
        /// The folders, relative to the package's root (`Sources/Tour`), sorted.
        package var folders: [String]
        /// `fnv1a64:` and 16 hexadecimal digits, over every `*.swift` file in ``folders``.
        package var fingerprint: String
    }

    /// This description with its places as files below `root` (see
    /// ``SourceLocations/packageRelative(_:root:)``) and the record of the
    /// module folders they are in, for a description written beside the
    /// manifests of the package at `root`.
    package func locatingSources(in root: URL) -> CatalogDescription {
        var folders: Set<String> = []
        var located = mappingPlaces { text in
            let mapped = SourceLocations.packageRelative(text, root: root)
            if let place = SourceLocations.Place(mapped), SourceLocations.file(place.file, in: root) == place.file {
                let parts = place.file.split(separator: "/")
                if parts.count >= 3, parts[0] == "Sources" { folders.insert("Sources/" + parts[1]) }
            }
            return mapped
        }
        located.sources = folders.isEmpty ? nil : Sources(folders: folders.sorted(), root: root)
        return located
    }

    /// This description with its places as diagnostics print them (relative
    /// to the current folder), for the description file `file`: what a
    /// check of manifests says of registrations and entry points.
    package func displayingSources(describedIn file: URL) -> CatalogDescription {
        let root = SourceLocations.packageRoot(above: file.deletingLastPathComponent())
        return mappingPlaces { SourceLocations.displayed($0, root: root)?.text ?? $0 }
    }

    /// This description with each place it records (`registeredAt`, `declaredAt`) as `transform` writes it.
    private func mappingPlaces(_ transform: (String) -> String) -> CatalogDescription {
        var mapped = self
        for index in mapped.factories.indices {
            mapped.factories[index].registeredAt = mapped.factories[index].registeredAt.map(transform)
        }
        mapped.decorators = decorators?.map { decorator in
            var decorator = decorator
            decorator.registeredAt = decorator.registeredAt.map(transform)
            return decorator
        }
        mapped.entryPoints = entryPoints?.map { entry in
            var entry = entry
            entry.declaredAt = entry.declaredAt.map(transform)
            return entry
        }
        return mapped
    }

    /// Whether the sources this description records have changed since it
    /// was written, for the description file `file`; false when it records none.
    package func isStale(describedIn file: URL) -> Bool {
        guard let sources else { return false }
        return !sources.isCurrent(root: SourceLocations.packageRoot(above: file.deletingLastPathComponent()))
    }
}

extension CatalogDescription.Sources {
    /// The record of `folders` as they are now below `root`; nil when one is not a readable folder.
    package init?(folders: [String], root: URL) {
        guard let fingerprint = Self.fingerprint(of: folders, root: root) else { return nil }
        self.init(folders: folders, fingerprint: fingerprint)
    }

    /// Whether the folders below `root` still hold the files this record
    /// was made from; true when none of them is there (a description
    /// copied away from its package cannot be judged by its sources).
    package func isCurrent(root: URL) -> Bool {
        let present = folders.filter { FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path) }
        return present.isEmpty || Self.fingerprint(of: folders, root: root) == fingerprint
    }

    /// FNV-1a (64 bits) of each Swift file's path, relative to `root`,
    /// and bytes, in path order; nil when a folder cannot be listed.
    static func fingerprint(of folders: [String], root: URL) -> String? {
        var paths: [String] = []
        var walked: Set<String> = []
        // Each folder once however it is spelled: a description lists each once (its validation refuses
        // repeats), and a walk is costly. Never one outside the package, through a link on its way.
        for folder in folders where walked.insert(SourceLocations.physical(folder, in: root)).inserted {
            guard !SourceLocations.leadsOutside(folder, in: root) else { return nil }
            let url = root.appendingPathComponent(folder)
            guard let found = FileManager.default.subpaths(atPath: url.path) else { return nil }
            paths += found.filter { $0.hasSuffix(".swift") }.map { folder + "/" + $0 }
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ bytes: some Sequence<UInt8>) {
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        }
        for path in paths.sorted() {
            add(path.utf8)
            add([0])
            add(FileManager.default.contents(atPath: root.appendingPathComponent(path).path) ?? Data())
            add([0])
        }
        return String(format: "fnv1a64:%016llx", hash)
    }
}
