// Golden files for the outputs of `explain`, `graph` and `schema`: expected
// outputs under Tests/Golden/, compared byte for byte. (Outside the test
// target's folder, so SwiftPM neither bundles them nor warns about them.)
//
// To refresh them after an intended change of output, run the tests with
// PATCHBAY_UPDATE_GOLDEN=1, then review the diff:
//
//     PATCHBAY_UPDATE_GOLDEN=1 swift test --filter 'ExplainTests|DependencyGraphTests|ManifestSchemaTests'
import Foundation
import NotesKit
import Testing
@testable import Patchbay
@testable import PatchbayTools

enum Golden {
    /// The package root (three levels above this file).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// Tests/Golden.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden", isDirectory: true)
    /// The environment variable that makes a mismatch rewrite the file instead of failing.
    static let updateVariable = "PATCHBAY_UPDATE_GOLDEN"

    static var updating: Bool { ProcessInfo.processInfo.environment[updateVariable] == "1" }

    /// How to refresh `file`, for failure messages.
    static func refreshHint(_ file: String) -> String {
        "if the change is intended, refresh \(file) with `\(updateVariable)=1 swift test --filter "
            + "'ExplainTests|DependencyGraphTests|ManifestSchemaTests'` and review the diff"
    }

    /// Expects `actual` to equal the golden file `name`; with PATCHBAY_UPDATE_GOLDEN=1, writes it instead.
    static func expectMatches(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        expectFile(folder.appendingPathComponent(name), holds: actual, hint: refreshHint("Tests/Golden/\(name)"),
            sourceLocation: sourceLocation)
    }

    /// Expects the file at `url` to hold `actual`; with PATCHBAY_UPDATE_GOLDEN=1, writes it instead.
    static func expectFile(_ url: URL, holds actual: String, hint: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = (try? String(contentsOf: url, encoding: .utf8))
        guard expected != actual else { return }
        if updating {
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(actual.utf8).write(to: url)
            } catch {
                Issue.record("could not rewrite \(url.path): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard let expected else {
            Issue.record("missing golden file \(url.lastPathComponent); \(hint)", sourceLocation: sourceLocation)
            return
        }
        Issue.record("\(url.lastPathComponent) differs from the output: \(firstDifference(expected, actual)); \(hint)",
            sourceLocation: sourceLocation)
    }

    /// "line 3: expected `...`, got `...`".
    static func firstDifference(_ expected: String, _ actual: String) -> String {
        let want = expected.components(separatedBy: "\n"), got = actual.components(separatedBy: "\n")
        for line in 0..<max(want.count, got.count) {
            let a = line < want.count ? want[line] : "<end of file>"
            let b = line < got.count ? got[line] : "<end of output>"
            if a != b { return "line \(line + 1): expected `\(a)`, got `\(b)`" }
        }
        return "they differ"
    }

    // MARK: - The example manifests

    /// An example manifest from Manifests/, named as from the package root
    /// (`Manifests/production.json`) and with no environment variables set,
    /// so `${...}` takes its defaults: outputs hold no machine-specific paths.
    static func exampleManifest(_ name: String) throws -> Manifest {
        let relative = "Manifests/\(name).json"
        let (manifest, diagnostics) = ManifestLoader(environment: [:])
            .loadCollecting(contentsOf: packageRoot.appendingPathComponent(relative), displayPath: relative)
        guard let manifest, !diagnostics.containsErrors else { throw ManifestError(diagnostics: diagnostics) }
        return manifest
    }

    /// The example app's catalog description.
    static var notesCatalog: CatalogDescription { FactoryCatalog.notes.describe() }
}
