import Dispatch
import Foundation
@testable import Patchbay
import Testing

/// Concurrent first use: a singleton (or scoped, or weak) instance is made
/// exactly once however many threads and tasks ask for it at the same time.
struct ConcurrencyTests {
    static let rounds = 5

    /// A `Widget` factory that sleeps briefly, to widen the race, and counts its calls.
    private func slowCatalog(_ counter: Counter) -> FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("slow-part", provides: (any Widget).self) { () -> any Widget in
            let serial = counter.increment()
            briefly()
            return Part(tag: "slow", serial: serial)
        }
        catalog.register("needs-slow-part", provides: (any Gadget).self) { (widget: any Widget) in
            Part(tag: "wraps", serial: widget.serial)
        }
        return catalog
    }

    @Test func threadsRacingOnAFirstSingletonResolveMakeOneInstance() throws {
        let counter = Counter()
        let container = try makeContainer(slowCatalog(counter), [
            bind("Widget", to: "slow-part", .singleton), bind("Gadget", to: "needs-slow-part"),
        ])
        for round in 1...Self.rounds {
            if round > 1 { container.reset() }
            let seen = Collected<Int>()
            let failures = Collected<String>()
            // Two threads, each starting many resolves at once: half through the
            // singleton itself, half through a factory that depends on it.
            onThreads(2) { thread in
                DispatchQueue.concurrentPerform(iterations: 32) { index in
                    do {
                        if (thread + index) % 2 == 0 {
                            seen.append(try container.resolve((any Widget).self).serial)
                        } else {
                            seen.append(try container.resolve((any Gadget).self).serial)
                        }
                    } catch {
                        failures.append("\(error)")
                    }
                }
            }
            #expect(failures.all.isEmpty)
            #expect(counter.value == round, "round \(round): exactly one instance made")
            #expect(seen.all.count == 64)
            #expect(Set(seen.all) == [round], "round \(round): everyone got the same instance")
        }
    }

    @Test func plainThreadsRacingOnAFreshContainerMakeOneInstance() throws {
        for round in 1...Self.rounds {
            let counter = Counter()
            let container = try makeContainer(slowCatalog(counter), [bind("Widget", to: "slow-part", .singleton)])
            let seen = Collected<ObjectIdentifier>()
            let failures = Collected<String>()
            onThreads(16) { _ in
                do {
                    seen.append(ObjectIdentifier(try container.resolve((any Widget).self)))
                } catch {
                    failures.append("\(error)")
                }
            }
            #expect(failures.all.isEmpty)
            #expect(counter.value == 1, "round \(round)")
            #expect(Set(seen.all).count == 1, "round \(round)")
            #expect(seen.all.count == 16)
        }
    }

    @Test func tasksRacingOnAFirstSingletonResolveMakeOneInstance() async throws {
        let counter = Counter()
        let container = try makeContainer(slowCatalog(counter), [bind("Widget", to: "slow-part", .singleton)])
        for round in 1...Self.rounds {
            if round > 1 { container.reset() }
            let serials = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<64 {
                    group.addTask { try container.resolve((any Widget).self).serial }
                }
                var serials: [Int] = []
                for try await serial in group { serials.append(serial) }
                return serials
            }
            #expect(counter.value == round, "round \(round)")
            #expect(serials.count == 64)
            #expect(Set(serials) == [round])
        }
    }

    @Test func threadsRacingInOneScopeMakeOneInstance() throws {
        let counter = Counter()
        let container = try makeContainer(slowCatalog(counter), [bind("Widget", to: "slow-part", .scoped)])
        for round in 1...Self.rounds {
            let scope = Scope()
            let seen = Collected<Int>()
            let failures = Collected<String>()
            DispatchQueue.concurrentPerform(iterations: 32) { _ in
                do {
                    seen.append(try scope.resolve((any Widget).self, from: container).serial)
                } catch {
                    failures.append("\(error)")
                }
            }
            #expect(failures.all.isEmpty)
            #expect(counter.value == round)
            #expect(Set(seen.all) == [round])
            scope.close()
        }
    }

    @Test func threadsRacingOnAWeakInstanceShareIt() throws {
        let counter = Counter()
        let container = try makeContainer(slowCatalog(counter), [bind("Widget", to: "slow-part", .weak)])
        let held = Collected<any Widget>()  // keeps every instance alive until the end
        let failures = Collected<String>()
        DispatchQueue.concurrentPerform(iterations: 32) { _ in
            do {
                held.append(try container.resolve((any Widget).self))
            } catch {
                failures.append("\(error)")
            }
        }
        #expect(failures.all.isEmpty)
        #expect(counter.value == 1)
        #expect(Set(held.all.map(\.serial)) == [1])
    }

    @Test func resolvesDuringReactivationSeeOneManifestOrTheOther() throws {
        var catalog = FactoryCatalog()
        catalog.register("first", provides: (any Widget).self) { Part(tag: "first") }
        catalog.register("second", provides: (any Widget).self) { Part(tag: "second") }
        catalog.register("wrapper", provides: (any Gadget).self) { (widget: any Widget) in Part(tag: widget.tag) }
        let first = manifest([bind("Widget", to: "first", .singleton), bind("Gadget", to: "wrapper")])
        let second = manifest([bind("Widget", to: "second", .singleton), bind("Gadget", to: "wrapper")])
        let container = try Container(catalog: catalog, manifest: first)
        let tags = Collected<String>()
        let failures = Collected<String>()
        onThreads(2) { thread in
            for index in 0..<200 {
                do {
                    if thread == 0 {
                        try container.activate(index % 2 == 0 ? second : first)
                    } else {
                        tags.append(try container.resolve((any Gadget).self).tag)
                    }
                } catch {
                    failures.append("\(error)")
                }
            }
        }
        #expect(failures.all.isEmpty)
        #expect(Set(tags.all).isSubset(of: ["first", "second"]))
        #expect(tags.all.count == 200)
    }
}
