import Foundation
import Testing
@testable import Patchbay
@testable import PatchbayTools

/// `DependencyGraph`: a manifest's bindings and needs as Mermaid and DOT.
struct DependencyGraphTests {
    typealias F = InspectFixture

    private func graph(_ manifest: Manifest, catalog: CatalogDescription? = InspectFixture.shapes) -> DependencyGraph {
        DependencyGraph(manifest: manifest, catalog: catalog)
    }

    /// The node of `type` in `injector`.
    private func node(_ type: String, in injector: InjectorName, of graph: DependencyGraph) throws -> DependencyGraph.Node {
        try #require(graph.injectors.first { $0.name == injector }?.nodes.first { $0.type == type })
    }

    // MARK: - The example app

    @Test func productionMatchesGoldenMermaidAndDOT() throws {
        let graph = graph(try Golden.exampleManifest("production"), catalog: Golden.notesCatalog)
        Golden.expectMatches(graph.mermaid(), "graph-production.mmd")
        Golden.expectMatches(graph.dot(), "graph-production.dot")
        #expect(graph.injectors.map(\.name) == [.primary, .secondary])
        #expect(graph.injectors.map(\.nodes.count) == [6, 2])
        #expect(graph.unbound.isEmpty)
    }

    @Test func aBrokenCopyDrawsItsMissingDependencyAsAnUnboundNode() throws {
        // production.json with both NoteStore bindings removed: NoteService needs an unbound type.
        let text = try String(contentsOf: exampleManifests.appendingPathComponent("production.json"), encoding: .utf8)
        let broken = text.components(separatedBy: "\n").filter { !$0.contains("store\"") && !$0.contains("production.json\" }") }
            .joined(separator: "\n")
        try #require(!broken.contains("NoteStore"), "production.json changed shape: update this test's edit")
        let folder = try ManifestFolder([
            "production.json": broken,
            "base.json": try String(contentsOf: exampleManifests.appendingPathComponent("base.json"), encoding: .utf8),
        ])
        let (loaded, diagnostics) = ManifestLoader(environment: [:])
            .loadCollecting(contentsOf: folder.file("production.json"), displayPath: "Manifests/production.json")
        let manifest = try #require(loaded, "\(diagnostics)")
        #expect(diagnostics.isEmpty, "the edit must keep the file loadable: \(diagnostics)")
        let graph = graph(manifest, catalog: Golden.notesCatalog)
        #expect(graph.unbound.count == 1)
        Golden.expectMatches(graph.mermaid(), "graph-production-missing-store.mmd")
        Golden.expectMatches(graph.dot(), "graph-production-missing-store.dot")
    }

    @Test func testEnvironmentHasItsCustomInjectorAsAThirdGroup() throws {
        let graph = graph(try Golden.exampleManifest("test"), catalog: Golden.notesCatalog)
        Golden.expectMatches(graph.mermaid(), "graph-test.mmd")
        #expect(graph.injectors.map(\.name) == [.primary, .secondary, "fixtures"])
        #expect(graph.mermaid().contains("subgraph i3[\"fixtures\"]"))
        #expect(graph.dot().contains("subgraph cluster_3 {\n    label=\"fixtures\";"))
    }

    @Test func everyNeedIsAnEdgeToTheBindingThatServesIt() throws {
        let graph = graph(try Golden.exampleManifest("production"), catalog: Golden.notesCatalog)
        let service = try node("NoteService", in: .primary, of: graph)
        let targets = graph.edges.filter { $0.from == service.id }.map(\.to)
        let expected = try ["NoteStore", "Clock", "Logger", "Mailer", "IDGenerator"].map { try node($0, in: .primary, of: graph).id }
        #expect(targets == expected)
        // smtp-mailer needs a Logger: the primary one, json-logger.
        let mailer = try node("Mailer", in: .primary, of: graph)
        #expect(graph.edges.filter { $0.from == mailer.id }.map(\.to) == [try node("Logger", in: .primary, of: graph).id])
    }

    // MARK: - Edge cases

    @Test func edgesFollowFallbackFromTheServingInjector() throws {
        let manifest = try F.manifest(injectors: ["tenant"], [
            #"{ "protocol": "A", "factory": "a", "injector": "tenant" }"#,
            #"{ "protocol": "B", "factory": "b-alt", "injector": "secondary" }"#,
            #"{ "protocol": "B", "factory": "b" }"#,
            #"{ "protocol": "C", "factory": "c", "parameters": { "path": "p" } }"#,
        ])
        let graph = graph(manifest)
        let a = try node("A", in: "tenant", of: graph)
        // tenant has no B: the search goes primary first, so A's B is primary's.
        #expect(graph.edges.filter { $0.from == a.id }.map(\.to) == [try node("B", in: .primary, of: graph).id])
        #expect(graph.injectors.map(\.name) == [.primary, .secondary, "tenant"])
    }

    @Test func lazyAndOptionalNeedsAndUnboundTypesAreDrawnDistinctly() throws {
        let manifest = try F.manifest([#"{ "protocol": "F", "factory": "f" }"#, #"{ "protocol": "O", "factory": "o" }"#])
        let graph = graph(manifest)
        #expect(graph.unbound.map(\.type) == ["M", "P"])
        #expect(graph.unbound.map(\.id) == ["u1", "u2"])
        let mermaid = graph.mermaid()
        #expect(mermaid.contains("n1 -.->|lazy| n1"))
        #expect(mermaid.contains("n2 -->|optional| u2"))
        #expect(mermaid.contains("n2 --> u1"))
        #expect(mermaid.contains("u1[\"M<br/>not bound\"]"))
        #expect(mermaid.contains("class u1,u2 unbound"))
        let dot = graph.dot()
        #expect(dot.contains("n1 -> n1 [style=dashed, label=\"lazy\"];"))
        #expect(dot.contains("n2 -> u2 [label=\"optional\"];"))
        #expect(dot.contains("u1 [label=\"M\\nnot bound\", style=dashed];"))
    }

    @Test func aHandResolvingFactoryIsLabelledAndHasNoEdges() throws {
        let graph = graph(try F.manifest([#"{ "protocol": "R", "factory": "r", "lifetime": "singleton" }"#]))
        let r = try node("R", in: .primary, of: graph)
        #expect(r.resolvesByHand)
        #expect(graph.edges.isEmpty)
        #expect(graph.mermaid().contains("n1[\"R<br/>r (singleton)<br/>needs unknown (resolves by hand)\"]"))
    }

    @Test func withoutACatalogThereAreNodesButNoEdges() throws {
        let graph = graph(try F.manifest([#"{ "protocol": "A", "factory": "a" }"#, #"{ "protocol": "B", "factory": "b" }"#]),
            catalog: nil)
        #expect(graph.injectors.first?.nodes.map(\.factory) == ["a", "b"])
        #expect(graph.edges.isEmpty)
        #expect(graph.mermaid().contains("%% no catalog"))
        #expect(graph.dot().contains("// no catalog"))
        #expect(graph.mermaid().contains("n1[\"A<br/>a\"]"))
    }

    @Test func theOutputDoesNotDependOnTheOrderOfBindings() throws {
        let bindings = [
            #"{ "protocol": "G", "factory": "g" }"#, #"{ "protocol": "H", "factory": "h" }"#,
            #"{ "protocol": "I", "factory": "i", "injector": "secondary" }"#, #"{ "protocol": "J", "factory": "j" }"#,
        ]
        let forward = graph(try F.manifest(bindings))
        let backward = graph(try F.manifest(bindings.reversed()))
        #expect(forward.mermaid() == backward.mermaid())
        #expect(forward.dot() == backward.dot())
        #expect(forward.unbound.map(\.type) == ["K"])
    }

    @Test func labelsAreEscapedForEachFormat() throws {
        let manifest = try F.manifest(#"""
            { "format": 1, "injectors": ["eu \"west\" #1"], "bindings": [
              { "protocol": "Cache<Key, \"V\">", "factory": "a&b `c`", "injector": "eu \"west\" #1" },
              { "protocol": "Back\\slash", "factory": "x" }
            ] }
            """#)
        let graph = graph(manifest, catalog: nil)
        let mermaid = graph.mermaid()
        #expect(mermaid.contains("subgraph i2[\"eu #quot;west#quot; #35;1\"]"))
        #expect(mermaid.contains("[\"Cache#lt;Key, #quot;V#quot;#gt;<br/>a#amp;b #96;c#96;\"]"))
        #expect(mermaid.contains("[\"Back\\slash<br/>x\"]"))
        let dot = graph.dot()
        #expect(dot.contains("label=\"eu \\\"west\\\" #1\";"))
        #expect(dot.contains("[label=\"Cache<Key, \\\"V\\\">\\na&b `c`\"];"))
        #expect(dot.contains("[label=\"Back\\\\slash\\nx\"];"))
    }

    @Test func escapingHandlesLineBreaks() {
        #expect(DependencyGraph.mermaidEscape("a\nb\r\nc") == "a b c")
        #expect(DependencyGraph.dotEscape("a\nb\r\nc") == "a\\nb\\nc")
    }
}
