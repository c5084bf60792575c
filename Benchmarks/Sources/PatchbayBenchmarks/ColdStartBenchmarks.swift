import BenchmarkTypes
import Foundation
import Patchbay
import Swinject

/// Register 1,000 distinct protocol types and resolve each once, from nothing.
/// Each sample runs once (a type's first cast is only first once per process,
/// so the first sample is the cold one; later samples show the warm cost).
func coldStartCases() -> [Case] {
    let manifest = Manifest(bindings: (0..<generatedTypeCount).map {
        Binding(protocol: "G\($0)", factory: "g\($0)", lifetime: .transient)
    })
    return [Case(name: "register + first resolve, 1,000 types", unit: "1,000 types", iterations: 1, contenders: [
        ("Patchbay", { _ in
            var catalog = FactoryCatalog()
            registerGenerated(into: &catalog)
            let container = try Patchbay.Container(catalog: catalog, manifest: manifest)
            return try resolveGenerated(from: container)
        }),
        ("Swinject", { _ in
            let container = Swinject.Container()
            registerGenerated(into: container)
            return resolveGenerated(from: container)
        }),
        ("baseline", { _ in
            let container = BaselineContainer()
            registerGenerated(into: container)
            return resolveGenerated(from: container)
        }),
    ])]
}
