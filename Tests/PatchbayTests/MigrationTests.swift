// What users of the containers Patchbay replaces do today, row by row of
// the migration table (issue "Everything the libraries we replace can do").
// Each test is named after its row.
import Foundation
import Testing
@testable import Patchbay

/// A class hierarchy, for the rule on superclass requests.
class Vehicle: @unchecked Sendable { var wheels: Int { 0 } }
final class Bicycle: Vehicle, @unchecked Sendable { override var wheels: Int { 2 } }

/// A holder of injected dependencies, for per-instance overrides.
private final class Workshop {
    @Injected var widget: any Widget
    @Injected var gadget: (any Gadget)?
}

/// A screen's model: its session is scoped, and it reads it through `@Injected`.
final class ScreenModel: @unchecked Sendable {
    @Injected var session: any Widget
}

/// A screen that owns its scope, as Impose 3's `Scopable` objects do.
private final class Screen {
    let scope = Scope()
    var model: ScreenModel?
}

/// Two views of what may be one object.
final class PartPair: @unchecked Sendable {
    let widget: any Widget
    let gadget: any Gadget
    init(widget: any Widget, gadget: any Gadget) {
        self.widget = widget
        self.gadget = gadget
    }
}

/// Builds itself from the container: no factory, no binding.
struct Workbench: Injectable {
    let widget: any Widget
    let gadget: (any Gadget)?
    init(resolver: Resolver) throws {
        widget = try resolver.resolve()
        gadget = try resolver.resolveIfBound()
    }
    init(widget: any Widget, gadget: (any Gadget)?) {
        self.widget = widget
        self.gadget = gadget
    }
}

/// Two self-building types that need each other.
struct Ping: Injectable {
    init(resolver: Resolver) throws { _ = try resolver.resolve(Pong.self) }
}
struct Pong: Injectable {
    init(resolver: Resolver) throws { _ = try resolver.resolve(Ping.self) }
}

/// Reads a self-building type through `@Injected`.
private final class WorkbenchHolder {
    @Injected var workbench: Workbench
}

struct MigrationTests {
    // MARK: KOInject: several resolve-time arguments, passed on to dependencies

    /// Gadget takes (String, Int); the pair takes the same and needs a gadget and a widget.
    private func argumentCatalog() -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("part", provides: (any Widget).self) { Part(tag: "plain") }
        catalog.register("labelled", provides: (any Gadget).self, argument: (String, Int).self) { arguments in
            Part(tag: arguments.0, serial: arguments.1)
        }
        catalog.register("pair", provides: PartPair.self, argument: (String, Int).self) {
            (_: (String, Int), widget: any Widget, gadget: any Gadget) in
            PartPair(widget: widget, gadget: gadget)
        }
        return catalog
    }

    @Test func koInjectSeveralArgumentsReachTheFactoryAndItsDependencies() throws {
        let container = try makeContainer(argumentCatalog(), [
            bind("Widget", to: "part"), bind("Gadget", to: "labelled"), bind("PartPair", to: "pair"),
        ])
        let gadget = try container.resolve((any Gadget).self, arguments: "left", 7)
        #expect(gadget.tag == "left" && gadget.serial == 7)
        let pair = try container.resolve(PartPair.self, arguments: "right", 9)
        #expect(pair.gadget.tag == "right" && pair.gadget.serial == 9, "the pair's arguments went on to its gadget")
        #expect(pair.widget.tag == "plain", "a dependency that takes no argument ignores it")
        do {
            _ = try container.resolve(PartPair.self, arguments: 9, "right")
            Issue.record("arguments in the wrong order were accepted")
        } catch {
            #expect(error.reason == .argumentMismatch)
        }
        do {
            _ = try container.resolve(PartPair.self)
            Issue.record("no arguments were accepted")
        } catch {
            #expect(error.reason == .argumentMissing)
        }
    }

    @Test func koInjectADependencyThatTakesArgumentsNeedsADependentThatPassesThem() throws {
        var catalog = argumentCatalog()
        catalog.register("needs-gadget", provides: (any Sprocket).self) { (gadget: any Gadget) in Part(tag: gadget.tag) }
        catalog.register("other-arguments", provides: (any Sprocket).self, argument: String.self) {
            (_: String, gadget: any Gadget) in Part(tag: gadget.tag)
        }
        for factory in ["needs-gadget", "other-arguments"] {
            do {
                _ = try makeContainer(catalog, [bind("Gadget", to: "labelled"), bind("Sprocket", to: factory)])
                Issue.record("'\(factory)' activated though nothing passes the gadget its arguments")
            } catch let error as ManifestError {
                #expect(errorCodes(error) == [.argumentRequired])
            }
        }
    }

    // MARK: KOInject: an isolated resolver that disposes of what it made

    @Test func koInjectIsolatedResolutionReleasesEverythingItMade() throws {
        let serials = Counter()
        var catalog = FactoryCatalog()
        catalog.register("shared", provides: (any Widget).self, lifetime: .singleton) {
            Part(tag: "singleton", serial: serials.increment())
        }
        catalog.register("session", provides: (any Gadget).self, lifetime: .scoped) { Part(tag: "scoped") }
        catalog.register("pair", provides: PartPair.self) { (widget: any Widget, gadget: any Gadget) in
            PartPair(widget: widget, gadget: gadget)
        }
        let container = try makeContainer(
            catalog, [bind("Widget", to: "shared"), bind("Gadget", to: "session"), bind("PartPair", to: "pair")])
        let outside = try container.resolve((any Widget).self)
        weak var isolatedSingleton: Part?
        weak var isolatedSession: Part?
        let tags = try container.isolated {
            let pair = try container.resolve(PartPair.self)
            #expect(try container.resolve(PartPair.self).widget === pair.widget, "shared inside the isolation")
            #expect(try container.resolve(PartPair.self).gadget === pair.gadget, "one scope for the isolation")
            #expect(pair.widget !== outside, "the container's singleton is not used")
            #expect(try container.resolve((any Widget).self) === pair.widget, "one singleton inside the isolation")
            isolatedSingleton = pair.widget as? Part
            isolatedSession = pair.gadget as? Part
            return [pair.widget.tag, pair.gadget.tag]
        }
        #expect(tags == ["singleton", "scoped"])
        #expect(isolatedSingleton == nil && isolatedSession == nil, "released when the isolation returned")
        #expect(try container.resolve((any Widget).self) === outside, "the container's singleton is unchanged")
        #expect(serials.value == 2)
    }

    @Test func koInjectIsolatedResolutionAcrossAwait() async throws {
        var catalog = FactoryCatalog()
        catalog.register("shared", provides: (any Widget).self, lifetime: .singleton) { Part(tag: "singleton") }
        let container = try makeContainer(catalog, [bind("Widget", to: "shared")])
        weak var made: Part?
        try await container.isolated {
            let widget = try container.resolve((any Widget).self)
            await Task.yield()
            #expect(try container.resolve((any Widget).self) === widget)
            made = widget as? Part
        }
        #expect(made == nil)
    }

    // MARK: Swifjection: types that build themselves from the container

    @Test func swifjectionInjectableTypesBuildThemselvesWithoutABinding() throws {
        let serials = Counter()
        var catalog = FactoryCatalog()
        catalog.register("part", provides: (any Widget).self) { Part(tag: "main", serial: serials.increment()) }
        catalog.register("spare", provides: (any Widget).self) { Part(tag: "spare") }
        let container = try makeContainer(
            catalog, [bind("Widget", to: "part"), bind("Widget", to: "spare", in: .secondary)])
        let first = try container.resolve(Workbench.self)
        let second = try container.resolve(Workbench.self)
        #expect(first.widget.tag == "main" && first.gadget == nil)
        #expect(first.widget !== second.widget, "built anew each time, like a transient")
        #expect(try container.resolve(Workbench.self, from: .secondary).widget.tag == "spare",
            "its needs come from the injector it was asked from")
        #expect(try container.resolveIfBound(Workbench.self) != nil)
        try PatchbaySystem.withContainer(container) { () throws in
            #expect(WorkbenchHolder().workbench.widget.tag == "main")
        }
    }

    @Test func swifjectionInjectableTypesBuildSafelyOnManyThreadsAtOnce() throws {
        var catalog = FactoryCatalog()
        catalog.register("part", provides: (any Widget).self, lifetime: .singleton) { Part(tag: "shared") }
        let container = try makeContainer(catalog, [bind("Widget", to: "part")])
        let built = Counter()
        onThreads(8) { _ in
            for _ in 0..<200 where (try? container.resolve(Workbench.self))?.widget.tag == "shared" {
                _ = built.increment()
            }
        }
        #expect(built.value == 1_600)
    }

    @Test func swifjectionABindingOfTheTypeWins() throws {
        var catalog = FactoryCatalog()
        catalog.register("part", provides: (any Widget).self) { Part(tag: "from the resolver") }
        catalog.register("made", provides: Workbench.self) { Workbench(widget: Part(tag: "from the factory"), gadget: nil) }
        let bound = try makeContainer(catalog, [bind("Widget", to: "part"), bind("Workbench", to: "made")])
        #expect(try bound.resolve(Workbench.self).widget.tag == "from the factory")
        let unbound = try makeContainer(catalog, [bind("Widget", to: "part")])
        #expect(try unbound.resolve(Workbench.self).widget.tag == "from the resolver")
    }

    @Test func swifjectionALoopOfInjectableTypesIsACycleError() throws {
        let container = try makeContainer(FactoryCatalog(), [])
        do {
            _ = try container.resolve(Ping.self)
            Issue.record("a loop resolved")
        } catch {
            #expect(error.reason == .dependencyCycle)
            #expect(error.description.contains("Ping -> Pong -> Ping"))
        }
    }

    @Test func swifjectionAManifestCannotNameAnInjectableType() throws {
        var catalog = FactoryCatalog()
        catalog.register("part", provides: (any Widget).self) { Part() }
        #expect(throws: ManifestError.self) {
            try makeContainer(catalog, [bind("Workbench", to: "Workbench")])
        }
        do {
            _ = try makeContainer(catalog, [bind("Workbench", to: "Workbench")])
        } catch let error as ManifestError {
            #expect(errorCodes(error).contains(.unknownProtocol))
        }
        // A factory's typed need is checked against the manifest, Injectable or not.
        catalog.register("holder", provides: (any Gadget).self) { (_: Workbench) in Part() }
        do {
            _ = try makeContainer(catalog, [bind("Gadget", to: "holder"), bind("Widget", to: "part")])
            Issue.record("an unbound typed need activated")
        } catch let error as ManifestError {
            #expect(errorCodes(error).contains(.missingDependency))
        }
    }

    // MARK: Impose 3: one provider for several types, shared in every lifetime

    /// A container binding Widget and Gadget to one product factory with `lifetime`,
    /// and a transient pair that needs both.
    private func comboContainer(_ lifetime: Lifetime, _ serials: Counter) throws -> Container {
        var catalog = FactoryCatalog()
        catalog.register("combo", product: Part.self, provides: (any Widget).self, (any Gadget).self) {
            Part(tag: "combo", serial: serials.increment())
        }
        catalog.register("pair", provides: PartPair.self) { (widget: any Widget, gadget: any Gadget) in
            PartPair(widget: widget, gadget: gadget)
        }
        return try makeContainer(catalog, [
            bind("Widget", to: "combo", lifetime), bind("Gadget", to: "combo", lifetime), bind("PartPair", to: "pair"),
        ])
    }

    @Test(arguments: [Lifetime.singleton, .weak, .scoped, .graph, .transient])
    func imposeOneProviderForSeveralTypesSharesInEveryLifetime(_ lifetime: Lifetime) throws {
        let serials = Counter()
        let container = try comboContainer(lifetime, serials)
        let scope = Scope()
        let pair = try scope.resolve(PartPair.self, from: container)
        let again = try scope.resolve(PartPair.self, from: container)
        switch lifetime {
        case .transient:
            #expect(pair.widget !== pair.gadget, "a transient shares nothing")
        case .graph:
            #expect(pair.widget === pair.gadget, "one object in one graph, seen as each type")
            #expect(again.widget !== pair.widget, "another top-level resolve, another graph")
        case .scoped:
            #expect(pair.widget === pair.gadget && again.gadget === pair.widget, "one object in one scope")
            let other = try Scope().resolve(PartPair.self, from: container)
            #expect(other.widget !== pair.widget && other.widget === other.gadget)
        default:  // singleton, weak (held by `pair`)
            #expect(pair.widget === pair.gadget && again.gadget === pair.widget)
            #expect(try container.resolve((any Gadget).self) === pair.widget)
        }
        let expected = lifetime == .transient ? 4 : lifetime == .graph ? 2 : lifetime == .scoped ? 2 : 1
        #expect(serials.value == expected)
    }

    @Test func imposeAWeakSharedProductIsMadeAgainWhenNoTypeHoldsIt() throws {
        let serials = Counter()
        let container = try comboContainer(.weak, serials)
        weak var released: Part?
        do {
            let widget = try container.resolve((any Widget).self)
            #expect(try container.resolve((any Gadget).self) === widget)
            released = widget as? Part
        }
        #expect(released == nil)
        let gadget = try container.resolve((any Gadget).self)
        #expect(try gadget.serial == 2 && container.resolve((any Widget).self) === gadget)
    }

    // MARK: Impose 3: scopes bound to an object

    /// A catalog with a scoped session and a transient model that injects it.
    private func screenContainer(_ serials: Counter = Counter()) throws -> Container {
        var catalog = FactoryCatalog()
        catalog.register("session", provides: (any Widget).self, lifetime: .scoped) {
            Part(tag: "session", serial: serials.increment())
        }
        catalog.register("model", provides: ScreenModel.self) { ScreenModel() }
        return try makeContainer(catalog, [bind("Widget", to: "session"), bind("ScreenModel", to: "model")])
    }

    @Test func imposeObjectsMadeForAScopeResolveInItWhereverTheyAreFirstRead() throws {
        let container = try screenContainer()
        try PatchbaySystem.withContainer(container) { () throws in
            let screen = Scope()
            let model = try screen.resolve(ScreenModel.self, from: container)
            let sibling = try screen.resolve(ScreenModel.self, from: container)
            // First read here, outside any `run`: the scope the model was made for serves it.
            #expect(model.session === sibling.session)
            #expect(try model.session === screen.resolve((any Widget).self, from: container))
            let elsewhere = Scope()
            let foreign = try elsewhere.resolve(ScreenModel.self, from: container)
            #expect(foreign.session !== model.session, "another scope, another session")
            // Made inside `run`, read inside another scope's `run`: its own scope still wins.
            let madeInRun = try screen.run { try container.resolve(ScreenModel.self) }
            #expect(elsewhere.run { madeInRun.session } === model.session)
        }
    }

    @Test func imposeAScopeAnObjectOwnsReleasesItsInstancesWithIt() throws {
        let container = try screenContainer()
        weak var session: Part?
        weak var model: ScreenModel?
        try PatchbaySystem.withContainer(container) { () throws in
            var screen: Screen? = Screen()
            screen!.model = try screen!.scope.resolve(ScreenModel.self, from: container)
            session = screen!.model!.session as? Part
            model = screen!.model
            #expect(session != nil && model != nil)
            screen = nil
        }
        #expect(session == nil, "the session went with the screen that owned its scope")
        #expect(model == nil)
    }

    @Test func imposeNoScopeIsAnErrorNeverAQuietSingleton() throws {
        let container = try screenContainer()
        try PatchbaySystem.withContainer(container) { () throws in
            let unscoped = try container.resolve(ScreenModel.self)
            #expect(throws: ResolutionError.self) { try unscoped.$session.resolve() }
            #expect((try? unscoped.$session.resolve()) == nil)
            do {
                _ = try unscoped.$session.resolve()
            } catch {
                #expect((error as? ResolutionError)?.reason == .noActiveScope)
            }
            // Made outside a scope, read inside one: the reader's scope serves it.
            let reader = Scope()
            #expect(try reader.run { try unscoped.$session.resolve() } === reader.resolve((any Widget).self, from: container))

            // The owner's scope closed, or gone, before the first read.
            let closed = Scope()
            let late = try closed.resolve(ScreenModel.self, from: container)
            closed.close()
            var gone: Scope? = Scope()
            let orphan = try gone!.resolve(ScreenModel.self, from: container)
            gone = nil
            for model in [late, orphan] {
                do {
                    _ = try model.$session.resolve()
                    Issue.record("a closed scope served a session")
                } catch {
                    #expect((error as? ResolutionError)?.reason == .scopeClosed)
                }
            }
        }
    }

    // MARK: KOInject: a lazy resolver that can be disposed and resolved again

    @Test func koInjectLazyResolverCanBeResetAndResolvedAgain() throws {
        let serials = Counter()
        var catalog = FactoryCatalog()
        catalog.register("part", provides: (any Widget).self) { Part(tag: "t", serial: serials.increment()) }
        catalog.register("one", provides: (any Gadget).self, lifetime: .singleton) { Part(tag: "s") }
        let container = try makeContainer(catalog, [bind("Widget", to: "part"), bind("Gadget", to: "one")])
        let lazy = Lazy((any Widget).self, container: container)
        #expect(!lazy.isResolved)
        let first = try lazy.get()
        #expect(try lazy.get() === first, "kept until reset")
        #expect(lazy.isResolved)
        lazy.reset()
        #expect(!lazy.isResolved)
        let second = try lazy.get()
        #expect(second !== first && first.serial == 1 && second.serial == 2, "a transient is made anew")
        // A singleton's lifetime is the binding's: after a reset, the same instance again.
        let shared = Lazy((any Gadget).self, container: container)
        let before = try shared.get()
        shared.reset()
        #expect(try shared.get() === before)
    }

    @Test func aLazyResetWhileOtherThreadsReadIsSafe() throws {
        var catalog = FactoryCatalog()
        catalog.register("part", provides: (any Widget).self) { Part(tag: "t") }
        let container = try makeContainer(catalog, [bind("Widget", to: "part")])
        let lazy = Lazy((any Widget).self, container: container)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for round in 0..<2_000 {
                if worker == 0, round % 10 == 0 { lazy.reset() } else { _ = try? lazy.get() }
            }
        }
        #expect(try lazy.get().tag == "t")
    }

    // MARK: Inject-Swift: override one instance's dependency (`self.$dep = fake`)

    @Test func injectSwiftOverrideOneInstancesDependency() throws {
        var catalog = FactoryCatalog()
        catalog.register("real", provides: (any Widget).self) { Part(tag: "real") }
        let container = try makeContainer(catalog, [bind("Widget", to: "real")])
        try PatchbaySystem.withContainer(container) { () throws in
            let overridden = Workshop()
            overridden.$widget = Injected(Part(tag: "fake"))
            overridden.$gadget = Injected(Part(tag: "spare"))
            let plain = Workshop()
            #expect(overridden.widget.tag == "fake")
            #expect(overridden.gadget?.tag == "spare")
            #expect(try overridden.$widget.resolve().tag == "fake" && overridden.$widget.isResolved)
            #expect(plain.widget.tag == "real", "only that one instance")
            #expect(plain.gadget == nil, "Gadget is not bound")
        }
        // With no container at all, an overridden property needs none.
        let alone = Workshop()
        alone.$widget = Injected(Part(tag: "alone"))
        alone.$gadget = Injected(nil)
        #expect(alone.widget.tag == "alone" && alone.gadget == nil)
    }

    // MARK: Impose 1: no-match rules for class hierarchies

    /// Patchbay resolves exactly the type requested: a binding of a subclass
    /// does not serve its superclass, nor the reverse. A manifest says which
    /// factory serves which type, and `check` verifies exactly that; a search
    /// through subclasses would let one binding answer for types the manifest
    /// never names. To serve the superclass too, the factory provides both.
    @Test func imposeNoMatchRulesAreRefusedAClassServesOnlyTheTypesItsFactoryProvides() throws {
        var catalog = FactoryCatalog()
        catalog.register("bicycle", provides: Bicycle.self) { Bicycle() }
        let container = try makeContainer(catalog, [bind("Bicycle", to: "bicycle")])
        #expect(try container.resolve(Bicycle.self).wheels == 2)
        let error = try #require(throws: ResolutionError.self) { try container.resolve(Vehicle.self) }
        #expect(error.reason == .notBound)
        #expect(try container.resolveIfBound(Vehicle.self) == nil)

        // The way to serve both: one factory that provides both types.
        var both = FactoryCatalog()
        both.register("bicycle", product: Bicycle.self, provides: Bicycle.self, Vehicle.self) { Bicycle() }
        let served = try makeContainer(both, [bind("Bicycle", to: "bicycle"), bind("Vehicle", to: "bicycle")])
        #expect(try served.resolve(Vehicle.self).wheels == 2)
    }
}
