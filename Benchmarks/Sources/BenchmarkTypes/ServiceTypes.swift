import Patchbay
import Swinject

// The types the resolve benchmarks build: a service with no dependencies, and
// a chain A needs B needs C.

/// A service with no dependencies.
public protocol Service: AnyObject, Sendable { var id: Int { get } }
/// The service's implementation.
public final class ServiceImpl: Service {
    public let id = 1
    public init() {}
}

/// Needs B.
public protocol ChainA: AnyObject, Sendable { var depth: Int { get } }
/// Needs C.
public protocol ChainB: AnyObject, Sendable { var depth: Int { get } }
/// Needs nothing.
public protocol ChainC: AnyObject, Sendable { var depth: Int { get } }
/// A, made from a B.
public final class ChainAImpl: ChainA {
    let b: any ChainB
    public var depth: Int { b.depth + 1 }
    public init(b: any ChainB) { self.b = b }
}
/// B, made from a C.
public final class ChainBImpl: ChainB {
    let c: any ChainC
    public var depth: Int { c.depth + 1 }
    public init(c: any ChainC) { self.c = c }
}
/// C.
public final class ChainCImpl: ChainC {
    public let depth = 1
    public init() {}
}

/// The benchmark catalog: "service" in every lifetime the manifest picks, and the chain.
public func benchmarkCatalog() -> FactoryCatalog {
    var catalog = FactoryCatalog()
    catalog.register("service", provides: (any Service).self) { ServiceImpl() }
    catalog.register("a", provides: (any ChainA).self) { (b: any ChainB) in ChainAImpl(b: b) }
    catalog.register("b", provides: (any ChainB).self) { (c: any ChainC) in ChainBImpl(c: c) }
    catalog.register("c", provides: (any ChainC).self) { ChainCImpl() }
    return catalog
}

/// The benchmark manifest: `Service` with `lifetime`, the chain transient.
public func benchmarkManifest(serviceLifetime lifetime: Lifetime) -> Manifest {
    Manifest(bindings: [
        Binding(protocol: "Service", factory: "service", lifetime: lifetime),
        Binding(protocol: "ChainA", factory: "a", lifetime: .transient),
        Binding(protocol: "ChainB", factory: "b", lifetime: .transient),
        Binding(protocol: "ChainC", factory: "c", lifetime: .transient),
    ])
}

/// The same registrations in Swinject.
public func swinjectContainer(serviceScope: ObjectScope) -> Swinject.Container {
    let container = Swinject.Container()
    container.register((any Service).self) { _ in ServiceImpl() }.inObjectScope(serviceScope)
    container.register((any ChainA).self) { r in ChainAImpl(b: r.resolve((any ChainB).self)!) }.inObjectScope(.transient)
    container.register((any ChainB).self) { r in ChainBImpl(c: r.resolve((any ChainC).self)!) }.inObjectScope(.transient)
    container.register((any ChainC).self) { _ in ChainCImpl() }.inObjectScope(.transient)
    return container
}

/// The same registrations in the hand-written baseline.
public func baselineContainer(singleton: Bool) -> BaselineContainer {
    let container = BaselineContainer()
    if singleton {
        container.registerSingleton((any Service).self, instance: ServiceImpl())
    } else {
        container.register((any Service).self) { ServiceImpl() }
    }
    container.register((any ChainA).self) { ChainAImpl(b: container.resolve((any ChainB).self)) }
    container.register((any ChainB).self) { ChainBImpl(c: container.resolve((any ChainC).self)) }
    container.register((any ChainC).self) { ChainCImpl() }
    return container
}

/// The collection case's catalog: three factories of `Service`, each one element.
public func collectionCatalog() -> FactoryCatalog {
    var catalog = FactoryCatalog()
    catalog.register("shared-service", provides: (any Service).self) { ServiceImpl() }
    catalog.register("service-b", provides: (any Service).self) { ServiceImpl() }
    catalog.register("service-c", provides: (any Service).self) { ServiceImpl() }
    return catalog
}

/// A collection of three `Service`s: one singleton, two transients, in this order.
public func collectionManifest() -> Manifest {
    Manifest(bindings: [
        Binding(collection: "Service", factory: "shared-service", lifetime: .singleton),
        Binding(collection: "Service", factory: "service-b", lifetime: .transient),
        Binding(collection: "Service", factory: "service-c", lifetime: .transient),
    ])
}

/// The same collection in the hand-written baseline: the array's maker, registered as `[any Service]`.
public func baselineCollectionContainer() -> BaselineContainer {
    let container = BaselineContainer()
    let shared: any Service = ServiceImpl()
    container.register([any Service].self) { [shared, ServiceImpl(), ServiceImpl()] }
    return container
}

