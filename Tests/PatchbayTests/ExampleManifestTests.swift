// The example app's Manifests/ validate clean against its live catalog, and a
// deliberately broken copy of each file yields the expected diagnostic.
import Foundation
import NotesKit
import Testing
@testable import Patchbay

/// The repository's Manifests folder.
let exampleManifests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Manifests")

@Suite struct ExampleManifestTests {
    @Test func theExampleManifestsAreCleanEvenUnderStrict() throws {
        try checkManifests(at: exampleManifests, catalog: .notes, strict: true, loader: ManifestLoader(environment: [:]))
        let report = try ManifestChecker(catalog: .notes, loader: ManifestLoader(environment: [:]))
            .check([exampleManifests])
        #expect(report.summary == "0 errors, 0 warnings in 5 manifests")
    }

    /// The example's catalog.json, which `patchbay check Manifests` judges by,
    /// kept current as the README tells apps to keep theirs: rewritten when
    /// stale, failing this run once.
    @Test func theExampleCatalogDescriptionIsCurrent() throws {
        try FactoryCatalog.notes.refreshDescription(at: exampleManifests.appendingPathComponent("catalog.json"))
    }

    /// Copies Manifests/ to a temporary folder, applies `edit` to one file, and checks the folder.
    func checkBrokenCopy(
        of name: String, replacing original: String, with replacement: String, requiresEnvironment: Bool = true
    ) throws -> (CheckReport, String) {
        var files: [String: String] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: exampleManifests.path) where file.hasSuffix(".json") {
            files[file] = try String(contentsOf: exampleManifests.appendingPathComponent(file), encoding: .utf8)
        }
        let text = try #require(files[name])
        try #require(text.contains(original), "\(name) no longer contains \(original)")
        let broken = text.replacingOccurrences(of: original, with: replacement)
        files[name] = broken
        let folder = try ManifestFolder(files)
        let report = try ManifestChecker(
            catalog: .notes, loader: ManifestLoader(environment: [:]), requiresEnvironment: requiresEnvironment
        ).check([folder.url])
        return (report, broken)
    }

    @Test func aTypoInDevelopmentsFactory() throws {
        let (report, text) = try checkBrokenCopy(
            of: "development.json", replacing: "\"in-memory-store\" }", with: "\"in-memory-stor\" }")
        let errors = report.diagnostics.errors
        #expect(errors.count == 1)
        expectOne(.unknownFactory, in: errors, at: "\"in-memory-stor\"", of: text,
            saying: ["unknown factory 'in-memory-stor' for NoteStore", "did you mean 'in-memory-store'?"])
        #expect(errors.first?.file.hasSuffix("development.json") == true)
    }

    @Test func aMisspelledLifetimeInStaging() throws {
        let (report, text) = try checkBrokenCopy(
            of: "staging.json", replacing: "\"json-logger\", \"lifetime\": \"singleton\"",
            with: "\"json-logger\", \"lifetime\": \"singelton\"")
        expectOne(.unknownLifetime, in: report.diagnostics, at: "\"singelton\"", of: text, saying: ["did you mean 'singleton'?"])
    }

    @Test func anUnsetVariableWithoutDefaultInProduction() throws {
        let (report, text) = try checkBrokenCopy(
            of: "production.json", replacing: "${SMTP_HOST:-smtp.example.com}", with: "${SMTP_HOST}")
        expectOne(.envVarMissing, in: report.diagnostics, at: "\"${SMTP_HOST}\"", of: text,
            saying: ["'SMTP_HOST' is not set and has no default", "Mailer -> 'smtp-mailer'"])
    }

    @Test func anUndeclaredInjectorInTest() throws {
        let (report, text) = try checkBrokenCopy(
            of: "test.json", replacing: "\"injector\": \"fixtures\"", with: "\"injector\": \"fixturez\"")
        let diagnostic = expectOne(.undeclaredInjector, in: report.diagnostics, at: "\"fixturez\"", of: text,
            saying: ["'fixturez' is not listed in 'injectors'", "did you mean 'fixtures'?"])
        #expect(diagnostic?.suggestion == "fixtures")
    }

    @Test func aMisspelledProtocolInBaseIsFoundThroughEveryChildOnce() throws {
        let (report, text) = try checkBrokenCopy(
            of: "base.json", replacing: "\"protocol\": \"NoteService\"", with: "\"protocol\": \"NoteServce\"")
        // base.json is shared by four environments; its mistake is reported once, in base.json.
        let diagnostic = expectOne(.unknownProtocol, in: report.diagnostics, at: "\"NoteServce\"", of: text,
            saying: ["'NoteServce'", "did you mean 'NoteService'?"])
        #expect(diagnostic?.file.hasSuffix("base.json") == true)
        // The broken binding still names note-service: one typo gives one diagnostic, not an
        // extra "unused factory" warning in each environment.
        #expect(report.diagnostics.count == 1)
    }
}
