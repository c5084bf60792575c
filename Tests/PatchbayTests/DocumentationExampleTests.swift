// The JSON examples in the DocC articles are checked here, so the docs cannot
// drift from what the loader and validator do.
import Foundation
import Testing
@testable import Patchbay

/// The types the articles talk about.
enum Docs {
    protocol UserRepository: Sendable {}
    protocol Database: Sendable {}
    protocol Logger: Sendable {}
    protocol Clock: Sendable {}
    struct Impl: UserRepository, Database, Logger, Clock {}
    struct SQLiteOptions: Decodable, Sendable {
        var path: String
        var poolSize: Int?
    }
    struct ClockOptions: Decodable, Sendable { var iso8601: String }

    static var catalog: FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("sqlite", provides: (any UserRepository).self, parameters: SQLiteOptions.self) {
            (_: SQLiteOptions, _: any Database, _: any Logger) in Impl()
        }
        catalog.register("in-memory", provides: (any UserRepository).self) { Impl() }
        catalog.register("postgres", provides: (any Database).self) { Impl() }
        catalog.register("json-logger", provides: (any Logger).self) { Impl() }
        catalog.register("fixed-clock", provides: (any Clock).self, parameters: ClockOptions.self) { _ in Impl() }
        return catalog
    }
}

/// The fenced code blocks of an article, in order, with their language.
func codeBlocks(inArticle name: String) throws -> [(language: String, text: String)] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/Patchbay/Patchbay.docc/\(name)")
    let lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
    var blocks: [(String, String)] = []
    var current: (language: String, lines: [String])?
    for line in lines {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("```") {
            if let open = current {
                blocks.append((open.language, open.lines.joined(separator: "\n") + "\n"))
                current = nil
            } else {
                current = (String(trimmed.dropFirst(3)), [])
            }
        } else if current != nil {
            current!.lines.append(line)
        }
    }
    return blocks
}

@Suite struct DocumentationExampleTests {
    @Test func theFormatArticlesFullExampleIsValid() throws {
        let json = try #require(try codeBlocks(inArticle: "ManifestFormat.md").first { $0.language == "json" })
        let found = try diagnostics(json.text, name: "production.json", catalog: Docs.catalog)
        #expect(found.isEmpty, "\(found)")
        let folder = try ManifestFolder(["production.json": json.text])
        let manifest = try ManifestLoader(environment: [:]).load(contentsOf: folder.file("production.json"))
        let container = try Container(catalog: Docs.catalog, manifest: manifest)
        // What the article says about fallback from eu-tenant.
        #expect(container.binding(for: (any Docs.Clock).self, from: "eu-tenant")?.factory == "fixed-clock")
        #expect(container.binding(for: (any Docs.UserRepository).self, from: "eu-tenant")?.factory == "sqlite")
        #expect(container.binding(for: (any Docs.UserRepository).self, from: .secondary)?.factory == "in-memory")
    }

    @Test func theFormatArticlesMistakesAreReportedAsShown() throws {
        let blocks = try codeBlocks(inArticle: "ManifestFormat.md")
        let broken = try #require(blocks.filter { $0.language == "json" }.dropFirst().first)
        let expected = try #require(blocks.last { $0.language == "text" })
        let found = try diagnostics(broken.text, name: "example.json", catalog: Docs.catalog)
        let text = Diagnostic.sortedForDisplay(found.errors).map(\.description).joined(separator: "\n") + "\n"
        #expect(text == expected.text)
    }

    @Test func theEnvironmentsArticlesBaseAndProductionAreValid() throws {
        let json = try codeBlocks(inArticle: "Environments.md").filter { $0.language == "json" }
        try #require(json.count == 2)
        let folder = try ManifestFolder(["base.json": json[0].text, "production.json": json[1].text])
        let loader = ManifestLoader(environment: ["DB_PATH": "/tmp/users.sqlite"])
        let manifest = try ManifestDirectory(url: folder.url, loader: loader).load(environment: "production")
        #expect(ManifestValidator(catalog: Docs.catalog).validate(manifest).errors.isEmpty)
        let container = try Container(catalog: Docs.catalog, manifest: manifest)
        // As the article says: production serves UserRepository with sqlite and keeps the base's Logger.
        #expect(container.binding(for: (any Docs.UserRepository).self)?.factory == "sqlite")
        #expect(container.binding(for: (any Docs.Logger).self)?.factory == "json-logger")
        let sqlite = manifest.bindings.last { $0.factory == "sqlite" }
        #expect(sqlite?.parameters?.objectValue?["path"] == .string("/tmp/users.sqlite"))
    }
}
