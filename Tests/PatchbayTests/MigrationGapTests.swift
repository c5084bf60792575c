// What a migrating user still missed after the first migration table
// (issue #30), row by row. As in MigrationTests, each test is named for the
// library call it stands in for.
import Foundation
import Testing
@testable import Patchbay

struct MigrationGapTests {
    // MARK: KOInject: `dispose()` lets go of the value

    @Test func koInjectDisposeLetsGoOfTheValue() throws {
        var catalog = FactoryCatalog()
        catalog.register("part", provides: (any Widget).self) { Part(tag: "t") }
        let container = try makeContainer(catalog, [bind("Widget", to: "part")])
        let lazy = Lazy((any Widget).self, container: container)
        weak let first = try lazy.get()
        #expect(first != nil, "the Lazy keeps its value")
        lazy.reset()
        #expect(first == nil, "reset lets go of it")
        // Resetting again and again keeps nothing behind.
        var olds: [WeakWidget] = []
        for _ in 0..<100 {
            olds.append(WeakWidget(try lazy.get()))
            lazy.reset()
        }
        #expect(olds.allSatisfy { $0.widget == nil })
    }

    /// A reset while a `get` runs keeps the value it replaced until that `get` returns.
    @Test func koInjectDisposeWaitsForAReaderInFlight() throws {
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let calls = Counter()
        var catalog = FactoryCatalog()
        catalog.register("part", provides: (any Widget).self) { () -> any Widget in
            let call = calls.increment()
            if call == 1 {  // the first caller stays inside its `get` until told
                entered.signal()
                proceed.wait()
            }
            return Part(tag: "t", serial: call)
        }
        let container = try makeContainer(catalog, [bind("Widget", to: "part")])
        let lazy = Lazy((any Widget).self, container: container)
        let done = DispatchGroup()
        done.enter()
        Thread {
            _ = try? lazy.get()
            done.leave()
        }.start()
        entered.wait()
        weak let second = try lazy.get()  // published while the first `get` still runs
        #expect(second?.serial == 2)
        lazy.reset()
        #expect(second != nil, "kept while a get that began before the reset runs")
        proceed.signal()
        done.wait()
        #expect(second == nil, "released when the last get in flight returned")
    }

    // MARK: Swifjection: `injectDependencies(injector:)` fills an object from the injector that made it

    /// Widgets in X's two injectors and in Y, which is the default container;
    /// X makes holders from either injector.
    private func twoContainers() throws -> (x: Container, y: Container) {
        var catalog = FactoryCatalog()
        catalog.register("p", provides: (any Widget).self) { Part(tag: "x-primary") }
        catalog.register("s", provides: (any Widget).self) { Part(tag: "x-secondary") }
        catalog.register("gadget", provides: (any Gadget).self) { Part(tag: "x-gadget") }
        catalog.register("holder", provides: WidgetHolder.self) { WidgetHolder() }
        let x = try makeContainer(
            catalog, injectors: [.primary, .secondary],
            [
                bind("Widget", to: "p"), bind("Widget", to: "s", in: .secondary), bind("Gadget", to: "gadget"),
                bind("WidgetHolder", to: "holder"), bind("WidgetHolder", to: "holder", in: .secondary),
            ])
        var other = FactoryCatalog()
        other.register("y", provides: (any Widget).self) { Part(tag: "y") }
        let y = try makeContainer(other, [bind("Widget", to: "y")])
        return (x, y)
    }

    @Test func swifjectionInjectDependenciesReadsTheContainerAndInjectorThatMadeTheObject() throws {
        let (x, y) = try twoContainers()
        try PatchbaySystem.withContainer(y) { () throws in
            let fromPrimary = try x.resolve(WidgetHolder.self)
            let fromSecondary = try x.resolve(WidgetHolder.self, from: .secondary)
            #expect(fromPrimary.widget.tag == "x-primary", "X made it, not the default container Y")
            #expect(fromSecondary.widget.tag == "x-secondary", "X's secondary injector made it")
            #expect(fromSecondary.primaryWidget.tag == "x-primary", "an injector named in the attribute wins")
            #expect(fromSecondary.gadget?.tag == "x-gadget", "an optional @Injected too: Y binds no Gadget")
            #expect(try fromSecondary.lazyWidget.get().tag == "x-secondary", "and a Lazy the object creates")
            // Made by hand, outside any resolution: the default container, as before.
            let byHand = WidgetHolder()
            #expect(byHand.widget.tag == "y" && byHand.gadget == nil)
            #expect(try byHand.lazyWidget.get().tag == "y")
        }
    }

    @Test func swifjectionInjectDependenciesOfAnObjectAnAsyncFactoryMade() async throws {
        var catalog = FactoryCatalog()
        catalog.register("s", provides: (any Widget).self) { Part(tag: "x-secondary") }
        catalog.register("holder", provides: WidgetHolder.self) { () async in
            await Task.yield()  // made after an await, perhaps on another thread
            return WidgetHolder()
        }
        let x = try makeContainer(
            catalog, injectors: [.primary, .secondary],
            [bind("Widget", to: "s", in: .secondary), bind("WidgetHolder", to: "holder", in: .secondary)])
        let (_, y) = try twoContainers()
        try await PatchbaySystem.withContainer(y) { () async throws in
            let holder = try await x.resolve(awaiting: WidgetHolder.self, from: .secondary)
            #expect(holder.widget.tag == "x-secondary", "X's secondary injector, not the default container")
        }
    }

    @Test func swifjectionInjectDependenciesAContainerNamedInTheAttributeWins() throws {
        let (_, y) = try twoContainers()
        var catalog = FactoryCatalog()
        catalog.register("pinned", provides: PinnedHolder.self) { PinnedHolder(container: y) }
        let z = try makeContainer(catalog, [bind("PinnedHolder", to: "pinned")])
        let holder = try z.resolve(PinnedHolder.self)
        #expect(holder.widget.tag == "y", "made by Z, pinned to Y")
    }

    @Test func swifjectionInjectDependenciesNeverFallsBackWhenItsContainerHasGone() throws {
        let (_, y) = try twoContainers()
        var holder: WidgetHolder?
        do {
            let (x, _) = try twoContainers()
            holder = try x.resolve(WidgetHolder.self)
        }
        try PatchbaySystem.withContainer(y) { () throws in
            let error = try #require(throws: ResolutionError.self) { try holder!.$widget.resolve() }
            #expect(error.reason == .containerReleased, "not Y's widget: the object was made by X")
        }
    }

    @Test func swifjectionInjectDependenciesUsesTheOverridesTheObjectWasMadeWith() throws {
        let (x, _) = try twoContainers()
        let holder = try x.withOverrides({ $0.override((any Widget).self, with: Part(tag: "fake-a")) }) {
            try x.resolve(WidgetHolder.self)
        }
        let read = x.withOverrides({ $0.override((any Widget).self, with: Part(tag: "fake-b")) }) {
            // Overrides A are over by now: their table is gone, so the object reads without them.
            holder.widget.tag
        }
        #expect(read == "x-primary")
        let kept = try x.withOverrides({ $0.override((any Widget).self, with: Part(tag: "fake-a")) }) {
            let made = try x.resolve(WidgetHolder.self)
            return x.withOverrides({ $0.override((any Widget).self, with: Part(tag: "fake-b")) }) {
                made.widget.tag  // read inside other overrides: the ones it was made with win
            }
        }
        #expect(kept == "fake-a")
    }

    // MARK: Inject-Swift: `unforceInject()`, Swinject: `injectIfProvided(for:)`

    @Test func injectSwiftUnforceInjectIsNilOnlyWhenUnbound() throws {
        let (x, _) = try twoContainers()
        try PatchbaySystem.withContainer(x) { () throws in
            let bound: (any Gadget)? = injectIfBound()
            #expect(bound?.tag == "x-gadget")
            #expect(injectIfBound((any Sprocket).self) == nil, "Sprocket is not bound")
            #expect(injectIfBound((any Widget).self, from: .secondary)?.tag == "x-secondary")
        }
    }

    #if compiler(>=6.2)
    @Test func injectSwiftUnforceInjectStopsWhenTheFactoryFails() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var catalog = FactoryCatalog()
            catalog.register("broken", provides: (any Gadget).self) { () throws -> any Gadget in
                throw CocoaError(.fileNoSuchFile)
            }
            let container = try makeContainer(catalog, [bind("Gadget", to: "broken")])
            PatchbaySystem.withContainer(container) { _ = injectIfBound((any Gadget).self) }
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("Patchbay cannot resolve Gadget") && output.contains("broken"), "\(output)")
    }
    #endif

    // MARK: Inject-Swift: `Box` for a value-type singleton

    @Test func injectSwiftBoxAValueSingletonIsACopyAClassIsShared() throws {
        var catalog = FactoryCatalog()
        catalog.register("value", provides: ThemeValue.self, lifetime: .singleton) { ThemeValue() }
        catalog.register("shared", provides: ThemeBox.self, lifetime: .singleton) { ThemeBox() }
        let container = try makeContainer(
            catalog, [bind("ThemeValue", to: "value", .singleton), bind("ThemeBox", to: "shared", .singleton)])
        var copy = try container.resolve(ThemeValue.self)
        copy.name = "dark"
        #expect(try container.resolve(ThemeValue.self).name == "light", "each resolve is a copy of the one value")
        try container.resolve(ThemeBox.self).name = "dark"
        #expect(try container.resolve(ThemeBox.self).name == "dark", "a class is shared")
    }

    // MARK: KOInject: `resolve(_:argument:)` inside a factory, `KOILazyResolverArg1`

    /// A gadget made from a (String, Int) argument; a pair that derives one from its own String.
    private func argumentCatalog() -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("labelled", provides: (any Gadget).self, argument: (String, Int).self) { arguments in
            Part(tag: arguments.0, serial: arguments.1)
        }
        catalog.registerResolving("derived", provides: PartPair.self) { resolver in
            let gadget = try resolver.resolve((any Gadget).self, argument: ("derived", 7))
            return PartPair(widget: Part(tag: "plain"), gadget: gadget)
        }
        return catalog
    }

    @Test func koInjectResolveWithArgumentInsideAFactory() throws {
        let container = try makeContainer(
            argumentCatalog(), [bind("Gadget", to: "labelled"), bind("PartPair", to: "derived")])
        let pair = try container.resolve(PartPair.self)
        #expect(pair.gadget.tag == "derived" && pair.gadget.serial == 7)
    }

    @Test func koInjectLazyResolverArg1ResolvesWithItsArgument() throws {
        let container = try makeContainer(argumentCatalog(), [bind("Gadget", to: "labelled")])
        let lazy = Lazy((any Gadget).self, container: container, argument: ("lazy", 3))
        #expect(!lazy.isResolved)
        let first = try lazy.get()
        #expect(first.tag == "lazy" && first.serial == 3)
        #expect(try lazy.get() === first)
        let wrong = Lazy((any Gadget).self, container: container, argument: 3)
        let error = try #require(throws: ResolutionError.self) { try wrong.get() }
        #expect(error.reason == .argumentMismatch)
    }

    // MARK: Impose 3: `scoped(by:)`, `scopedUsingSameContext`, `@Scoped`

    /// A scoped session, and a transient model that reads it.
    private func sessionContainer() throws -> Container {
        var catalog = FactoryCatalog()
        catalog.register("session", provides: (any Widget).self, lifetime: .scoped) { Part(tag: "session") }
        catalog.register("model", provides: ScreenModel.self) { ScreenModel() }
        return try makeContainer(catalog, [bind("Widget", to: "session", .scoped), bind("ScreenModel", to: "model")])
    }

    @Test func imposeScopedByAttachesAnExistingObjectToAScope() throws {
        let container = try sessionContainer()
        try PatchbaySystem.withContainer(container) { () throws in
            let scope = Scope()
            let other = Scope()
            let model = scope.adopt(ScreenModel())   // made by hand, outside any scope
            let session = try scope.resolve((any Widget).self, from: container)
            // Read inside another scope's `run`: the scope it was given wins.
            #expect(other.run { model.session } === session)
            #expect(Scope.of(model) === scope)
            // A Lazy the object holds is adopted too.
            let holder = scope.adopt(HandMadeLazyHolder())
            #expect(try holder.widget.get() === session)
            scope.close()
            let late = scope.adopt(ScreenModel())
            let error = try #require(throws: ResolutionError.self) { try late.$session.resolve() }
            #expect(error.reason == .scopeClosed, "a closed scope serves nothing")
        }
    }

    @Test func imposeScopedUsingSameContextReadsAnObjectsScope() throws {
        let container = try sessionContainer()
        let scope = Scope()
        let model = try scope.resolve(ScreenModel.self, from: container)
        #expect(Scope.of(model) === scope, "made in the scope: its scope")
        let sibling = try #require(Scope.of(model)).resolve(ScreenModel.self, from: container)
        #expect(try sibling.$session.resolve() === model.$session.resolve(), "one session in one scope")
        #expect(Scope.of(ScreenModel()) == nil, "made in no scope: it resolves in its reader's")
    }

    #if compiler(>=6.2)
    @Test func imposeScopedByAfterTheFirstReadStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let model = ScreenModel()
            model.$session = Injected(Part(tag: "read"))
            Scope().adopt(model)
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("ScreenModel.session was read before the object was adopted"), "\(output)")
    }
    #endif
}

/// A weak reference to a widget, to collect many.
struct WeakWidget {
    weak var widget: (any Widget)?
    init(_ widget: any Widget) { self.widget = widget }
}

/// Reads widgets the way an object made by a factory does.
final class WidgetHolder: @unchecked Sendable {
    @Injected var widget: any Widget
    @Injected(from: .primary) var primaryWidget: any Widget
    @Injected var gadget: (any Gadget)?
    let lazyWidget = Lazy((any Widget).self)
}

/// A value-type singleton, and the class that shares one.
struct ThemeValue: Sendable { var name = "light" }
final class ThemeBox: @unchecked Sendable { var name = "light" }

/// Holds a `Lazy` made without a container, as an object made by hand does.
final class HandMadeLazyHolder: @unchecked Sendable {
    let widget = Lazy((any Widget).self)
}

/// Names its container in the attribute's place, whoever makes it.
final class PinnedHolder: @unchecked Sendable {
    @Injected var widget: any Widget
    init(container: Container) { _widget = Injected(container: container) }
}
