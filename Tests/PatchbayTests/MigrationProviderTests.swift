// Swinject's `Provider` in Patchbay (issue #45): a dependency that resolves
// anew at each call. As in MigrationTests, each test is named for the
// library call it stands in for.
import Foundation
import Testing
@testable import Patchbay
@testable import PatchbayTools

/// Holds a provider of widgets taken as a factory parameter, a graph gadget
/// taken directly, and a provider and a lazy of that gadget.
final class RowFactory: @unchecked Sendable {
    let rows: Provider<any Widget>
    let gadget: (any Gadget)?
    let gadgets: Provider<any Gadget>?
    let lazyGadget: Lazy<any Gadget>?
    init(
        rows: Provider<any Widget>, gadget: (any Gadget)? = nil, gadgets: Provider<any Gadget>? = nil,
        lazyGadget: Lazy<any Gadget>? = nil
    ) {
        self.rows = rows
        self.gadget = gadget
        self.gadgets = gadgets
        self.lazyGadget = lazyGadget
    }
}

/// Holds a provider of sprockets.
final class SprocketRows: @unchecked Sendable {
    let rows: Provider<any Sprocket>
    init(rows: Provider<any Sprocket>) { self.rows = rows }
}

/// Makes rows through a provider property, as `@Injected` reads.
final class Inbox: @unchecked Sendable {
    let rows = Provider((any Widget).self)
}

struct MigrationProviderTests {
    /// Widgets numbered as they are made.
    private func widgetCatalog(_ serials: Counter) -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("part", provides: (any Widget).self) { Part(tag: "t", serial: serials.increment()) }
        catalog.register("rows", provides: RowFactory.self) { (rows: Provider<any Widget>) in RowFactory(rows: rows) }
        return catalog
    }

    // MARK: Swinject: `Provider<T>`, a new instance at each call

    @Test(arguments: [Lifetime.transient, .singleton])
    func swinjectProviderResolvesAtEachCallAsTheLifetimeSays(_ lifetime: Lifetime) throws {
        let serials = Counter()
        let container = try makeContainer(widgetCatalog(serials), [
            bind("Widget", to: "part", lifetime), bind("RowFactory", to: "rows"),
        ])
        let factory = try container.resolve(RowFactory.self)
        #expect(serials.value == 0, "nothing is resolved when the holder is made")
        let first = try factory.rows.get()
        let second = try factory.rows()
        if lifetime == .transient {
            #expect(first !== second && first.serial == 1 && second.serial == 2)
        } else {
            #expect(first === second && serials.value == 1)
        }
    }

    @Test func swinjectProviderStartsANewGraphAtEachCallWhereLazySharesItsOwn() throws {
        var catalog = FactoryCatalog()
        let serials = Counter()
        catalog.register("part", provides: (any Widget).self) { Part(tag: "w") }
        catalog.register("graph-gadget", provides: (any Gadget).self) { Part(tag: "g", serial: serials.increment()) }
        catalog.register("rows", provides: RowFactory.self) {
            (rows: Provider<any Widget>, gadget: any Gadget, gadgets: Provider<any Gadget>, lazy: Lazy<any Gadget>) in
            RowFactory(rows: rows, gadget: gadget, gadgets: gadgets, lazyGadget: lazy)
        }
        let container = try makeContainer(catalog, [
            bind("Widget", to: "part"), bind("Gadget", to: "graph-gadget", .graph), bind("RowFactory", to: "rows"),
        ])
        let factory = try container.resolve(RowFactory.self)
        let gadget = try #require(factory.gadget)
        #expect(try factory.lazyGadget!.get() === gadget, "a Lazy shares the graph it was made in")
        let made = try factory.gadgets!.get()
        #expect(made !== gadget, "a Provider's call is a resolution of its own")
        #expect(try factory.gadgets!.get() !== made, "and so is each next call")
        #expect(serials.value == 3)
    }

    @Test func swinjectProviderAsAPropertyResolvesFromWhatMadeTheObject() throws {
        var catalog = FactoryCatalog()
        catalog.register("part", provides: (any Widget).self) { Part(tag: "primary") }
        catalog.register("other", provides: (any Widget).self) { Part(tag: "secondary") }
        catalog.register("inbox", provides: Inbox.self) { Inbox() }
        let container = try makeContainer(catalog, [
            bind("Widget", to: "part"), bind("Widget", to: "other", in: .secondary),
            bind("Inbox", to: "inbox", in: .secondary),
        ])
        let inbox = try container.resolve(Inbox.self, from: .secondary)
        let first = try inbox.rows.get(), second = try inbox.rows.get()
        #expect(first.tag == "secondary" && first !== second, "the injector that served the factory, anew each call")
    }

    @Test func swinjectProviderMadeByHandAndWithAnArgument() throws {
        var catalog = FactoryCatalog()
        let serials = Counter()
        catalog.register("part", provides: (any Widget).self) { Part(tag: "t", serial: serials.increment()) }
        catalog.register("labelled", provides: (any Gadget).self, argument: String.self) { tag in
            Part(tag: tag, serial: serials.increment())
        }
        let container = try makeContainer(catalog, [bind("Widget", to: "part"), bind("Gadget", to: "labelled")])
        let widgets = Provider((any Widget).self, container: container)
        #expect(try widgets.get() !== widgets.get())
        let labelled = Provider((any Gadget).self, container: container, argument: "fixed")
        let one = try labelled.get(), two = try labelled.get()
        #expect(one.tag == "fixed" && two.tag == "fixed" && one !== two)
        #expect(try labelled.get(argument: "per call").tag == "per call")
        do {
            _ = try Provider((any Gadget).self, container: container).get()
            Issue.record("a provider without the argument its factory takes resolved")
        } catch {
            #expect(error.reason == .argumentMissing)
        }
    }

    @Test func swinjectProviderHoldsItsContainerWeakly() throws {
        var catalog = FactoryCatalog()
        catalog.register("part", provides: (any Widget).self) { Part() }
        var container: Container? = try makeContainer(catalog, [bind("Widget", to: "part")])
        weak let released = container
        let provider = Provider((any Widget).self, container: container!)
        container = nil
        #expect(released == nil)
        do {
            _ = try provider.get()
            Issue.record("a provider resolved from a released container")
        } catch {
            #expect(error.reason == .containerReleased)
        }
    }

    @Test func swinjectProviderTakenByAnAsyncFactory() async throws {
        var catalog = FactoryCatalog()
        let serials = Counter()
        catalog.register("part", provides: (any Widget).self) { Part(tag: "t", serial: serials.increment()) }
        catalog.register("rows", provides: RowFactory.self) { (rows: Provider<any Widget>) async in RowFactory(rows: rows) }
        let container = try makeContainer(catalog, [bind("Widget", to: "part"), bind("RowFactory", to: "rows")])
        let factory = try await container.resolve(awaiting: RowFactory.self)
        #expect(try factory.rows.get().serial == 1 && factory.rows.get().serial == 2)
    }

    // MARK: Checked at activation as `Lazy` is

    @Test func swinjectProviderIsCheckedAtActivationAsLazyIs() throws {
        var catalog = FactoryCatalog()
        catalog.register("loop-lazy", provides: (any Widget).self) { (_: Lazy<any Widget>) in Part() }
        catalog.register("loop-provider", provides: (any Gadget).self) { (_: Provider<any Gadget>) in Part() }
        catalog.register("session", provides: (any Sprocket).self) { Part() }
        catalog.register("lazy-holder", provides: PartPair.self) { (session: Lazy<any Sprocket>) in
            PartPair(widget: Part(), gadget: Part())
        }
        catalog.register("provider-holder", provides: SprocketRows.self) { (rows: Provider<any Sprocket>) in
            SprocketRows(rows: rows)
        }
        // A cycle through a Provider is allowed, as through a Lazy.
        let container = try makeContainer(catalog, [bind("Widget", to: "loop-lazy"), bind("Gadget", to: "loop-provider")])
        #expect(try container.resolve((any Gadget).self).tag == "")
        // Unbound: the same error for both.
        for (type, factory) in [("PartPair", "lazy-holder"), ("SprocketRows", "provider-holder")] {
            do {
                _ = try makeContainer(catalog, [bind(type, to: factory)])
                Issue.record("'\(factory)' activated with its need unbound")
            } catch let error as ManifestError {
                #expect(errorCodes(error) == [.missingDependency])
            }
            // Captive: a singleton holding a scoped need, judged alike.
            do {
                _ = try makeContainer(catalog, [bind(type, to: factory, .singleton), bind("Sprocket", to: "session", .scoped)])
                Issue.record("'\(factory)' activated holding a scoped need as a singleton")
            } catch let error as ManifestError {
                #expect(errorCodes(error) == [.captiveDependency])
            }
        }
    }

    /// Holders of `Lazy<Needed>` and `Provider<Needed>`, judged against the
    /// same bindings of `Needed`: whatever one is refused for, so is the other.
    @Test(arguments: [
        ("async", Lifetime.transient), ("takes-argument", .transient), ("plain", .scoped), ("plain", .graph),
        ("plain", .singleton),
    ])
    func swinjectProviderIsRefusedWhereLazyIs(_ neededFactory: String, _ holderLifetime: Lifetime) throws {
        var catalog = FactoryCatalog()
        catalog.register("plain", provides: (any Widget).self) { Part() }
        catalog.register("async", provides: (any Widget).self) { () async in Part() }
        catalog.register("takes-argument", provides: (any Widget).self, argument: Int.self) { _ in Part() }
        catalog.register("lazy", provides: (any Gadget).self) { (_: Lazy<any Widget>) in Part() }
        catalog.register("provider", provides: (any Gadget).self) { (_: Provider<any Widget>) in Part() }
        func codes(_ holder: String) -> [DiagnosticCode] {
            let bindings = [
                bind("Widget", to: neededFactory, neededFactory == "plain" ? .scoped : nil),
                bind("Gadget", to: holder, holderLifetime),
            ]
            do {
                _ = try makeContainer(catalog, bindings)
                return []
            } catch let error as ManifestError {
                return errorCodes(error)
            } catch {
                return [DiagnosticCode(rawValue: "unexpected")]
            }
        }
        let lazy = codes("lazy")
        #expect(codes("provider") == lazy)
        let expected: [DiagnosticCode] = switch neededFactory {
        case "async": [.needsAwait]
        case "takes-argument": [.argumentRequired]
        default: holderLifetime.wouldCapture(.scoped) ? [.captiveDependency] : []
        }
        #expect(lazy == expected)
        if holderLifetime == .singleton { #expect(lazy == [.captiveDependency], "the case that must be refused is") }
    }

    @Test func swinjectProviderIsShownByExplainAndGraph() throws {
        let description = widgetCatalog(Counter()).describe()
        let rows = try #require(description.factories.first { $0.name == "rows" })
        #expect(rows.needs?.map(\.kind) == ["provider"])
        // The description is read back as it was written.
        let read = try CatalogDescription(jsonData: description.jsonData(), file: "catalog.json")
        #expect(read.factories.first { $0.name == "rows" }?.needs?.map(\.kind) == ["provider"])
        let manifest = Manifest(bindings: [bind("RowFactory", to: "rows"), bind("Widget", to: "part")])
        let explanation = ManifestExplainer(manifest: manifest, catalog: read).explain("RowFactory")
        let node = try #require(explanation.resolution?.needs.nodes?.first)
        #expect(node.kind == .provider)
        #expect(explanation.text().contains("Provider<Widget>  <- primary: part (transient)"))
        let unbound = ManifestExplainer(manifest: Manifest(bindings: [bind("RowFactory", to: "rows")]), catalog: read)
        #expect(unbound.explain("RowFactory").text().contains("Provider<Widget>  <- not bound: fails at each call"))
        let graph = DependencyGraph(manifest: manifest, catalog: read)
        #expect(graph.mermaid().contains("-.->|provider|"))
        #expect(graph.dot().contains("[style=dashed, label=\"provider\"]"))
    }
}
