import BenchmarkTypes
import Foundation
import Patchbay

// Decorators (#55): a binding whose manifest chain wraps the product in two
// decorators, against the same two wrappers written by hand in one factory
// closure (the issue's baseline: a decorated transient at most 1.2x it).

/// A wrapper of a `Service`, as a timing or caching decorator is.
final class ServiceLayer: Service {
    let inner: any Service
    var id: Int { inner.id }
    init(_ inner: any Service) { self.inner = inner }
}

/// The containers: the chain named by the manifest, and the same wrappers by hand.
struct DecoratorContainers: @unchecked Sendable {
    let decoratedTransient = decoratedContainer(lifetime: "transient", decorated: true)
    let wiredTransient = decoratedContainer(lifetime: "transient", decorated: false)
    let decoratedSingleton = decoratedContainer(lifetime: "singleton", decorated: true)
    let wiredSingleton = decoratedContainer(lifetime: "singleton", decorated: false)
}

private func decoratedContainer(lifetime: String, decorated: Bool) -> Patchbay.Container {
    var catalog = FactoryCatalog()
    catalog.register("service", provides: (any Service).self) { ServiceImpl() }
    catalog.register("wired", provides: (any Service).self) { ServiceLayer(ServiceLayer(ServiceImpl())) }
    catalog.registerDecorator("timing", decorates: (any Service).self) { (inner: any Service) in ServiceLayer(inner) }
    catalog.registerDecorator("caching", decorates: (any Service).self) { (inner: any Service) in ServiceLayer(inner) }
    let binding = decorated
        ? #"{ "protocol": "Service", "factory": "service", "lifetime": "\#(lifetime)", "decorators": ["timing", "caching"] }"#
        : #"{ "protocol": "Service", "factory": "wired", "lifetime": "\#(lifetime)" }"#
    let json = #"{ "format": 1, "bindings": [\#(binding)] }"#
    let manifest = try! ManifestLoader().load(data: Data(json.utf8))
    return try! Patchbay.Container(catalog: catalog, manifest: manifest)
}

func decoratorCases(iterations: Int) -> [Case] {
    let c = DecoratorContainers()
    return [
        Case(name: "decorated transient (chain of 2)", unit: "resolve", iterations: iterations, contenders: [
            ("Patchbay", { n in var s = 0; for _ in 0..<n { s &+= try c.decoratedTransient.resolve((any Service).self).id }; return s }),
            ("wrapped by hand", { n in var s = 0; for _ in 0..<n { s &+= try c.wiredTransient.resolve((any Service).self).id }; return s }),
        ]),
        Case(name: "decorated singleton (chain of 2)", unit: "resolve", iterations: iterations, contenders: [
            ("Patchbay", { n in var s = 0; for _ in 0..<n { s &+= try c.decoratedSingleton.resolve((any Service).self).id }; return s }),
            ("wrapped by hand", { n in var s = 0; for _ in 0..<n { s &+= try c.wiredSingleton.resolve((any Service).self).id }; return s }),
        ]),
    ]
}
