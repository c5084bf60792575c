// Shapes the check accepts that the engine once served differently from
// what was checked, each named for the behaviour that holds now: a
// resolve-time argument reaching an optional and a lazy need, a factory of
// one container resolving from another served by that other container
// whatever the thread's cache holds, and a `Lazy` made during a resolution
// sharing that resolution's `graph` instances when read later.
import Foundation
import Testing
@testable import Patchbay

private protocol Yearly: AnyObject, Sendable { var year: Int { get } }
private final class Detail: Yearly {
    let year: Int
    init(year: Int) { self.year = year }
}
private final class OptionalReport: Sendable {
    let year: Int
    let detail: (any Yearly)?
    init(year: Int, detail: (any Yearly)?) {
        self.year = year
        self.detail = detail
    }
}
private final class LazyReport: Sendable {
    let detail: Lazy<any Yearly>
    init(detail: Lazy<any Yearly>) { self.detail = detail }
}

private protocol Named: Sendable { var name: String { get } }
private struct FixedName: Named { let name: String }
private struct Probe: Sendable { let saw: String }

private final class Parent: Sendable {
    let child: Child
    init(child: Child) { self.child = child }
}
private final class Child: Sendable {
    let parent: Lazy<Parent>
    let released: Counter
    init(parent: Lazy<Parent>, released: Counter) {
        self.parent = parent
        self.released = released
    }
    deinit { released.increment() }
}

@Suite struct EngineAgreementTests {
    /// `detail` takes the year as its argument, as the factories that need it do.
    func yearlyCatalog() -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("detail", provides: (any Yearly).self, argument: Int.self) { (year: Int) in
            Detail(year: year)
        }
        catalog.register("optional-report", provides: OptionalReport.self, argument: Int.self) {
            (year: Int, detail: (any Yearly)?) in
            OptionalReport(year: year, detail: detail)
        }
        catalog.register("lazy-report", provides: LazyReport.self, argument: Int.self) {
            (_: Int, detail: Lazy<any Yearly>) in
            LazyReport(detail: detail)
        }
        return catalog
    }

    let yearlyBindings = [
        bind("Yearly", to: "detail"), bind("OptionalReport", to: "optional-report"),
        bind("LazyReport", to: "lazy-report"),
    ]

    @Test func theArgumentReachesAnOptionalNeedWhoseFactoryTakesIt() throws {
        let container = try makeContainer(yearlyCatalog(), yearlyBindings)
        let report = try container.resolve(OptionalReport.self, argument: 2026)
        #expect(report.detail?.year == 2026)
    }

    @Test func theArgumentReachesALazyNeedWhoseFactoryTakesIt() throws {
        let container = try makeContainer(yearlyCatalog(), yearlyBindings)
        let report = try container.resolve(LazyReport.self, argument: 2026)
        #expect(try report.detail.get().year == 2026)
        // Again after a reset: the same argument is passed again.
        report.detail.reset()
        #expect(try report.detail.get().year == 2026)
    }

    // MARK: - A factory of one container resolving from another

    /// Two containers that bind `Named` to different names; `x`'s `Probe`
    /// factory reads `Named` from `y` by the way `ask` says.
    func containers(asking ask: @escaping @Sendable (Container) throws -> String) throws -> (x: Container, y: Container) {
        let holder = Box<Container>()
        var catalog = FactoryCatalog()
        catalog.register("x-name", provides: (any Named).self) { FixedName(name: "x") }
        catalog.register("y-name", provides: (any Named).self) { FixedName(name: "y") }
        catalog.register("probe", provides: Probe.self) { Probe(saw: try ask(holder.value!)) }
        let x = try makeContainer(catalog, [bind("Named", to: "x-name"), bind("Probe", to: "probe")])
        let y = try makeContainer(catalog, [bind("Named", to: "y-name"), bind("Probe", to: "probe")])
        holder.value = y
        return (x, y)
    }

    /// Each way a factory reads from another container, by name.
    static let ways: [String: @Sendable (Container) throws -> String] = [
        "resolve": { try $0.resolve((any Named).self).name },
        "resolveIfBound": { try $0.resolveIfBound((any Named).self)?.name ?? "nil" },
        "inject": { container in PatchbaySystem.withContainer(container) { inject((any Named).self).name } },
        "injectIfBound": { container in
            PatchbaySystem.withContainer(container) { injectIfBound((any Named).self)?.name ?? "nil" }
        },
    ]

    @Test(arguments: ["resolve", "resolveIfBound", "inject", "injectIfBound"])
    func aFactoryResolvingFromAnotherContainerGetsItsBindingOnAFreshThread(way: String) throws {
        let (x, _) = try containers(asking: Self.ways[way]!)
        let saw = Box<String>()
        // A new thread: its resolve cache holds nothing yet.
        onThreads(1) { _ in saw.value = (try? x.resolve(Probe.self))?.saw }
        #expect(saw.value == "y")
    }

    @Test(arguments: ["resolve", "resolveIfBound", "inject", "injectIfBound"])
    func aFactoryResolvingFromAnotherContainerGetsItsBindingOnAWarmThread(way: String) throws {
        let (x, y) = try containers(asking: Self.ways[way]!)
        let saw = Box<[String]>()
        onThreads(1) { _ in
            var seen: [String] = []
            // Warm the thread's cache with each container, in both orders, between probes.
            for _ in 0..<3 {
                _ = try? x.resolve((any Named).self)
                seen.append((try? x.resolve(Probe.self))?.saw ?? "error")
                _ = try? y.resolve((any Named).self)
                seen.append((try? x.resolve(Probe.self))?.saw ?? "error")
            }
            saw.value = seen
        }
        #expect(saw.value == Array(repeating: "y", count: 6))
        #expect(try x.resolve(Probe.self).saw == "y")
        #expect(try y.resolve(Probe.self).saw == "y")
    }

    // MARK: - Lazy and graph

    /// `Parent` (graph) needs `Child` (graph), which takes its parent lazily:
    /// the migration guide's answer to Swinject's `initCompleted`.
    func parentAndChild(released: Counter) throws -> Container {
        var catalog = FactoryCatalog()
        catalog.register("parent", provides: Parent.self) { (child: Child) in Parent(child: child) }
        catalog.register("child", provides: Child.self) { (parent: Lazy<Parent>) in
            Child(parent: parent, released: released)
        }
        return try makeContainer(catalog, [bind("Parent", to: "parent", .graph), bind("Child", to: "child", .graph)])
    }

    @Test func aLazyReadAfterItsResolutionSharesThatResolutionsGraphInstances() throws {
        let container = try parentAndChild(released: Counter())
        let parent = try container.resolve(Parent.self)
        #expect(try parent.child.parent.get() === parent)
        // Another resolve is another graph.
        let other = try container.resolve(Parent.self)
        #expect(other !== parent)
        #expect(try other.child.parent.get() === other)
    }

    @Test func aGraphInstanceThatHasGoneIsMadeAnewByTheLazy() throws {
        let container = try parentAndChild(released: Counter())
        weak var firstParent: Parent?
        var child: Child?
        do {
            let parent = try container.resolve(Parent.self)
            firstParent = parent
            child = parent.child
        }
        #expect(firstParent == nil, "the Lazy holds its graph weakly")
        let made = try #require(child).parent.get()
        #expect(made.child === child, "made anew, sharing the child, which is still alive")
        #expect(try child?.parent.get() === made, "kept while alive")
    }

    @Test func aCycleBrokenByALazyLeavesNoStrongReferenceCycle() throws {
        let released = Counter()
        let container = try parentAndChild(released: released)
        weak var weakParent: Parent?
        weak var weakChild: Child?
        do {
            let parent = try container.resolve(Parent.self)
            #expect(try parent.child.parent.get() === parent)
            weakParent = parent
            weakChild = parent.child
        }
        #expect(weakParent == nil)
        #expect(weakChild == nil)
        #expect(released.value == 1)
    }
}
