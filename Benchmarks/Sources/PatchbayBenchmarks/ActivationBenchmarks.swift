import BenchmarkTypes
import Foundation
import Patchbay

/// A manifest of `count` bindings over the 1,000 generated types, spread
/// over `count / 1000` injectors so every (protocol, injector) key is distinct.
/// With `parameters`, every binding carries a `parameters` object that decodes
/// into `GeneratedParameters`: `{"name": "svc-N", "size": N, "enabled": true,
/// "ratio": 0.5, "tags": ["a", "b"]}`, N the binding's index.
func generatedManifest(bindings count: Int, parameters: Bool = false) -> Data {
    let injectorCount = max(1, count / generatedTypeCount)
    let injectors = (0..<injectorCount).map { $0 == 0 ? "primary" : $0 == 1 ? "secondary" : "tier\($0)" }
    var json = "{\n  \"format\": 1,\n  \"environment\": \"generated\",\n  \"injectors\": ["
    json += injectors.map { "\"\($0)\"" }.joined(separator: ", ") + "],\n  \"bindings\": [\n"
    var first = true
    for index in 0..<count {
        let type = index % generatedTypeCount, injector = injectors[index / generatedTypeCount]
        json += (first ? "" : ",\n")
            + "    { \"protocol\": \"G\(type)\", \"factory\": \"g\(type)\", \"lifetime\": \"singleton\", \"injector\": \"\(injector)\""
            + (parameters
                ? ",\n      \"parameters\": { \"name\": \"svc-\(index)\", \"size\": \(index), \"enabled\": true, \"ratio\": 0.5, \"tags\": [\"a\", \"b\"] } }"
                : " }")
        first = false
    }
    json += "\n  ]\n}\n"
    return Data(json.utf8)
}

/// The floor of activation: the same manifest bytes decoded by Foundation's
/// `JSONDecoder` into plain `Codable` structs, with nothing checked, looked
/// up or built. What reading the format costs a program that trusts it.
struct FloorManifest: Codable {
    struct Binding: Codable {
        let `protocol`: String
        let factory: String
        let lifetime: String?
        let injector: String?
    }
    let format: Int
    let environment: String?
    let injectors: [String]?
    let bindings: [Binding]
}

/// The floor of the cases with parameters: each binding's `parameters`
/// decoded into the typed struct its factory takes.
struct FloorManifestWithParameters: Codable {
    struct Binding: Codable {
        let `protocol`: String
        let factory: String
        let lifetime: String?
        let injector: String?
        let parameters: GeneratedParameters
    }
    let format: Int
    let environment: String?
    let injectors: [String]?
    let bindings: [Binding]
}

/// Loading (one read of the bytes, then the shape), validating and activating a manifest, per size (the
/// loader's size limit raised for the 20 MB of 100k bindings with parameters);
/// with `parameters`, every binding's `parameters` decoded into its factory's `GeneratedParameters`
/// too. Each case has a "JSONDecoder floor" contender: `JSONDecoder` alone on the same bytes.
func activationCases(sizes: [Int], parameters: Bool = false) -> [Case] {
    var catalog = FactoryCatalog()
    if parameters {
        registerGeneratedWithParameters(into: &catalog)
    } else {
        registerGenerated(into: &catalog)
    }
    let frozen = catalog
    return sizes.map { size in
        let data = generatedManifest(bindings: size, parameters: parameters)
        // A new JSONDecoder each time, as Patchbay's contender makes a new loader.
        let floor: (Int) throws -> Int = parameters
            ? { iterations in
                var count = 0
                for _ in 0..<iterations {
                    count &+= try JSONDecoder().decode(FloorManifestWithParameters.self, from: data).bindings.count
                }
                return count
            }
            : { iterations in
                var count = 0
                for _ in 0..<iterations { count &+= try JSONDecoder().decode(FloorManifest.self, from: data).bindings.count }
                return count
            }
        return Case(
            name: "load+validate+activate \(size / 1000)k bindings" + (parameters ? " with parameters" : ""),
            unit: "activation", iterations: 1,
            contenders: [
                ("Patchbay", { iterations in
                    var count = 0
                    for _ in 0..<iterations {
                        var loader = ManifestLoader(environment: [:])
                        // 100k bindings with parameters is 20 MB, over the default 16 MiB: raised, as the limit's message says.
                        loader.maxBytes = max(loader.maxBytes, data.count)
                        let manifest = try loader.load(data: data, file: "generated.json")
                        let container = try Patchbay.Container(catalog: frozen, manifest: manifest)
                        count &+= container.manifest.bindings.count
                    }
                    return count
                }),
                ("JSONDecoder floor", floor),
            ])
    }
}
