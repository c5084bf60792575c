import BenchmarkTypes
import Dependencies
import Dispatch
import Foundation
import Patchbay
import Swinject

/// A class that reads its service through `@Injected`.
final class InjectedHolder: @unchecked Sendable {
    @Injected(container: resolveContainers.singleton) var service: any Service
}

/// An object with two `@Injected` properties, never read: what making one
/// costs (`.ci/perf-guard` counts its allocations: the object and one per property).
final class TwoInjected: @unchecked Sendable {
    @Injected(container: resolveContainers.singleton) var first: any Service
    @Injected(container: resolveContainers.singleton) var second: any Service
}

/// A bit of `object`'s address, through a call the optimizer cannot see into,
/// so the object is really made.
@inline(never) func opaqueBit(_ object: AnyObject) -> Int { ObjectIdentifier(object).hashValue >> 4 & 1 }

/// The same object with two stored references and nothing to resolve: the floor.
final class TwoStored: @unchecked Sendable {
    var first: (any Service)?
    var second: (any Service)?
}

/// Reads the resolve cases' dependencies through `@Dependency`, as a type in
/// an app that uses swift-dependencies does: each read looks the dependency
/// up in the current `DependencyValues`.
struct DependenciesHolder {
    @Dependency(\.service) var service
    @Dependency(\.serviceMaker) var serviceMaker
    @Dependency(\.chainA) var chainA
}

/// The containers the resolve cases share, made once.
struct ResolveContainers: @unchecked Sendable {
    let singleton = try! Patchbay.Container(catalog: benchmarkCatalog(), manifest: benchmarkManifest(serviceLifetime: .singleton))
    let transient = try! Patchbay.Container(catalog: benchmarkCatalog(), manifest: benchmarkManifest(serviceLifetime: .transient))
    let swinjectSingleton = swinjectContainer(serviceScope: .container)
    let swinjectTransient = swinjectContainer(serviceScope: .transient)
    let baselineSingleton = baselineContainer(singleton: true)
    let baselineTransient = baselineContainer(singleton: false)
    /// Its own container, so the other cases' type tables stay as they were.
    let collection = try! Patchbay.Container(catalog: collectionCatalog(), manifest: collectionManifest())
    let baselineCollection = baselineCollectionContainer()
    let stored: any Service = ServiceImpl()
}

let resolveContainers = ResolveContainers()

func resolveCases(iterations: Int) -> [Case] {
    let c = resolveContainers
    nonisolated(unsafe) let swinjectSingletonSync = c.swinjectSingleton.synchronize()
    let swinjectTransientSync = c.swinjectTransient.synchronize()
    let holder = InjectedHolder()
    _ = holder.service
    // A Lazy of the singleton container's Service, resolved once before
    // timing: the case reads the kept value, as a holder does after first use.
    let lazy = Lazy((any Service).self, container: c.singleton)
    _ = try! lazy.get()
    let dependencies = DependenciesHolder()
    return [
        Case(name: "singleton resolve", unit: "resolve", iterations: iterations, contenders: [
            ("Patchbay", { n in var s = 0; for _ in 0..<n { s &+= try c.singleton.resolve((any Service).self).id }; return s }),
            ("Swinject", { n in var s = 0; for _ in 0..<n { s &+= c.swinjectSingleton.resolve((any Service).self)!.id }; return s }),
            ("Swinject sync", { n in var s = 0; for _ in 0..<n { s &+= swinjectSingletonSync.resolve((any Service).self)!.id }; return s }),
            ("swift-dependencies", { n in var s = 0; for _ in 0..<n { s &+= dependencies.service.id }; return s }),
            ("baseline", { n in var s = 0; for _ in 0..<n { s &+= c.baselineSingleton.resolve((any Service).self).id }; return s }),
            ("floor", { n in var s = 0; for _ in 0..<n { s &+= storedRead(c).id }; return s }),
        ]),
        Case(name: "transient resolve", unit: "resolve", iterations: iterations, contenders: [
            ("Patchbay", { n in var s = 0; for _ in 0..<n { s &+= try c.transient.resolve((any Service).self).id }; return s }),
            ("Swinject", { n in var s = 0; for _ in 0..<n { s &+= c.swinjectTransient.resolve((any Service).self)!.id }; return s }),
            ("Swinject sync", { n in var s = 0; for _ in 0..<n { s &+= swinjectTransientSync.resolve((any Service).self)!.id }; return s }),
            ("swift-dependencies", { n in var s = 0; for _ in 0..<n { s &+= dependencies.serviceMaker.make().id }; return s }),
            ("baseline", { n in var s = 0; for _ in 0..<n { s &+= c.baselineTransient.resolve((any Service).self).id }; return s }),
            ("floor", { n in var s = 0; for _ in 0..<n { s &+= directInit().id }; return s }),
        ]),
        Case(name: "3-deep chain (transient)", unit: "resolve", iterations: iterations / 4, contenders: [
            ("Patchbay", { n in var s = 0; for _ in 0..<n { s &+= try c.transient.resolve((any ChainA).self).depth }; return s }),
            ("Swinject", { n in var s = 0; for _ in 0..<n { s &+= c.swinjectTransient.resolve((any ChainA).self)!.depth }; return s }),
            ("Swinject sync", { n in var s = 0; for _ in 0..<n { s &+= swinjectTransientSync.resolve((any ChainA).self)!.depth }; return s }),
            ("swift-dependencies", { n in var s = 0; for _ in 0..<n { s &+= dependencies.chainA.make().depth }; return s }),
            ("baseline", { n in var s = 0; for _ in 0..<n { s &+= c.baselineTransient.resolve((any ChainA).self).depth }; return s }),
            ("floor", { n in var s = 0; for _ in 0..<n { s &+= directChain().depth }; return s }),
        ]),
        Case(name: "resolve a collection of 3", unit: "resolve", iterations: iterations / 4, contenders: [
            ("Patchbay", { n in var s = 0; for _ in 0..<n { s &+= try c.collection.resolve([any Service].self).count }; return s }),
            ("baseline", { n in var s = 0; for _ in 0..<n { s &+= c.baselineCollection.resolve([any Service].self).count }; return s }),
        ]),
        Case(name: "@Injected first access", unit: "access", iterations: iterations / 4, contenders: [
            ("Patchbay", { n in var s = 0; for _ in 0..<n { s &+= InjectedHolder().service.id }; return s }),
        ]),
        Case(name: "@Injected object made (2 properties)", unit: "object", iterations: iterations / 4, contenders: [
            ("Patchbay", { n in var s = 0; for _ in 0..<n { s &+= opaqueBit(TwoInjected()) }; return s }),
            ("floor", { n in var s = 0; for _ in 0..<n { s &+= opaqueBit(TwoStored()) }; return s }),
        ]),
        Case(name: "@Injected later access", unit: "access", iterations: iterations, contenders: [
            ("Patchbay", { n in var s = 0; for _ in 0..<n { s &+= holder.service.id }; return s }),
            ("floor", { n in var s = 0; for _ in 0..<n { s &+= storedRead(c).id }; return s }),
        ]),
        Case(name: "Lazy get (after first)", unit: "access", iterations: iterations, contenders: [
            ("Patchbay", { n in var s = 0; for _ in 0..<n { s &+= try lazy.get().id }; return s }),
            ("baseline", { n in var s = 0; for _ in 0..<n { s &+= c.baselineSingleton.resolve((any Service).self).id }; return s }),
            ("floor", { n in var s = 0; for _ in 0..<n { s &+= storedRead(c).id }; return s }),
        ]),
        Case(name: "singleton, 2 threads (per resolve, aggregate)", unit: "resolve", iterations: iterations, contenders: [
            ("Patchbay 1 thread", { n in try onThreads(1, n) { try c.singleton.resolve((any Service).self).id } }),
            ("Patchbay 2 threads", { n in try onThreads(2, n) { try c.singleton.resolve((any Service).self).id } }),
            ("baseline 1 thread", { n in try onThreads(1, n) { c.baselineSingleton.resolve((any Service).self).id } }),
            ("baseline 2 threads", { n in try onThreads(2, n) { c.baselineSingleton.resolve((any Service).self).id } }),
            ("Swinject sync 2 threads", { n in try onThreads(2, n) { swinjectSingletonSync.resolve((any Service).self)!.id } }),
            // The same shared object read without any container: what retaining
            // one object from two cores costs by itself.
            ("floor 1 thread", { n in try onThreads(1, n) { storedRead(c).id } }),
            ("floor 2 threads", { n in try onThreads(2, n) { storedRead(c).id } }),
        ]),
    ]
}

@inline(never) func storedRead(_ c: ResolveContainers) -> any Service { c.stored }
@inline(never) func directInit() -> any Service { ServiceImpl() }
@inline(never) func directChain() -> any ChainA { ChainAImpl(b: ChainBImpl(c: ChainCImpl())) }

/// Runs `total` calls split over `threads` threads; the time per call is the aggregate.
func onThreads(_ threads: Int, _ total: Int, _ body: @escaping @Sendable () throws -> Int) throws -> Int {
    let perThread = total / threads
    let sums = UnsafeMutableBufferPointer<Int>.allocate(capacity: threads)
    defer { sums.deallocate() }
    nonisolated(unsafe) let shared = sums
    DispatchQueue.concurrentPerform(iterations: threads) { index in
        var sum = 0
        for _ in 0..<perThread { sum &+= (try? body()) ?? 0 }
        shared[index] = sum
    }
    return sums.reduce(0, &+)
}
