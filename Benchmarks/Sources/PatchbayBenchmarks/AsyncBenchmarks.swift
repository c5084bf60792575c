import BenchmarkTypes
import Dispatch
import Foundation
import Patchbay

/// A hand-written container of `async` factories, the baseline of the
/// awaited cases: a dictionary under a lock, and an awaited closure.
final class AsyncBaselineContainer: @unchecked Sendable {
    private let lock = NSLock()
    private var factories: [ObjectIdentifier: @Sendable () async -> Any] = [:]

    func register<T>(_ type: T.Type, factory: @escaping @Sendable () async -> T) {
        lock.lock()
        factories[ObjectIdentifier(type)] = factory
        lock.unlock()
    }

    @inline(never)
    func resolve<T>(_ type: T.Type) async -> T {
        let factory = lock.withLock { factories[ObjectIdentifier(type)]! }
        return await factory() as! T
    }
}

/// The floor of an awaited transient resolve by a container that can tell
/// a loop back from a factory's own resolves: what public Swift makes such
/// a container pay beyond finding the factory. A lookup in a table frozen
/// after registration (no lock), the frame the request is asked in (a
/// task-local read), the current task's identity (`UnsafeCurrentTask`'s
/// public hash, as Patchbay reads it: a task a factory starts is not a
/// loop), the cycle check (the path walked for the same type in the same
/// task), a frame recording both, allocated and pushed around the factory's
/// run (`withValue`), a throwing factory, and its product in a type-erased
/// box. (`Scripts/awaited-floor.swift` adds these one step at a time; its
/// identity step bit-casts the task, which assumes the runtime's layout.)
final class AsyncFloorContainer: Sendable {
    final class Frame: Sendable {
        let key: ObjectIdentifier
        let task: Int?
        let outer: Frame?
        init(key: ObjectIdentifier, task: Int?, outer: Frame?) {
            self.key = key
            self.task = task
            self.outer = outer
        }
    }
    final class Box<T> {
        let value: T
        init(_ value: T) { self.value = value }
    }
    struct Loop: Error {}
    @TaskLocal static var running: Frame?
    private let factories: [ObjectIdentifier: @Sendable () async throws -> AnyObject]

    init<T>(_ type: T.Type, factory: @escaping @Sendable () async throws -> T) {
        factories = [ObjectIdentifier(type): { Box(try await factory()) }]
    }

    @inline(never)
    func resolve<T>(_ type: T.Type) async throws -> T {
        let key = ObjectIdentifier(type)
        let factory = factories[key]!
        let outer = Self.running
        let task = withUnsafeCurrentTask { $0?.hashValue }
        var frame = outer
        while let step = frame {
            if step.key == key && step.task == task { throw Loop() }
            frame = step.outer
        }
        let made = try await Self.$running.withValue(Frame(key: key, task: task, outer: outer)) { try await factory() }
        return (made as! Box<T>).value
    }
}

/// The containers of the awaited cases: `Service` made by an `async` factory.
struct AsyncContainers: @unchecked Sendable {
    let singleton = try! Patchbay.Container(catalog: asyncCatalog(), manifest: asyncManifest(.singleton))
    let transient = try! Patchbay.Container(catalog: asyncCatalog(), manifest: asyncManifest(.transient))
    let baselineSingleton: AsyncBaselineContainer = {
        let container = AsyncBaselineContainer()
        let instance: any Service = ServiceImpl()
        container.register((any Service).self) { instance }
        return container
    }()
    let baselineTransient: AsyncBaselineContainer = {
        let container = AsyncBaselineContainer()
        container.register((any Service).self) { () async -> any Service in ServiceImpl() }
        return container
    }()
    let floorTransient = AsyncFloorContainer((any Service).self) { () async throws -> any Service in ServiceImpl() }
    let libraryFloorTransient = LibraryFloorContainer((any Service).self) { () async throws -> any Service in ServiceImpl() }
}

private func asyncCatalog() -> FactoryCatalog {
    var catalog = FactoryCatalog()
    catalog.register("async-service", provides: (any Service).self) { () async -> any Service in ServiceImpl() }
    return catalog
}

private func asyncManifest(_ lifetime: Lifetime) -> Manifest {
    Manifest(bindings: [Binding(protocol: "Service", factory: "async-service", lifetime: lifetime)])
}

/// The awaited cases run `roundsPerSample` rounds of `iterations / roundsPerSample`
/// per sample: the same work as one long round, in rounds short enough that
/// the scheduler's bursts (an awaited resolve suspends its task at each
/// `await`) land in few of them.
func asyncCases(iterations: Int, roundsPerSample: Int = 5) throws -> [Case] {
    let c = AsyncContainers()
    let iterations = max(1, iterations / roundsPerSample)
    _ = try awaitingLoop(1) { try await c.singleton.resolve(awaiting: (any Service).self).id }  // made before timing
    return [
        Case(name: "async transient resolve (await)", unit: "resolve", iterations: iterations, contenders: [
            ("Patchbay", { n in try awaitingLoop(n) { try await c.transient.resolve(awaiting: (any Service).self).id } }),
            ("baseline", { n in try awaitingLoop(n) { await c.baselineTransient.resolve((any Service).self).id } }),
            ("floor", { n in try awaitingLoop(n) { try await c.floorTransient.resolve((any Service).self).id } }),
            ("floor, as a library", { n in
                try awaitingLoop(n) { try await c.libraryFloorTransient.resolve((any Service).self).id }
            }),
        ], roundsPerSample: roundsPerSample),
        Case(name: "async singleton resolve, made (await)", unit: "resolve", iterations: iterations, contenders: [
            ("Patchbay", { n in try awaitingLoop(n) { try await c.singleton.resolve(awaiting: (any Service).self).id } }),
            ("baseline", { n in try awaitingLoop(n) { await c.baselineSingleton.resolve((any Service).self).id } }),
        ], roundsPerSample: roundsPerSample),
    ]
}

/// Runs `body` `count` times, one after another, in one task, and waits for it.
func awaitingLoop(_ count: Int, _ body: @escaping @Sendable () async throws -> Int) throws -> Int {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var outcome: Swift.Result<Int, any Error> = .success(0)
    Task {
        do {
            var sum = 0
            for _ in 0..<count { sum &+= try await body() }
            outcome = .success(sum)
        } catch {
            outcome = .failure(error)
        }
        done.signal()
    }
    done.wait()
    return try outcome.get()
}
