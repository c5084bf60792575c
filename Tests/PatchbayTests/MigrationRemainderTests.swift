// What Swinject users and the seed libraries still missed after the gaps of
// issue #30 (issue #45): resets of part of a container, a forwarded
// registration with an argument, scopes that carry to children and know
// their container, and Swifjection's optional reads. As in MigrationTests,
// each test is named for the library call it stands in for.
import Foundation
import Testing
@testable import Patchbay

/// A screen model that holds a child made by hand, as Impose's `@Scoped` children are.
final class ParentModel: @unchecked Sendable {
    @Injected var session: any Widget
    let child = ChildModel()
    let made: ChildModel?
    init(made: ChildModel? = nil) { self.made = made }
}

/// A child model: its session should be its parent's.
final class ChildModel: @unchecked Sendable {
    @Injected var session: any Widget
    let rows = Provider((any Widget).self)
    var grandchild: GrandchildModel? = GrandchildModel()
}

/// Two levels down.
final class GrandchildModel: @unchecked Sendable {
    @Injected var session: (any Widget)?
}

/// Swifjection's failable `init?(injector:)`: declines when no gadget is bound.
struct GadgetStatus: FailableInjectable {
    let gadget: any Gadget
    init?(injector: Resolver) throws {
        guard let gadget = try injector[(any Gadget).self] else { return nil }
        self.gadget = gadget
    }
}

/// Needs a gadget status, if there is one.
final class StatusHolder: @unchecked Sendable {
    let status: GadgetStatus?
    init(status: GadgetStatus?) { self.status = status }
}

struct MigrationRemainderTests {
    /// Widget and Gadget as singletons, Sprocket weak; each numbered as made.
    private func resetContainer(_ serials: Counter) throws -> Container {
        var catalog = FactoryCatalog()
        catalog.register("widget", provides: (any Widget).self) { Part(tag: "w", serial: serials.increment()) }
        catalog.register("gadget", provides: (any Gadget).self) { Part(tag: "g", serial: serials.increment()) }
        catalog.register("sprocket", provides: (any Sprocket).self) { Part(tag: "s", serial: serials.increment()) }
        return try makeContainer(catalog, [
            bind("Widget", to: "widget", .singleton), bind("Widget", to: "widget", .singleton, in: .secondary),
            bind("Gadget", to: "gadget", .singleton), bind("Sprocket", to: "sprocket", .weak),
        ])
    }

    // MARK: Swinject 2.10: `resetObjectScope(_:serviceType:)`, per type

    @Test func swinjectResetObjectScopeOfOneServiceType() throws {
        let container = try resetContainer(Counter())
        let widget = try container.resolve((any Widget).self)
        let secondary = try container.resolve((any Widget).self, from: .secondary)
        let gadget = try container.resolve((any Gadget).self)
        let sprocket = try container.resolve((any Sprocket).self)
        container.reset((any Widget).self)
        #expect(try container.resolve((any Widget).self) !== widget, "the type's singleton is made anew")
        #expect(try container.resolve((any Widget).self, from: .secondary) !== secondary, "in every injector")
        #expect(try container.resolve((any Gadget).self) === gadget, "another type's singleton is kept")
        #expect(try container.resolve((any Sprocket).self) === sprocket, "and a weak instance still held")
    }

    @Test func aPerTypeResetOfAProductSharedByTwoTypesResetsItForBoth() throws {
        var catalog = FactoryCatalog()
        catalog.register("part", product: Part.self, provides: (any Widget).self, (any Gadget).self) { Part() }
        catalog.register("sprocket", provides: (any Sprocket).self) { Part() }
        let container = try makeContainer(catalog, [
            bind("Widget", to: "part", .singleton), bind("Gadget", to: "part", .singleton),
            bind("Sprocket", to: "sprocket", .singleton),
        ])
        let before = try container.resolve((any Widget).self)
        let sprocket = try container.resolve((any Sprocket).self)
        container.reset((any Gadget).self)
        let widget = try container.resolve((any Widget).self), gadget = try container.resolve((any Gadget).self)
        #expect(widget !== before && widget === gadget, "one instance for both types, made anew")
        #expect(try container.resolve((any Sprocket).self) === sprocket)
    }

    // MARK: Swinject 2.10: `resetObjectScope(.container)` and `(.weak)`

    @Test func swinjectResetObjectScopeOfOneLifetime() throws {
        let container = try resetContainer(Counter())
        let widget = try container.resolve((any Widget).self)
        let sprocket = try container.resolve((any Sprocket).self)
        container.reset(.weak)
        let newSprocket = try container.resolve((any Sprocket).self)
        #expect(newSprocket !== sprocket, "a weak instance still held is forgotten by the container")
        #expect(try container.resolve((any Widget).self) === widget, "singletons are kept")
        container.reset(.singleton)
        #expect(try container.resolve((any Widget).self) !== widget, "every singleton is made anew")
        #expect(try container.resolve((any Sprocket).self) === newSprocket, "weak instances are kept")
        let again = try container.resolve((any Widget).self)
        container.reset(.transient)  // nothing is kept, so nothing is forgotten
        #expect(try container.resolve((any Widget).self) === again)
    }

    @Test func aPartialResetKeepsOverridesAndNeverUndoesAnActivationMadeMeanwhile() throws {
        let container = try resetContainer(Counter())
        container.withOverrides({ $0.override((any Gadget).self, with: Part(tag: "fake")) }) {
            container.reset((any Widget).self)
            #expect((try? container.resolve((any Gadget).self))?.tag == "fake", "the overrides stay in force")
        }
        // A reset compiled from one activation, published after another was activated, is dropped.
        let base = container.currentActivation()
        let fresh = try Activation.compile(base.manifest, catalog: container.catalog)
        let other = manifest([bind("Widget", to: "widget"), bind("Gadget", to: "gadget"), bind("Sprocket", to: "sprocket")])
        try container.activate(other)
        container.publish(fresh, resetting: base)
        #expect(container.manifest == other, "the manifest activated meanwhile stays in force")
    }

    // MARK: Swinject: `.forward(...)` of a service registered with an argument

    @Test func swinjectForwardAServiceRegisteredWithAnArgument() throws {
        var catalog = FactoryCatalog()
        let serials = Counter()
        catalog.register("sprocket", provides: (any Sprocket).self) { Part(tag: "s") }
        catalog.register(
            "labelled", product: Part.self, provides: (any Widget).self, (any Gadget).self, argument: String.self
        ) { (tag: String, sprocket: any Sprocket) in Part(tag: tag + "+" + sprocket.tag, serial: serials.increment()) }
        let container = try makeContainer(catalog, [
            bind("Widget", to: "labelled"), bind("Gadget", to: "labelled"), bind("Sprocket", to: "sprocket"),
        ])
        #expect(try container.resolve((any Widget).self, argument: "left").tag == "left+s")
        #expect(try container.resolve((any Gadget).self, argument: "right").tag == "right+s")
        do {
            _ = try container.resolve((any Gadget).self)
            Issue.record("resolved without the argument its factory takes")
        } catch {
            #expect(error.reason == .argumentMissing)
        }
        // A dependent that does not pass the argument on is refused at activation.
        catalog.register("needs-widget", provides: PartPair.self) { (widget: any Widget) in
            PartPair(widget: widget, gadget: Part())
        }
        do {
            _ = try makeContainer(catalog, [bind("Widget", to: "labelled"), bind("Sprocket", to: "sprocket"),
                                            bind("PartPair", to: "needs-widget")])
            Issue.record("activated with nothing to pass the argument")
        } catch let error as ManifestError {
            #expect(errorCodes(error) == [.argumentRequired])
        }
    }

    // MARK: Impose 3: `@Scoped` children follow their parent's scope

    private func scopedContainer() throws -> Container {
        var catalog = FactoryCatalog()
        catalog.register("session", provides: (any Widget).self) { Part(tag: "session") }
        catalog.register("parent", provides: ParentModel.self) { ParentModel(made: ChildModel()) }
        return try makeContainer(catalog, [bind("Widget", to: "session", .scoped), bind("ParentModel", to: "parent")])
    }

    @Test func imposeScopedChildrenFollowTheirAdoptedParent() throws {
        let container = try scopedContainer()
        let scope = Scope()
        let parent = PatchbaySystem.withContainer(container) { scope.adopt(ParentModel()) }
        try PatchbaySystem.withContainer(container) {
            let session = try parent.$session.resolve()
            #expect(try parent.child.$session.resolve() === session, "a child made by hand follows its parent")
            #expect(try parent.child.grandchild!.$session.resolve() === session, "at any depth")
            #expect(try parent.child.rows.get() === session, "a Provider too")
            #expect(Scope.of(parent.child) === scope)
        }
        // A child already read keeps what it has: adopting its parent leaves it.
        let other = Scope()
        let read = ChildModel()
        read.grandchild = nil
        _ = try other.run { try PatchbaySystem.withContainer(container) { try read.$session.resolve() } }
        let holder = ParentModel(made: read)
        PatchbaySystem.withContainer(container) { _ = Scope().adopt(holder) }
        #expect(Scope.of(read) == nil, "a child read outside a scope of its own keeps no scope")
    }

    @Test func imposeScopedChildrenMadeInAScopeKeepTheirOwn() throws {
        let container = try scopedContainer()
        let first = Scope(), second = Scope()
        // Made by the container in `first`: the parent's child made by its factory belongs to `first`.
        let parent = try first.resolve(ParentModel.self, from: container)
        second.adopt(parent.made!)  // its own properties can be adopted
        #expect(Scope.of(parent.made!) === second)
        #expect(Scope.of(parent.made!.grandchild!) === first, "its child was made in `first`, so it stays there")
    }

    // MARK: Impose 3 / the migration guide: a scope that knows its container

    @Test func imposeAScopeTiedToAContainerServesAdoptedObjectsWithoutADefault() throws {
        let container = try scopedContainer()
        var otherCatalog = FactoryCatalog()
        otherCatalog.register("other", provides: (any Widget).self) { Part(tag: "other") }
        let other = try makeContainer(otherCatalog, [bind("Widget", to: "other")])
        let scope = Scope(container: container)
        #expect(scope.container === container)
        let model = scope.adopt(ScreenModel())
        // Another container set for the task does not win over the scope's.
        let tag = try PatchbaySystem.withContainer(other) { try model.$session.resolve().tag }
        #expect(tag == "session")
        #expect(try scope.resolve((any Widget).self) === model.session, "the scope resolves from its container")
        let lazy = scope.adopt(ChildModel())
        #expect(try lazy.rows.get() === model.session)
        // Made by hand inside the scope's `run`, too.
        let inside = scope.run { ChildModel() }
        #expect(try inside.$session.resolve() === model.session)
    }

    @Test func aScopeTiedToAReleasedContainerSaysSo() throws {
        var container: Container? = try scopedContainer()
        let scope = Scope(container: container!)
        let model = scope.adopt(ScreenModel())
        container = nil
        do {
            _ = try model.$session.resolve()
            Issue.record("resolved from a released container")
        } catch {
            #expect(error.reason == .containerReleased)
        }
    }

    // MARK: Swifjection: `injector[T.self]`, nil only when unbound

    @Test func swifjectionSubscriptIsNilOnlyWhenUnbound() throws {
        struct Broken: Error {}
        var catalog = FactoryCatalog()
        catalog.register("part", provides: (any Widget).self) { Part(tag: "w") }
        catalog.register("broken", provides: (any Gadget).self) { () throws -> any Gadget in throw Broken() }
        catalog.registerResolving("reads", provides: (any Sprocket).self) { resolver in
            Part(tag: try resolver[(any Widget).self]?.tag ?? "none")
        }
        let container = try makeContainer(catalog, [
            bind("Widget", to: "part"), bind("Gadget", to: "broken"), bind("Sprocket", to: "reads"),
        ])
        #expect(try container[(any Widget).self]?.tag == "w")
        #expect(try container[PartPair.self] == nil)
        #expect(try container[(any Sprocket).self]?.tag == "w", "a resolver reads the same way")
        do {
            _ = try container[(any Gadget).self]
            Issue.record("a failing factory read as nil")
        } catch {
            #expect(error.reason == .factoryFailed)
        }
    }

    // MARK: Swifjection: a failable `init?(injector:)`, whose nil reads as unbound

    @Test func swifjectionFailableInitializerReadsAsUnbound() throws {
        var catalog = FactoryCatalog()
        catalog.register("part", provides: (any Gadget).self) { Part(tag: "g") }
        catalog.register("holder", provides: StatusHolder.self) { (status: GadgetStatus?) in StatusHolder(status: status) }
        let bare = try makeContainer(catalog, [bind("StatusHolder", to: "holder")])
        #expect(try bare.resolveIfBound(GadgetStatus.self) == nil)
        #expect(try bare[GadgetStatus.self] == nil)
        #expect(try bare.resolve(StatusHolder.self).status == nil, "an optional need is nil")
        do {
            _ = try bare.resolve(GadgetStatus.self)
            Issue.record("a declined Injectable resolved")
        } catch {
            #expect(error.reason == .injectableDeclined)
            #expect(error.description.contains("init?(injector:) returned nil"))
        }
        let bound = try makeContainer(catalog, [bind("Gadget", to: "part"), bind("StatusHolder", to: "holder")])
        #expect(try bound.resolve(GadgetStatus.self).gadget.tag == "g")
        #expect(try bound.resolve(StatusHolder.self).status?.gadget.tag == "g")
    }

    // MARK: Swifjection: `SwifjectorFactory` picks test bindings under specs

    /// Patchbay does not detect tests (shared/STYLE.md: detecting them
    /// through the runtime is what to avoid); a test suite names the
    /// environment in one line, which this test runs.
    @Test func swifjectionTestBindingsAreChosenByNamingTheTestEnvironment() throws {
        var catalog = FactoryCatalog()
        catalog.register("real", provides: (any Widget).self) { Part(tag: "real") }
        catalog.register("fake", provides: (any Widget).self) { Part(tag: "fake") }
        let folder = try ManifestFolder([
            "development.json": #"{ "format": 1, "bindings": [ { "protocol": "Widget", "factory": "real" } ] }"#,
            "test.json": #"{ "format": 1, "bindings": [ { "protocol": "Widget", "factory": "fake" } ] }"#,
        ])
        let manifests = ManifestDirectory(url: folder.url, loader: ManifestLoader(environment: [:]))
        // The one line a test suite writes:
        let container = try Container(catalog: catalog, manifests: manifests, environment: "test")
        #expect(try container.resolve((any Widget).self).tag == "fake")
        #expect(try Container(catalog: catalog, manifests: manifests).resolve((any Widget).self).tag == "real")
    }

    // MARK: A manifest built in code names its duplicate bindings by place

    @Test func aDuplicateBindingInACodeBuiltManifestNamesItsPlaceInTheList() throws {
        var catalog = FactoryCatalog()
        catalog.register("a", provides: (any Widget).self) { Part() }
        catalog.register("b", provides: (any Widget).self) { Part() }
        do {
            _ = try makeContainer(catalog, [bind("Widget", to: "a"), bind("Widget", to: "b")])
            Issue.record("a duplicate binding activated")
        } catch let error as ManifestError {
            let messages = error.diagnostics.errors.map(\.message)
            #expect(messages.count == 2)
            #expect(messages.contains { $0.contains("(also at bindings[1], factory 'b')") })
            #expect(messages.contains { $0.contains("(also at bindings[0], factory 'a')") })
            #expect(!messages.contains { $0.contains("at  ") || $0.contains("at )") })
        }
    }
}
