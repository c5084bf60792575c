// extends, environments and ${...} interpolation.
import Foundation
import Testing
@testable import Patchbay

@Suite struct ExtendsTests {
    static let base = """
        {
          "format": 1,
          "injectors": ["primary", "secondary", "eu"],
          "bindings": [
            { "protocol": "DClock", "factory": "system-clock" },
            { "protocol": "DLogger", "factory": "json-logger", "lifetime": "singleton" },
            { "protocol": "DUserRepository", "factory": "in-memory", "injector": "eu" }
          ]
        }
        """

    @Test func childReplacesByKeyAndAddsTheRest() throws {
        let child = """
            {
              "format": 1,
              "extends": "base.json",
              "bindings": [
                { "protocol": "DUserRepository", "factory": "in-memory" },
                { "protocol": "DLogger", "factory": "request-logger", "lifetime": "transient" },
                { "protocol": "DSession", "factory": "session" }
              ]
            }
            """
        let folder = try ManifestFolder(["base.json": Self.base, "child.json": child])
        let manifest = try ManifestLoader(environment: [:]).load(contentsOf: folder.file("child.json"))
        let container = try Container(catalog: .diagnostics, manifest: manifest)
        #expect(container.binding(for: (any DLogger).self)?.factory == "request-logger")
        #expect(container.binding(for: (any DLogger).self)?.lifetime == .transient)
        #expect(container.binding(for: (any DClock).self)?.factory == "system-clock")
        // The eu binding of the parent is a different key from the child's primary one: both stay.
        #expect(container.binding(for: (any DUserRepository).self)?.injector == .primary)
        #expect(container.binding(for: (any DUserRepository).self, from: "eu")?.injector == "eu")
        // The child gives no injectors: the parent's stay in force.
        #expect(manifest.injectors == [.primary, .secondary, "eu"])
    }

    @Test func aChainOfThreeAndChildInjectorsReplaceTheParents() throws {
        let middle = """
            { "format": 1, "extends": "base.json", "injectors": ["primary", "secondary", "us"],
              "bindings": [ { "protocol": "DClock", "factory": "system-clock", "injector": "us" } ] }
            """
        let leaf = """
            { "format": 1, "extends": "nested/../middle.json",
              "bindings": [ { "protocol": "DLogger", "factory": "json-logger", "lifetime": "transient" } ] }
            """
        let folder = try ManifestFolder(["base.json": Self.base, "middle.json": middle, "leaf.json": leaf])
        let found = try diagnostics(leaf, name: "leaf.json", others: ["base.json": Self.base, "middle.json": middle])
        // The parent's "eu" binding is now undeclared: the child's injectors replaced the parent's.
        #expect(found.errors.map(\.code) == [.undeclaredInjector])
        #expect(found.errors.first?.file == "base.json")
        _ = folder
    }

    /// Bytes named by an absolute path find their parent beside that path,
    /// wherever the current folder is.
    @Test func bytesNamedByAnAbsolutePathExtendTheFileBesideThem() throws {
        let child = """
            { "format": 1, "extends": "base.json", "bindings": [ { "protocol": "DSession", "factory": "session" } ] }
            """
        let folder = try ManifestFolder(["base.json": Self.base])
        let manifest = try ManifestLoader(environment: [:])
            .load(data: Data(child.utf8), file: folder.file("child.json").path)
        #expect(manifest.bindings.map(\.factory) == ["system-clock", "json-logger", "in-memory", "session"])
    }

    @Test func aMissingParentShowsTheChain() throws {
        let text = "{\n  \"format\": 1,\n  \"extends\": \"shared/base.json\",\n  \"bindings\": []\n}\n"
        let found = try diagnostics(text, catalog: nil)
        expectOne(.extendsNotFound, in: found, at: "\"shared/base.json\"", of: text,
            saying: ["shared/base.json, which does not exist", "main.json -> shared/base.json"])
    }

    @Test func aCycleShowsTheChain() throws {
        let a = "{\n  \"format\": 1,\n  \"extends\": \"b.json\",\n  \"bindings\": []\n}\n"
        let b = "{\n  \"format\": 1,\n  \"extends\": \"a.json\",\n  \"bindings\": []\n}\n"
        let found = try diagnostics(a, name: "a.json", others: ["b.json": b], catalog: nil)
        let cycle = try #require(found.with(.extendsCycle).first)
        #expect(found.errors.count == 1)
        #expect(cycle.message.contains("a.json -> b.json -> a.json"))
        #expect(cycle.file == "b.json" && cycle.line == 3 && cycle.column == 14)
    }

    @Test func aParentOutsideTheFolderIsRefused() throws {
        let text = "{\n  \"format\": 1,\n  \"extends\": \"../secrets.json\",\n  \"bindings\": []\n}\n"
        let found = try diagnostics(text, catalog: nil)
        expectOne(.extendsOutside, in: found, at: "\"../secrets.json\"", of: text,
            saying: ["outside the manifests folder", "main.json -> ../secrets.json"])
    }

    @Test func everyFileOfTheChainMustBeFormat1() throws {
        let parent = "{\n  \"format\": 3,\n  \"bindings\": []\n}\n"
        let child = "{ \"format\": 1, \"extends\": \"parent.json\", \"bindings\": [] }"
        let found = try diagnostics(child, others: ["parent.json": parent], catalog: nil)
        let format = try #require(found.with(.unsupportedFormat).first)
        #expect(format.file == "parent.json" && format.line == 2 && format.column == 13)
    }
}

@Suite struct EnvironmentTests {
    static let files = [
        "base.json": "{ \"format\": 1, \"bindings\": [] }",
        "development.json": "{ \"format\": 1, \"environment\": \"development\", \"extends\": \"base.json\", \"bindings\": [] }",
        "production.json": "{ \"format\": 1, \"environment\": \"production\", \"bindings\": [] }",
        "catalog.json": "{}",
        "manifest.schema.json": "{}",
    ]

    @Test func selectionOrderIsExplicitThenVariableThenDevelopment() throws {
        let folder = try ManifestFolder(Self.files)
        let plain = ManifestDirectory(url: folder.url, loader: ManifestLoader(environment: [:]))
        #expect(plain.selectedEnvironment() == "development")
        #expect(try plain.load().environment == "development")
        let variable = ManifestDirectory(url: folder.url, loader: ManifestLoader(environment: ["PATCHBAY_ENV": "production"]))
        #expect(variable.selectedEnvironment() == "production")
        #expect(try variable.load().environment == "production")
        #expect(try variable.load(environment: "development").environment == "development")
    }

    @Test func anEmptyEnvironmentNameIsRefusedAndAnEmptyVariableIsUnset() throws {
        // `environment: ""` names no environment: refused, never quietly the default (found in #52's review).
        let folder = try ManifestFolder(Self.files)
        let plain = ManifestDirectory(url: folder.url, loader: ManifestLoader(environment: [:]))
        #expect(plain.selectedEnvironment("") == "")
        let refused = try #require(throws: ManifestError.self) { try plain.load(environment: "") }
        #expect(refused.diagnostics.map(\.code) == [.unknownEnvironment])
        // An empty PATCHBAY_ENV is as unset, as the shell's ${PATCHBAY_ENV:-development} reads it.
        let empty = ManifestDirectory(url: folder.url, loader: ManifestLoader(environment: ["PATCHBAY_ENV": ""]))
        #expect(empty.selectedEnvironment() == "development")
    }

    @Test func environmentsListSkipsTheCatalogAndSchemas() throws {
        let folder = try ManifestFolder(Self.files)
        #expect(ManifestDirectory(url: folder.url).environments() == ["base", "development", "production"])
    }

    @Test func anUnknownEnvironmentListsTheOnesFound() throws {
        let folder = try ManifestFolder(Self.files)
        let directory = ManifestDirectory(url: folder.url, loader: ManifestLoader(environment: ["PATCHBAY_ENV": "prod"]))
        #expect {
            _ = try directory.load()
        } throws: { error in
            guard let diagnostic = (error as? ManifestError)?.diagnostics.first else { return false }
            let folderName = ManifestLoader.displayPath(for: folder.url)
            return diagnostic.code == .unknownEnvironment
                && diagnostic.description == "\(folderName): error: no manifest for environment 'prod' in \(folderName); "
                    + "environments found: base, development, production; did you mean 'production'? Choose the "
                    + "environment with the 'environment:' argument or the PATCHBAY_ENV environment variable (else "
                    + "'development' is used), or add prod.json to \(folderName) [unknown-environment]"
                && diagnostic.suggestion == "production" && diagnostic.line == 0
        }
    }

    /// The first run of a new app: its one manifest is production's, and no
    /// environment is named. The message says how to choose, at no invented position.
    @Test func theDefaultEnvironmentWithoutAFileSaysHowToChoose() throws {
        let folder = try ManifestFolder(["production.json": "{ \"format\": 1, \"bindings\": [] }"])
        let error = try #require(throws: ManifestError.self) {
            try Container(catalog: FactoryCatalog(), manifests: ManifestDirectory(url: folder.url, loader: ManifestLoader(environment: [:])))
        }
        let folderName = ManifestLoader.displayPath(for: folder.url)
        #expect(error.description == """
            \(folderName): error: no manifest for environment 'development' in \(folderName); environments found: \
            production. Choose the environment with the 'environment:' argument or the PATCHBAY_ENV environment \
            variable (else 'development' is used), or add development.json to \(folderName) [unknown-environment]
            1 error, 0 warnings
            """)
    }

    /// A program run from another folder than the one holding `Manifests`:
    /// the message names the folder by its absolute path and the working
    /// directory it was looked up from, and says what to do.
    @Test func aMissingRelativeFolderIsNamedWithTheWorkingDirectory() throws {
        let name = "no-such-manifests-\(UUID().uuidString)"
        let directory = ManifestDirectory(url: URL(fileURLWithPath: name), loader: ManifestLoader(environment: [:]))
        let error = try #require(throws: ManifestError.self) { try directory.load() }
        let current = FileManager.default.currentDirectoryPath
        let absolute = URL(fileURLWithPath: current).appendingPathComponent(name).standardizedFileURL.path
        #expect(error.diagnostics.first?.code == .unknownEnvironment)
        #expect(error.diagnostics.first?.message == """
            no manifest for environment 'development' in \(name): there is no folder \(absolute) (a relative path \
            is looked up from the working directory, \(current)). Run the program from the folder that holds \(name), \
            or give ManifestDirectory an absolute URL (such as one from the app's bundle)
            """)
    }

    @Test func aMissingAbsoluteFolderIsNamedWithoutTheWorkingDirectory() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("patchbay-none-\(UUID().uuidString)")
        let error = try #require(throws: ManifestError.self) {
            try ManifestDirectory(url: folder, loader: ManifestLoader(environment: [:])).load()
        }
        let message = try #require(error.diagnostics.first?.message)
        #expect(message.contains(": there is no folder \(folder.standardizedFileURL.path). Run the program"), "\(message)")
        #expect(!message.contains("working directory"), "\(message)")
    }

    @Test func anEmptyFolderIsNamedByItsAbsolutePath() throws {
        let folder = try ManifestFolder(["notes.txt": "not a manifest"])
        let error = try #require(throws: ManifestError.self) {
            try ManifestDirectory(url: folder.url, loader: ManifestLoader(environment: [:])).load()
        }
        let message = try #require(error.diagnostics.first?.message)
        #expect(message.contains("; the folder (\(folder.url.standardizedFileURL.path)) has no manifests. Choose"), "\(message)")
    }

    @Test func manifestsLoadFromABundlesResources() throws {
        // A flat bundle (as on Linux, or a SwiftPM resource bundle): its resources are its folder.
        let folder = try ManifestFolder([
            "Manifests/development.json": "{ \"format\": 1, \"environment\": \"development\", \"bindings\": [] }",
            "Manifests/production.json": "{ \"format\": 1, \"environment\": \"production\", \"bindings\": [] }",
        ])
        let bundle = try #require(Bundle(url: folder.url))
        let loader = ManifestLoader(environment: ["PATCHBAY_ENV": "production"])
        let directory = try #require(ManifestDirectory(bundle: bundle, loader: loader))
        #expect(directory.environments() == ["development", "production"])
        #expect(try directory.load().environment == "production")
    }

    @Test func aBundleWithoutManifestsIsNil() {
        #expect(ManifestDirectory(bundle: Bundle.main, subdirectory: "NoSuchFolder-\(UUID().uuidString)") == nil)
    }

    @Test func theContainerLoadsTheSelectedEnvironment() throws {
        let folder = try ManifestFolder([
            "staging.json": "{ \"format\": 1, \"bindings\": [ { \"protocol\": \"DClock\", \"factory\": \"system-clock\" } ] }",
        ])
        let directory = ManifestDirectory(url: folder.url, loader: ManifestLoader(environment: ["PATCHBAY_ENV": "staging"]))
        let container = try Container(catalog: .diagnostics, manifests: directory)
        #expect(container.binding(for: (any DClock).self)?.factory == "system-clock")
    }
}

@Suite struct InterpolationTests {
    func parameters(_ value: String, environment: [String: String]) throws -> (String?, [Diagnostic]) {
        let text = """
            {
              "format": 1,
              "bindings": [
                { "protocol": "DUserRepository", "factory": "sqlite", "parameters": { "path": "\(value)" } }
              ]
            }
            """
        let folder = try ManifestFolder(["main.json": text])
        let (manifest, found) = ManifestLoader(environment: environment)
            .loadCollecting(contentsOf: folder.file("main.json"), displayPath: "main.json")
        guard case .string(let path)? = manifest?.bindings.first?.parameters?.objectValue?["path"] else { return (nil, found) }
        return (found.isEmpty ? path : nil, found)
    }

    @Test func variablesDefaultsAndLiterals() throws {
        #expect(try parameters("${DB_PATH}", environment: ["DB_PATH": "/data/users.db"]).0 == "/data/users.db")
        #expect(try parameters("${DB_PATH:-/tmp/x.db}", environment: [:]).0 == "/tmp/x.db")
        #expect(try parameters("${DB_PATH:-/tmp/x.db}", environment: ["DB_PATH": "/set"]).0 == "/set")
        #expect(try parameters("${DIR}/${NAME:-users}.db", environment: ["DIR": "/srv"]).0 == "/srv/users.db")
        #expect(try parameters("$${DB_PATH}", environment: ["DB_PATH": "no"]).0 == "${DB_PATH}")
        #expect(try parameters("cost: $5", environment: [:]).0 == "cost: $5")
        #expect(try parameters("${EMPTY:-}", environment: [:]).0 == "")
    }

    @Test func aMissingVariableNamesItAndTheBinding() throws {
        let (_, found) = try parameters("${DB_PATH}", environment: [:])
        let diagnostic = try #require(found.with(.envVarMissing).first)
        #expect(found.count == 1)
        #expect(diagnostic.message.contains("'DB_PATH'") && diagnostic.message.contains("DUserRepository -> 'sqlite'"))
        #expect(diagnostic.position == SourcePosition(line: 4, column: 83))
        #expect(diagnostic.path == "/bindings/0/parameters/path")
    }

    @Test func malformedReferencesAreErrors() throws {
        #expect(try parameters("${DB_PATH", environment: [:]).1.first?.message.contains("unterminated '${'") == true)
        #expect(try parameters("${1ABC}", environment: [:]).1.first?.message.contains("not a valid reference") == true)
    }

    @Test func onlyParametersAreInterpolated() throws {
        let text = """
            {
              "format": 1,
              "bindings": [
                { "protocol": "DClock", "factory": "${CLOCK}" }
              ]
            }
            """
        let found = try diagnostics(text, environment: ["CLOCK": "system-clock"])
        expectOne(.unknownFactory, in: found, at: "\"${CLOCK}\"", of: text, saying: ["'${CLOCK}'"])
        #expect(found.with(.envVarMissing).isEmpty)
    }
}
