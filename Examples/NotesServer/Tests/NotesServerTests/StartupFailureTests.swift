// A start that cannot succeed stops with one message that names the
// binding (manifest file:line:column) and the cause, and a non-zero status.
import Foundation
import Testing

/// The line and column of the first `token` in the manifest `file`, as the diagnostics print them.
func place(of token: String, inManifest file: String, folder: URL = manifestsFolder) throws -> String {
    let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
    let range = try #require(text.range(of: token))
    let before = text[..<range.lowerBound]
    let line = before.filter { $0 == "\n" }.count + 1
    let column = before.distance(from: before.lastIndex(of: "\n").map { before.index(after: $0) } ?? before.startIndex, to: before.endIndex) + 1
    return "\(file):\(line):\(column)"
}

@Suite struct StartupFailureTests {
    @Test func aManifestThatFailsTheCheckStopsTheStart() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notes-manifests-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: manifestsFolder, to: folder)
        let file = folder.appendingPathComponent("development.json")
        let text = try String(contentsOf: file, encoding: .utf8)
        try text.replacingOccurrences(of: "\"in-memory-store\"", with: "\"in-memory-stor\"")
            .write(to: file, atomically: true, encoding: .utf8)
        let (status, errors) = try await ServerProcess.runToEnd(["--manifests", folder.path], environment: [:])
        #expect(status == 1)
        let at = try place(of: "\"in-memory-stor\"", inManifest: "development.json", folder: folder)
        #expect(errors.contains("\(at): error: unknown factory 'in-memory-stor'"), "\(errors)")
        #expect(errors.contains("did you mean 'in-memory-store'?"), "\(errors)")
        #expect(!errors.contains("Fatal error"), "\(errors)")
    }

    @Test func aMissingPasswordStopsTheStartNamingTheVariable() async throws {
        let (status, errors) = try await ServerProcess.runToEnd([], environment: ["PATCHBAY_ENV": "production"])
        #expect(status == 1)
        #expect(errors.contains("production.json:"), "\(errors)")
        #expect(errors.contains("NOTES_DB_PASSWORD"), "\(errors)")
        #expect(errors.contains("[env-var-missing]"), "\(errors)")
    }

    @Test func anUnreachableDatabaseStopsTheStartAtTheStoresBinding() async throws {
        let closed = try freeLoopbackPort()  // nothing listens there
        let environment = [
            "PATCHBAY_ENV": "production", "NOTES_DB_PORT": "\(closed)", "NOTES_DB_PASSWORD": "whatever",
        ]
        let (status, errors) = try await ServerProcess.runToEnd([], environment: environment)
        #expect(status == 1)
        let at = try place(of: "\"postgres-store\"", inManifest: "production.json")
        #expect(errors.contains("\(at): error: NoteStore (factory 'postgres-store') could not start: "), "\(errors)")
        #expect(errors.contains("127.0.0.1:\(closed)"), "\(errors)")
        #expect(errors.lowercased().contains("connection refused"), "\(errors)")
        #expect(errors.contains("[start-up-failed]"), "\(errors)")
        #expect(!errors.contains("Fatal error"), "\(errors)")
    }

    @Test func aBusyPortStopsTheServerWithTheCause() async throws {
        let first = try ServerProcess(environment: [:])
        try await first.waitUntilServing()
        let (status, errors) = try await ServerProcess.runToEnd(["--port", "\(first.port)"], environment: [:])
        #expect(status == 1)
        #expect(errors.contains("notes-server: "), "\(errors)")
        #expect(try await first.terminate() == 0)
    }

    @Test func aWrongArgumentIsAUsageError() async throws {
        let (status, errors) = try await ServerProcess.runToEnd(["--colour", "blue"], environment: [:])
        #expect(status == 2)
        #expect(errors.contains("unknown argument '--colour'"), "\(errors)")
    }
}
