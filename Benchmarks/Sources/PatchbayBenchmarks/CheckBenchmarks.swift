import BenchmarkTypes
import Foundation
import Patchbay

/// The folders this run wrote, removed when it ends.
nonisolated(unsafe) var temporaryFolders: [URL] = []

/// Writes `count` manifests of 1,000 bindings each and the generated catalog's
/// description into `target`, else a temporary folder, for `patchbay check` to
/// read. The temporary folder is this process's own (removed when it ends):
/// two runs at once must not read each other's half-written files.
func writeCheckFolder(manifests count: Int, into target: URL? = nil) throws -> URL {
    let process = ProcessInfo.processInfo.processIdentifier
    let folder = target
        ?? FileManager.default.temporaryDirectory.appendingPathComponent("patchbay-check-bench-\(count)-\(process)")
    if target == nil {  // a folder the caller names is written into, never removed
        temporaryFolders.append(folder)
        try? FileManager.default.removeItem(at: folder)
    }
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

/// The hostile manifest's number of bindings: a round number that keeps the
/// file just under the loader's default 16 MiB limit in the shape below.
let hostileBindingCount = 440_000

/// A manifest that is small enough to be accepted and makes the checker work
/// hard: 440,000 bindings `{"protocol":"P<i>","factory":"f"}`, one a line,
/// every protocol distinct and unknown, all naming one unknown factory.
func hostileManifest() -> Data {
    var json = "{\"format\":1,\"bindings\":[\n"
    json.reserveCapacity(17_000_000)
    for index in 0..<hostileBindingCount {
        json += (index == 0 ? "" : ",\n") + "{\"protocol\":\"P\(index)\",\"factory\":\"f\"}"
    }
    json += "\n]}\n"
    return Data(json.utf8)
}

/// The repository's own catalog description, `Manifests/catalog.json` (the
/// Notes example's 11 factories): what `patchbay check` finds beside a
/// manifest dropped into that folder, as a hostile change would.
let repositoryCatalogDescription = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Manifests/catalog.json")

/// Writes the hostile manifest as `hostile.json` into `folder` (by default a
/// folder of this process's own), with a copy of the repository's
/// `catalog.json` beside it: `patchbay check FOLDER/hostile.json` then judges
/// every binding against that catalog (an unknown protocol and an unknown
/// factory each, with a suggestion), as for a file added to `Manifests/`.
/// Returns the manifest file. Refuses to write one over the loader's limit:
/// the case would then measure the refusal, not the check.
func writeHostileFolder(_ folder: URL? = nil) throws -> URL {
    let data = hostileManifest()
    let limit = ManifestLoader().maxBytes
    guard data.count <= limit else {
        throw BenchmarkError("the hostile manifest is \(data.count) bytes, over the \(limit)-byte limit")
    }
    let target = folder ?? FileManager.default.temporaryDirectory
        .appendingPathComponent("patchbay-hostile-bench-\(ProcessInfo.processInfo.processIdentifier)")
    if folder == nil {
        temporaryFolders.append(target)
        try? FileManager.default.removeItem(at: target)
    }
    try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
    try Data(contentsOf: repositoryCatalogDescription).write(to: target.appendingPathComponent("catalog.json"))
    let file = target.appendingPathComponent("hostile.json")
    try data.write(to: file)
    return file
}

/// `check` of the hostile manifest, as `patchbay check FILE` runs it (the
/// catalog found beside the file): one sample and no warm-up, since one
/// check takes seconds and several hundred MB. Made and run only on request
/// (`--include-hostile`, or a `--filter` containing "hostile"), so the
/// default run and CI's stay short.
func hostileCheckCases() throws -> [Case] {
    let file = try writeHostileFolder()
    return [Case(name: "check a hostile manifest, 440,000 bindings in one 16 MiB file", unit: "check", iterations: 1,
        contenders: [
            ("Patchbay", { _ in
                let report = try ManifestChecker(loader: ManifestLoader(environment: [:])).check([file])
                guard report.manifestCount == 1, report.diagnostics.count >= hostileBindingCount else {
                    throw BenchmarkError("the hostile manifest was not checked against the catalog: "
                        + "\(report.diagnostics.count) diagnostics in \(report.manifestCount) manifests")
                }
                return report.manifestCount + report.diagnostics.count
            }),
        ],
        samples: 1, warmsUp: false)]
}
