// Every ```swift block of the README and of the DocC articles, type-checked
// against the library the tests were built with: a snippet that names an API
// that does not exist, or spells its labels wrong, fails here, not on a reader.
//
// One `swiftc -typecheck` per Markdown file (a few seconds each, in parallel),
// on a `main.swift` made from its blocks, against the debug build's modules:
// a scratch package would rebuild Patchbay for minutes. Each block is placed
// after a `#sourceLocation` naming its line, so an error points at the
// article, not at the generated file.
//
// What a block may assume is said in the Markdown, in HTML comments that
// GitHub and DocC do not show:
//
//     <!-- swift prelude: WHY                 Swift code every block of the file is
//     CODE                                    compiled with (the types an example uses
//     -->                                     but does not declare), at file scope
//     <!-- swift: continues -->               this block follows the previous one, in
//                                             the same scope (it uses its declarations)
//     <!-- swift: fragment -->                not compiled: a piece of a declaration,
//                                             kept under 5 lines
//     <!-- swift: Package.swift -->           a whole Package.swift, type-checked
//                                             against the toolchain's PackageDescription
//     <!-- tour: main.swift -->, <!-- tour: Tests/... -->   the tour (ReadmeTests.swift)
//
// Every other block stands alone, with the file's preludes. A block that
// declares what only file scope may hold (a protocol, an extension, an
// import, a Swift Testing test) is compiled at file scope, as are the tour's;
// the others each inside a `do { }` of their own, so that two examples may
// both declare `let container`. File-scope blocks come first, so the names
// they declare are there for the rest.
import Foundation
import Testing

/// A Markdown file's Swift: its hidden preludes and its ```swift blocks.
struct SwiftSnippets {
    struct Block {
        /// The `<!-- ... -->` on the line before the fence, if any.
        var label: String?
        var lines: [String]
        /// The file's line (1-based) of the block's first line.
        var line: Int
    }

    /// The file's path from the repository's root, as errors name it.
    var path: String
    var preludes: [Block] = []
    var blocks: [Block] = []
    /// How many lines open a Swift block (```` ```swift ````), counted apart from the parse.
    var fences = 0

    /// The labels a Swift block may carry.
    static let fragment = "swift: fragment", continues = "swift: continues", packageManifest = "swift: Package.swift"

    init(path: String, text: String) {
        self.path = path
        let lines = text.components(separatedBy: "\n")
        // Any fence whose info string starts with "swift", in any case and
        // with words after it (```Swift, ```swift title): one the parse below
        // does not take as a block shows as a difference, not a skipped block.
        fences = lines.filter { $0.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("```swift") }.count
        var index = 0
        while index < lines.count {
            let line = lines[index].trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("<!-- swift prelude"), !line.hasSuffix("-->") {
                let start = index + 1
                index += 1
                while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces) != "-->" { index += 1 }
                preludes.append(Block(label: nil, lines: Array(lines[start..<min(index, lines.count)]), line: start + 1))
                index += 1
                continue
            }
            guard line == "```swift" else {
                index += 1
                continue
            }
            let before = index > 0 ? lines[index - 1].trimmingCharacters(in: .whitespaces) : ""
            let label = before.hasPrefix("<!--") && before.hasSuffix("-->")
                ? before.dropFirst(4).dropLast(3).trimmingCharacters(in: .whitespaces) : nil
            let start = index + 1
            index += 1
            while index < lines.count, !lines[index].trimmingCharacters(in: .whitespaces).hasPrefix("```") { index += 1 }
            blocks.append(Block(label: label, lines: Array(lines[start..<min(index, lines.count)]), line: start + 1))
            index += 1
        }
    }

    /// What is wrong with the markers themselves: an unknown label, a fragment of 5 lines or more.
    var markerProblems: [String] {
        blocks.compactMap { block in
            switch block.label {
            case Self.fragment?:
                return block.lines.count < 5 ? nil
                    : "\(path):\(block.line): a fragment of \(block.lines.count) lines; a fragment is under 5 lines, "
                        + "anything longer compiles (give it a prelude)"
            case nil, Self.continues?, Self.packageManifest?: return nil
            case let label? where label.hasPrefix("tour: "): return nil
            case let label?:
                return "\(path):\(block.line): unknown label '\(label)' on a Swift block (see DocumentationSnippetTests.swift)"
            }
        }
    }

    /// The module name the program is compiled as: the tour's test imports its executable, `Tour`.
    static let moduleName = "Tour"

    /// The `main.swift` that holds every compiled block (all but fragments and Package.swift files).
    var program: String {
        var groups: [[Block]] = []
        for block in blocks where block.label != Self.fragment && block.label != Self.packageManifest {
            if block.label == Self.continues, !groups.isEmpty {
                groups[groups.count - 1].append(block)
            } else {
                groups.append([block])
            }
        }
        let fileScope = groups.filter(Self.needsFileScope), local = groups.filter { !Self.needsFileScope($0) }
        var out = ["import Foundation", "import Patchbay"]
        for prelude in preludes { out += located(prelude) }
        for group in fileScope { out += group.flatMap(located) }
        for group in local { out += ["do {"] + group.flatMap(located) + ["}"] }
        return out.joined(separator: "\n") + "\n"
    }

    /// The blocks that are whole Package.swift files.
    var packageManifests: [Block] { blocks.filter { $0.label == Self.packageManifest } }

    /// A group that declares what only file scope may hold, or is the tour.
    private static func needsFileScope(_ group: [Block]) -> Bool {
        group.contains { block in
            block.label?.hasPrefix("tour: ") == true || block.lines.contains { line in
                ["protocol ", "extension ", "import ", "@testable import ", "@Test", "@Suite"].contains { line.hasPrefix($0) }
            }
        }
    }

    /// A block's lines after a `#sourceLocation` naming its place. The tour's
    /// test imports the executable, which is this module here.
    private func located(_ block: Block) -> [String] {
        let lines = block.lines.map { $0.hasPrefix("@testable import \(Self.moduleName)") ? "// " + $0 : $0 }
        return ["#sourceLocation(file: \(String(reflecting: path)), line: \(block.line))"] + lines + ["#sourceLocation()"]
    }
}

/// Type-checks Swift with the toolchain's `swiftc`, against this package's debug build.
enum SnippetCompiler {
    /// The `swiftc` on `PATH`, as `swift test` found its own toolchain; on
    /// macOS, the one `xcrun` finds behind `/usr/bin`'s shim, so that
    /// PackageDescription is found beside it.
    static let swiftc: URL? = {
        #if os(macOS)
        if let found = xcrun(["--find", "swiftc"]) { return URL(fileURLWithPath: found) }
        #endif
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("swiftc") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// What the compiler needs besides the modules: on macOS, the SDK, and
    /// the platform's developer folder, where Xcode keeps Swift Testing.
    static let platformArguments: [String] = {
        #if os(macOS)
        guard let sdk = xcrun(["--show-sdk-path"]), let platform = xcrun(["--show-sdk-platform-path"]) else { return [] }
        return ["-sdk", sdk, "-F", platform + "/Developer/Library/Frameworks", "-I", platform + "/Developer/usr/lib"]
        #else
        return []
        #endif
    }()

    #if os(macOS)
    /// What `xcrun ARGUMENTS` prints, trimmed; nil when it fails.
    static func xcrun(_ arguments: [String]) -> String? {
        guard let result = try? runProgram(URL(fileURLWithPath: "/usr/bin/xcrun"), arguments,
                                           in: URL(fileURLWithPath: "/"), environment: ProcessInfo.processInfo.environment),
              result.status == 0 else { return nil }
        let text = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }
    #endif

    /// The built modules: `Modules/` in the products folder (SwiftPM 6's layout), else the folder itself.
    static var modules: URL {
        let folder = productsDirectory.appendingPathComponent("Modules")
        return FileManager.default.fileExists(atPath: folder.appendingPathComponent("Patchbay.swiftmodule").path)
            ? folder : productsDirectory
    }

    /// The C module the library imports, whose module map SwiftPM writes into the build.
    static var atomicsModuleMap: URL { productsDirectory.appendingPathComponent("CPatchbayAtomics.build/module.modulemap") }

    /// PackageDescription's module, beside the compiler (`usr/bin/swiftc` -> `usr/lib/swift/pm/ManifestAPI`).
    static var manifestAPI: URL? {
        guard let swiftc else { return nil }
        let folder = swiftc.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("lib/swift/pm/ManifestAPI")
        return FileManager.default.fileExists(atPath: folder.path) ? folder : nil
    }

    /// The compiler's errors for `source` (empty when it type-checks), with `arguments` before the file.
    static func errors(typeChecking source: String, named name: String, arguments: [String]) throws -> [String] {
        let swiftc = try #require(swiftc, "no swiftc on PATH")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("patchbay-snippets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(name)
        try source.write(to: file, atomically: true, encoding: .utf8)
        let result = try runProgram(swiftc, ["-typecheck", "-suppress-warnings"] + platformArguments + arguments + [file.path],
                                    in: folder, environment: ProcessInfo.processInfo.environment)
        let errors = (result.stderr + result.stdout).components(separatedBy: "\n").filter { $0.contains(": error:") }
        return result.status == 0 ? [] : (errors.isEmpty ? ["swiftc exited with \(result.status)"] : errors)
    }

    /// The errors of a file's compiled blocks, against the library.
    static func errors(in snippets: SwiftSnippets) throws -> [String] {
        #expect(FileManager.default.fileExists(atPath: atomicsModuleMap.path),
                "no \(atomicsModuleMap.path): build the package first (swift build --build-tests)")
        return try errors(typeChecking: snippets.program, named: "main.swift", arguments: [
            "-swift-version", "6", "-module-name", SwiftSnippets.moduleName, "-I", modules.path,
            "-Xcc", "-fmodule-map-file=\(atomicsModuleMap.path)",
        ])
    }

    /// The errors of a Package.swift block, against PackageDescription of its `swift-tools-version`.
    static func errors(inPackageManifest block: SwiftSnippets.Block) throws -> [String] {
        let api = try #require(manifestAPI, "no PackageDescription module beside \(swiftc?.path ?? "swiftc")")
        let first = block.lines.first ?? ""
        let version = try #require(first.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) },
                                   "a Package.swift block starts with // swift-tools-version: X")
        return try errors(typeChecking: block.lines.joined(separator: "\n") + "\n", named: "Package.swift",
                          arguments: ["-I", api.path, "-package-description-version", version])
    }
}

@Suite struct DocumentationSnippetTests {
    /// README.md and every article of the DocC catalog, from the repository's root.
    static let files: [String] = ["README.md"] + Docs.articles.map { "Sources/Patchbay/Patchbay.docc/\($0)" }

    static func snippets(_ path: String) throws -> SwiftSnippets {
        SwiftSnippets(path: path, text: try String(contentsOf: repositoryRoot.appendingPathComponent(path), encoding: .utf8))
    }

    /// The articles are found (a missing folder would leave the README alone, passing).
    @Test func theArticlesAreFound() {
        #expect(Docs.articles.count >= 7 && Docs.articles.contains("GettingStarted.md"), "\(Docs.articles)")
    }

    @Test(arguments: files)
    func everySwiftBlockCompiles(path: String) throws {
        let snippets = try Self.snippets(path)
        #expect(snippets.blocks.count == snippets.fences, "\(path): a ```swift fence the parse did not find")
        for problem in snippets.markerProblems { Issue.record(Comment(rawValue: problem)) }
        let errors = try SnippetCompiler.errors(in: snippets)
        #expect(errors.isEmpty, "\(path): its Swift does not compile:\n\(errors.joined(separator: "\n"))")
        for manifest in snippets.packageManifests {
            let errors = try SnippetCompiler.errors(inPackageManifest: manifest)
            #expect(errors.isEmpty, "\(path):\(manifest.line): \(errors.joined(separator: "\n"))")
        }
    }

    /// The check itself: a snippet with an API that does not exist, or a
    /// wrong label, fails at its line; a marked fragment is not compiled, and
    /// one of 5 lines is refused.
    @Test func aBrokenSnippetFailsAtItsLine() throws {
        let good = "```swift\nvar catalog = FactoryCatalog()\ncatalog.entryPoint(Int.self)\n```\n"
        #expect(try SnippetCompiler.errors(in: SwiftSnippets(path: "good.md", text: good)).isEmpty)
        for broken in ["catalog.entryPiont(Int.self)", "catalog.entryPoint(type: Int.self)"] {
            let text = "Text.\n\n```swift\nvar catalog = FactoryCatalog()\n\(broken)\n```\n"
            let errors = try SnippetCompiler.errors(in: SwiftSnippets(path: "broken.md", text: text))
            #expect(errors.contains { $0.hasPrefix("broken.md:5:") }, "\(broken): \(errors)")
        }
        // A later block sees an earlier one's declarations only when it says it continues it.
        let apart = "```swift\nlet answer = 42\n```\n\n```swift\nprint(answer + 1)\n```\n"
        #expect(try !SnippetCompiler.errors(in: SwiftSnippets(path: "apart.md", text: apart)).isEmpty)
        let continued = apart.replacingOccurrences(of: "\n\n```swift\nprint", with: "\n\n<!-- swift: continues -->\n```swift\nprint")
        #expect(try SnippetCompiler.errors(in: SwiftSnippets(path: "continued.md", text: continued)).isEmpty)
        // A prelude gives every block its context.
        let prelude = "<!-- swift prelude: a type\nstruct User {}\n-->\n\n```swift\nlet user = User()\n```\n"
        #expect(try SnippetCompiler.errors(in: SwiftSnippets(path: "prelude.md", text: prelude)).isEmpty)
        // A fence the parse does not take (another spelling of the language) is counted apart.
        for spelling in ["```Swift", "```swift title=\"main.swift\""] {
            let skipped = SwiftSnippets(path: "spelling.md", text: "\(spelling)\nlet x = 1\n```\n")
            #expect(skipped.blocks.count != skipped.fences, "\(spelling)")
        }
        let fragment = "<!-- swift: fragment -->\n```swift\nnot: Swift,\n```\n"
        let short = SwiftSnippets(path: "fragment.md", text: fragment)
        #expect(short.markerProblems.isEmpty)
        #expect(try SnippetCompiler.errors(in: short).isEmpty)
        let long = SwiftSnippets(path: "long.md", text: fragment.replacingOccurrences(of: "not: Swift,\n", with: String(repeating: "a,\n", count: 5)))
        #expect(long.markerProblems.count == 1)
    }

    /// The README's tour adds lines to Package.swift in a fragment and in
    /// its prose; a Package.swift made of them type-checks (ReadmeTourTests
    /// builds with the same lines), and one with a line broken does not.
    @Test func theTourPackageLinesCompile() throws {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = try TourPackageLines(readme: text)
        #expect(lines.product.contains("package: \(TourPackageLines.identity)") && lines.plugin.contains("\"PatchbayCheck\""))
        let block = try #require(SwiftSnippets(path: "README.md", text: "<!-- swift: Package.swift -->\n```swift\n"
            + lines.packageManifest + "```\n").packageManifests.first)
        let errors = try SnippetCompiler.errors(inPackageManifest: block)
        #expect(errors.isEmpty, """
            README.md's Package.swift lines (its tour's fragment and plugin) do not compile:
            \(errors.joined(separator: "\n"))
            in
            \(lines.packageManifest)
            """)
        var broken = lines
        broken.platforms = broken.platforms.replacingOccurrences(of: ".v10_15", with: ".v10_5")
        let brokenBlock = try #require(SwiftSnippets(path: "README.md", text: "<!-- swift: Package.swift -->\n```swift\n"
            + broken.packageManifest + "```\n").packageManifests.first)
        #expect(try !SnippetCompiler.errors(inPackageManifest: brokenBlock).isEmpty)
    }

    @Test func aBrokenPackageManifestFails() throws {
        let manifest = """
            <!-- swift: Package.swift -->
            ```swift
            // swift-tools-version: 6.0
            import PackageDescription
            let package = Package(name: "App", dependencies: [.package(url: "https://example.com/a.git", branch: "main")])
            ```
            """
        let block = try #require(SwiftSnippets(path: "package.md", text: manifest).packageManifests.first)
        #expect(try SnippetCompiler.errors(inPackageManifest: block).isEmpty)
        let broken = try #require(SwiftSnippets(path: "package.md", text: manifest.replacingOccurrences(of: "branch:", with: "brunch:"))
            .packageManifests.first)
        #expect(try !SnippetCompiler.errors(inPackageManifest: broken).isEmpty)
    }
}
