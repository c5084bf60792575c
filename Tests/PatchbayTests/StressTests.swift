// Load: many threads and tasks resolving every lifetime while the manifest is
// re-activated a thousand times, with bad manifests offered in between. Every
// product says which manifest (flavor) and which activation (generation) made
// it, so each resolve can be checked against the manifests that were ever
// good. Also run under ThreadSanitizer by .ci/run.
import Dispatch
import Foundation
import Testing
@testable import Patchbay

/// What every stress product reports: the factory family that made it and the
/// generation (one per activation) whose parameters it was made with.
protocol Stamped: AnyObject, Sendable {
    var flavor: String { get }
    var generation: Int { get }
}

protocol StressSingleton: Stamped {}
protocol StressTransient: Stamped {}
protocol StressWeak: Stamped {}
protocol StressScoped: Stamped {}
protocol StressGraph: Stamped {}

final class StressPart: StressSingleton, StressTransient, StressWeak, StressScoped, StressGraph {
    let flavor: String
    let generation: Int
    init(flavor: String, generation: Int) {
        self.flavor = flavor
        self.generation = generation
    }
}

/// A transient root that needs the graph instance twice and the singleton once.
final class StressRoot: Sendable {
    let left: any StressGraph
    let right: any StressGraph
    let singleton: any StressSingleton
    let generation: Int
    init(left: any StressGraph, right: any StressGraph, singleton: any StressSingleton, generation: Int) {
        self.left = left
        self.right = right
        self.singleton = singleton
        self.generation = generation
    }
}

struct GenerationOptions: Decodable, Sendable {
    var generation: Int
}

/// Counts per key, from any thread.
final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    func add(_ key: String) {
        lock.lock()
        defer { lock.unlock() }
        counts[key, default: 0] += 1
    }

    var all: [String: Int] {
        lock.lock()
        defer { lock.unlock() }
        return counts
    }
}

struct StressTests {
    static let activations = 1_000

    /// Two families of factories, "a" and "b", one per lifetime, and a "bad"
    /// family that only bad manifests use (so a bad manifest that slipped in
    /// would show in what is made).
    static func catalog(_ made: Tally) -> FactoryCatalog {
        var catalog = FactoryCatalog()
        for flavor in ["a", "b", "bad"] {
            @Sendable func part(_ kind: String, _ options: GenerationOptions) -> StressPart {
                made.add("\(kind) \(flavor) \(options.generation)")
                return StressPart(flavor: flavor, generation: options.generation)
            }
            catalog.register("\(flavor)-singleton", provides: (any StressSingleton).self, parameters: GenerationOptions.self) {
                part("singleton", $0)
            }
            catalog.register("\(flavor)-transient", provides: (any StressTransient).self, parameters: GenerationOptions.self) {
                part("transient", $0)
            }
            catalog.register("\(flavor)-weak", provides: (any StressWeak).self, parameters: GenerationOptions.self) {
                part("weak", $0)
            }
            catalog.register("\(flavor)-scoped", provides: (any StressScoped).self, parameters: GenerationOptions.self) {
                part("scoped", $0)
            }
            catalog.register("\(flavor)-graph", provides: (any StressGraph).self, parameters: GenerationOptions.self) {
                part("graph", $0)
            }
            catalog.register("\(flavor)-root", provides: StressRoot.self, parameters: GenerationOptions.self) {
                (options: GenerationOptions, left: any StressGraph, right: any StressGraph, singleton: any StressSingleton) in
                StressRoot(left: left, right: right, singleton: singleton, generation: options.generation)
            }
        }
        return catalog
    }

    /// The good manifest of generation `generation`: family "a" for even generations, "b" for odd.
    static func good(_ generation: Int) -> Manifest {
        let flavor = generation % 2 == 0 ? "a" : "b"
        let parameters = JSONValue.object(["generation": .integer(generation)])
        return Manifest(environment: "generation \(generation)", bindings: [
            Binding(protocol: "StressSingleton", factory: "\(flavor)-singleton", lifetime: .singleton, parameters: parameters),
            Binding(protocol: "StressTransient", factory: "\(flavor)-transient", lifetime: .transient, parameters: parameters),
            Binding(protocol: "StressWeak", factory: "\(flavor)-weak", lifetime: .weak, parameters: parameters),
            Binding(protocol: "StressScoped", factory: "\(flavor)-scoped", lifetime: .scoped, parameters: parameters),
            Binding(protocol: "StressGraph", factory: "\(flavor)-graph", lifetime: .graph, parameters: parameters),
            Binding(protocol: "StressRoot", factory: "\(flavor)-root", lifetime: .transient, parameters: parameters),
        ])
    }

    /// Bad manifests, each with one error among otherwise valid bindings of the "bad" family.
    static func bad(_ index: Int) -> Manifest {
        let parameters = JSONValue.object(["generation": .integer(-index)])
        var bindings = [
            Binding(protocol: "StressSingleton", factory: "bad-singleton", lifetime: .singleton, parameters: parameters),
            Binding(protocol: "StressTransient", factory: "bad-transient", parameters: parameters),
            Binding(protocol: "StressWeak", factory: "bad-weak", lifetime: .weak, parameters: parameters),
            Binding(protocol: "StressScoped", factory: "bad-scoped", lifetime: .scoped, parameters: parameters),
            Binding(protocol: "StressGraph", factory: "bad-graph", lifetime: .graph, parameters: parameters),
            Binding(protocol: "StressRoot", factory: "bad-root", parameters: parameters),
        ]
        switch index % 4 {
        case 0: bindings.append(Binding(protocol: "StressGraph", factory: "no-such-factory", injector: .secondary))
        case 1: bindings[0].lifetime = .weak; bindings[5].lifetime = .singleton  // singleton root needs graph: captive
        case 2: bindings[1].parameters = .object(["generation": .string("one")])  // invalid parameters
        default: bindings.append(bindings[4])  // a duplicate binding
        }
        return Manifest(environment: "bad \(index)", bindings: bindings)
    }

    /// Checks one product: a good family, and the family that goes with its generation.
    static func check(_ part: any Stamped, _ problems: Collected<String>, _ what: String) {
        let expected = part.generation % 2 == 0 ? "a" : "b"
        if part.generation < 0 || part.generation > activations || part.flavor != expected {
            problems.append("\(what) from a manifest never activated: \(part.flavor) \(part.generation)")
        }
    }

    /// One round of resolves of every lifetime, checking what comes back.
    static func resolveEverything(_ container: Container, _ problems: Collected<String>) {
        do {
            let first = try container.resolve((any StressSingleton).self)
            let second = try container.resolve((any StressSingleton).self)
            check(first, problems, "singleton")
            if first.generation == second.generation, first !== second {
                problems.append("two singletons in generation \(first.generation)")
            }
            check(try container.resolve((any StressTransient).self), problems, "transient")

            let weak = try container.resolve((any StressWeak).self)
            let weakAgain = try container.resolve((any StressWeak).self)
            check(weak, problems, "weak")
            if weak.generation == weakAgain.generation, weak !== weakAgain {
                problems.append("two live weak instances in generation \(weak.generation)")
            }

            let root = try container.resolve(StressRoot.self)
            if root.left !== root.right { problems.append("graph instance not shared within one resolve") }
            // One resolve reads one activation: everything in the graph is of one generation.
            if Set([root.generation, root.left.generation, root.singleton.generation]).count != 1 {
                problems.append("one resolve mixed generations \(root.generation), \(root.left.generation), "
                    + "\(root.singleton.generation)")
            }
            check(root.singleton, problems, "root's singleton")

            let scope = Scope()
            let inScope = try scope.resolve((any StressScoped).self, from: container)
            let againInScope = try scope.run { try container.resolve((any StressScoped).self) }
            check(inScope, problems, "scoped")
            if inScope.generation == againInScope.generation, inScope !== againInScope {
                problems.append("two scoped instances in one scope and generation \(inScope.generation)")
            }
            let otherScope = Scope()
            if try otherScope.resolve((any StressScoped).self, from: container) === inScope {
                problems.append("two scopes shared a scoped instance")
            }
            scope.close()
            otherScope.close()
        } catch {
            problems.append("resolve failed: \(error)")
        }
    }

    /// Activates the good manifests 1 to 1,000 in turn, offering a bad one
    /// after every third; each bad one must throw and leave the good one in force.
    static func reactivate(_ container: Container, _ problems: Collected<String>) {
        for generation in 1...activations {
            do {
                try container.activate(good(generation))
            } catch {
                problems.append("a good manifest was refused: \(error)")
            }
            if generation % 3 == 0 {
                do {
                    try container.activate(bad(generation))
                    problems.append("bad manifest \(generation) was activated")
                } catch {
                    if error.diagnostics.errors.isEmpty { problems.append("refused without an error") }
                }
                if container.manifest != good(generation) {
                    problems.append("after a bad manifest, \(container.manifest.environment ?? "?") is in force")
                }
            }
        }
    }

    /// What every stress run checks at the end.
    static func expectConsistent(_ made: Tally, _ problems: Collected<String>, _ container: Container) throws {
        #expect(problems.all.isEmpty, "\(problems.all.prefix(10))")
        let counts = made.all
        #expect(!counts.keys.contains { $0.contains(" bad ") }, "a bad manifest's factory ran")
        let singletons = counts.filter { $0.key.hasPrefix("singleton ") }
        #expect(singletons.allSatisfy { $0.value == 1 },
            "singletons made twice in one activation: \(singletons.filter { $0.value > 1 })")
        #expect(!singletons.isEmpty)
        #expect(container.manifest == good(activations))
        #expect(try container.resolve((any StressSingleton).self).generation == activations)
    }

    @Test func threadsResolveEveryLifetimeWhileTheManifestIsReactivated() throws {
        let made = Tally()
        let problems = Collected<String>()
        let container = try Container(catalog: Self.catalog(made), manifest: Self.good(0))
        let done = Box<Bool>()
        done.value = false
        let rounds = Counter()
        // Thread 0 re-activates; the others resolve until it is done (at least a few rounds each).
        onThreads(4) { thread in
            if thread == 0 {
                Self.reactivate(container, problems)
                done.value = true
                return
            }
            var round = 0
            while done.value != true || round < 20 {
                Self.resolveEverything(container, problems)
                rounds.increment()
                round += 1
            }
        }
        try Self.expectConsistent(made, problems, container)
        #expect(rounds.value >= 60)
    }

    @Test func tasksResolveEveryLifetimeWhileTheManifestIsReactivated() async throws {
        let made = Tally()
        let problems = Collected<String>()
        let container = try Container(catalog: Self.catalog(made), manifest: Self.good(0))
        let done = Box<Bool>()
        done.value = false
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                Self.reactivate(container, problems)
                done.value = true
            }
            for _ in 0..<6 {
                group.addTask {
                    var round = 0
                    while done.value != true || round < 10 {
                        Self.resolveEverything(container, problems)
                        round += 1
                        if round % 8 == 0 { await Task.yield() }
                    }
                }
            }
        }
        try Self.expectConsistent(made, problems, container)
    }

    @Test func injectedAndLazyReadByManyThreadsAtOnceYieldOneValueDuringReactivation() throws {
        let made = Tally()
        let problems = Collected<String>()
        let container = try Container(catalog: Self.catalog(made), manifest: Self.good(0))
        let done = Box<Bool>()
        done.value = false
        onThreads(3) { thread in
            if thread == 0 {
                for generation in 1...200 { try? container.activate(Self.good(generation)) }
                done.value = true
                return
            }
            var round = 0
            while done.value != true || round < 20 {
                round += 1
                // A fresh wrapper and a fresh Lazy, read from many threads at once:
                // every reader gets the one value that was kept.
                let injected = Injected<any StressTransient>(container: container)
                let lazy = Lazy((any StressTransient).self, container: container)
                let seen = Collected<ObjectIdentifier>()
                DispatchQueue.concurrentPerform(iterations: 8) { index in
                    do {
                        let value = index % 2 == 0 ? try injected.resolve() : try lazy.get()
                        Self.check(value, problems, "injected")
                        seen.append(ObjectIdentifier(index % 2 == 0 ? try injected.resolve() : try lazy.get()))
                    } catch {
                        problems.append("\(error)")
                    }
                }
                if Set(seen.all).count != 2 { problems.append("\(Set(seen.all).count) values for two wrappers") }
            }
        }
        #expect(problems.all.isEmpty, "\(problems.all.prefix(10))")
    }
}
