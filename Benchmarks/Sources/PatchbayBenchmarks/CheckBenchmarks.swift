import BenchmarkTypes
import Foundation
import Patchbay

/// The folders this run wrote, removed when it ends.
nonisolated(unsafe) var temporaryFolders: [URL] = []

/// Writes `count` manifests of 1,000 bindings each and the generated catalog's
/// description into a temporary folder, for `patchbay check` to read. The
/// folder is this process's own: two runs at once must not read each other's
/// half-written files.
func writeCheckFolder(manifests count: Int) throws -> URL {
    let process = ProcessInfo.processInfo.processIdentifier
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("patchbay-check-bench-\(count)-\(process)")
    temporaryFolders.append(folder)
    try? FileManager.default.removeItem(at: folder)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var catalog = FactoryCatalog()
    registerGenerated(into: &catalog)
    try catalog.describe().jsonData().write(to: folder.appendingPathComponent("catalog.json"))
    let manifest = generatedManifest(bindings: 1_000)
    for index in 0..<count {
        try manifest.write(to: folder.appendingPathComponent(String(format: "env-%03d.json", index)))
    }
    return folder
}

/// `check` of 100 manifests of 1,000 bindings each, with a catalog description: the library call the command makes.
func checkCases() throws -> [Case] {
    let folder = try writeCheckFolder(manifests: 100)
    return [Case(name: "check 100 manifests x 1,000 bindings", unit: "check", iterations: 1, contenders: [
        ("Patchbay", { _ in
            let report = try ManifestChecker(loader: ManifestLoader(environment: [:])).check([folder])
            return report.manifestCount + report.diagnostics.count
        }),
    ])]
}
