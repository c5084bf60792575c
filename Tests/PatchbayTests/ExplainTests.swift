import Foundation
import Testing
@testable import Patchbay
@testable import PatchbayTools

/// `ManifestExplainer`: how a type resolves under one manifest.
struct ExplainTests {
    typealias F = InspectFixture

    private func explain(
        _ type: String, from injector: InjectorName = .primary, in manifest: Manifest,
        catalog: CatalogDescription? = InspectFixture.shapes
    ) -> TypeExplanation {
        ManifestExplainer(manifest: manifest, catalog: catalog).explain(type, from: injector)
    }

    private func resolution(_ explanation: TypeExplanation, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> TypeExplanation.Resolution
    {
        try #require(explanation.resolution, "\(explanation.requested) is not bound", sourceLocation: sourceLocation)
    }

    private func unbound(_ explanation: TypeExplanation, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> TypeExplanation.Unbound
    {
        try #require(explanation.unbound, "\(explanation.requested) is bound", sourceLocation: sourceLocation)
    }

    private func nodes(_ resolution: TypeExplanation.Resolution, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> [TypeExplanation.Node]
    {
        try #require(resolution.needs.nodes, "needs are not known: \(resolution.needs)", sourceLocation: sourceLocation)
    }

    // MARK: - The example app

    @Test func noteServiceInProductionMatchesGolden() throws {
        let explanation = explain("NoteService", in: try Golden.exampleManifest("production"), catalog: Golden.notesCatalog)
        Golden.expectMatches(explanation.text(), "explain-NoteService-production.txt")
        let resolved = try resolution(explanation)
        #expect(resolved.served.injector == .primary)
        #expect(resolved.served.binding.origin?.depth == 1)
        #expect(resolved.served.binding.origin?.file == "Manifests/base.json")
        #expect(try nodes(resolved).map(\.type) == ["NoteStore", "Clock", "Logger", "Mailer", "IDGenerator"])
        #expect(!explanation.text().contains(Golden.packageRoot.path))
    }

    @Test func loggerInProductionOverridesTheParentAndShadowsSecondary() throws {
        let explanation = explain("Logger", in: try Golden.exampleManifest("production"), catalog: Golden.notesCatalog)
        Golden.expectMatches(explanation.text(), "explain-Logger-production.txt")
        let resolved = try resolution(explanation)
        #expect(resolved.served.factory == "json-logger")
        #expect(resolved.served.binding.origin?.depth == 0)
        #expect(resolved.served.overrides.map(\.factory) == ["console-logger"])
        #expect(resolved.served.overrides.map { $0.origin?.file } == ["Manifests/base.json"])
        #expect(explanation.text().contains("overrides:    'console-logger' at Manifests/base.json:8:5"))
        #expect(resolved.shadows.map(\.injector) == [.secondary])
        #expect(resolved.shadows.map(\.factory) == ["console-logger"])
        #expect(resolved.shadows.first?.binding.parameters == .object(["prefix": .string("[fallback]")]))
    }

    @Test func aCustomInjectorsOwnBindingWinsAndShadowsTheOthers() throws {
        let explanation = explain("Clock", from: "fixtures", in: try Golden.exampleManifest("test"),
            catalog: Golden.notesCatalog)
        Golden.expectMatches(explanation.text(), "explain-Clock-test-fixtures.txt")
        let resolved = try resolution(explanation)
        #expect(resolved.served.injector == "fixtures")
        #expect(resolved.served.binding.parameters == .object(["iso8601": .string("2000-01-01T00:00:00Z")]))
        #expect(resolved.shadows.map(\.injector) == [.primary, .secondary])
    }

    @Test func aCustomInjectorWithoutABindingFallsBackInOrder() throws {
        let explanation = explain("NoteService", from: "fixtures", in: try Golden.exampleManifest("test"),
            catalog: Golden.notesCatalog)
        let resolved = try resolution(explanation)
        #expect(resolved.served.injector == .primary)
        #expect(explanation.text().contains("served by:    primary (by fallback: fixtures binds no NoteService)"))
        // The factory's needs are resolved from the injector that served it: primary, not fixtures.
        let clock = try #require(try nodes(resolved).first { $0.type == "Clock" })
        #expect(clock.served?.injector == .primary)
        #expect(clock.served?.binding.parameters == .object(["iso8601": .string("2026-01-01T09:00:00Z")]))
    }

    @Test func aModuleQualifiedNameExplainsTheSameType() throws {
        let manifest = try Golden.exampleManifest("production")
        let short = explain("NoteService", in: manifest, catalog: Golden.notesCatalog)
        let qualified = explain("NotesKit.NoteService", in: manifest, catalog: Golden.notesCatalog)
        #expect(qualified.type == "NotesKit.NoteService")
        #expect(qualified.outcome == short.outcome)
    }

    @Test func anUnboundTypeListsTheInjectorsSearchedAndTheNearestNames() throws {
        let explanation = explain("Mailr", in: try Golden.exampleManifest("production"), catalog: Golden.notesCatalog)
        Golden.expectMatches(explanation.text(), "explain-unbound-production.txt")
        let why = try unbound(explanation)
        #expect(!explanation.isBound)
        #expect(why.searched == [.primary, .secondary])
        #expect(why.suggestions == ["Mailer"])
        #expect(why.providers.isEmpty)
    }

    // MARK: - Edge cases

    @Test func anUnboundCatalogTypeNamesTheFactoriesThatProvideIt() throws {
        let manifest = try F.manifest(injectors: ["tenant"], [#"{ "protocol": "C", "factory": "c", "parameters": { "path": "x" } }"#])
        let explanation = explain("B", from: "tenant", in: manifest)
        let why = try unbound(explanation)
        #expect(why.searched == ["tenant", .primary, .secondary])
        #expect(why.providers == ["b", "b-alt"])
        #expect(explanation.text().contains(#"to bind it:   { "protocol": "B", "factory": "b", "injector": "tenant" }"#))
    }

    @Test func aNeedServedByFallbackSaysFromWhichInjector() throws {
        let manifest = try F.manifest(injectors: ["tenant"], [
            #"{ "protocol": "A", "factory": "a", "injector": "tenant" }"#,
            #"{ "protocol": "B", "factory": "b-alt", "injector": "secondary" }"#,
        ])
        let explanation = explain("A", from: "tenant", in: manifest)
        let node = try #require(try nodes(try resolution(explanation)).first)
        #expect(node.served?.injector == .secondary)
        #expect(node.fallbackFrom == "tenant")
        #expect(explanation.text().contains("B  <- secondary: b-alt (transient)  [fallback: tenant binds no B]"))
    }

    @Test func bindingsFromAParentManifestSayWhereTheyCameFrom() throws {
        let parent = #"{ "format": 1, "bindings": [ { "protocol": "B", "factory": "b" }, { "protocol": "A", "factory": "a-old" } ] }"#
        let manifest = try F.manifest(#"""
            { "format": 1, "extends": "parent.json", "bindings": [
              { "protocol": "A", "factory": "a" },
              { "protocol": "C", "factory": "c", "parameters": { "path": "/data" } }
            ] }
            """#, others: ["parent.json": parent])
        let explanation = explain("A", in: manifest)
        let resolved = try resolution(explanation)
        #expect(resolved.served.binding.origin?.depth == 0)
        #expect(resolved.served.overrides.map(\.factory) == ["a-old"])
        #expect(explanation.text().contains("overrides:    'a-old' at parent.json:1:67"))
        let b = try #require(try nodes(resolved).first)
        #expect(b.served?.binding.origin?.depth == 1)
        #expect(b.children.first?.served?.binding.origin?.depth == 0)
        #expect(explanation.text().contains("    B    <- primary: b (transient)  [from parent.json]"))
        #expect(explanation.text().contains(#"      C  <- primary: c (transient) parameters {"path":"/data"}"#))
    }

    @Test func aCycleIsMarkedAndNotFollowed() throws {
        let manifest = try F.manifest([#"{ "protocol": "D", "factory": "d" }"#, #"{ "protocol": "E", "factory": "e" }"#])
        let explanation = explain("D", in: manifest)
        let e = try #require(try nodes(try resolution(explanation)).first)
        let d = try #require(e.children.first)
        #expect(d.marks == [.cycle(["D", "E", "D"])])
        #expect(d.children.isEmpty)
        #expect(explanation.text().contains("[cycle: D -> E -> D]"))
    }

    /// The validator's verdict: a `Lazy` is resolved later, so a loop through one is no
    /// `dependency-cycle`, and explain does not call it one (it did, by a rule of its own).
    @Test func aLazyLoopIsMarkedAsLazyAndIsNoCycle() throws {
        let manifest = try F.manifest([#"{ "protocol": "F", "factory": "f" }"#])
        #expect(!ManifestValidator(description: F.shapes).validate(manifest).contains { $0.code == .dependencyCycle })
        let explanation = explain("F", in: manifest)
        let node = try #require(try nodes(try resolution(explanation)).first)
        #expect(node.kind == .lazy)
        #expect(node.marks == [.shownAbove])
        #expect(explanation.text().contains("Lazy<F>  <- primary: f (transient)  [needs shown above]"))
    }

    /// A loop is a cycle only when every need along it is: one lazy need anywhere on it
    /// breaks it, wherever the explained type enters the loop; a cycle below a lazy need is
    /// still one.
    @Test func aLoopIsACycleOnlyWhenTheValidatorFindsOne() throws {
        let catalog = F.catalog([
            F.factory("x", provides: "App.X", needs: ["Lazy<App.Y>"]), F.factory("y", provides: "App.Y", needs: ["App.X"]),
            F.factory("z", provides: "App.Z", needs: ["Lazy<App.D>"]),
            F.factory("d", provides: "App.D", needs: ["App.E"]), F.factory("e", provides: "App.E", needs: ["App.D"]),
        ])
        let manifest = try F.manifest(["X", "Y", "Z", "D", "E"].map {
            "{ \"protocol\": \"\($0)\", \"factory\": \"\($0.lowercased())\" }"
        })
        let cycles = ManifestValidator(description: catalog).validate(manifest).filter { $0.code == .dependencyCycle }
        #expect(cycles.map(\.dependencyPath) == [["D", "E", "D"]])
        let fromX = try nodes(try resolution(explain("X", in: manifest, catalog: catalog)))
        #expect(fromX[0].children.first?.marks == [.shownAbove], "X ⇢ Y → X")
        let fromY = try nodes(try resolution(explain("Y", in: manifest, catalog: catalog)))
        #expect(fromY[0].children.first?.marks == [.shownAbove], "Y → X ⇢ Y")
        let fromZ = try nodes(try resolution(explain("Z", in: manifest, catalog: catalog)))
        #expect(fromZ[0].children.first?.children.first?.marks == [.cycle(["D", "E", "D"])])
    }

    @Test func aBindingExpandedOnceIsNotExpandedAgain() throws {
        let manifest = try F.manifest(["G", "H", "I", "J", "K"].map {
            "{ \"protocol\": \"\($0)\", \"factory\": \"\($0.lowercased())\" }"
        })
        let explanation = explain("G", in: manifest)
        let top = try nodes(try resolution(explanation))
        #expect(top.map(\.type) == ["H", "I"])
        #expect(top[0].children.first?.children.map(\.type) == ["K"])
        #expect(top[1].children.first?.marks == [.shownAbove])
        #expect(top[1].children.first?.children.isEmpty == true)
        #expect(explanation.text().contains("[needs shown above]"))
    }

    @Test func aHandResolvingFactorysNeedsAreUnknown() throws {
        let manifest = try F.manifest([#"{ "protocol": "R", "factory": "r" }"#, #"{ "protocol": "S", "factory": "uses-r" }"#])
        let own = explain("R", in: manifest)
        #expect(try resolution(own).needs == .byHand)
        #expect(own.text().contains("needs:        unknown: factory 'r' resolves by hand"))
        let user = explain("S", in: manifest)
        #expect(try nodes(try resolution(user)).first?.marks == [.byHand])
        #expect(user.text().contains("R  <- primary: r (transient)  [needs unknown (resolves by hand)]"))
    }

    @Test func unboundNeedsSayWhatHappensAtResolution() throws {
        let manifest = try F.manifest([#"{ "protocol": "O", "factory": "o", "injector": "x" }"#])
        let explanation = explain("O", from: "x", in: manifest)
        let needs = try nodes(try resolution(explanation))
        #expect(needs.map(\.served) == [nil, nil])
        #expect(needs[0].searched == ["x", .primary, .secondary])
        let text = explanation.text()
        #expect(text.contains("P?  <- not bound: resolves to nil (searched x, primary, secondary)"))
        #expect(text.contains("M   <- not bound (searched x, primary, secondary)"))
    }

    @Test func aNeedOnAnArgumentTakingFactoryIsMarked() throws {
        let manifest = try F.manifest([#"{ "protocol": "T", "factory": "needs-q" }"#, #"{ "protocol": "Q", "factory": "q" }"#])
        #expect(try nodes(try resolution(explain("T", in: manifest))).first?.marks == [.takesArgument])
        #expect(explain("Q", in: manifest).text().contains("argument:     Seed, given to resolve(_:argument:)"))
    }

    @Test func aNeedThatTakesTheDependentsOwnArgumentIsNotMarked() throws {
        let manifest = try F.manifest([#"{ "protocol": "U", "factory": "passes-seed" }"#, #"{ "protocol": "Q", "factory": "q" }"#])
        let need = try nodes(try resolution(explain("U", in: manifest))).first
        #expect(need?.served?.factory == "q")
        #expect(need?.marks == [], "the dependent's Seed is passed on to q")
    }

    /// The validator's verdict: an element that takes an argument is refused
    /// (`collection-element-takes-argument`) whatever its dependent takes, since a collection
    /// is resolved whole; explain marks it so even when the dependent takes the same type.
    @Test func anElementThatTakesAnArgumentIsMarkedEvenWhenItsDependentTakesOne() throws {
        let catalog = F.catalog([
            F.factory("host", provides: "App.Host", needs: ["[App.Plugin]"], argument: "App.Seed"),
            F.factory("seeded", provides: "App.Plugin", needs: [], argument: "App.Seed"),
        ])
        let manifest = try F.manifest([
            #"{ "protocol": "Host", "factory": "host" }"#, #"{ "collection": "Plugin", "factory": "seeded" }"#,
        ])
        #expect(ManifestValidator(description: catalog).validate(manifest).map(\.code) == [.collectionElementTakesArgument])
        let collection = try #require(try nodes(try resolution(explain("Host", in: manifest, catalog: catalog))).first)
        #expect(collection.kind == .collection)
        #expect(collection.children.map(\.marks) == [[.takesArgument]])
    }

    @Test func lifetimesSayWhereTheyComeFrom() throws {
        let manifest = try F.manifest([
            #"{ "protocol": "A", "factory": "a" }"#, #"{ "protocol": "B", "factory": "b", "lifetime": "scoped" }"#,
            #"{ "protocol": "C", "factory": "c", "parameters": { "path": "p" } }"#,
        ])
        #expect(explain("A", in: manifest).text().contains("lifetime:     singleton (the factory's default)"))
        #expect(explain("B", in: manifest).text().contains("lifetime:     scoped (from the binding)"))
        #expect(explain("C", in: manifest).text().contains("lifetime:     transient (neither the binding nor the factory names one)"))
    }

    @Test func withoutACatalogTheBindingAndParametersStillShow() throws {
        let manifest = try F.manifest([#"{ "protocol": "App.C", "factory": "c", "parameters": { "path": "${HOME_DIR:-/srv}/c" } }"#])
        let explanation = explain("C", in: manifest, catalog: nil)
        let resolved = try resolution(explanation)
        #expect(resolved.needs == .noCatalog)
        #expect(resolved.served.lifetimeSource == .unknown)
        #expect(resolved.served.binding.parameters == .object(["path": .string("/srv/c")]))
        let text = explanation.text()
        #expect(text.contains("needs:        unknown without a catalog"))
        #expect(text.contains("lifetime:     unknown: the binding names none"))
        #expect(!explain("Missing", in: manifest, catalog: nil).isBound)
    }

    @Test func anAmbiguousShortNameListsTheCandidates() throws {
        let catalog = F.catalog([
            F.factory("first", provides: "One.Store"), F.factory("second", provides: "Two.Store"),
        ])
        let manifest = try F.manifest([#"{ "protocol": "One.Store", "factory": "first" }"#])
        let explanation = explain("Store", in: manifest, catalog: catalog)
        #expect(try unbound(explanation).ambiguous == ["One.Store", "Two.Store"])
        #expect(explanation.text().contains("Store matches One.Store, Two.Store"))
        #expect(explain("One.Store", in: manifest, catalog: catalog).isBound)
    }

    // MARK: - A manifest being repaired

    @Test func aBindingWithAnUnknownFactoryIsExplainedAsWritten() throws {
        let parent = #"{ "format": 1, "bindings": [ { "protocol": "A", "factory": "a-old" } ] }"#
        let manifest = try F.manifest(#"""
            { "format": 1, "extends": "parent.json", "bindings": [ { "protocol": "A", "factory": "a-nwe" } ] }
            """#, others: ["parent.json": parent])
        let explanation = explain("A", in: manifest)
        let resolved = try resolution(explanation)
        #expect(resolved.served.factory == "a-nwe")
        #expect(resolved.served.lifetimeSource == .unknown)
        #expect(resolved.served.overrides.map(\.factory) == ["a-old"])
        #expect(resolved.needs == .unknownFactory)
        #expect(explanation.text().contains("factory:      a-nwe (not in the catalog: run patchbay check)"))
    }

    @Test func aBindingOfAnUnknownProtocolIsExplainedUnderTheNameWritten() throws {
        let manifest = try F.manifest([#"{ "protocol": "Zed", "factory": "a" }"#, #"{ "protocol": "B", "factory": "b-alt" }"#])
        let resolved = try resolution(explain("Zed", in: manifest))
        #expect(resolved.served.type == "Zed")
        #expect(resolved.served.qualifiedType == nil)
        #expect(resolved.served.lifetime == .singleton)
        #expect(resolved.served.lifetimeSource == .factoryDefault)
        #expect(try nodes(resolved).map { $0.served?.factory } == ["b-alt"])
    }
}
