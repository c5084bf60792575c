// Faults in factories: one that throws, one whose dependency throws, one that
// blocks while the rest of the container carries on, and factories that call
// the container re-entrantly (directly, and through @Injected in an init).
import Dispatch
import Foundation
import Testing
@testable import Patchbay

/// A class whose initializer reads `@Injected` properties: resolved while its
/// factory runs, so they join the running resolution.
final class InjectingRoot: Sendable {
    let leaf: GraphLeaf
    let viaInit: GraphLeaf
    init(leaf: GraphLeaf, container: Container) throws {
        self.leaf = leaf
        @Injected(container: container) var injected: GraphLeaf
        viaInit = try $injected.resolve()
    }
}

/// Resolves itself through `@Injected` while it is being made: a cycle.
final class SelfInjecting: Sendable {
    init(container: Container) throws {
        @Injected(container: container) var me: SelfInjecting
        _ = try $me.resolve()
    }
}

struct FaultTests {
    // MARK: A factory that throws

    @Test(arguments: [Lifetime.transient, .singleton, .weak, .graph])
    func aThrowingFactoryFailsEachResolveAndIsTriedAgainNextTime(_ lifetime: Lifetime) throws {
        let calls = Counter()
        var catalog = FactoryCatalog()
        catalog.register("flaky", provides: (any Widget).self) { () throws -> any Widget in
            // Fails the first two calls, then works.
            let call = calls.increment()
            if call <= 2 { throw FixtureError(message: "call \(call)") }
            return Part(tag: "flaky", serial: call)
        }
        catalog.register("fine", provides: (any Gadget).self) { Part(tag: "fine") }
        let container = try makeContainer(catalog, [bind("Widget", to: "flaky", lifetime), bind("Gadget", to: "fine")])
        for call in 1...2 {
            let error = try #require(throws: ResolutionError.self) { try container.resolve((any Widget).self) }
            #expect(error.reason == .factoryFailed)
            #expect(error.factory == "flaky")
            #expect(error.underlying as? FixtureError == FixtureError(message: "call \(call)"))
            #expect(error.description.contains("call \(call)"))
            // The failure poisons nothing else.
            #expect(try container.resolve((any Gadget).self).tag == "fine")
        }
        // A failure is not kept: the next resolve runs the factory again, and then it works.
        let widget = try container.resolve((any Widget).self)
        #expect(widget.serial == 3)
        #expect(calls.value == 3)
        if lifetime == .singleton {
            #expect(try container.resolve((any Widget).self) === widget)
            #expect(calls.value == 3)
        }
    }

    @Test func aSingletonThatThrowsUnderConcurrentFirstUseIsNeverHalfMade() throws {
        let calls = Counter()
        var catalog = FactoryCatalog()
        catalog.register("flaky", provides: (any Widget).self) { () throws -> any Widget in
            let call = calls.increment()
            briefly()
            if call % 2 == 1 { throw FixtureError(message: "odd call \(call)") }
            return Part(tag: "made", serial: call)
        }
        let container = try makeContainer(catalog, [bind("Widget", to: "flaky", .singleton)])
        let made = Collected<ObjectIdentifier>()
        let failures = Collected<ResolutionError>()
        onThreads(8) { _ in
            do throws(ResolutionError) {
                made.append(ObjectIdentifier(try container.resolve((any Widget).self)))
            } catch {
                failures.append(error)
            }
        }
        // Calls are serialized by the singleton's cell: the first throws, the second makes it.
        #expect(Set(made.all).count == 1)
        #expect(made.all.count + failures.all.count == 8)
        #expect(failures.all.count == 1)
        #expect(failures.all.allSatisfy { $0.reason == .factoryFailed && $0.factory == "flaky" })
        #expect(calls.value == 2)
    }

    // MARK: A factory whose dependency fails

    @Test func aFailingDependencyFailsItsDependentsWithThePath() throws {
        let holder = Box<Container>()
        var catalog = FactoryCatalog()
        catalog.register("broken-db", provides: (any Database).self) { () throws -> any Database in
            throw FixtureError(message: "no connection")
        }
        // Needs the database as a closure parameter...
        catalog.register("repo", provides: (any UserRepository).self) { (db: any Database) in
            FakeUserRepository(label: "repo", database: db)
        }
        // ...or resolves it directly from inside its closure.
        catalog.register("direct-repo", provides: (any UserRepository).self) { () throws -> any UserRepository in
            FakeUserRepository(label: "direct", database: try holder.value!.resolve((any Database).self))
        }
        catalog.register("signup", provides: SignupService.self) { (users: any UserRepository) in
            SignupService(users: users)
        }
        catalog.register("db", provides: (any Database).self) { FakeDatabase(label: "db") }
        for repository in ["repo", "direct-repo"] {
            let container = try makeContainer(catalog, [
                bind("Database", to: "broken-db", .singleton), bind("UserRepository", to: repository),
                bind("SignupService", to: "signup"),
            ])
            holder.value = container
            let error = try #require(throws: ResolutionError.self) { try container.resolve(SignupService.self) }
            #expect(error.reason == .factoryFailed)
            #expect(error.factory == "broken-db", "the factory that threw, not the one that asked")
            #expect(error.underlying as? FixtureError == FixtureError(message: "no connection"))
            #expect(error.dependencyPath == ["SignupService", "UserRepository", "Database"], "\(repository)")
            #expect(error.description.contains("SignupService -> UserRepository -> Database"))
            // The failure is not kept: asked again, the factory runs and fails again.
            let again = try #require(throws: ResolutionError.self) { try container.resolve((any UserRepository).self) }
            #expect(again.dependencyPath == ["UserRepository", "Database"])
            // With a working database bound, the same graph is made.
            try container.activate(manifest([
                bind("Database", to: "db", .singleton), bind("UserRepository", to: repository),
                bind("SignupService", to: "signup"),
            ]))
            #expect(try container.resolve(SignupService.self).users.database?.label == "db")
        }
    }

    // MARK: A factory that blocks

    @Test func aBlockedFactoryHoldsUpOnlyThoseWaitingForItsInstance() throws {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let slowFinished = Box<Bool>()
        slowFinished.value = false
        var catalog = FactoryCatalog()
        catalog.register("slow", provides: (any Widget).self) { () -> any Widget in
            entered.signal()
            // Blocks until the test lets it go (at least 200 ms; 10 s at most, so a
            // failing test cannot hang the run).
            usleep(200_000)
            _ = release.wait(timeout: .now() + 10)
            return Part(tag: "slow")
        }
        catalog.register("quick", provides: (any Gadget).self) { Part(tag: "quick") }
        catalog.register("quick-singleton", provides: (any Sprocket).self) { Part(tag: "quick-singleton") }
        catalog.register("db", provides: (any Database).self) { FakeDatabase(label: "db") }
        let bindings = [
            bind("Widget", to: "slow", .singleton), bind("Gadget", to: "quick"),
            bind("Sprocket", to: "quick-singleton", .singleton), bind("Database", to: "db", .scoped),
        ]
        let container = try makeContainer(catalog, bindings)

        let slow = Thread {
            _ = try? container.resolve((any Widget).self)
            slowFinished.value = true
        }
        slow.start()
        #expect(entered.wait(timeout: .now() + 10) == .success, "the slow factory never started")

        // While it blocks: other types resolve on other threads, in scopes, and a
        // new manifest activates; none of it waits for the slow factory.
        let completed = Counter()
        let failures = Collected<String>()
        let others = DispatchGroup()
        for thread in 0..<4 {
            others.enter()
            Thread {
                defer { others.leave() }
                do {
                    for _ in 0..<50 {
                        _ = try container.resolve((any Gadget).self)
                        _ = try container.resolve((any Sprocket).self)
                        _ = try Scope().resolve((any Database).self, from: container)
                        completed.increment()
                    }
                    if thread == 0 { try container.activate(manifest(bindings)) }
                } catch {
                    failures.append("\(error)")
                }
            }.start()
        }
        #expect(others.wait(timeout: .now() + 10) == .success, "resolves of other types waited for the slow factory")
        #expect(slowFinished.value == false, "the slow factory should still be blocked")
        #expect(completed.value == 200)
        #expect(failures.all.isEmpty, "\(failures.all)")

        release.signal()
        let deadline = Date().addingTimeInterval(10)
        while slowFinished.value != true, Date() < deadline { usleep(1_000) }
        #expect(slowFinished.value == true)
    }

    @Test func threadsWaitingForABlockedSingletonGetTheOneInstance() throws {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let calls = Counter()
        var catalog = FactoryCatalog()
        catalog.register("slow", provides: (any Widget).self) { () -> any Widget in
            let call = calls.increment()
            entered.signal()
            _ = release.wait(timeout: .now() + 10)
            return Part(tag: "slow", serial: call)
        }
        let container = try makeContainer(catalog, [bind("Widget", to: "slow", .singleton)])
        let seen = Collected<ObjectIdentifier>()
        let group = DispatchGroup()
        for _ in 0..<6 {
            group.enter()
            Thread {
                defer { group.leave() }
                if let widget = try? container.resolve((any Widget).self) { seen.append(ObjectIdentifier(widget)) }
            }.start()
        }
        #expect(entered.wait(timeout: .now() + 10) == .success)
        usleep(50_000)  // let the others reach the cell and wait
        release.signal()
        #expect(group.wait(timeout: .now() + 10) == .success)
        #expect(calls.value == 1)
        #expect(seen.all.count == 6)
        #expect(Set(seen.all).count == 1)
    }

    // MARK: Re-entrant factories

    @Test func aFactoryThatCallsTheContainerJoinsTheResolutionInProgress() throws {
        let leaves = Counter()
        let holder = Box<Container>()
        var catalog = FactoryCatalog()
        catalog.register("leaf", provides: GraphLeaf.self) { GraphLeaf(serial: leaves.increment()) }
        // Gets one leaf as a parameter and resolves another directly: the same graph instance.
        catalog.register("left", provides: GraphLeft.self) { (leaf: GraphLeaf) throws -> GraphLeft in
            let direct = try holder.value!.resolve(GraphLeaf.self)
            #expect(direct === leaf)
            return GraphLeft(leaf: direct)
        }
        // Resolves everything directly, including a type that needs the graph instance again.
        catalog.register("root", provides: GraphRoot.self) { () throws -> GraphRoot in
            let container = holder.value!
            return GraphRoot(left: try container.resolve(GraphLeft.self), right: try container.resolve(GraphRight.self))
        }
        catalog.register("right", provides: GraphRight.self) { (leaf: GraphLeaf) in GraphRight(leaf: leaf) }
        let container = try makeContainer(catalog, [
            bind("GraphLeaf", to: "leaf", .graph), bind("GraphLeft", to: "left"), bind("GraphRight", to: "right"),
            bind("GraphRoot", to: "root"),
        ])
        holder.value = container
        let root = try container.resolve(GraphRoot.self)
        #expect(root.left.leaf === root.right.leaf)
        #expect(leaves.value == 1)
        // The next top-level resolve is a new graph.
        let again = try container.resolve(GraphRoot.self)
        #expect(again.left.leaf !== root.left.leaf)
        #expect(leaves.value == 2)
    }

    @Test func injectedInAProductsInitializerJoinsTheResolutionInProgress() throws {
        let leaves = Counter()
        let holder = Box<Container>()
        var catalog = FactoryCatalog()
        catalog.register("leaf", provides: GraphLeaf.self) { GraphLeaf(serial: leaves.increment()) }
        catalog.register("root", provides: InjectingRoot.self) { (leaf: GraphLeaf) throws -> InjectingRoot in
            try InjectingRoot(leaf: leaf, container: holder.value!)
        }
        catalog.register("self-injecting", provides: SelfInjecting.self) { () throws -> SelfInjecting in
            try SelfInjecting(container: holder.value!)
        }
        let container = try makeContainer(catalog, [
            bind("GraphLeaf", to: "leaf", .graph), bind("InjectingRoot", to: "root"),
            bind("SelfInjecting", to: "self-injecting", .singleton),
        ])
        holder.value = container
        let root = try container.resolve(InjectingRoot.self)
        #expect(root.viaInit === root.leaf, "@Injected in the initializer joined the resolve: one graph instance")
        #expect(leaves.value == 1)
        #expect(try container.resolve(InjectingRoot.self).leaf !== root.leaf)

        // A cycle through @Injected is reported, not a hang or a crash, and the
        // container is fine afterwards.
        let cycle = try #require(throws: ResolutionError.self) { try container.resolve(SelfInjecting.self) }
        #expect(cycle.reason == .dependencyCycle)
        #expect(cycle.description.contains("SelfInjecting -> SelfInjecting"))
        #expect(try container.resolve(GraphLeaf.self).serial == 3)
    }

    @Test func reentrantResolvesFromManyThreadsStayWithinTheirOwnResolution() throws {
        let holder = Box<Container>()
        var catalog = FactoryCatalog()
        catalog.register("leaf", provides: GraphLeaf.self) { GraphLeaf(serial: 0) }
        catalog.register("root", provides: InjectingRoot.self) { (leaf: GraphLeaf) throws -> InjectingRoot in
            briefly(milliseconds: 1)
            return try InjectingRoot(leaf: leaf, container: holder.value!)
        }
        let container = try makeContainer(catalog, [bind("GraphLeaf", to: "leaf", .graph), bind("InjectingRoot", to: "root")])
        holder.value = container
        let problems = Collected<String>()
        DispatchQueue.concurrentPerform(iterations: 32) { _ in
            do {
                let root = try container.resolve(InjectingRoot.self)
                if root.viaInit !== root.leaf { problems.append("a re-entrant resolve left its resolution") }
            } catch {
                problems.append("\(error)")
            }
        }
        #expect(problems.all.isEmpty, "\(problems.all.prefix(5))")
    }
}
