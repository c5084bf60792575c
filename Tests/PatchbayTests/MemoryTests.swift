// What the container keeps alive, checked with weak references: transient and
// graph instances are not kept; weak ones live as long as their last holder;
// scoped ones go with their scope; a released container takes every singleton
// with it, whichever threads resolved them; and no wrapper, Lazy or factory
// forms a cycle with the container. (LifetimeTests, DependencyKindTests and
// ContainerReleaseTests check the simplest cases of these.)
import Dispatch
import Foundation
import Testing
@testable import Patchbay

/// Holds a dependency through `@Injected` with an explicit container.
final class InjectedWidget: Widget, @unchecked Sendable {
    let tag = "holder"
    let serial = 0
    @Injected var gadget: any Gadget
    init(container: Container) {
        _gadget = Injected(container: container)
    }
}

/// Holds a dependency through a `Lazy`.
final class LazyHolder: Widget, @unchecked Sendable {
    let tag = "lazy-holder"
    let serial = 0
    let gadget: Lazy<any Gadget>
    init(gadget: Lazy<any Gadget>) { self.gadget = gadget }
}

/// A thread that resolves when told and otherwise waits, keeping whatever its
/// resolve cache holds, as an idle thread of a pool does.
final class ParkedThread: @unchecked Sendable {
    private let go = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var work: (@Sendable () -> Void)?
    private var stop = false

    init() {
        Thread { [self] in
            while true {
                go.wait()
                lock.lock()
                var work = self.work
                let stop = self.stop
                self.work = nil  // keeps nothing it was given
                lock.unlock()
                if stop { break }
                work?()
                // Let go of the closure (and what it captured) before saying it is done:
                // otherwise the caller may check a weak reference while this thread still holds it.
                work = nil
                done.signal()
            }
            done.signal()
        }.start()
    }

    /// Runs `body` on the thread and waits for it.
    func run(_ body: @escaping @Sendable () -> Void) {
        lock.lock()
        work = body
        lock.unlock()
        go.signal()
        done.wait()
    }

    /// Ends the thread (its resolve cache goes with it).
    func end() {
        lock.lock()
        stop = true
        lock.unlock()
        go.signal()
        done.wait()
    }
}

struct MemoryTests {
    private func catalog(_ counter: Counter) -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("part", provides: (any Widget).self) { Part(tag: "part", serial: counter.increment()) }
        catalog.register("gadget", provides: (any Gadget).self) { Part(tag: "gadget", serial: counter.increment()) }
        catalog.registerGraph(counting: counter)
        return catalog
    }

    @Test func transientInstancesAreNotKeptByTheContainer() throws {
        let container = try makeContainer(catalog(Counter()), [bind("Widget", to: "part", .transient)])
        weak var released: Part?
        try {
            let widget = try container.resolve((any Widget).self)
            released = widget as? Part
            #expect(released != nil)
        }()
        #expect(released == nil, "the container kept a transient instance")
    }

    @Test func graphInstancesAreLetGoWhenTheirTopLevelResolveReturns() throws {
        let container = try makeContainer(catalog(Counter()), [
            bind("GraphLeaf", to: "leaf", .graph), bind("GraphLeft", to: "left"), bind("GraphRight", to: "right"),
            bind("GraphRoot", to: "root"),
        ])
        weak var leaf: GraphLeaf?
        weak var root: GraphRoot?
        try {
            let made = try container.resolve(GraphRoot.self)
            #expect(made.left.leaf === made.right.leaf)
            leaf = made.left.leaf
            root = made
        }()
        #expect(root == nil)
        #expect(leaf == nil, "the resolution kept a graph instance after it returned")
    }

    @Test func aWeakInstanceLivesExactlyAsLongAsItsLastHolder() throws {
        let counter = Counter()
        let container = try makeContainer(catalog(counter), [bind("Widget", to: "part", .weak)])
        weak var released: Part?
        var first: (any Widget)? = try container.resolve((any Widget).self)
        var second: (any Widget)? = try container.resolve((any Widget).self)
        #expect(first === second)
        released = first as? Part
        first = nil
        #expect(released != nil, "released while a holder remained")
        #expect(try container.resolve((any Widget).self) === second, "shared while held")
        second = nil
        #expect(released == nil, "kept after its last holder let go")
        #expect(try container.resolve((any Widget).self).serial == 2, "made again")
        #expect(counter.value == 2)
    }

    @Test func aWeakInstanceHeldByAnotherThreadIsSharedUntilThatThreadLetsGo() throws {
        let counter = Counter()
        let container = try makeContainer(catalog(counter), [bind("Widget", to: "part", .weak)])
        let parked = ParkedThread()
        let held = Box<Part>()
        parked.run { held.value = try? container.resolve((any Widget).self) as? Part }
        weak var released: Part?
        released = held.value
        #expect(try container.resolve((any Widget).self) === released)
        held.value = nil
        #expect(released == nil)
        parked.end()
    }

    @Test func aScopeLetsGoOfItsInstancesWhenClosedOrReleased() throws {
        let container = try makeContainer(catalog(Counter()), [bind("Widget", to: "part", .scoped)])
        weak var closed: Part?
        weak var dropped: Part?
        weak var droppedScope: Scope?
        let scope = Scope()
        try {
            closed = try scope.resolve((any Widget).self, from: container) as? Part
            let other = Scope()
            dropped = try other.resolve((any Widget).self, from: container) as? Part
            droppedScope = other
        }()
        #expect(droppedScope == nil)
        #expect(dropped == nil, "a scope released without close() kept its instances")
        #expect(closed != nil)
        scope.close()
        #expect(closed == nil)
    }

    @Test func aScopedInstanceHoldingALazyGoesWithItsScope() throws {
        var catalog = FactoryCatalog()
        catalog.register("gadget", provides: (any Gadget).self) { Part(tag: "gadget") }
        catalog.register("lazy-holder", provides: (any Widget).self) { (gadget: Lazy<any Gadget>) in
            LazyHolder(gadget: gadget)
        }
        let container = try makeContainer(catalog, [bind("Widget", to: "lazy-holder", .scoped), bind("Gadget", to: "gadget", .scoped)])
        weak var holder: LazyHolder?
        weak var gadget: Part?
        weak var scope: Scope?
        try {
            let opened = Scope()
            let made = try opened.resolve((any Widget).self, from: container) as? LazyHolder
            gadget = try made?.gadget.get() as? Part
            holder = made
            scope = opened
            // Released without close(): the Lazy inside the instance must not keep the scope alive.
        }()
        #expect(scope == nil, "the Lazy in a scoped instance kept its scope alive")
        #expect(holder == nil)
        #expect(gadget == nil)
    }

    @Test func aReleasedContainerFreesTheSingletonsOfEveryActivationWhicheverThreadsResolvedThem() throws {
        let parked = [ParkedThread(), ParkedThread()]
        defer { parked.forEach { $0.end() } }
        weak var container: Container?
        let weakSingletons = WeakList()
        try {
            let made = try makeContainer(catalog(Counter()), [bind("Widget", to: "part", .singleton)])
            container = made
            // Each thread resolves in a different activation, and keeps that activation in its cache.
            let singletons = Box<[Part]>()
            singletons.value = []
            // (Each activation resets: the same binding activated again would keep its singleton.)
            for thread in parked {
                try made.activate(manifest([bind("Widget", to: "part", .singleton)]))
                made.reset()
                thread.run {
                    if let part = try? made.resolve((any Widget).self) as? Part { singletons.value?.append(part) }
                }
            }
            try made.activate(manifest([bind("Widget", to: "part", .singleton)]))
            made.reset()
            if let part = try made.resolve((any Widget).self) as? Part { singletons.value?.append(part) }
            let all = singletons.value ?? []
            #expect(Set(all.map(ObjectIdentifier.init)).count == 3)
            for part in all { weakSingletons.add(part) }
        }()
        #expect(container == nil)
        #expect(weakSingletons.alive == 0,
            "\(weakSingletons.alive) singletons of a released container are kept alive by idle threads' resolve caches")
    }

    /// A singleton holding `@Injected(container:)`, in a container that only the test and it refer to.
    private func containerWithAnInjectingSingleton(read: Bool) throws -> (Container?, InjectedWidget?) {
        weak var container: Container?
        weak var holder: InjectedWidget?
        try {
            var catalog = FactoryCatalog()
            let box = Box<Container>()
            catalog.register("holder", provides: (any Widget).self) { () -> any Widget in InjectedWidget(container: box.value!) }
            catalog.register("gadget", provides: (any Gadget).self) { Part(tag: "gadget") }
            let made = try makeContainer(catalog, [bind("Widget", to: "holder", .singleton), bind("Gadget", to: "gadget")])
            box.value = made
            let widget = try made.resolve((any Widget).self) as? InjectedWidget
            if read { #expect(widget?.gadget.tag == "gadget") }
            box.value = nil
            holder = widget
            container = made
        }()
        return (container, holder)
    }

    @Test func injectedInASingletonLetsGoOfItsContainerOnceRead() throws {
        let (container, holder) = try containerWithAnInjectingSingleton(read: true)
        #expect(container == nil, "a singleton's @Injected(container:) kept its container alive: a retain cycle")
        #expect(holder == nil)
    }

    @Test func injectedInASingletonNeverReadLetsGoOfItsContainerToo() throws {
        let (container, holder) = try containerWithAnInjectingSingleton(read: false)
        #expect(container == nil, "an unread @Injected(container:) kept its container alive: a retain cycle")
        #expect(holder == nil)
    }

    @Test func injectedReadAfterItsContainerIsGoneSaysSo() throws {
        var catalog = FactoryCatalog()
        catalog.register("gadget", provides: (any Gadget).self) { Part(tag: "gadget") }
        var container: Container? = try makeContainer(catalog, [bind("Gadget", to: "gadget")])
        let injected = Injected<any Gadget>(container: container)
        container = nil
        #expect(throws: ResolutionError.self) { try injected.resolve() }
        do {
            _ = try injected.resolve()
        } catch {
            #expect(error.reason == .containerReleased)
            #expect(error.description.contains("has been released"))
        }
    }

    @Test func aLazyInASingletonDoesNotKeepItsContainerAlive() throws {
        weak var container: Container?
        weak var holder: LazyHolder?
        weak var gadget: Part?
        try {
            var catalog = FactoryCatalog()
            catalog.register("gadget", provides: (any Gadget).self) { Part(tag: "gadget") }
            catalog.register("lazy-holder", provides: (any Widget).self) { (gadget: Lazy<any Gadget>) in
                LazyHolder(gadget: gadget)
            }
            let made = try makeContainer(catalog, [bind("Widget", to: "lazy-holder", .singleton), bind("Gadget", to: "gadget", .singleton)])
            let resolved = try made.resolve((any Widget).self) as? LazyHolder
            gadget = try resolved?.gadget.get() as? Part
            holder = resolved
            container = made
        }()
        #expect(container == nil)
        #expect(holder == nil)
        #expect(gadget == nil)
    }

    @Test func factoriesAndTheirResolversAreNotKeptAfterTheyRun() throws {
        weak var resolvedThrough: Part?
        var catalog = FactoryCatalog()
        catalog.register("gadget", provides: (any Gadget).self) { Part(tag: "gadget") }
        catalog.registerResolving("by-hand", provides: (any Widget).self) { resolver in
            let gadget = try resolver.resolve((any Gadget).self)
            return Part(tag: gadget.tag)
        }
        let container = try makeContainer(catalog, [bind("Widget", to: "by-hand"), bind("Gadget", to: "gadget")])
        try {
            let widget = try container.resolve((any Widget).self)
            resolvedThrough = widget as? Part
            #expect(widget.tag == "gadget")
        }()
        #expect(resolvedThrough == nil)
    }
}

/// Weak references to objects, counted.
final class WeakList: @unchecked Sendable {
    private final class Reference { weak var object: AnyObject? }
    private let lock = NSLock()
    private var references: [Reference] = []

    func add(_ object: AnyObject) {
        let reference = Reference()
        reference.object = object
        lock.lock()
        references.append(reference)
        lock.unlock()
    }

    var alive: Int {
        lock.lock()
        defer { lock.unlock() }
        return references.filter { $0.object != nil }.count
    }
}
