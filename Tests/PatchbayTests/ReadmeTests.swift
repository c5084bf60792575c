// The README's examples, run from the README's own text: the example app's
// output it shows, its links, and its tour, which is built as a package of
// its own and run. A reader copies these first; they must work as printed.
//
// The README marks each checked block with an HTML comment on the line
// before it (GitHub and DocC show neither):
//
//     <!-- tour: main.swift -->                  a part of the tour's main.swift, in order
//     <!-- tour: Manifests/development.json -->  the tour's manifest
//     <!-- tour: output -->                      what the tour prints
//     <!-- tour: output with "frendly" -->       what it prints with that factory name misspelled
//     <!-- run: PRODUCT ARGUMENTS -->            what a built product prints (below)
//     <!-- run (VARIANT, ...): PRODUCT ARGUMENTS -->  the same, with the example's manifests changed
//
// The DocC articles use the same markers (DocumentationExampleTests).
import Foundation
import Patchbay
import Testing

/// A fenced code block that follows a `<!-- label -->` line.
struct MarkedBlock {
    var label: String
    /// What follows the opening fence: `swift`, `json`, `text`.
    var language: String
    var text: String
    /// The file's line (1-based) of the block's first line of text.
    var line: Int
}

/// The marked code blocks of a Markdown file, in order. Fails the test when
/// a marker is not followed by a fenced block.
func markedBlocks(in url: URL) throws -> [MarkedBlock] {
    let lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
    var blocks: [MarkedBlock] = []
    var index = 0
    while index < lines.count {
        let line = lines[index].trimmingCharacters(in: .whitespaces)
        index += 1
        guard line.hasPrefix("<!--"), line.hasSuffix("-->") else { continue }
        let label = line.dropFirst(4).dropLast(3).trimmingCharacters(in: .whitespaces)
        guard index < lines.count, lines[index].hasPrefix("```") else {
            Issue.record("\(url.lastPathComponent):\(index): the marker '\(label)' is not followed by a code block")
            continue
        }
        let language = String(lines[index].dropFirst(3)).trimmingCharacters(in: .whitespaces)
        index += 1
        let firstLine = index + 1
        var body: [String] = []
        while index < lines.count, !lines[index].hasPrefix("```") {
            body.append(lines[index])
            index += 1
        }
        index += 1
        blocks.append(MarkedBlock(label: label, language: language, text: body.joined(separator: "\n") + "\n", line: firstLine))
    }
    return blocks
}

let readme = repositoryRoot.appendingPathComponent("README.md")

/// Runs a program with exactly `environment`, and returns its status and output.
/// The output goes through files, not pipes: `swift build` can print more than a pipe holds.
func runProgram(_ executable: URL, _ arguments: [String], in directory: URL, environment: [String: String])
    throws -> (status: Int32, stdout: String, stderr: String)
{
    let files = FileManager.default
    let capture = files.temporaryDirectory.appendingPathComponent("patchbay-run-\(UUID().uuidString)")
    try files.createDirectory(at: capture, withIntermediateDirectories: true)
    defer { try? files.removeItem(at: capture) }
    let outURL = capture.appendingPathComponent("stdout"), errURL = capture.appendingPathComponent("stderr")
    try Data().write(to: outURL)
    try Data().write(to: errURL)
    let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
    defer { try? out.close(); try? err.close() }

    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = environment
    process.currentDirectoryURL = directory
    process.standardOutput = out
    process.standardError = err
    try process.run()
    process.waitUntilExit()
    return (process.terminationStatus, try String(contentsOf: outURL, encoding: .utf8),
            try String(contentsOf: errURL, encoding: .utf8))
}

/// The process's environment without the variables that would change what a README example prints.
func cleanEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    for name in ["PATCHBAY_ENV", "GREETING", "SMTP_HOST", "NOTES_DIR"] { environment[name] = nil }
    return environment.merging(extra) { $1 }
}

/// The changes a `run (VARIANT): ...` block makes to the example's manifests
/// before it runs: file name (nil for every manifest), text, replacement.
let runVariants: [String: (file: String?, text: String, replacement: String)] = [
    "file-stor": ("production.json", #""factory": "file-store","#, #""factory": "file-stor","#),
    "no json-logger": (nil, #""factory": "json-logger""#, #""factory": "console-logger""#),
    "SMTP_HOST unset": ("production.json", "${SMTP_HOST:-smtp.example.com}", "${SMTP_HOST}"),
    "catalog lists file-store twice": ("catalog.json", #""name" : "in-memory-store""#, #""name" : "file-store""#),
]

/// Runs every `<!-- run ...: PRODUCT ARGUMENTS -->` block of a Markdown file
/// and expects what the block shows: standard error then standard output,
/// or their first lines when the block ends in `...`; ISO 8601 times (the
/// system clock's) are compared as `<time>`. Each runs in a scratch folder
/// holding a copy of the example's `Manifests/`, so paths print as
/// `Manifests/...`, with the package's `Package.swift` and the sources its
/// catalog is registered in, `Sources/NotesKit/`: every place printed must be
/// a file there. Returns the number of blocks run.
@discardableResult
func expectRunBlocksMatch(in file: URL) throws -> Int {
    let runs = try markedBlocks(in: file).filter { $0.label.hasPrefix("run:") || $0.label.hasPrefix("run (") }
    for run in runs {
        let colon = try #require(run.label.firstIndex(of: ":"))
        let head = run.label[..<colon]
        let variants = head.hasPrefix("run (")
            ? head.dropFirst("run (".count).dropLast().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            : []
        let words = run.label[run.label.index(after: colon)...].split(separator: " ").map(String.init)
        let product = try #require(words.first)

        let files = FileManager.default
        let scratch = files.temporaryDirectory.appendingPathComponent("patchbay-docs-run-\(UUID().uuidString)")
        defer { try? files.removeItem(at: scratch) }
        try files.createDirectory(at: scratch, withIntermediateDirectories: true)
        let manifests = scratch.appendingPathComponent("Manifests")
        try files.copyItem(at: exampleManifests, to: manifests)
        try files.copyItem(at: repositoryRoot.appendingPathComponent("Package.swift"),
                           to: scratch.appendingPathComponent("Package.swift"))
        try files.createDirectory(at: scratch.appendingPathComponent("Sources"), withIntermediateDirectories: true)
        try files.copyItem(at: repositoryRoot.appendingPathComponent("Sources/NotesKit"),
                           to: scratch.appendingPathComponent("Sources/NotesKit"))
        for name in variants {
            let variant = try #require(runVariants[name], "unknown variant '\(name)' in \(file.lastPathComponent)")
            let names = try variant.file.map { [$0] }
                ?? files.contentsOfDirectory(atPath: manifests.path).filter(ManifestDirectory.isManifestFileName)
            var changed = false
            for name in names {
                let url = manifests.appendingPathComponent(name)
                let text = try String(contentsOf: url, encoding: .utf8)
                let edited = text.replacingOccurrences(of: variant.text, with: variant.replacement)
                changed = changed || edited != text
                try edited.write(to: url, atomically: true, encoding: .utf8)
            }
            #expect(changed, "variant '\(name)' changed nothing")
        }

        // The example app writes notes under NOTES_DIR: keep them in the scratch folder.
        let extra = product == "notes-example" ? ["NOTES_DIR": scratch.appendingPathComponent("notes").path] : [:]
        let result = try runProgram(
            try builtProduct(product), Array(words.dropFirst()), in: scratch,
            environment: cleanEnvironment(extra))
        var expected = withoutTimes(run.text).components(separatedBy: "\n").dropLast()
        var printed = withoutTimes(result.stderr + result.stdout).components(separatedBy: "\n").dropLast()
        if expected.last == "..." {
            expected.removeLast()
            printed = printed.prefix(expected.count)
        }
        #expect(Array(printed) == Array(expected), "\(file.lastPathComponent): \(run.label)")
        // Every place printed opens from where the command ran.
        #expect(unopenableLocations(in: result.stderr + result.stdout, from: scratch).isEmpty,
                "\(file.lastPathComponent): \(run.label): \(unopenableLocations(in: result.stderr + result.stdout, from: scratch))")
    }
    return runs.count
}

/// Replaces ISO 8601 times, which the system clock makes different on every run.
private func withoutTimes(_ text: String) -> String {
    text.replacingOccurrences(
        of: #"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z"#, with: "<time>", options: .regularExpression)
}

@Suite struct ReadmeTests {
    /// The example app's output in development and production, and the check of a misspelled factory.
    @Test func theRunBlocksAreWhatTheProgramsPrint() throws {
        let blocks = try markedBlocks(in: readme)
        #expect(blocks.filter { $0.label.hasPrefix("run: notes-example") }.count == 2)
        #expect(blocks.contains { $0.label == "run (file-stor): patchbay check Manifests" })
        try expectRunBlocksMatch(in: readme)
    }

    // `Regex` is as new as macOS 13; the test target's minimum is the package's.
    @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
    @Test func theReadmeLinksToFilesThatExistAndCitesNoSpecFile() throws {
        let text = try String(contentsOf: readme, encoding: .utf8)
        #expect(!text.contains("manifest-format.md") && !text.contains("check-command.md"))
        let links = text.matches(of: /\]\(([^)#]+)\)/).map { String($0.output.1) }.filter { !$0.contains("://") }
        #expect(links.contains("Sources/Patchbay/Patchbay.docc/ManifestFormat.md"))
        #expect(links.contains("Sources/Patchbay/Patchbay.docc/CommandReference.md"))
        for link in links {
            #expect(FileManager.default.fileExists(atPath: repositoryRoot.appendingPathComponent(link).path), "\(link)")
        }
    }

    /// The three ways to check, short enough to read, naming the plugin and
    /// pointing at the article; and the two set-up commands first in their section.
    @Test func theCheckingSectionIsShortAndNamesTheThreeWays() throws {
        let lines = try String(contentsOf: readme, encoding: .utf8).components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: "## Checking manifests"))
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("## ") } ?? lines.count
        let section = lines[(start + 1)..<end]
        #expect(section.count <= 20, "the section has \(section.count) lines")
        let text = section.joined(separator: "\n")
        for part in ["checkManifests(at:catalog:)", "refreshDescription(at:)", "`PatchbayCheck` build plugin",
                     "`patchbay check` with `catalog.json`", "(Sources/Patchbay/Patchbay.docc/CheckingManifestsInCI.md)"] {
            #expect(text.contains(part), "the checking section does not name \(part)")
        }
        let setUp = try #require(lines.firstIndex(of: "## Set up and run this repository"))
        let commands = lines[setUp...].prefix(8).joined(separator: "\n")
        #expect(commands.contains("swift run patchbay check Manifests") && commands.contains("swift test"))
    }

    /// Getting Started tells the same first program, so ReadmeTourTests runs both.
    @Test func gettingStartedShowsTheReadmesTour() throws {
        let article = repositoryRoot.appendingPathComponent("Sources/Patchbay/Patchbay.docc/GettingStarted.md")
        let tour = try markedBlocks(in: readme).filter { $0.label.hasPrefix("tour:") }
        let articleTour = try markedBlocks(in: article).filter { $0.label.hasPrefix("tour:") }
        #expect(tour.count == 6)
        #expect(articleTour.map(\.label) == tour.map(\.label))
        #expect(articleTour.map(\.text) == tour.map(\.text))
        // And the same lines for Package.swift, which are not tour blocks.
        #expect(try TourPackageLines(readme: String(contentsOf: article, encoding: .utf8))
            == TourPackageLines(readme: String(contentsOf: readme, encoding: .utf8)))
    }
}

/// Builds the README's tour as a new user would: in a package that
/// `swift package init --type executable` made, with the template's Swift
/// file replaced as the README says, depending on this package by path; runs
/// it, and compares what it prints with the README. Then the follow-up: the
/// build plugin checks `./Manifests`, and the README's test writes
/// `catalog.json`, after which the build refuses a misspelled factory.
@Suite struct ReadmeTourTests {
    /// The tour's parts, as the README marks them.
    struct Tour {
        var mainSwift = ""
        var manifest = ""
        var output = ""
        var outputWithTypo = ""
        var test = ""

        init() throws {
            for block in try markedBlocks(in: readme) where block.label.hasPrefix("tour: ") {
                switch block.label.dropFirst("tour: ".count) {
                case "main.swift": mainSwift += (mainSwift.isEmpty ? "" : "\n") + block.text
                case "Manifests/development.json": manifest = block.text
                case "output": output = block.text
                case #"output with "frendly""#: outputWithTypo = block.text
                case "Tests/TourTests/TourTests.swift": test = block.text
                case let other: Issue.record("unknown tour block '\(other)'")
                }
            }
        }
    }

    /// Runs `swift ARGUMENTS` in `folder`, with the package's scratch folder
    /// (before the arguments of `swift run`'s executable).
    func swift(_ arguments: [String], in folder: URL) throws -> (status: Int32, output: String) {
        let scratch = ["--scratch-path", folder.appendingPathComponent(".build").path]
        let all = arguments[0] == "package" ? arguments : [arguments[0]] + scratch + arguments.dropFirst()
        let result = try runProgram(URL(fileURLWithPath: "/usr/bin/env"), ["swift"] + all, in: folder, environment: cleanEnvironment())
        return (result.status, result.stdout + result.stderr)
    }

    /// A package named Tour made by `swift package init --type executable`,
    /// with the tour's files where the README puts them, and Package.swift
    /// given what the README adds (the dependency by path, not by URL, and
    /// the follow-up's plugin).
    func makePackage(_ tour: Tour, in parent: URL) throws -> URL {
        let files = FileManager.default
        let folder = parent.appendingPathComponent("Tour")
        try files.createDirectory(at: folder, withIntermediateDirectories: true)
        let initialized = try swift(["package", "init", "--type", "executable"], in: folder)
        try #require(initialized.status == 0, "swift package init failed:\n\(initialized.output)")

        // The template's one Swift file gives way to the tour's main.swift, in
        // its folder: Swift 6.3's template, as the README describes it, with
        // `Sources/Tour/Tour.swift` and a test target.
        let sources = folder.appendingPathComponent("Sources")
        let swiftFiles = try #require(files.subpaths(atPath: sources.path)).filter { $0.hasSuffix(".swift") }
        try #require(swiftFiles == ["Tour/Tour.swift"], "the template has \(swiftFiles), not Sources/Tour/Tour.swift")
        let template = sources.appendingPathComponent(swiftFiles[0])
        try files.removeItem(at: template)
        try tour.mainSwift.write(
            to: template.deletingLastPathComponent().appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        try files.createDirectory(at: folder.appendingPathComponent("Manifests"), withIntermediateDirectories: true)
        try tour.manifest.write(
            to: folder.appendingPathComponent("Manifests/development.json"), atomically: true, encoding: .utf8)
        // The follow-up's test in the template's test file, which the README says Swift 6.3's template has.
        let test = folder.appendingPathComponent("Tests/TourTests/TourTests.swift")
        try #require(files.fileExists(atPath: test.path), "the template has no \(test.path)")
        try tour.test.write(to: test, atomically: true, encoding: .utf8)

        let packageFile = folder.appendingPathComponent("Package.swift")
        var package = try String(contentsOf: packageFile, encoding: .utf8)
        // The README's own lines (TourPackageLines), the package by path: named by its folder.
        let lines = try TourPackageLines(readme: String(contentsOf: readme, encoding: .utf8))
        let (product, plugin) = lines.target(identity: String(reflecting: repositoryRoot.lastPathComponent))
        // The executable target's name, after `.executableTarget(` (the package's own name comes first).
        let target = try #require(package.range(of: ".executableTarget("), "no executable target:\n\(package)")
        let name = try #require(package.range(of: #"name: "Tour""#, range: target.upperBound..<package.endIndex))
        package.replaceSubrange(name, with: """
            name: "Tour",
            \(product)
            \(plugin)
            """)
        let targets = try #require(package.range(of: "    targets: ["), "no targets:\n\(package)")
        package.replaceSubrange(targets, with: "    \(lines.platforms)\n"
            + "    dependencies: [.package(path: \(String(reflecting: repositoryRoot.path)))],\n"
            + "    targets: [")
        try package.write(to: packageFile, atomically: true, encoding: .utf8)
        return folder
    }

    // Slow: it compiles Patchbay from source in a package of its own (a few
    // minutes on a busy 2-core machine), so it runs only with
    // PATCHBAY_SLOW_TESTS=1, as CI runs it (.ci/run).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PATCHBAY_SLOW_TESTS"] == "1",
                   "builds a package; set PATCHBAY_SLOW_TESTS=1"))
    func theTourBuildsAndPrintsWhatTheReadmeShows() throws {
        let tour = try Tour()
        try #require(!tour.mainSwift.isEmpty && !tour.manifest.isEmpty && !tour.output.isEmpty
            && !tour.outputWithTypo.isEmpty && !tour.test.isEmpty)
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("patchbay-tour-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: parent) }
        let folder = try makePackage(tour, in: parent)
        let manifests = folder.appendingPathComponent("Manifests")

        let build = try swift(["build"], in: folder)
        try #require(build.status == 0, "swift build failed:\n\(build.output)")
        // The tour compiles without warnings (Patchbay's own are not the tour's).
        let warnings = build.output.split(separator: "\n").filter { $0.contains("main.swift") && $0.contains("warning:") }
        #expect(warnings.isEmpty, "\(warnings)")
        // The plugin checked ./Manifests, and said once what it could not check without catalog.json.
        #expect(build.output.contains("0 errors, 0 warnings in 1 manifest"), "\(build.output)")
        #expect(build.output.components(separatedBy: "no catalog.json in \(manifests.path), so factory names").count == 2,
                "\(build.output)")

        let program = folder.appendingPathComponent(".build/debug/Tour")
        let run = try runProgram(program, [], in: folder, environment: cleanEnvironment())
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        #expect(run.stdout == tour.output)

        // The README's misspelling, reported with its place before anything
        // is made, and a failing exit status.
        let manifest = manifests.appendingPathComponent("development.json")
        let misspelled = tour.manifest.replacingOccurrences(of: #""factory": "friendly""#, with: #""factory": "frendly""#)
        try #require(misspelled != tour.manifest)
        try misspelled.write(to: manifest, atomically: true, encoding: .utf8)
        let typo = try runProgram(program, [], in: folder, environment: cleanEnvironment())
        #expect(typo.stdout == tour.outputWithTypo)
        #expect(typo.status == 1)
        try tour.manifest.write(to: manifest, atomically: true, encoding: .utf8)

        // Run from another folder: the folder it looked for, absolute, and the working directory.
        let elsewhere = try runProgram(program, [], in: parent, environment: cleanEnvironment())
        #expect(elsewhere.status == 1)
        #expect(elsewhere.stdout.hasPrefix("Manifests: error: no manifest for environment 'development' in Manifests: "
            + "there is no folder \(parent.appendingPathComponent("Manifests").path) (a relative path is looked up "
            + "from the working directory, \(parent.path))"), "\(elsewhere.stdout)")

        // The follow-up's test writes catalog.json and the schema the manifest
        // names, and fails once; then passes.
        let catalog = manifests.appendingPathComponent("catalog.json")
        let first = try swift(["test"], in: folder)
        #expect(first.status != 0, "the first swift test passed without catalog.json:\n\(first.output)")
        #expect(first.output.contains("Manifests/catalog.json: error: did not exist; wrote it from the live catalog, and "
            + "Manifests/manifest.schema.json with it"), "\(first.output)")
        #expect(FileManager.default.fileExists(atPath: catalog.path))
        let second = try swift(["test"], in: folder)
        #expect(second.status == 0, "\(second.output)")
        // The description names the package's files; the schema completes factory names.
        let description = try String(contentsOf: catalog, encoding: .utf8)
        #expect(description.contains(#""registeredAt" : "Sources/Tour/main.swift:"#), "\(description)")
        #expect(description.contains("\"folders\" : [\n      \"Sources/Tour\"\n    ]"), "\(description)")
        #expect(printedLocations(in: description).count == 6, "\(description)")
        #expect(unopenableLocations(in: description, from: folder).isEmpty, "\(description)")
        let schema = try String(contentsOf: manifests.appendingPathComponent("manifest.schema.json"), encoding: .utf8)
        #expect(schema.contains(#""friendly""#) && schema.contains(#""terse""#), "\(schema)")

        // The CI command of Checking Manifests in CI passes on the clean tour: its
        // entry points are declared, so no warning says they are not.
        let ci = try swift(["run", "patchbay", "check", "--format", "github", "--strict", "Manifests"], in: folder)
        #expect(ci.status == 0, "\(ci.output)")
        #expect(ci.output.contains("0 errors, 0 warnings in 1 manifest"), "\(ci.output)")

        // With catalog.json, the build refuses the misspelling at its place.
        try misspelled.write(to: manifest, atomically: true, encoding: .utf8)
        let refused = try swift(["build"], in: folder)
        #expect(refused.status != 0, "swift build passed 'frendly':\n\(refused.output)")
        #expect(refused.output.contains("\(manifest.path):6:41: error: unknown factory 'frendly' for Greeter"),
                "\(refused.output)")
        #expect(unopenableLocations(in: refused.output, from: folder).isEmpty, "\(refused.output)")

        // Run from another folder, the command prints places that open from there.
        let patchbay = folder.appendingPathComponent(".build/debug/patchbay")
        let away = try runProgram(patchbay, ["check", "Tour/Manifests"], in: parent, environment: cleanEnvironment())
        #expect(away.status == 1)
        #expect(away.stdout.hasPrefix("Tour/Manifests/development.json:6:41: error: unknown factory 'frendly'"),
                "\(away.stdout)")
        #expect(unopenableLocations(in: away.stdout, from: parent).isEmpty, "\(away.stdout)")

        // A manifest with no Greeter binding fails the build at the manifest,
        // where the program would have stopped at its first @Injected read.
        // (Without the primary binding alone, the secondary one serves
        // Greeter by fallback, and the program runs.)
        let lines = tour.manifest.components(separatedBy: "\n")
        let binding = try #require(lines.firstIndex { $0.contains(#""factory": "friendly""#) })
        let kept = (lines[..<binding] + lines[(binding + 2)...]).filter { !$0.contains(#""factory": "terse""#) }
        let unbound = kept.joined(separator: "\n")
            .replacingOccurrences(of: #"{ "protocol": "Logger", "factory": "console" },"#,
                                  with: #"{ "protocol": "Logger", "factory": "console" }"#)
        try #require(!unbound.contains("Greeter") && unbound.contains(#""factory": "console" }"# + "\n"), "\(unbound)")
        try unbound.write(to: manifest, atomically: true, encoding: .utf8)
        let missing = try swift(["build"], in: folder)
        #expect(missing.status != 0, "swift build passed a manifest without Greeter:\n\(missing.output)")
        #expect(missing.output.contains("\(manifest.path):"), "\(missing.output)")
        #expect(missing.output.contains("error: Greeter is an entry point of the app (declared at "
            + "\(folder.appendingPathComponent("Sources/Tour/main.swift").path):"), "\(missing.output)")
        #expect(missing.output.contains("[unbound-entry-point]"), "\(missing.output)")
        #expect(unopenableLocations(in: missing.output, from: folder).isEmpty, "\(missing.output)")

        // Rename the factory in the code and the manifest: the build knows the
        // description is stale and lets the test run, which rewrites it and
        // fails once; the next run passes, with nothing deleted by hand.
        let mainFile = folder.appendingPathComponent("Sources/Tour/main.swift")
        let code = try String(contentsOf: mainFile, encoding: .utf8)
        let renamedCode = code.replacingOccurrences(of: #"register("friendly","#, with: #"register("friendly-greeter","#)
        try #require(renamedCode != code)
        try renamedCode.write(to: mainFile, atomically: true, encoding: .utf8)
        try tour.manifest.replacingOccurrences(of: #""factory": "friendly""#, with: #""factory": "friendly-greeter""#)
            .write(to: manifest, atomically: true, encoding: .utf8)
        let stale = try swift(["test"], in: folder)
        #expect(stale.status != 0, "\(stale.output)")
        #expect(stale.output.contains("\(catalog.path):1:1: warning: this catalog description is stale"),
                "\(stale.output)")
        #expect(stale.output.contains("warning: unknown factory 'friendly-greeter' for Greeter"), "\(stale.output)")
        #expect(stale.output.contains("Manifests/catalog.json: error: was out of date with the catalog; rewrote it"),
                "\(stale.output)")
        #expect(unopenableLocations(in: stale.output, from: folder).isEmpty, "\(stale.output)")
        let refreshed = try swift(["test"], in: folder)
        #expect(refreshed.status == 0, "\(refreshed.output)")
        #expect(!refreshed.output.contains("stale-catalog"), "\(refreshed.output)")
    }
}
