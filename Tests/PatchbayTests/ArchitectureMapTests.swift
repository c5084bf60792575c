// ARCHITECTURE.md is a newcomer's map: it is only useful while every file,
// folder and type it names exists. These tests read the map's backticked
// names and find each in the repository, so a rename that forgets the map
// fails here rather than misleading the next reader.
import Foundation
import Testing

@Suite struct ArchitectureMapTests {
    /// The map's text.
    static func map() throws -> String {
        try String(contentsOf: repositoryRoot.appendingPathComponent("ARCHITECTURE.md"), encoding: .utf8)
    }

    /// Every `code span` of the map, in order.
    static func codeSpans(in text: String) -> [String] {
        text.components(separatedBy: "`").enumerated().compactMap { index, part in
            index % 2 == 1 && !part.isEmpty && !part.contains("\n") ? part : nil
        }
    }

    /// Every file of the repository's `folder` (`Sources`, `Tests`), by path from the root.
    static func files(in folder: String) -> [String] {
        let root = repositoryRoot.appendingPathComponent(folder)
        let walker = FileManager.default.enumerator(atPath: root.path)
        var files: [String] = []
        while let path = walker?.nextObject() as? String { files.append(folder + "/" + path) }
        return files
    }

    /// Every Swift file of `Sources` and `Tests`, where the map's types are declared.
    static func sourceFiles() -> [String] {
        (files(in: "Sources") + files(in: "Tests")).filter { $0.hasSuffix(".swift") }
    }

    /// Whether `span` reads as a place in the repository: a path with a
    /// folder, or a file name.
    static func isPlace(_ span: String) -> Bool {
        !span.contains(" ")
            && (span.contains("/") || span.hasSuffix(".swift") || span.hasSuffix(".md"))
    }

    /// Whether `span` reads as a type name: capitalized, letters and digits only.
    static func isTypeName(_ span: String) -> Bool {
        guard let first = span.unicodeScalars.first, CharacterSet.uppercaseLetters.contains(first) else { return false }
        return span.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) }
    }

    @Test func everyPlaceTheMapNamesExists() throws {
        let spans = Self.codeSpans(in: try Self.map()).filter(Self.isPlace)
        #expect(spans.count >= 20, "the map names few places: is it read at all?")
        let files = Self.files(in: "Sources")
        let manager = FileManager.default
        for span in Set(spans) {
            let candidates = [span, "Sources/Patchbay/" + span]
            let exists = candidates.contains { manager.fileExists(atPath: repositoryRoot.appendingPathComponent($0).path) }
                || (!span.contains("/") && files.contains { $0.hasSuffix("/" + span) })
            #expect(exists, "ARCHITECTURE.md names `\(span)`, which is no file or folder of the repository")
        }
    }

    /// The package's target names (`name: "..."` in Package.swift), which
    /// the map names as targets, not types.
    static func targetNames() throws -> Set<String> {
        let manifest = try String(contentsOf: repositoryRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        return Set(manifest.matches(of: #/name: "([A-Za-z]+)"/#).map { String($0.output.1) })
    }

    /// What the map names from outside the repository: Foundation's decoder and other modules.
    static let outsideNames: Set<String> = ["JSONDecoder", "Synchronization", "Testing"]

    @Test func everyTypeTheMapNamesIsDeclared() throws {
        let targets = try Self.targetNames()
        #expect(targets.contains("PatchbayTools"))
        let spans = Set(Self.codeSpans(in: try Self.map()).filter(Self.isTypeName))
            .subtracting(targets).subtracting(Self.outsideNames)
        #expect(spans.count >= 30, "the map names few types: is it read at all?")
        // Every declared name of the repository's Swift sources, found in one pass.
        var declared: Set<String> = []
        for file in Self.sourceFiles() {
            let text = try String(contentsOf: repositoryRoot.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: #/(?:class|struct|enum|protocol|actor|typealias)\s+([A-Za-z0-9]+)/#) {
                declared.insert(String(match.output.1))
            }
        }
        for name in spans {
            #expect(declared.contains(name), "ARCHITECTURE.md names `\(name)`, which no source declares")
        }
    }

    @Test func theMapsMembersExist() throws {
        // `Type.member` spans: the member is declared in a file of the type's.
        let spans = Set(Self.codeSpans(in: try Self.map()).filter {
            let parts = $0.split(separator: ".")
            return parts.count == 2 && !Self.isPlace($0) && Self.isTypeName(String(parts[0])) && parts[1].first?.isLowercase == true
        })
        #expect(!spans.isEmpty)
        let files = Self.sourceFiles()
        for span in spans {
            let parts = span.split(separator: ".").map(String.init)
            let typeFiles = try files.filter { $0.contains("/" + parts[0]) }.map {
                try String(contentsOf: repositoryRoot.appendingPathComponent($0), encoding: .utf8)
            }
            let member = try Regex(#"(func|var|let|case)\s+"# + parts[1] + #"\b"#)
            #expect(typeFiles.contains { $0.contains(member) }, "ARCHITECTURE.md names `\(span)`, which is not declared")
        }
    }

    @Test func aMissingNameFailsTheCheck() throws {
        // The checks above must be able to fail: a made-up name is neither a place nor a declared type.
        #expect(Self.isPlace("Resolution/NoSuchFile.swift"))
        #expect(!FileManager.default.fileExists(
            atPath: repositoryRoot.appendingPathComponent("Sources/Patchbay/Resolution/NoSuchFile.swift").path))
        #expect(Self.isTypeName("NoSuchTypeAnywhere"))
        #expect(Self.codeSpans(in: "a `X` b `Y/z.swift` c") == ["X", "Y/z.swift"])
    }
}
