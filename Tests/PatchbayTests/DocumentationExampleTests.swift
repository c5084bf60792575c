// The examples in the DocC articles are checked here, so the docs cannot
// drift from what the loader, the validator and the command do. Each JSON
// example is marked on the line before it (DocC shows no HTML comment):
//
//     <!-- manifest: NAME -->              valid against Docs.catalog (with the article's other manifests, for extends)
//     <!-- manifest with errors: NAME -->  reports exactly the `<!-- diagnostics: NAME -->` block
//     <!-- run ...: PRODUCT ARGUMENTS -->  what a built product prints (see ReadmeTests.swift)
//     <!-- tour: ... -->                   the README's tour (ReadmeTests, ReadmeTourTests)
//
// and every JSON example of every article must carry one of them. A YAML
// example is a GitHub workflow, marked `<!-- workflow: NAME.yml -->` and
// linted by .ci/run (DocumentationWorkflowTests).
import Foundation
import Testing
@testable import Patchbay

/// The types the articles talk about.
enum Docs {
    protocol UserRepository: Sendable {}
    protocol Database: Sendable {}
    protocol Logger: Sendable {}
    protocol Clock: Sendable {}
    protocol Plugin: Sendable {}
    struct Impl: UserRepository, Database, Logger, Clock, Plugin {}
    struct PluginHost: Sendable { let plugins: [any Plugin] }
    struct MetricsOptions: Decodable, Sendable { var rate: Int }
    struct SQLiteOptions: Decodable, Sendable {
        var path: String
        var poolSize: Int?
    }
    struct ClockOptions: Decodable, Sendable { var iso8601: String }
    struct CacheOptions: Decodable, Sendable { var ttl: Int }

    static var catalog: FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("sqlite", provides: (any UserRepository).self, parameters: SQLiteOptions.self) {
            (_: SQLiteOptions, _: any Database, _: any Logger) in Impl()
        }
        catalog.register("in-memory", provides: (any UserRepository).self) { Impl() }
        catalog.register("postgres", provides: (any Database).self) { Impl() }
        catalog.register("json-logger", provides: (any Logger).self) { Impl() }
        catalog.register("fixed-clock", provides: (any Clock).self, parameters: ClockOptions.self) { _ in Impl() }
        // A collection: three plugins, and a host that takes them all.
        catalog.register("audit-plugin", provides: (any Plugin).self) { Impl() }
        catalog.register("metrics-plugin", provides: (any Plugin).self, parameters: MetricsOptions.self) { _ in Impl() }
        catalog.register("console-plugin", provides: (any Plugin).self) { Impl() }
        catalog.register("plugin-host", provides: PluginHost.self) { (plugins: [any Plugin]) in PluginHost(plugins: plugins) }
        // Decorators (ManifestFormat's Decorators, Getting Started's).
        catalog.registerDecorator("timing-repository", decorates: (any UserRepository).self) {
            (inner: any UserRepository, _: any Logger) in inner
        }
        catalog.registerDecorator("caching-repository", decorates: (any UserRepository).self, parameters: CacheOptions.self) {
            (inner: any UserRepository, _: CacheOptions) in inner
        }
        return catalog
    }

    /// Every article of the catalog, read from its folder, so a new one is checked too.
    static let articles: [String] = {
        let folder = repositoryRoot.appendingPathComponent("Sources/Patchbay/Patchbay.docc")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".md") }.sorted()
    }()

    static func article(_ name: String) -> URL {
        repositoryRoot.appendingPathComponent("Sources/Patchbay/Patchbay.docc/\(name)")
    }

    /// The article's blocks marked with `label` prefix, by the name after it.
    static func blocks(_ prefix: String, in article: String) throws -> [String: String] {
        var found: [String: String] = [:]
        for block in try markedBlocks(in: Self.article(article)) where block.label.hasPrefix(prefix + ": ") {
            let name = String(block.label.dropFirst(prefix.count + 2))
            #expect(found[name] == nil, "\(article): two blocks marked '\(block.label)'")
            found[name] = block.text
        }
        return found
    }
}

@Suite struct DocumentationExampleTests {
    @Test(arguments: Docs.articles)
    func everyJSONExampleIsMarkedForChecking(article: String) throws {
        let text = try String(contentsOf: Docs.article(article), encoding: .utf8)
        let fences = text.components(separatedBy: "\n").filter { $0.trimmingCharacters(in: .whitespaces) == "```json" }
        let marked = try markedBlocks(in: Docs.article(article)).filter { block in
            block.language == "json"
                && ["manifest: ", "manifest with errors: ", "run: ", "run (", "tour: "].contains { block.label.hasPrefix($0) }
        }
        #expect(marked.count == fences.count, "\(article): a JSON example without a marker is checked by nothing")
    }

    @Test(arguments: Docs.articles)
    func everyManifestExampleIsValid(article: String) throws {
        let manifests = try Docs.blocks("manifest", in: article)
        for (name, text) in manifests {
            let found = try diagnostics(text, name: name, others: manifests, catalog: Docs.catalog)
            #expect(found.isEmpty, "\(article): \(name): \(found)")
        }
    }

    @Test(arguments: Docs.articles)
    func everyBrokenExampleReportsWhatTheArticleShows(article: String) throws {
        let broken = try Docs.blocks("manifest with errors", in: article)
        let shown = try Docs.blocks("diagnostics", in: article)
        // The article's valid manifests, which a broken one may extend.
        let manifests = try Docs.blocks("manifest", in: article)
        #expect(Set(broken.keys) == Set(shown.keys), "\(article): each broken example is followed by its diagnostics")
        for (name, text) in broken {
            let found = try diagnostics(text, name: name, others: manifests, catalog: Docs.catalog)
            let printed = Diagnostic.sortedForDisplay(found).map(\.description).joined(separator: "\n") + "\n"
            #expect(printed == shown[name], "\(article): \(name)")
        }
    }

    /// The command's outputs in the articles, run for real (`run` markers, as in the README).
    @Test(arguments: ["CommandReference.md", "CheckingManifestsInCI.md", "Environments.md"])
    func theRunExamplesAreWhatTheProgramsPrint(article: String) throws {
        #expect(try expectRunBlocksMatch(in: Docs.article(article)) > 0)
    }

    @Test func theFormatArticlesFullExampleFallsBackAsItSays() throws {
        let text = try #require(try Docs.blocks("manifest", in: "ManifestFormat.md")["production.json"])
        let folder = try ManifestFolder(["production.json": text])
        let manifest = try ManifestLoader(environment: [:]).load(contentsOf: folder.file("production.json"))
        let container = try Container(catalog: Docs.catalog, manifest: manifest)
        // What the article says about fallback from eu-tenant.
        #expect(container.binding(for: (any Docs.Clock).self, from: "eu-tenant")?.factory == "fixed-clock")
        #expect(container.binding(for: (any Docs.UserRepository).self, from: "eu-tenant")?.factory == "sqlite")
        #expect(container.binding(for: (any Docs.UserRepository).self, from: .secondary)?.factory == "in-memory")
    }

    @Test func theFormatArticlesInterpolationExampleConvertsWholeValues() throws {
        let text = try #require(try Docs.blocks("manifest", in: "ManifestFormat.md")["interpolation.json"])
        // "4" from the default, and 8 from the environment, are integers; "eight" and "8.5" are not.
        for value in ["8", "-1"] {
            let found = try diagnostics(text, name: "interpolation.json", catalog: Docs.catalog, environment: ["POOL_SIZE": value])
            #expect(found.isEmpty, "POOL_SIZE=\(value): \(found)")
        }
        for value in ["eight", "8.5"] {
            let found = try diagnostics(text, name: "interpolation.json", catalog: Docs.catalog, environment: ["POOL_SIZE": value])
            #expect(found.map(\.code) == [.invalidParameters], "POOL_SIZE=\(value)")
            #expect(found.first?.message.contains("POOL_SIZE") == true)
        }
        // Mixed text stays a string: the path is interpolated, not converted.
        let manifest = try ManifestLoader(environment: ["DATA_DIR": "/data"]).load(
            data: Data(text.utf8), file: "interpolation.json")
        let sqlite = try #require(manifest.bindings.first { $0.factory == "sqlite" })
        #expect(sqlite.parameters?.objectValue?["path"] == .string("/data/users.sqlite"))
    }

    /// The article's table has a row for every code the library defines, and no other.
    /// (`Regex` is as new as macOS 13; the test target's minimum is the package's.)
    @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
    @Test func theFormatArticleListsEveryDiagnosticCode() throws {
        let source = try String(
            contentsOf: repositoryRoot.appendingPathComponent("Sources/Patchbay/Diagnostics/DiagnosticCode.swift"),
            encoding: .utf8)
        let defined = Set(source.matches(of: /public static let \w+: Self = "([a-z-]+)"/).map { String($0.output.1) })
        #expect(defined.count > 25)
        let article = try String(contentsOf: Docs.article("ManifestFormat.md"), encoding: .utf8)
        let rows = article.components(separatedBy: "\n").compactMap { line in
            line.firstMatch(of: #/^\| `([a-z-]+)` \|/#).map { String($0.output.1) }
        }
        let listed = rows.filter { !["$schema", "format", "environment", "extends", "injectors", "bindings",
            "protocol", "collection", "factory", "lifetime", "injector", "parameters", "transient", "singleton", "weak",
            "scoped", "graph", "decorators", "decorate"].contains($0) }
        #expect(Set(listed) == defined)
        #expect(listed.count == defined.count, "one row per code")
    }

    /// Getting Started's table of ``ResolutionError`` reasons has a row for
    /// every reason the library defines (read from its source, so a new one
    /// fails here until it is documented), and no other.
    @Test func gettingStartedListsEveryResolutionErrorReason() throws {
        let source = try String(
            contentsOf: repositoryRoot.appendingPathComponent("Sources/Patchbay/Resolution/ResolutionError.swift"),
            encoding: .utf8)
        let defined = source.components(separatedBy: "Reason(rawValue: \"").dropFirst().compactMap { $0.split(separator: "\"").first.map(String.init) }
        #expect(defined.count >= 12)
        let article = try String(contentsOf: Docs.article("GettingStarted.md"), encoding: .utf8).components(separatedBy: "\n")
        let start = try #require(article.firstIndex(of: "| reason | when |"))
        let rows = article[(start + 2)...].prefix { $0.hasPrefix("| `") }
            .compactMap { $0.split(separator: "`").dropFirst().first.map(String.init) }
        #expect(rows.sorted() == defined.sorted())
    }

    @Test func theEnvironmentsArticlesBaseAndProductionAreValid() throws {
        let json = try Docs.blocks("manifest", in: "Environments.md")
        let base = try #require(json["base.json"]), production = try #require(json["production.json"])
        let folder = try ManifestFolder(["base.json": base, "production.json": production])
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
