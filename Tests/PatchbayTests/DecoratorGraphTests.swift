// `patchbay graph` draws a binding's chain of decorators (issue 55): named on
// its binding's node, with each need of a link an edge from that node
// labelled with the decorator, as the validator judged it (DependencyVerdicts).
import Foundation
import Testing
@testable import Patchbay
@testable import PatchbayTools

@Suite struct DecoratorGraphTests {
    /// DecoratorTests' manifest of one `TaggedStore` binding with `decorators`, and `more` bindings.
    static func graph(_ decorators: String, more: String = "") throws -> DependencyGraph {
        let json = DecoratorTests.manifest(decorators, lifetime: "singleton", more: more)
        let manifest = try ManifestLoader(environment: [:]).load(data: Data(json.utf8), file: "decorated.json")
        return DependencyGraph(manifest: manifest, catalog: DecoratorTests.catalog().describe())
    }

    static let clock = #", { "protocol": "TagClock", "factory": "some-clock" }"#

    @Test func aChainIsNamedOnItsNodeAndALinksNeedIsALabelledEdge() throws {
        let graph = try Self.graph(#"["first", "timed"]"#, more: Self.clock)
        Golden.expectMatches(graph.mermaid(), "graph-decorators.mmd")
        Golden.expectMatches(graph.dot(), "graph-decorators.dot")
        let nodes = try #require(graph.injectors.first?.nodes)
        let store = try #require(nodes.first { $0.type == "TaggedStore" })
        let clock = try #require(nodes.first { $0.type == "TagClock" })
        #expect(store.decorators == ["first", "timed"] && clock.decorators.isEmpty)
        // `timed` needs the clock: one edge from the store's node, labelled with the decorator.
        #expect(graph.edges.map { [$0.from, $0.to, $0.decorator] } == [[store.id, clock.id, "timed"]])
        #expect(graph.mermaid().contains("  \(store.id) -->|\"timed\"| \(clock.id)\n"))
        #expect(graph.dot().contains("  \(store.id) -> \(clock.id) [label=\"timed\"];\n"))
        #expect(graph.mermaid().contains("TaggedStore<br/>base-store (singleton)<br/>decorators: first, timed"))
    }

    @Test func aLinksUnboundNeedIsAnUnboundNode() throws {
        // Nothing binds TagClock: `timed`'s need goes to an unbound node, as a factory's would.
        let graph = try Self.graph(#"["timed"]"#)
        #expect(graph.unbound.map(\.type) == ["TagClock"])
        let store = try #require(graph.injectors.first?.nodes.first)
        #expect(graph.edges.map { [$0.from, $0.to, $0.decorator] } == [[store.id, "u1", "timed"]])
    }

    @Test func aLinkThatNeedsTheTypeItDecoratesIsAnEdgeToItsOwnNode() throws {
        // `looping` needs a TaggedStore: the validator's dependency-cycle, drawn as a loop.
        let graph = try Self.graph(#"["looping"]"#)
        let store = try #require(graph.injectors.first?.nodes.first)
        #expect(graph.edges.map { [$0.from, $0.to, $0.decorator] } == [[store.id, store.id, "looping"]])
    }

    @Test func aChainWithoutNeedsAddsNoEdge() throws {
        let graph = try Self.graph(#"["first", "second"]"#, more: Self.clock)
        #expect(graph.edges.isEmpty)
        #expect(graph.dot().contains("TaggedStore\\nbase-store (singleton)\\ndecorators: first, second"))
    }

    @Test func aDecoratorsNameIsEscapedForEachFormat() {
        // A name a description may hold: quotes and a bar, which each format would read as syntax.
        let name = #"a"b|c<d"#
        #expect(DependencyGraph.mermaidEscape(DependencyGraph.decoratorLabel(name, .lazy)) == "a#quot;b|c#lt;d: lazy")
        #expect(DependencyGraph.dotEscape(DependencyGraph.decoratorLabel(name, .direct)) == #"a\"b|c<d"#)
        #expect(DependencyGraph.decoratorLabel("a\u{1B}b", .direct) == "a\\u{1B}b")
    }
}
