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
