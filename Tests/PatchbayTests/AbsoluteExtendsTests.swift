// An `extends` that names its parent by an absolute path (#28): the parent is
// named in diagnostics and in the chain as a relative `extends` would name
// it, not as the child's folder glued to the absolute path. The folder is
// made at run time, since the path it names is wherever the test runs.
import Foundation
import NotesKit
import Testing
@testable import Patchbay
@testable import PatchbayTools

@Suite struct AbsoluteExtendsTests {
    /// `app/main.json` extends `app/base.json` by its absolute path, and
    /// `app/chained.json` reaches it through `sub/middle.json`, which names it
    /// by its absolute path, a folder above its own; `base.json` has an
    /// unknown factory and, in `cyclic`, extends `main.json` back, by its
    /// absolute path too.
    static func folder(cyclic: Bool = false) throws -> ManifestFolder {
        let folder = try ManifestFolder([:])
        let app = folder.url.appendingPathComponent("app").standardizedFileURL.path
        let files = [
            "app/main.json": """
                {
                  "format": 1,
                  "extends": "\(app)/base.json",
                  "bindings": []
                }
                """,
            "app/chained.json": """
                {
                  "format": 1,
                  "extends": "sub/middle.json",
                  "bindings": []
                }
                """,
            "app/sub/middle.json": """
                {
                  "format": 1,
                  "extends": "\(app)/base.json",
                  "bindings": []
                }
                """,
            "app/base.json": """
                {
                  "format": 1,\(cyclic ? "\n  \"extends\": \"\(app)/main.json\"," : "")
                  "bindings": [
                    { "protocol": "OrderStore", "factory": "memory-ordrs" }
                  ]
                }
                """,
        ]
        for (name, text) in files {
            let url = folder.file(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return folder
    }

    static func loaded(_ folder: ManifestFolder, _ name: String) throws -> [Diagnostic] {
        let loader = ManifestLoader(environment: [:])
        let (manifest, found) = loader.loadCollecting(contentsOf: folder.file(name), displayPath: name)
        let validated = manifest.map { ManifestValidator(catalog: .corpus).validate($0) } ?? []
        return found + validated
    }

    @Test func theParentIsNamedAsARelativeExtendsWouldNameIt() throws {
        let folder = try Self.folder()
        let fromMain = try Self.loaded(folder, "app/main.json").filter { $0.code == .unknownFactory }
        #expect(fromMain.map { "\($0.file):\($0.line):\($0.column)" } == ["app/base.json:4:44"], "\(fromMain)")
        // Named from a parent one folder down, the same file.
        let chained = try Self.loaded(folder, "app/chained.json").filter { $0.code == .unknownFactory }
        #expect(chained.map(\.file) == ["app/base.json"], "\(chained)")
        // And `explain` shows where the binding stands under that name.
        let manifest = try ManifestLoader(environment: [:]).load(contentsOf: folder.file("app/main.json"), displayPath: "app/main.json")
        #expect(manifest.bindings.first?.origin?.file == "app/base.json")
    }

    @Test func theChainOfACycleNamesEachFileOnce() throws {
        let folder = try Self.folder(cyclic: true)
        let cycle = try #require(try Self.loaded(folder, "app/main.json").first { $0.code == .extendsCycle })
        #expect(cycle.file == "app/base.json")
        #expect(cycle.message.contains("chain: app/main.json -> app/base.json -> app/main.json")
            || cycle.message.contains("cycle: app/main.json -> app/base.json -> app/main.json"), "\(cycle.message)")
        #expect(!cycle.message.contains("app/" + folder.url.path.dropFirst()), "\(cycle.message)")
    }

    @Test func aParentOutsideTheFolderIsNamedByItsAbsolutePath() throws {
        let outside = try ManifestFolder(["base.json": #"{ "format": 1, "bindings": [] }"#])
        let path = outside.file("base.json").standardizedFileURL.path
        let folder = try ManifestFolder(["main.json": #"{ "format": 1, "extends": "\#(path)", "bindings": [] }"#])
        let refused = try #require(try Self.loaded(folder, "main.json").first)
        #expect(refused.code == .extendsOutside)
        #expect(refused.message.contains("chain: main.json -> \(path)."), "\(refused.message)")
    }

    @Test func theCommandPrintsTheSameNames() throws {
        let folder = try Self.folder(cyclic: true)
        let standard = Collected<String>()
        let status = PatchbayCommandLine(loader: ManifestLoader(environment: [:])).run(
            ["check", folder.file("app/main.json").path], output: .init(standard: standard.append, error: { _ in }))
        let printed = standard.all.joined()
        // Named from the current folder, or in full when the folder is not below it: either way each file once.
        let base = ManifestLoader.displayPath(for: folder.file("app/base.json"))
        let main = ManifestLoader.displayPath(for: folder.file("app/main.json"))
        #expect(printed.contains("\(base):3:14: error: 'extends' forms a cycle: \(main) -> \(base) -> \(main);"), "\(printed)")
        #expect(status == 1)
    }
}
