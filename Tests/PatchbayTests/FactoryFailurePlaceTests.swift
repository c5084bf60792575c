// A factory that throws names its binding's place in the manifest and which
// of its parameters the environment gave, by the variables' names: what to
// look at first when a singleton fails at start-up. Values are never printed.
import Foundation
import Patchbay
import Testing

@Suite struct FactoryFailurePlaceTests {
    struct Options: Decodable, Sendable {
        var path: String
        var name: String
    }

    struct FolderMissing: Error, CustomStringConvertible {
        var description: String { "no such folder" }
    }

    static let text = """
        {
          "format": 1,
          "bindings": [
            { "protocol": "String", "factory": "file", "lifetime": "singleton",
              "parameters": { "path": "${DATA_DIR}/notes", "name": "${NAME:-notes}" } }
          ]
        }
        """

    func container() throws -> Container {
        var catalog = FactoryCatalog()
        catalog.register("file", provides: String.self, parameters: Options.self) { (_: Options) throws -> String in
            throw FolderMissing()
        }
        let manifest = try ManifestLoader(environment: ["DATA_DIR": "/very/secret/place"])
            .load(data: Data(Self.text.utf8), file: "Manifests/development.json")
        return try Container(catalog: catalog, manifest: manifest)
    }

    @Test func aFailedResolutionNamesTheBindingAndTheVariablesItRead() throws {
        let container = try container()
        do {
            _ = try container.resolve(String.self)
            Issue.record("a throwing factory made a value")
        } catch {
            #expect(error.reason == .factoryFailed)
            #expect(error.description.hasSuffix("factory 'file' threw: no such folder. (its binding is at "
                + "Manifests/development.json:4:5; parameters from the environment: path (${DATA_DIR}))"),
                "\(error)")
            // Names, never values; a default the manifest gave is not the environment's.
            #expect(!error.description.contains("/very/secret/place"))
            #expect(!error.description.contains("NAME"))
        }
    }

    @Test func aSingletonThatFailsAtStartSaysTheSame() throws {
        let container = try container()
        do {
            try container.makeSingletons()
            Issue.record("a failing singleton was made")
        } catch {
            let diagnostic = try #require(error.diagnostics.first)
            #expect(diagnostic.code == .singletonFailed)
            #expect(diagnostic.message.contains("its binding is at Manifests/development.json:4:5; "
                + "parameters from the environment: path (${DATA_DIR})"), "\(diagnostic)")
            #expect(!diagnostic.message.contains("/very/secret/place"))
        }
    }
}
