import BenchmarkTypes
import Foundation
import Patchbay

/// A manifest of `count` bindings over the 1,000 generated types, spread
/// over `count / 1000` injectors so every (protocol, injector) key is distinct.
func generatedManifest(bindings count: Int) -> Data {
    let injectorCount = max(1, count / generatedTypeCount)
    let injectors = (0..<injectorCount).map { $0 == 0 ? "primary" : $0 == 1 ? "secondary" : "tier\($0)" }
    var json = "{\n  \"format\": 1,\n  \"environment\": \"generated\",\n  \"injectors\": ["
    json += injectors.map { "\"\($0)\"" }.joined(separator: ", ") + "],\n  \"bindings\": [\n"
    var first = true
    for index in 0..<count {
        let type = index % generatedTypeCount, injector = injectors[index / generatedTypeCount]
        json += (first ? "" : ",\n")
            + "    { \"protocol\": \"G\(type)\", \"factory\": \"g\(type)\", \"lifetime\": \"singleton\", \"injector\": \"\(injector)\" }"
        first = false
    }
    json += "\n  ]\n}\n"
    return Data(json.utf8)
}

/// Loading (one read of the bytes, then the shape), validating and activating a manifest, per size.
func activationCases(sizes: [Int]) -> [Case] {
    var catalog = FactoryCatalog()
    registerGenerated(into: &catalog)
    let frozen = catalog
    return sizes.map { size in
        let data = generatedManifest(bindings: size)
        return Case(name: "load+validate+activate \(size / 1000)k bindings", unit: "activation", iterations: 1,
            contenders: [("Patchbay", { iterations in
                var count = 0
                for _ in 0..<iterations {
                    let manifest = try ManifestLoader(environment: [:]).load(data: data, file: "generated.json")
                    let container = try Patchbay.Container(catalog: frozen, manifest: manifest)
                    count &+= container.manifest.bindings.count
                }
                return count
            })])
    }
}
