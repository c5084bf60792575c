// Decorators where an app and a reader meet them outside the manifest file:
// a chain built in code (`Binding(decorators:)`), a binding's description
// naming its chain, and `explain` giving each link's parameters and needs.
import Foundation
import Testing
@testable import Patchbay
@testable import PatchbayTools

@Suite struct DecoratorSurfaceTests {
    @Test func aChainBuiltInCodeResolvesInTheOrderWritten() throws {
        let manifest = Manifest(bindings: [
            Binding(
                protocol: "TaggedStore", factory: "base-store", lifetime: .singleton,
                decorators: [.init("first"), .init("tagging", parameters: .object(["tag": .string("from-code")]))]),
        ])
        let container = try Container(catalog: DecoratorTests.catalog(), manifest: manifest)
        #expect(try container.resolve((any TaggedStore).self).tags == ["base", "first", "from-code"])
        let described = try #require(container.binding(for: (any TaggedStore).self))
        #expect(described.binding.decorators.map(\.name) == ["first", "tagging"])
        #expect(described.description == "TaggedStore -> 'base-store' (singleton, primary) decorated by 'first' -> 'tagging'")
    }

    @Test func aChainBuiltInCodeIsCheckedAsAFilesIs() throws {
        let manifest = Manifest(bindings: [
            Binding(protocol: "TaggedStore", factory: "base-store", decorators: [.init("firts"), .init("tagging")]),
        ])
        let error = try #require(throws: ManifestError.self) {
            try Container(catalog: DecoratorTests.catalog(), manifest: manifest)
        }
        #expect(error.diagnostics.errors.map(\.code) == [.unknownDecorator, .invalidParameters])
        #expect(error.diagnostics.first?.message.contains("unknown decorator 'firts'") == true, "\(error.diagnostics)")
    }

    @Test func anUndecoratedBindingsDescriptionIsUnchanged() throws {
        let manifest = Manifest(bindings: [Binding(protocol: "TaggedStore", factory: "base-store")])
        let container = try Container(catalog: DecoratorTests.catalog(), manifest: manifest)
        #expect(container.binding(for: (any TaggedStore).self)?.description == "TaggedStore -> 'base-store' (transient, primary)")
    }

    @Test func explainGivesEachLinksParametersAndNeeds() throws {
        let json = DecoratorTests.manifest(
            #"["timed", { "decorator": "tagging", "parameters": { "tag": "t" } }]"#,
            more: #",{ "protocol": "TagClock", "factory": "some-clock", "lifetime": "singleton" }"#)
        let manifest = try ManifestLoader(environment: [:]).load(data: Data(json.utf8), file: "chain.json")
        let description = try CatalogDescription(jsonData: DecoratorTests.catalog().describe().jsonData())
        let text = ManifestExplainer(manifest: manifest, catalog: description).explain("TaggedStore").text()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("  decorators:") })
        #expect(Array(lines[(start + 1)...].prefix(6)) == [
            "    'timed'       chain.json:6:22, in the binding's decorators",
            "      needs:",
            "        TagClock  <- primary: some-clock (singleton)",
            "    'tagging'     chain.json:6:31, in the binding's decorators",
            "      parameters: {\"tag\":\"t\"}",
            "      needs:      nothing",
        ], "\(text)")
        // The factory's own needs stay on the binding's `needs` row.
        #expect(lines.contains("  needs:        nothing"), "\(text)")
    }

    @Test func explainSaysAnAsyncLinkMakesTheBindingAwaited() throws {
        let json = DecoratorTests.manifest(#"["warm"]"#)
        let manifest = try ManifestLoader(environment: [:]).load(data: Data(json.utf8), file: "chain.json")
        let description = try CatalogDescription(jsonData: AsyncDecoratorTests.catalog().describe().jsonData())
        let text = ManifestExplainer(manifest: manifest, catalog: description).explain("TaggedStore").text()
        #expect(text.contains(
            "  runs:         async (a decorator of its chain runs so): resolve it with try await container.resolve(awaiting:)\n"),
            "\(text)")
        // Without a chain, the synchronous factory has no `runs` row.
        let plain = try ManifestLoader(environment: [:]).load(data: Data(DecoratorTests.manifest("[]").utf8), file: "plain.json")
        #expect(!ManifestExplainer(manifest: plain, catalog: description).explain("TaggedStore").text().contains("runs:"))
    }
}
