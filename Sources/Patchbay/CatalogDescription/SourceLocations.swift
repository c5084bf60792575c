import Foundation

// A binary knows its registrations by `#fileID` (`Tour/main.swift:26`): an
// absolute `#filePath` would put the build machine's folders into every
// shipped app. A terminal and an editor open neither, so the tools, which run
// in the package, turn a `#fileID` into the file it names, by SwiftPM's
// layout: module `Tour`'s files are under `Sources/Tour/`.

/// The places of registrations and entry points as files a reader can open.
package enum SourceLocations {
    /// A place in a Swift file: `file:line:column`, or `file:line` as written before columns.
    package struct Place: Hashable, Sendable {
        /// The file, as written (a `#fileID`, or a path relative to the package's root).
        package var file: String
        /// The 1-based line.
        package var line: Int
        /// The 1-based column; nil when the text named none.
        package var column: Int?

        /// `file:line:column`, or `file:line` without a column.
        package var text: String { "\(file):\(line)" + (column.map { ":\($0)" } ?? "") }
    }

    /// The package whose sources a description in `folder` names: the
    /// nearest folder at or above it that holds `Package.swift`; else the
    /// current folder, where `swift test` and `swift run` run.
    package static func packageRoot(above folder: URL) -> URL {
        var candidate = folder.standardizedFileURL
        while true {
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("Package.swift").path) {
                return candidate
            }
            let parent = candidate.deletingLastPathComponent()
            if parent.path == candidate.path { break }
            candidate = parent
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }

    /// The file `path` names below `root`, relative to it: `path` itself
    /// when it is a file there (`Sources/Tour/main.swift`), else the
    /// `#fileID` `Module/File.swift` under `Sources/` when that is one; nil
    /// when neither is.
    package static func file(_ path: String, in root: URL) -> String? {
        guard outsideProblem(path) == nil else { return nil }
        return [path, "Sources/" + path].first { SystemCall.isDirectory(atPath: root.appendingPathComponent($0).path) == false }
    }

    /// `location` as a description records it: the file relative to `root`,
    /// with the column of the call (the first character of its line that is
    /// not blank, where a statement starts); unchanged when its file is not
    /// found there.
    package static func packageRelative(_ location: String, root: URL) -> String {
        guard var place = Place(location), let file = file(place.file, in: root) else { return location }
        place.file = file
        if place.column == nil { place.column = firstColumn(ofLine: place.line, in: root.appendingPathComponent(file)) }
        return place.text
    }

    /// `location` as diagnostics print it: its file relative to the current
    /// folder when below it, else absolute (``ManifestLoader/displayPath(for:currentDirectory:)``);
    /// the `#fileID` form mapped as ``file(_:in:)`` maps it. Nil when the text names no line.
    package static func displayed(_ location: String, root: URL) -> Place? {
        guard var place = Place(location) else { return nil }
        if let file = file(place.file, in: root) {
            let url = root.appendingPathComponent(file)
            if place.column == nil { place.column = firstColumn(ofLine: place.line, in: url) }
            place.file = ManifestLoader.displayPath(for: url)
        }
        return place
    }

    /// `location` as ``displayed(_:root:)`` prints it with the current folder
    /// as the package's root (where `swift run` and `swift test` run); the
    /// text unchanged when it names no line.
    package static func displayedHere(_ location: String) -> String {
        displayed(location, root: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))?.text ?? location
    }

    /// The 1-based column of the first character of `line` that is neither a
    /// space nor a tab; 1 when the file cannot be read or has no such line.
    static func firstColumn(ofLine line: Int, in file: URL) -> Int {
        guard let data = FileManager.default.contents(atPath: file.path) else { return 1 }
        var current = 1, column = 1
        for byte in data {
            if current == line {
                if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { column += 1; continue }
                return byte == UInt8(ascii: "\n") ? 1 : column
            }
            if byte == UInt8(ascii: "\n") { current += 1 }
        }
        return 1
    }

    /// Why `path`, read relative to a package's root, may name a file outside
    /// it (`an absolute path`, `a path that climbs out with '..'`); nil when it cannot.
    package static func outsideProblem(_ path: String) -> String? {
        let start = Array(path.unicodeScalars.prefix(3))
        let drive = start.count == 3 && start[0].properties.isAlphabetic && start[1] == ":"
            && (start[2] == "/" || start[2] == "\\")  // C:/ or C:\, absolute on Windows
        if path.hasPrefix("/") || path.hasPrefix("\\") || drive {
            return "an absolute path, outside the package"
        }
        if path.split(whereSeparator: { $0 == "/" || $0 == "\\" }).contains("..") {
            return "a path that climbs out of the package with '..'"
        }
        return nil
    }

    /// What the file `path` names below `root` is when it is there and not a
    /// regular file (`a folder`, a link outside the package, `a FIFO, a socket or a device`), as
    /// ``file(_:in:)`` finds it; nil for a regular file, or for none.
    package static func notRegularFile(_ path: String, in root: URL) -> String? {
        for candidate in [path, "Sources/" + path] {
            let url = root.appendingPathComponent(candidate)
            guard let type = try? FileManager.default.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType
            else { continue }
            switch type {
            case .typeRegular, .typeSymbolicLink:
                // A link, or a folder on the way (`Sources/App/etc/passwd`, `etc` a link to /etc), may
                // lead out: the place is a regular file of the package, reached by ``leadsOutside(_:in:)``'s rule.
                let target = url.resolvingSymlinksInPath()
                let isFile = (try? FileManager.default.attributesOfItem(atPath: target.path)[.type] as? FileAttributeType)
                    == .typeRegular
                return isFile && !leadsOutside(candidate, in: root)
                    ? nil : "a link that leads outside the package or to no regular file"
            case .typeDirectory: return "a folder"
            default: return "a FIFO, a socket or a device"
            }
        }
        return nil
    }

    /// Whether `path` below `root`, each link on its way followed, leads outside
    /// `root` (`lib/usr` where `lib` is a link to `/`); false for a path that is not there.
    package static func leadsOutside(_ path: String, in root: URL) -> Bool {
        let url = root.appendingPathComponent(path)
        guard FileManager.default.fileExists(atPath: url.path) else { return false }
        let base = PhysicalPath.of(root.standardizedFileURL.path)
        return PhysicalPath.relative(PhysicalPath.of(url.standardizedFileURL.path), below: base) == nil
    }

    /// The folder `path` below `root` as one spelling, each link followed
    /// (`./Sources/App/` and `Sources//App` are `Sources/App`): what is walked.
    package static func physical(_ path: String, in root: URL) -> String {
        PhysicalPath.of(root.appendingPathComponent(path).standardizedFileURL.path)
    }
}

extension SourceLocations.Place {
    /// Splits `file:line` or `file:line:column`; nil when the text ends in no line number.
    package init?(_ text: String) {
        var parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, let last = Int(parts.removeLast()), last > 0 else { return nil }
        if parts.count >= 2, let line = Int(parts.last!), line > 0 {
            parts.removeLast()
            (self.line, column) = (line, last)
        } else {
            (self.line, column) = (last, nil)
        }
        file = parts.joined(separator: ":")
        guard !file.isEmpty else { return nil }
    }
}
