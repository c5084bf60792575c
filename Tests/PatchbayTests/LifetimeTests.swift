import Foundation
@testable import Patchbay
import Testing

/// The five lifetimes: how many instances each makes and who shares them.
struct LifetimeTests {
    /// A catalog with one `Widget` factory that counts what it makes.
    private func partCatalog(_ counter: Counter, lifetime: Lifetime? = nil) -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("part", provides: (any Widget).self, lifetime: lifetime) {
            Part(tag: "part", serial: counter.increment())
        }
        return catalog
    }

    // MARK: transient

    @Test func transientMakesANewInstanceEachResolve() throws {
        let counter = Counter()
        let container = try makeContainer(partCatalog(counter), [bind("Widget", to: "part", .transient)])
        let first = try container.resolve((any Widget).self)
        let second = try container.resolve((any Widget).self)
        #expect(first !== second)
        #expect(first.serial != second.serial)
        #expect(counter.value == 2)
    }

    @Test func lifetimeDefaultsToTheFactorysThenTransient() throws {
        let counter = Counter()
        // No lifetime in the binding: the catalog's default (singleton).
        let byDefault = try makeContainer(partCatalog(counter, lifetime: .singleton), [bind("Widget", to: "part")])
        #expect(byDefault.binding(for: (any Widget).self)?.lifetime == .singleton)
        #expect(try byDefault.resolve((any Widget).self) === byDefault.resolve((any Widget).self))

        // The binding's lifetime wins over the catalog's default.
        let explicit = try makeContainer(
            partCatalog(counter, lifetime: .singleton), [bind("Widget", to: "part", .transient)])
        #expect(explicit.binding(for: (any Widget).self)?.lifetime == .transient)
        #expect(try explicit.resolve((any Widget).self) !== explicit.resolve((any Widget).self))

        // Neither names one: transient.
        let neither = try makeContainer(partCatalog(counter), [bind("Widget", to: "part")])
        #expect(neither.binding(for: (any Widget).self)?.lifetime == .transient)
        #expect(try neither.resolve((any Widget).self) !== neither.resolve((any Widget).self))
    }

    // MARK: singleton

    @Test func singletonIsMadeOnceOnFirstUse() throws {
        let counter = Counter()
        let container = try makeContainer(partCatalog(counter), [bind("Widget", to: "part", .singleton)])
        #expect(counter.value == 0, "a singleton is made on first use, not at activation")
        let first = try container.resolve((any Widget).self)
        let second = try container.resolve((any Widget).self)
        #expect(first === second)
        #expect(counter.value == 1)
    }

    @Test func singletonsOfOneProductFactoryAreSharedAcrossProtocols() throws {
        let counter = Counter()
        var catalog = FactoryCatalog()
        catalog.register("combo", product: Part.self, provides: (any Widget).self, (any Gadget).self, (any Sprocket).self) {
            Part(tag: "combo", serial: counter.increment())
        }
        let container = try makeContainer(catalog, [
            bind("Widget", to: "combo", .singleton),
            bind("Gadget", to: "combo", .singleton),
            bind("Sprocket", to: "combo", .transient),
        ])
        let widget = try container.resolve((any Widget).self)
        let gadget = try container.resolve((any Gadget).self)
        #expect(widget === gadget, "two protocols bound to one factory with equal parameters share one singleton")
        #expect(counter.value == 1)
        // Twice more, through the cached path.
        #expect(try container.resolve((any Gadget).self) === widget)
        #expect(try container.resolve((any Widget).self) === gadget)
        #expect(counter.value == 1)

        // A transient binding of the same factory does not share it.
        let sprocket = try container.resolve((any Sprocket).self)
        #expect(sprocket !== widget)
        #expect(counter.value == 2)
    }

    /// The public registrations cannot make a factory that provides several
    /// types *and* takes parameters, so this one is built from the catalog's
    /// internals to check the sharing key's parameters part.
    private func partsWithParameters(_ counter: Counter) throws -> FactoryCatalog {
        struct PartOptions: Decodable, Sendable { var tag: String }
        let location = CodeLocation(fileID: "PatchbayTests/LifetimeTests.swift", line: #line)
        let provided = try FactoryCatalog.providedTypes(
            of: Part.self, (any Widget).self, (any Gadget).self, factory: "tagged-part", at: location)
        var catalog = FactoryCatalog()
        try catalog.add(FactoryDefinition(
            name: "tagged-part", product: Part.self, provides: provided.types, dependencies: [], defaultLifetime: nil,
            parameters: .of(PartOptions.self), registeredAt: location,
            buildInto: FactoryDefinition.alwaysBoxed, buildsInto: false
        ) { call in
            Instance(Part(tag: call.parameters(as: PartOptions.self).tag, serial: counter.increment()))
        })
        return catalog
    }

    @Test func singletonsWithDifferentParametersAreNotShared() throws {
        let counter = Counter()
        let catalog = try partsWithParameters(counter)
        let same = try makeContainer(catalog, [
            bind("Widget", to: "tagged-part", .singleton, parameters: .object(["tag": .string("a")])),
            bind("Gadget", to: "tagged-part", .singleton, parameters: .object(["tag": .string("a")])),
        ])
        #expect(try same.resolve((any Widget).self) === same.resolve((any Gadget).self))
        #expect(counter.value == 1)

        let different = try makeContainer(catalog, [
            bind("Widget", to: "tagged-part", .singleton, parameters: .object(["tag": .string("a")])),
            bind("Gadget", to: "tagged-part", .singleton, parameters: .object(["tag": .string("b")])),
        ])
        let widget = try different.resolve((any Widget).self)
        let gadget = try different.resolve((any Gadget).self)
        #expect(widget !== gadget)
        #expect(widget.tag == "a")
        #expect(gadget.tag == "b")
        #expect(counter.value == 3)
    }

    // MARK: weak

    @Test func weakIsSharedWhileHeldAndMadeAgainAfterRelease() throws {
        let counter = Counter()
        let container = try makeContainer(partCatalog(counter), [bind("Widget", to: "part", .weak)])

        weak var released: Part?
        do {
            let first = try container.resolve((any Widget).self)
            let second = try container.resolve((any Widget).self)
            #expect(first === second, "shared while something holds it")
            #expect(counter.value == 1)
            released = first as? Part
            withExtendedLifetime(first) {}
        }
        #expect(released == nil, "the container must not keep a weak instance alive")

        let third = try container.resolve((any Widget).self)
        #expect(third.serial == 2, "made again after release")
        #expect(counter.value == 2)
        let fourth = try container.resolve((any Widget).self)
        #expect(fourth === third)
        #expect(counter.value == 2)
    }

    /// A product of several provided types, held weakly: each binding hands
    /// out its own protocol's view of the one live object, and the
    /// container keeps none of them alive.
    @Test func weakOfASeveralTypeProductIsSharedWhileHeldAsEachType() throws {
        let counter = Counter()
        var catalog = FactoryCatalog()
        catalog.register("combo", product: Part.self, provides: (any Widget).self, (any Gadget).self) {
            Part(tag: "combo", serial: counter.increment())
        }
        let container = try makeContainer(catalog, [bind("Gadget", to: "combo", .weak)])

        weak var released: Part?
        do {
            let first = try container.resolve((any Gadget).self)
            let second = try container.resolve((any Gadget).self)
            #expect(first === second, "shared while something holds it")
            #expect(first.tag == "combo")
            #expect(counter.value == 1)
            released = first as? Part
            withExtendedLifetime(first) {}
        }
        #expect(released == nil, "the container must not keep a weak instance alive")

        let third = try container.resolve((any Gadget).self)
        #expect(third.serial == 2, "made again after release")
        #expect(try container.resolve((any Gadget).self) === third)
        #expect(counter.value == 2)
    }

    @Test func weakOfAValueTypeFailsAtItsFirstValue() throws {
        var catalog = FactoryCatalog()
        catalog.register("hello", provides: (any Greeting).self) { TextGreeting(text: "hello") }
        // `any Greeting` may hold a class instance or not: only a value tells.
        let container = try makeContainer(catalog, [bind("Greeting", to: "hello", .weak)])
        let error = try #require(throws: ResolutionError.self) { try container.resolve((any Greeting).self) }
        #expect(error.reason == .factoryFailed && error.factory == "hello")
        let underlying = try #require(error.underlying as? RegistrationError)
        #expect(underlying == .weakValueType && underlying.locations.first?.fileID == "PatchbayTests/LifetimeTests.swift")
        #expect(error.description.contains("TextGreeting, which is not a class instance"), "\(error)")
    }

    // MARK: scoped

    @Test func scopedIsOnePerScopeAndReleasedWhenTheScopeCloses() throws {
        let counter = Counter()
        let container = try makeContainer(partCatalog(counter), [bind("Widget", to: "part", .scoped)])
        let one = Scope()
        let two = Scope()

        weak var heldByOne: Part?
        do {
            let a = try one.resolve((any Widget).self, from: container)
            let b = try one.resolve((any Widget).self, from: container)
            let viaRun = try one.run { try container.resolve((any Widget).self) }
            let c = try two.resolve((any Widget).self, from: container)
            #expect(a === b)
            #expect(a === viaRun, "scope.run makes the scope current for plain resolves")
            #expect(a !== c, "different scopes get different instances")
            #expect(counter.value == 2)
            heldByOne = a as? Part
        }
        #expect(heldByOne != nil, "the open scope holds its instance")
        #expect(!one.isClosed)

        one.close()
        #expect(one.isClosed)
        #expect(heldByOne == nil, "closing the scope releases its instances")

        // The other scope is untouched.
        #expect(try two.resolve((any Widget).self, from: container).serial == 2)
        #expect(counter.value == 2)
    }

    @Test func scopedWithoutAScopeOrInAClosedOneThrows() throws {
        let container = try makeContainer(partCatalog(Counter()), [bind("Widget", to: "part", .scoped)])
        let noScope = #expect(throws: ResolutionError.self) { try container.resolve((any Widget).self) }
        #expect(noScope?.reason == .noActiveScope)

        let scope = Scope()
        _ = try scope.resolve((any Widget).self, from: container)
        scope.close()
        let closed = #expect(throws: ResolutionError.self) { try scope.resolve((any Widget).self, from: container) }
        #expect(closed?.reason == .scopeClosed)
        let closedViaRun = #expect(throws: ResolutionError.self) {
            try scope.run { try container.resolve((any Widget).self) }
        }
        #expect(closedViaRun?.reason == .scopeClosed)
    }

    @Test func injectedInsideScopeRunUsesTheCurrentScope() async throws {
        let counter = Counter()
        let container = try makeContainer(partCatalog(counter), [bind("Widget", to: "part", .scoped)])
        let scope = Scope()
        let expected = try scope.resolve((any Widget).self, from: container)

        try scope.run { () throws in
            @Injected(container: container) var widget: any Widget
            #expect(try $widget.resolve() === expected)
            PatchbaySystem.withContainer(container) {
                @Injected var viaDefault: any Widget
                #expect(viaDefault === expected)
            }
        }
        try await scope.run { () async throws in
            await Task.yield()
            @Injected(container: container) var widget: any Widget
            #expect(try $widget.resolve() === expected)
        }
        let other = Scope()
        let elsewhere = try other.run {
            @Injected(container: container) var widget: any Widget
            return try $widget.resolve()
        }
        #expect(elsewhere !== expected)
        #expect(counter.value == 2)
    }

    // MARK: graph

    private func graphCatalog(_ counter: Counter) -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.registerGraph(counting: counter)
        return catalog
    }

    private func graphBindings(leaf: Lifetime) -> [Binding] {
        [
            bind("GraphRoot", to: "root"), bind("GraphLeft", to: "left"), bind("GraphRight", to: "right"),
            bind("GraphLeaf", to: "leaf", leaf),
        ]
    }

    @Test func graphIsSharedWithinOneTopLevelResolve() throws {
        let counter = Counter()
        let container = try makeContainer(graphCatalog(counter), graphBindings(leaf: .graph))
        let first = try container.resolve(GraphRoot.self)
        #expect(first.left.leaf === first.right.leaf, "one graph instance per top-level resolve")
        #expect(counter.value == 1)

        let second = try container.resolve(GraphRoot.self)
        #expect(second.left.leaf === second.right.leaf)
        #expect(second.left.leaf !== first.left.leaf, "a second top-level resolve gets a new one")
        #expect(counter.value == 2)

        let alone = try container.resolve(GraphLeaf.self)
        #expect(alone !== first.left.leaf && alone !== second.left.leaf)
        #expect(counter.value == 3)
    }

    @Test func transientLeafIsNotSharedInAGraph() throws {
        let counter = Counter()
        let container = try makeContainer(graphCatalog(counter), graphBindings(leaf: .transient))
        let root = try container.resolve(GraphRoot.self)
        #expect(root.left.leaf !== root.right.leaf)
        #expect(counter.value == 2)
    }

    @Test func graphIsSharedWithFactoriesThatResolveByHand() throws {
        let counter = Counter()
        let holder = Box<Container>()
        var catalog = FactoryCatalog()
        catalog.register("leaf", provides: GraphLeaf.self) { GraphLeaf(serial: counter.increment()) }
        // Resolves through the Resolver it is given.
        catalog.registerResolving("left", provides: GraphLeft.self) { resolver in
            GraphLeft(leaf: try resolver.resolve(GraphLeaf.self))
        }
        // Calls the container directly from inside a factory: joins the running resolve.
        catalog.register("right", provides: GraphRight.self) {
            GraphRight(leaf: try holder.value!.resolve(GraphLeaf.self))
        }
        catalog.register("root", provides: GraphRoot.self) { (left: GraphLeft, right: GraphRight) in
            GraphRoot(left: left, right: right)
        }
        let container = try makeContainer(catalog, graphBindings(leaf: .graph))
        holder.value = container
        let root = try container.resolve(GraphRoot.self)
        #expect(root.left.leaf === root.right.leaf)
        #expect(counter.value == 1)
        let again = try container.resolve(GraphRoot.self)
        #expect(again.left.leaf !== root.left.leaf)
    }
}
