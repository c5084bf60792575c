@testable import Patchbay
import Testing

/// Cycles: static ones are activation errors that draw the loop; dynamic ones
/// (through factories that resolve by hand) are thrown ResolutionErrors, never
/// a crash or a hang.
struct CycleTests {
    // MARK: - Static

    @Test func aStaticCycleIsAnActivationErrorThatDrawsTheLoop() throws {
        var catalog = FactoryCatalog()
        catalog.register("eager-hen", provides: (any Chicken).self) { (egg: any Egg) in EagerHen(egg: egg) }
        catalog.register("egg", provides: (any Egg).self) { (chicken: any Chicken) in ChickenEgg(chicken: chicken) }
        let error = try #require(throws: ManifestError.self) {
            try makeContainer(catalog, [bind("Chicken", to: "eager-hen"), bind("Egg", to: "egg")])
        }
        let cycles = error.diagnostics.errors.filter { $0.code == .dependencyCycle }
        #expect(cycles.count == 1, "one loop, reported once: \(error)")
        let message = try #require(cycles.first?.message)
        #expect(
            message.contains("Chicken -> Egg -> Chicken") || message.contains("Egg -> Chicken -> Egg"),
            "the message draws the loop: \(message)")
    }

    @Test func aLongerCycleIsDrawnInFull() throws {
        var catalog = FactoryCatalog()
        catalog.register("w", provides: (any Widget).self) { (gadget: any Gadget) in Part(tag: gadget.tag) }
        catalog.register("g", provides: (any Gadget).self) { (sprocket: any Sprocket) in Part(tag: sprocket.tag) }
        catalog.register("s", provides: (any Sprocket).self) { (widget: any Widget) in Part(tag: widget.tag) }
        let error = try #require(throws: ManifestError.self) {
            try makeContainer(catalog, [bind("Widget", to: "w"), bind("Gadget", to: "g"), bind("Sprocket", to: "s")])
        }
        #expect(errorCodes(error) == [.dependencyCycle])
        let message = error.diagnostics.errors.first?.message ?? ""
        let rotations = [
            "Widget -> Gadget -> Sprocket -> Widget", "Gadget -> Sprocket -> Widget -> Gadget",
            "Sprocket -> Widget -> Gadget -> Sprocket",
        ]
        #expect(rotations.contains { message.contains($0) }, "\(message)")
    }

    @Test func aFactoryThatNeedsItselfIsACycle() throws {
        var catalog = FactoryCatalog()
        catalog.register("w", provides: (any Widget).self) { (widget: any Widget) in Part(tag: widget.tag) }
        let error = try #require(throws: ManifestError.self) { try makeContainer(catalog, [bind("Widget", to: "w")]) }
        #expect(errorCodes(error) == [.dependencyCycle])
        #expect(error.description.contains("Widget -> Widget"))
    }

    // MARK: - Dynamic

    /// Chicken and Egg resolve each other by hand: activation cannot see it.
    private func dynamicCatalog() -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.registerResolving("resolving-hen", provides: (any Chicken).self) { resolver in
            EagerHen(egg: try resolver.resolve((any Egg).self))
        }
        catalog.registerResolving("resolving-egg", provides: (any Egg).self) { resolver in
            ChickenEgg(chicken: try resolver.resolve((any Chicken).self))
        }
        return catalog
    }

    private func expectDynamicCycle(
        _ container: Container, in scope: Scope? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let error = #expect(throws: ResolutionError.self, sourceLocation: sourceLocation) {
            if let scope {
                _ = try scope.resolve((any Chicken).self, from: container)
            } else {
                _ = try container.resolve((any Chicken).self)
            }
        }
        #expect(error?.reason == .dependencyCycle, sourceLocation: sourceLocation)
        let description = error?.description ?? ""
        #expect(description.contains("Chicken -> Egg -> Chicken"), "\(description)", sourceLocation: sourceLocation)
    }

    @Test(arguments: [Lifetime.transient, .singleton, .weak, .graph])
    func aDynamicCycleThrows(lifetime: Lifetime) throws {
        let container = try makeContainer(dynamicCatalog(), [
            bind("Chicken", to: "resolving-hen", lifetime), bind("Egg", to: "resolving-egg", lifetime),
        ])
        expectDynamicCycle(container)
        // Still usable, and still throws the same way (no half-made instance left behind).
        expectDynamicCycle(container)
    }

    @Test func aDynamicCycleOfScopedBindingsThrows() throws {
        let container = try makeContainer(dynamicCatalog(), [
            bind("Chicken", to: "resolving-hen", .scoped), bind("Egg", to: "resolving-egg", .scoped),
        ])
        let scope = Scope()
        expectDynamicCycle(container, in: scope)
        expectDynamicCycle(container, in: scope)
    }

    @Test func aDynamicCycleThroughAStaticFactoryThrows() throws {
        var catalog = FactoryCatalog()
        catalog.register("eager-hen", provides: (any Chicken).self) { (egg: any Egg) in EagerHen(egg: egg) }
        catalog.registerResolving("resolving-egg", provides: (any Egg).self) { resolver in
            ChickenEgg(chicken: try resolver.resolve((any Chicken).self))
        }
        for lifetime in [Lifetime.transient, .singleton] {
            let container = try makeContainer(catalog, [
                bind("Chicken", to: "eager-hen", lifetime), bind("Egg", to: "resolving-egg", lifetime),
            ])
            expectDynamicCycle(container)
        }
    }

    @Test(arguments: [Lifetime.transient, .singleton])
    func aCycleThroughTheContainerCalledFromAFactoryThrows(lifetime: Lifetime) throws {
        // A factory body that calls the container itself (as `@Injected` in an
        // initializer would) joins the running resolve, so the loop is still seen.
        let holder = Box<Container>()
        var catalog = FactoryCatalog()
        catalog.register("hen", provides: (any Chicken).self) {
            EagerHen(egg: try holder.value!.resolve((any Egg).self))
        }
        catalog.register("egg", provides: (any Egg).self) {
            ChickenEgg(chicken: try holder.value!.resolve((any Chicken).self))
        }
        let container = try makeContainer(catalog, [bind("Chicken", to: "hen", lifetime), bind("Egg", to: "egg", lifetime)])
        holder.value = container
        expectDynamicCycle(container)
    }

    /// Bindings that share one instance (one factory, seen as two types)
    /// count as one on the path: asking for the second while the first is
    /// being made asks for the instance being made. In every lifetime that
    /// shares instances, a cycle, never a wait on itself nor a second instance.
    @Test(arguments: [Lifetime.singleton, .weak, .scoped, .graph])
    func askingForAnInstanceWhileItIsMadeUnderAnotherTypeThrows(lifetime: Lifetime) throws {
        let holder = Box<Container>()
        var catalog = FactoryCatalog()
        catalog.register("combo", product: Part.self, provides: (any Widget).self, (any Gadget).self) {
            _ = try holder.value!.resolve((any Gadget).self)
            return Part(tag: "combo")
        }
        let container = try makeContainer(catalog, [
            bind("Widget", to: "combo", lifetime), bind("Gadget", to: "combo", lifetime),
        ])
        holder.value = container
        let error = #expect(throws: ResolutionError.self) { try Scope().resolve((any Widget).self, from: container) }
        #expect(error?.reason == .dependencyCycle)
        #expect(error?.detail == "Widget -> Gadget", "\(String(describing: error))")
    }

    @Test func aFactoryThatResolvesItselfThrows() throws {
        var catalog = FactoryCatalog()
        catalog.registerResolving("narcissus", provides: (any Widget).self, lifetime: .singleton) { resolver in
            try resolver.resolve((any Widget).self)
        }
        let container = try makeContainer(catalog, [bind("Widget", to: "narcissus")])
        let error = #expect(throws: ResolutionError.self) { try container.resolve((any Widget).self) }
        #expect(error?.reason == .dependencyCycle)
        #expect(error?.description.contains("Widget -> Widget") == true)
    }

    /// A hen that reads its Lazy egg while it is being made: a dynamic cycle
    /// that activation cannot see (a Lazy edge is not part of the static check).
    private func impatientCatalog() -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("impatient-hen", provides: (any Chicken).self) { (egg: Lazy<any Egg>) in
            EagerHen(egg: try egg.get())
        }
        catalog.register("egg", provides: (any Egg).self) { (chicken: any Chicken) in ChickenEgg(chicken: chicken) }
        return catalog
    }

    @Test(arguments: [Lifetime.transient, .singleton])
    func readingALazyDuringConstructionThatLoopsBackThrows(lifetime: Lifetime) throws {
        let container = try makeContainer(impatientCatalog(), [
            bind("Chicken", to: "impatient-hen", lifetime), bind("Egg", to: "egg"),
        ])
        expectDynamicCycle(container)
        // The same inside an open scope, which the Lazy captures.
        let scope = Scope()
        let error = #expect(throws: ResolutionError.self) {
            try scope.run { _ = try container.resolve((any Chicken).self) }
        }
        #expect(error?.reason == .dependencyCycle)
        #expect(error?.description.contains("Chicken -> Egg -> Chicken") == true, "\(String(describing: error))")
    }

    @Test func readingALazyDuringConstructionOfAScopedInstanceThrows() throws {
        let container = try makeContainer(impatientCatalog(), [
            bind("Chicken", to: "impatient-hen", .scoped), bind("Egg", to: "egg", .scoped),
        ])
        expectDynamicCycle(container, in: Scope())
    }
}
