// The SwiftPM plugins, used as an app uses them: the fixture package in
// Tests/Fixtures/PluginPackage (an app target that adopts PatchbayCheck, with
// a catalog description and one manifest) is copied to a temporary folder,
// pointed at this repository, and built with `swift build` and checked with
// `swift package check-manifests`.
import Foundation
import Testing
@testable import Patchbay

@Suite struct PluginTests {
    /// The fixture package, as committed.
    static let fixture = repositoryRoot.appendingPathComponent("Tests/Fixtures/PluginPackage")
    /// The fixture's manifest, relative to its package.
    static let manifestPath = "Sources/GreeterApp/Manifests/production.json"

    /// A copy of the fixture in a new temporary folder, depending on this
    /// repository by its absolute path.
    func copyFixture() throws -> URL {
        let files = FileManager.default
        let folder = files.temporaryDirectory.appendingPathComponent("patchbay-plugins-\(UUID().uuidString)")
        try files.createDirectory(at: folder, withIntermediateDirectories: true)
        let package = folder.appendingPathComponent("PluginPackage")
        try files.copyItem(at: Self.fixture, to: package)
        // A build someone made in the fixture itself is not the test's to reuse.
        for leftover in [".build", ".swiftpm", "Package.resolved"] {
            try? files.removeItem(at: package.appendingPathComponent(leftover))
        }
        let manifestFile = package.appendingPathComponent("Package.swift")
        let manifest = try String(contentsOf: manifestFile, encoding: .utf8)
        let pointed = manifest.replacingOccurrences(of: #"path: "../../..""#, with: "path: \"\(repositoryRoot.path)\"")
        try #require(pointed != manifest, "the fixture's Package.swift no longer depends on Patchbay by \"../../..\"")
        try pointed.write(to: manifestFile, atomically: true, encoding: .utf8)
        // The description as `refreshDescription(at:)` writes it in the package: its
        // places as the package's files, and the fingerprint of Sources/GreeterApp.
        let catalog = package.appendingPathComponent(Self.manifestPath).deletingLastPathComponent()
            .appendingPathComponent("catalog.json")
        try CatalogDescription(jsonData: Data(contentsOf: catalog)).locatingSources(in: package).jsonData().write(to: catalog)
        return package
    }

    /// Runs `swift ARGUMENTS` in `package`, with a scratch folder inside the
    /// copy, so that nothing is shared with the repository's own builds, and
    /// returns the exit status and everything printed.
    func swift(_ arguments: [String], in package: URL) throws -> (status: Int32, output: String) {
        let scratch = ["--scratch-path", package.appendingPathComponent(".build").path]
        // `swift build --scratch-path X`, but `swift package --scratch-path X check-manifests`.
        let all = arguments[0] == "build" ? arguments + scratch : [arguments[0]] + scratch + arguments.dropFirst()
        // The output goes to a file, not a pipe: a build can print more than a pipe holds.
        let log = package.deletingLastPathComponent().appendingPathComponent("swift-\(UUID().uuidString).log")
        try Data().write(to: log)
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift"] + all
        process.currentDirectoryURL = package
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOf: log, encoding: .utf8))
    }

    /// The lines of `output` that report a problem in the fixture's manifest.
    func manifestDiagnostics(_ output: String) -> [Substring] {
        output.split(separator: "\n").filter { $0.contains(Self.manifestPath + ":") }
    }

    // Slow: it compiles Patchbay from source in a package of its own (about
    // a minute on an idle 2-core machine, several on a busy one), so it runs
    // only with PATCHBAY_SLOW_TESTS=1, as CI runs it (.ci/run).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PATCHBAY_SLOW_TESTS"] == "1",
                   "builds a package that uses the plugins; set PATCHBAY_SLOW_TESTS=1"))
    func theBuildAndTheCommandCheckTheAppsManifests() throws {
        let package = try copyFixture()
        defer { try? FileManager.default.removeItem(at: package.deletingLastPathComponent()) }
        let manifest = package.appendingPathComponent(Self.manifestPath)
        let catalog = manifest.deletingLastPathComponent().appendingPathComponent("catalog.json")
        // Printed by `patchbay check` each time it runs, and only then.
        let checked = "0 errors, 0 warnings in 1 manifest"

        // The good manifest: the build checks it and succeeds.
        let good = try swift(["build"], in: package)
        try #require(good.status == 0, "swift build failed on the good manifest:\n\(good.output)")
        #expect(good.output.contains(checked), "the build did not run the check:\n\(good.output)")

        // Nothing changed: the check does not run again. The build right
        // after a clean one relinks the `patchbay` tool (SwiftPM builds plugin
        // tools in a graph of their own and again in the build's), which may
        // check once more; from then on, unchanged inputs are not checked.
        // The catalog changed: the check runs again.
        let settle = try swift(["build"], in: package)
        #expect(settle.status == 0, "\(settle.output)")
        let again = try swift(["build"], in: package)
        #expect(again.status == 0)
        #expect(!again.output.contains(checked), "the check ran with no input changed:\n\(again.output)")
        let catalogText = try String(contentsOf: catalog, encoding: .utf8)
        try (catalogText + "\n").write(to: catalog, atomically: true, encoding: .utf8)
        let recheck = try swift(["build"], in: package)
        #expect(recheck.status == 0)
        #expect(recheck.output.contains(checked), "a changed catalog.json did not run the check again:\n\(recheck.output)")

        // The command plugin agrees on the good manifest.
        let command = try swift(["package", "check-manifests"], in: package)
        #expect(command.status == 0, "\(command.output)")
        #expect(command.output.contains(checked), "\(command.output)")

        // A misspelled factory: the build fails, naming the manifest at the
        // misspelling's line and column, with its absolute path (Xcode needs it).
        let text = try String(contentsOf: manifest, encoding: .utf8)
        let broken = text.replacingOccurrences(of: #""english-greeter""#, with: #""english-greter""#)
        try #require(broken != text)
        try broken.write(to: manifest, atomically: true, encoding: .utf8)
        let lines = broken.components(separatedBy: "\n")
        let index = try #require(lines.firstIndex { $0.contains(#""english-greter""#) })
        let value = try #require(lines[index].range(of: #""english-greter""#))
        let (line, column) = (index + 1, lines[index].distance(from: lines[index].startIndex, to: value.lowerBound) + 1)
        let place = "\(Self.manifestPath):\(line):\(column): error: unknown factory 'english-greter'"

        let failed = try swift(["build"], in: package)
        #expect(failed.status != 0, "swift build passed a misspelled factory:\n\(failed.output)")
        let buildDiagnostics = manifestDiagnostics(failed.output)
        #expect(buildDiagnostics.count == 1, "\(failed.output)")
        let fromBuild = try #require(buildDiagnostics.first)
        let copyName = package.deletingLastPathComponent().lastPathComponent
        #expect(fromBuild.hasPrefix("/") && fromBuild.contains(copyName), "not absolute: \(fromBuild)")
        #expect(fromBuild.contains("/" + place), "\(fromBuild)")

        // The command plugin: the same diagnostic, the path relative to where
        // it runs (the package), and a failing exit status.
        let refused = try swift(["package", "check-manifests"], in: package)
        #expect(refused.status != 0, "check-manifests passed a misspelled factory:\n\(refused.output)")
        let fromCommand = try #require(manifestDiagnostics(refused.output).first, "\(refused.output)")
        #expect(fromCommand.hasPrefix(place), "\(fromCommand)")
        #expect(fromBuild.hasSuffix(fromCommand), "the build said\n\(fromBuild)\nthe command said\n\(fromCommand)")
        #expect(unopenableLocations(in: failed.output, from: package).isEmpty, "\(failed.output)")
        #expect(unopenableLocations(in: refused.output, from: package).isEmpty, "\(refused.output)")

        // From another folder, the command prints places that open from there.
        let parent = package.deletingLastPathComponent()
        let away = try swift(["package", "--package-path", package.path, "check-manifests"], in: parent)
        #expect(away.status != 0, "\(away.output)")
        #expect(away.output.contains("PluginPackage/" + place), "\(away.output)")
        #expect(unopenableLocations(in: away.output, from: parent).isEmpty, "\(away.output)")

        // The rename: the factory renamed in the code and the manifest. The
        // description is older than the code, so the build says it is stale,
        // with the command that refreshes it, and reports the name it cannot
        // judge as a warning: the build passes, so the test that refreshes it can run.
        try text.replacingOccurrences(of: #""english-greeter""#, with: #""british-greeter""#)
            .write(to: manifest, atomically: true, encoding: .utf8)
        let main = package.appendingPathComponent("Sources/GreeterApp/main.swift")
        try (String(contentsOf: main, encoding: .utf8) + "// english-greeter is now british-greeter\n")
            .write(to: main, atomically: true, encoding: .utf8)
        let stale = try swift(["build"], in: package)
        #expect(stale.status == 0, "a stale description failed the build:\n\(stale.output)")
        #expect(stale.output.contains("\(catalog.path):1:1: warning: this catalog description is stale"), "\(stale.output)")
        #expect(stale.output.contains("refresh it with `swift test`"), "\(stale.output)")
        #expect(stale.output.contains("warning: unknown factory 'british-greeter' for Greeter;"), "\(stale.output)")
        #expect(stale.output.contains("(judged by a catalog.json older than the code: see stale-catalog) [unknown-factory]"),
                "\(stale.output)")
        #expect(unopenableLocations(in: stale.output, from: package).isEmpty, "\(stale.output)")
        let strict = try swift(["package", "check-manifests", "--strict"], in: package)
        #expect(strict.status != 0, "--strict passed a stale description:\n\(strict.output)")
        // Refreshed (as the README's test does): current again, and the new name judged by it.
        let renamed = try String(contentsOf: catalog, encoding: .utf8)
            .replacingOccurrences(of: #""english-greeter""#, with: #""british-greeter""#)
        try CatalogDescription(jsonData: Data(renamed.utf8)).locatingSources(in: package).jsonData().write(to: catalog)
        let refreshed = try swift(["build"], in: package)
        #expect(refreshed.status == 0, "\(refreshed.output)")
        #expect(refreshed.output.contains(checked), "\(refreshed.output)")
        #expect(!refreshed.output.contains("stale"), "\(refreshed.output)")
    }

    /// The layout of an app run with `swift run`, which reads `./Manifests`:
    /// the build checks the package's Manifests folder, fails when there are
    /// no manifests anywhere it looks (saying where), and checks the folders
    /// that `.patchbay-manifests` lists instead when there is one.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PATCHBAY_SLOW_TESTS"] == "1",
                   "builds a package that uses the plugins; set PATCHBAY_SLOW_TESTS=1"))
    func theBuildChecksThePackagesManifestsAndFailsWithoutAny() throws {
        let files = FileManager.default
        let package = try copyFixture()
        defer { try? files.removeItem(at: package.deletingLastPathComponent()) }
        // The manifests move from the target's folder to the package's root,
        // and the target no longer excludes a folder it does not have.
        let targetFolder = package.appendingPathComponent("Sources/GreeterApp")
        let root = package.appendingPathComponent("Manifests")
        try files.moveItem(at: targetFolder.appendingPathComponent("Manifests"), to: root)
        let packageFile = package.appendingPathComponent("Package.swift")
        let packageText = try String(contentsOf: packageFile, encoding: .utf8)
        let noExclude = packageText.replacingOccurrences(of: #"exclude: ["Manifests"],"#, with: "")
        try #require(noExclude != packageText)
        try noExclude.write(to: packageFile, atomically: true, encoding: .utf8)

        // A misspelled factory at the root: the build fails at its line and column.
        let manifest = root.appendingPathComponent("production.json")
        let good = try String(contentsOf: manifest, encoding: .utf8)
        let broken = good.replacingOccurrences(of: #""english-greeter""#, with: #""english-greter""#)
        try #require(broken != good)
        try broken.write(to: manifest, atomically: true, encoding: .utf8)
        let lines = broken.components(separatedBy: "\n")
        let index = try #require(lines.firstIndex { $0.contains(#""english-greter""#) })
        let value = try #require(lines[index].range(of: #""english-greter""#))
        let column = lines[index].distance(from: lines[index].startIndex, to: value.lowerBound) + 1
        let failed = try swift(["build"], in: package)
        #expect(failed.status != 0, "swift build passed a misspelled factory in ./Manifests:\n\(failed.output)")
        #expect(failed.output.contains(
            "/PluginPackage/Manifests/production.json:\(index + 1):\(column): error: unknown factory 'english-greter'"),
            "\(failed.output)")

        // No manifests anywhere: the build fails, listing every place looked.
        try files.removeItem(at: root)
        let empty = try swift(["build"], in: package)
        #expect(empty.status != 0, "swift build passed with no manifests:\n\(empty.output)")
        let looked = [targetFolder.appendingPathComponent("Manifests"), targetFolder, root].map(\.path)
        #expect(empty.output.contains("PatchbayCheck found no manifests for target 'GreeterApp'. It looked in:\n"
            + looked.map { "  " + $0 }.joined(separator: "\n")), "\(empty.output)")
        // The command plugin fails too, and as loudly: building its tool
        // plans the package, build plugins included, so it is the build
        // plugin's message that stops it.
        let command = try swift(["package", "check-manifests"], in: package)
        #expect(command.status != 0, "\(command.output)")
        #expect(command.output.contains("It looked in:\n"), "\(command.output)")
        #expect(command.output.contains("  " + root.path + "\n"), "\(command.output)")

        // A folder named in .patchbay-manifests is checked instead; without a
        // catalog.json, the build passes and says once what it did not check
        // and how to write one.
        let configured = package.appendingPathComponent("Config/Manifests")
        try files.createDirectory(at: configured, withIntermediateDirectories: true)
        try good.write(to: configured.appendingPathComponent("production.json"), atomically: true, encoding: .utf8)

        // A listed folder that holds no manifest fails the build, naming it
        // (asked while the build still fails, so that SwiftPM runs the plugin again):
        // its name comes from the file, so a control character in it is
        // printed escaped (no terminal cleared, no line forged), while the
        // message keeps its own line breaks.
        // Nor can it print a line that a CI runner reads as a workflow command (`##[`, the older form of one).
        try "Config/Manifests\nGone\u{1B}[2J##[error]x\n"
            .write(to: package.appendingPathComponent(".patchbay-manifests"), atomically: true, encoding: .utf8)
        let gone = try swift(["build"], in: package)
        #expect(gone.status != 0, "\(gone.output)")
        #expect(gone.output.contains("/PluginPackage/Gone\\u{1B}[2J#\\u{23}[error]x, which holds no manifest"), "\(gone.output)")
        #expect(!gone.output.contains("\u{1B}"), "\(gone.output)")
        #expect(!gone.output.contains("##["), "\(gone.output)")

        try "# folders of manifests, one per line\nConfig/Manifests\n"
            .write(to: package.appendingPathComponent(".patchbay-manifests"), atomically: true, encoding: .utf8)
        let chosen = try swift(["build"], in: package)
        #expect(chosen.status == 0, "\(chosen.output)")
        #expect(chosen.output.contains("0 errors, 0 warnings in 1 manifest"), "the check did not run:\n\(chosen.output)")
        let note = "no catalog.json in \(configured.path), so factory names, what they provide, parameters and the "
            + "dependency graph were not checked"
        #expect(chosen.output.components(separatedBy: note).count == 2, "\(chosen.output)")
        #expect(chosen.output.contains("Write it with `swift test`, from a test that calls "
            + "`try catalog.refreshDescription(at: URL(fileURLWithPath: \"\(configured.path)/catalog.json\"))`"),
            "\(chosen.output)")
    }
}
