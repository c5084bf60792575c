import Testing
@testable import Patchbay

/// `BindingDescription`: what validation concludes of each binding, which
/// the container returns and the tools read.
struct BindingDescriptionTests {
    typealias F = InspectFixture

    /// A binding whose factory the catalog lacks is described for the tools,
    /// but makes no verdict: it is no duplicate of a binding that is right,
    /// and does not displace it from the bindings validation keeps in effect.
    @Test func aBrokenBindingMakesNoDuplicateAndDisplacesNothing() throws {
        let manifest = try F.manifest([#"{ "protocol": "A", "factory": "a-nwe" }"#, #"{ "protocol": "A", "factory": "a-old" }"#])
        let result = ManifestValidator(index: CatalogIndex(F.shapes)).run(manifest)
        #expect(result.diagnostics.map(\.code) == [.unknownFactory])
        #expect(result.bindings.map(\.factory) == ["a-old"])
        let winners = ManifestValidator(index: CatalogIndex(F.shapes)).dependencyVerdicts(manifest).bindings
        #expect(winners.map(\.factory) == ["a-nwe"])
        #expect(winners.first?.isBroken == true)
    }

    @Test func theContainerReturnsTheDescriptionValidationMade() throws {
        var catalog = FactoryCatalog()
        catalog.register("real-part", provides: (any Widget).self, lifetime: .singleton) { Part(tag: "real") }
        let container = try makeContainer(catalog, [bind("Widget", to: "real-part")])
        let described = try #require(container.binding(for: (any Widget).self, from: .secondary))
        #expect(described.description == "Widget -> 'real-part' (singleton, primary)")
        #expect(described.lifetimeSource == .factoryDefault)
        #expect(described.binding.protocolName == "Widget")
        #expect(described.qualifiedType?.hasSuffix(".Widget") == true)
        #expect(described.overrides.isEmpty)
    }
}

extension BindingDescriptionTests {
    /// Without a catalog, a binding with no factory key counts for duplicates,
    /// as it always has, but names nothing for the tools to show.
    @Test func withoutACatalogABindingWithNoFactoryIsADuplicateButNoWinner() throws {
        let folder = try ManifestFolder(["main.json": #"{ "format": 1, "bindings": [ { "protocol": "A" }, "#
            + #"{ "protocol": "A", "factory": "a" } ] }"#])
        let (loaded, _) = ManifestLoader(environment: [:]).loadCollecting(contentsOf: folder.file("main.json"))
        let manifest = try #require(loaded)
        let result = ManifestValidator().run(manifest)
        #expect(result.diagnostics.map(\.code).filter { $0 == .duplicateBinding }.count == 2)
        #expect(ManifestValidator().dependencyVerdicts(manifest).bindings.map(\.factory) == ["a"])
        #expect(result.bindings.isEmpty)
    }
}
