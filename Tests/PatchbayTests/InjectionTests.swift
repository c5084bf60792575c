import Dispatch
@testable import Patchbay
import Testing

// Types that use the injection API, as an app would. They read the default
// container, which the tests set per task with PatchbaySystem.withContainer.

final class InjectedClass {
    @Injected var widget: any Widget
    @Injected(from: .secondary) var secondaryWidget: any Widget
    @Injected(from: "fixtures") var fixtureWidget: any Widget
    @Injected var database: (any Database)?
}

struct InjectedStruct {
    @Injected var widget: any Widget
    @Injected var gadget: (any Gadget)?
}

actor InjectedActor {
    @Injected var widget: any Widget
    @Injected var database: (any Database)?

    func tags() -> [String] {
        [widget.tag, database?.label ?? "none"]
    }
}

@MainActor
final class InjectedViewModel {
    @Injected var widget: any Widget
    @Injected(from: .secondary) var secondaryWidget: any Widget
    var title: String { "\(widget.tag)/\(secondaryWidget.tag)" }
}

/// Takes its dependencies as default arguments, so tests can also pass them by hand.
struct DefaultArguments {
    let widget: any Widget
    let gadget: (any Gadget)?
    let greeting: any Greeting

    init(
        widget: any Widget = inject(),
        gadget: (any Gadget)? = try? PatchbaySystem.container?.resolveIfBound((any Gadget).self),
        greeting: any Greeting = inject((any Greeting).self, ifFailUse: TextGreeting(text: "fallback"))
    ) {
        self.widget = widget
        self.gadget = gadget
        self.greeting = greeting
    }
}

/// `@Injected` (of `T` and `T?`), `inject()` and `PatchbaySystem.withContainer`.
struct InjectionTests {
    private func catalog(widgets: Counter = Counter()) -> FactoryCatalog {
        var catalog = FactoryCatalog()
        for tier in ["primary", "secondary", "fixtures"] {
            catalog.register("widget-\(tier)", provides: (any Widget).self) {
                Part(tag: tier, serial: widgets.increment())
            }
        }
        catalog.register("db", provides: (any Database).self) { FakeDatabase(label: "db") }
        catalog.register("failing-db", provides: (any Database).self) { () throws -> any Database in
            throw FixtureError(message: "broken")
        }
        catalog.register("gadget", provides: (any Gadget).self) { Part(tag: "gadget") }
        catalog.register("hello", provides: (any Greeting).self) { TextGreeting(text: "hello") }
        catalog.register("failing-hello", provides: (any Greeting).self) { () throws -> any Greeting in
            throw FixtureError(message: "no greeting")
        }
        return catalog
    }

    private func container(widgets: Counter = Counter(), extra: [Binding] = []) throws -> Container {
        try makeContainer(catalog(widgets: widgets), injectors: ["primary", "secondary", "fixtures"], [
            bind("Widget", to: "widget-primary"),
            bind("Widget", to: "widget-secondary", in: .secondary),
            bind("Widget", to: "widget-fixtures", in: "fixtures"),
        ] + extra)
    }

    @Test func injectedIsLazy() throws {
        let widgets = Counter()
        let container = try container(widgets: widgets)
        try PatchbaySystem.withContainer(container) { () throws in
            let object = InjectedClass()
            #expect(widgets.value == 0, "nothing is resolved when the object is made")
            #expect(!object.$widget.isResolved)
            #expect(object.widget.tag == "primary")
            #expect(widgets.value == 1)
            #expect(object.$widget.isResolved)
            #expect(object.widget === object.widget, "resolved once and kept")
            #expect(try object.$widget.resolve() === object.widget)
            #expect(widgets.value == 1)
        }
    }

    @Test func injectedReadsTheNamedInjector() throws {
        let container = try container(extra: [bind("Database", to: "db")])
        try PatchbaySystem.withContainer(container) { () throws in
            let object = InjectedClass()
            #expect(object.widget.tag == "primary")
            #expect(object.secondaryWidget.tag == "secondary")
            #expect(object.fixtureWidget.tag == "fixtures")
            #expect(object.database?.label == "db")
        }
    }

    @Test func injectedWithAnExplicitContainer() throws {
        let first = try container()
        var otherCatalog = FactoryCatalog()
        otherCatalog.register("other", provides: (any Widget).self) { Part(tag: "other") }
        let second = try makeContainer(otherCatalog, [bind("Widget", to: "other")])

        @Injected(container: second) var fromSecond: any Widget
        @Injected(from: .secondary, container: first) var fromFirst: any Widget
        #expect(fromSecond.tag == "other")
        #expect(fromFirst.tag == "secondary")
        // An explicit container wins over the task's default.
        try PatchbaySystem.withContainer(first) { () throws in
            @Injected(container: second) var explicit: any Widget
            #expect(try $explicit.resolve().tag == "other")
        }
    }

    @Test func firstAccessFromManyThreadsYieldsOneValue() throws {
        var catalog = FactoryCatalog()
        let calls = Counter()
        catalog.register("slow", provides: (any Widget).self) { () -> any Widget in
            let serial = calls.increment()
            briefly()
            return Part(tag: "slow", serial: serial)
        }
        let container = try makeContainer(catalog, [bind("Widget", to: "slow", .transient)])
        for _ in 0..<3 {
            let holder = InjectedHolder(container: container)
            let seen = Collected<ObjectIdentifier>()
            DispatchQueue.concurrentPerform(iterations: 16) { _ in
                seen.append(ObjectIdentifier(holder.widget))
            }
            #expect(Set(seen.all).count == 1, "every thread reads the same value")
            #expect(seen.all.count == 16)
            #expect(holder.widget === holder.widget)
        }
    }

    final class InjectedHolder: Sendable {
        let injected: Injected<any Widget>
        init(container: Container) { injected = Injected(container: container) }
        var widget: any Widget { injected.wrappedValue }
    }

    @Test func safelyInjectedIsNilOnlyWhenNotBound() throws {
        try PatchbaySystem.withContainer(container()) { () throws in
            let object = InjectedClass()
            #expect(object.database == nil)
            #expect(try object.$database.resolve() == nil)
        }
        try PatchbaySystem.withContainer(container(extra: [bind("Database", to: "failing-db")])) { () throws in
            let object = InjectedClass()
            let error = #expect(throws: ResolutionError.self) { try object.$database.resolve() }
            #expect(error?.reason == .factoryFailed, "a failing factory is an error, not nil")
        }
    }

    @Test func projectedResolveThrowsInsteadOfStopping() throws {
        try PatchbaySystem.withContainer(container()) { () throws in
            @Injected var missing: any Gadget
            let error = #expect(throws: ResolutionError.self) { try $missing.resolve() }
            #expect(error?.reason == .notBound)
            #expect(error?.requestedType == "Gadget")
            #expect(!$missing.isResolved)
        }
        // No container anywhere.
        @Injected var orphan: any Widget
        let error = #expect(throws: ResolutionError.self) { try $orphan.resolve() }
        #expect(error?.reason == .notBootstrapped)
        #expect(error?.description.contains("PatchbaySystem.bootstrap") == true)
    }

    #if compiler(>=6.2)
    @Test func readingAnInjectedThatCannotResolveStopsWithTheMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            readAnUnboundInjected()
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("Patchbay cannot resolve Gadget"), "in debug and release alike: \(output)")
    }
    #endif

    @Test func injectFunctionsForDefaultArguments() throws {
        let container = try container(extra: [bind("Gadget", to: "gadget"), bind("Greeting", to: "hello")])
        try PatchbaySystem.withContainer(container) { () throws in
            let made = DefaultArguments()
            #expect(made.widget.tag == "primary")
            #expect(made.gadget?.tag == "gadget")
            #expect(made.greeting.text == "hello")
            let secondary: any Widget = inject(from: .secondary)
            #expect(secondary.tag == "secondary")
            #expect(inject((any Widget).self, from: "fixtures").tag == "fixtures")
        }
        let sparse = try self.container(extra: [bind("Greeting", to: "failing-hello")])
        try PatchbaySystem.withContainer(sparse) { () throws in
            let made = DefaultArguments()
            #expect(made.gadget == nil, "resolveIfBound: nil when not bound")
            #expect(made.greeting.text == "fallback", "ifFailUse: the fallback when the factory fails")
            @Injected var unbound: (any Database)?
            #expect(unbound == nil)
            #expect(inject((any Database).self, ifFailUse: FakeDatabase(label: "spare")).label == "spare")
        }
        // By hand, without any container.
        let byHand = DefaultArguments(widget: Part(tag: "hand"), gadget: nil, greeting: TextGreeting(text: "hi"))
        #expect(byHand.widget.tag == "hand")
        // No container at all: ifFailUse falls back.
        #expect(inject((any Greeting).self, ifFailUse: TextGreeting(text: "none")).text == "none")
    }

    @Test func injectIfFailUseInTheDocumentedDefaultArgumentForm() throws {
        // The documented form: the type is required, so it cannot be taken from the fallback.
        struct WithDefault {
            let greeting: any Greeting
            init(greeting: any Greeting = inject((any Greeting).self, ifFailUse: TextGreeting(text: "fallback"))) {
                self.greeting = greeting
            }
        }
        let container = try container(extra: [bind("Greeting", to: "hello")])
        PatchbaySystem.withContainer(container) {
            #expect(WithDefault().greeting.text == "hello")
        }
        #expect(WithDefault().greeting.text == "fallback")
    }

    @Test func withContainerIsPerTask() async throws {
        let first = try container()
        var otherCatalog = FactoryCatalog()
        otherCatalog.register("other", provides: (any Widget).self) { Part(tag: "other") }
        let second = try makeContainer(otherCatalog, [bind("Widget", to: "other")])
        #expect(PatchbaySystem.container == nil, "no test bootstraps the global container")

        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask {
                    let container = index % 2 == 0 ? first : second
                    let expected = index % 2 == 0 ? "primary" : "other"
                    try await PatchbaySystem.withContainer(container) { () async throws in
                        await Task.yield()
                        #expect(PatchbaySystem.container === container)
                        let object = InjectedStruct()
                        #expect(object.widget.tag == expected)
                        let child = await Task { inject((any Widget).self).tag }.value
                        #expect(child == expected, "child tasks inherit the container")
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(PatchbaySystem.container == nil)
    }

    @Test func wrappersInAStruct() throws {
        try PatchbaySystem.withContainer(container(extra: [bind("Gadget", to: "gadget")])) { () throws in
            let value = InjectedStruct()
            let copy = value
            #expect(value.widget === copy.widget, "copies share one resolution")
            #expect(value.gadget?.tag == "gadget")
        }
    }

    @Test func wrappersInAnActor() async throws {
        let container = try container(extra: [bind("Database", to: "db")])
        let actor = InjectedActor()
        let tags = await PatchbaySystem.withContainer(container) { await actor.tags() }
        #expect(tags == ["primary", "db"])
        // Kept after the first access, even outside withContainer.
        #expect(await actor.tags() == ["primary", "db"])
    }

    @MainActor
    @Test func wrappersInAMainActorClass() async throws {
        let container = try container()
        let model = InjectedViewModel()
        let title = await PatchbaySystem.withContainer(container) {
            await Task.yield()
            return model.title
        }
        #expect(title == "primary/secondary")
        #expect(model.title == "primary/secondary")
    }
}

/// Reads an `@Injected` whose type no injector binds: stops the program.
/// Not inlined into the exit test (see `registerTwoFactoriesWithOneName`).
@inline(never)
func readAnUnboundInjected() {
    var catalog = FactoryCatalog()
    catalog.register("part", provides: (any Widget).self) { Part() }
    let container = try! makeContainer(catalog, [bind("Widget", to: "part")])
    @Injected(container: container) var gadget: any Gadget
    print(gadget.tag)
}
