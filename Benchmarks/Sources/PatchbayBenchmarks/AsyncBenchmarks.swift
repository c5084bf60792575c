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
/// a loop back from a factory's own resolves (as `Benchmarks/Scripts/
/// awaited-floor.swift`'s last step): the baseline's lookup, plus what
/// public Swift makes such a container pay: a task-local read (the frame the
/// request is asked in), a frame allocated and pushed around the factory's
/// run (`withValue`), the current task's identity (its public hash: a task
/// started by a factory is not a loop), and the product in a type-erased box.
final class AsyncFloorContainer: @unchecked Sendable {
    final class Frame: Sendable {
        let outer: Frame?
        init(outer: Frame?) { self.outer = outer }
    }
    final class Box<T> {
        let value: T
        init(_ value: T) { self.value = value }
    }
    @TaskLocal static var running: Frame?
    private let lock = NSLock()
    private var factories: [ObjectIdentifier: @Sendable () async -> AnyObject] = [:]

    func register<T>(_ type: T.Type, factory: @escaping @Sendable () async -> T) {
        lock.lock()
        factories[ObjectIdentifier(type)] = { Box(await factory()) }
        lock.unlock()
    }

    @inline(never)
    func resolve<T>(_ type: T.Type) async -> T {
        let factory = lock.withLock { factories[ObjectIdentifier(type)]! }
        let outer = Self.running
        guard withUnsafeCurrentTask(body: { $0?.hashValue }) != nil else { fatalError("not in a task") }
        let made = await Self.$running.withValue(Frame(outer: outer)) { await factory() }
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
    let floorTransient: AsyncFloorContainer = {
        let container = AsyncFloorContainer()
        container.register((any Service).self) { () async -> any Service in ServiceImpl() }
        return container
    }()
}

private func asyncCatalog() -> FactoryCatalog {
    var catalog = FactoryCatalog()
    catalog.register("async-service", provides: (any Service).self) { () async -> any Service in ServiceImpl() }
    return catalog
}

private func asyncManifest(_ lifetime: Lifetime) -> Manifest {
    Manifest(bindings: [Binding(protocol: "Service", factory: "async-service", lifetime: lifetime)])
}

func asyncCases(iterations: Int) throws -> [Case] {
    let c = AsyncContainers()
    _ = try awaitingLoop(1) { try await c.singleton.resolve(awaiting: (any Service).self).id }  // made before timing
    return [
        Case(name: "async transient resolve (await)", unit: "resolve", iterations: iterations, contenders: [
            ("Patchbay", { n in try awaitingLoop(n) { try await c.transient.resolve(awaiting: (any Service).self).id } }),
            ("baseline", { n in try awaitingLoop(n) { await c.baselineTransient.resolve((any Service).self).id } }),
            ("floor", { n in try awaitingLoop(n) { await c.floorTransient.resolve((any Service).self).id } }),
        ]),
        Case(name: "async singleton resolve, made (await)", unit: "resolve", iterations: iterations, contenders: [
            ("Patchbay", { n in try awaitingLoop(n) { try await c.singleton.resolve(awaiting: (any Service).self).id } }),
            ("baseline", { n in try awaitingLoop(n) { await c.baselineSingleton.resolve((any Service).self).id } }),
        ]),
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
