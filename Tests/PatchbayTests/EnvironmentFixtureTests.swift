// Folders of manifests shaped like a real app's: each environment binds
// different factories, and production reads a secret that exists only
// there. Checked end to end through the `patchbay` command, as CI runs it.
import Foundation
import NotesKit
import Testing
@testable import Patchbay

/// A folder under `Tests/Fixtures/Environments` (see the README there).
enum EnvironmentFixture: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case twoEnvironments = "two-environments"
    case oneUnusedFactory = "one-unused-factory"

    var testDescription: String { rawValue }

    var folder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/Environments/\(rawValue)", isDirectory: true)
    }

    /// A copy of the folder with the example's `catalog.json` beside the
    /// manifests, as an app commits it, for the command to discover.
    func copyWithCatalog() throws -> ManifestFolder {
        var files = ["catalog.json": String(decoding: try FactoryCatalog.notes.describe().jsonData(), as: UTF8.self)]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".json") {
            files[name] = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        }
        return try ManifestFolder(files)
    }
}

@Suite struct EnvironmentFixtureTests {
    /// The README's CI step on environments that bind different factories, with
    /// a production secret unset: it passes, and names the secret once.
    @Test func twoEnvironmentsPassStrictCheckAndListTheSecret() throws {
        let copy = try EnvironmentFixture.twoEnvironments.copyWithCatalog()
        let result = try runProduct("patchbay", ["check", "--strict", "."], in: copy.url)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "0 errors, 0 warnings in 2 manifests\n")
        #expect(result.stderr == "note: the app's environment must provide SMTP_HOST (used at production.json:11:31); "
            + "unset here, so those values were not checked (pass --require-env to make this an error)\n")
    }

    /// A job with production's environment demands every variable; the app does too.
    @Test func requireEnvFailsOnTheUnsetSecretAsTheAppDoes() throws {
        let copy = try EnvironmentFixture.twoEnvironments.copyWithCatalog()
        let result = try runProduct("patchbay", ["check", "--require-env", "."], in: copy.url)
        #expect(result.status == 1)
        #expect(result.stdout == """
            production.json:11:31: error: environment variable 'SMTP_HOST' is not set and has no default, in the \
            parameters of binding Mailer -> 'smtp-mailer'; set SMTP_HOST or write ${SMTP_HOST:-default} [env-var-missing]
            1 error, 0 warnings in 2 manifests

            """)
        let app = try #require(throws: ManifestError.self) {
            try Container(
                catalog: .notes, manifestAt: copy.file("production.json"), loader: ManifestLoader(environment: [:]))
        }
        #expect(app.diagnostics.map(\.code) == [.envVarMissing])
        // With the secret set, the port comes from the environment too, converted to an integer.
        let production = try Container(
            catalog: .notes, manifestAt: copy.file("production.json"),
            loader: ManifestLoader(environment: ["SMTP_HOST": "mail.example.com", "SMTP_PORT": "2525"]))
        #expect(production.manifest.bindings.first { $0.protocolName == "Mailer" }?.parameters
            == .object(["host": .string("mail.example.com"), "port": .string("2525")]))
        let mailer = try production.resolve((any Mailer).self)
        #expect(mailer.send(to: "a@example.com", subject: "hi") == "sent 'hi' to a@example.com via smtp://mail.example.com:2525")
    }

    /// A factory that no environment binds is reported once, at its registration.
    @Test func aFactoryNoEnvironmentBindsIsReportedOnce() throws {
        let copy = try EnvironmentFixture.oneUnusedFactory.copyWithCatalog()
        let result = try runProduct("patchbay", ["check", "--strict", "."], in: copy.url)
        #expect(result.status == 1)
        #expect(result.stdout == """
            NotesKit/NotesCatalog.swift:50:1: warning: factory 'console-logger' is not bound by any of the 2 manifests in .; \
            bind it in the environment that needs it, or remove its registration [unused-factory]
            0 errors, 1 warning in 2 manifests

            """)
        // Each file alone cannot see the other: no judgement, nothing to fail on.
        let single = try runProduct("patchbay", ["check", "--strict", "production.json"], in: copy.url)
        #expect(single.status == 0 && single.stdout == "0 errors, 0 warnings in 1 manifest\n")
    }
}
