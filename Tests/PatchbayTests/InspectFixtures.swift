// Fixtures for the explain, graph and schema tests: catalog descriptions
// written in code (any shape, including hand-resolving factories and cycles)
// and manifests loaded from text.
import Foundation
@testable import Patchbay
@testable import PatchbayTools

enum InspectFixture {
    /// A factory description. Needs are written `App.B` (direct), `App.B?`
    /// (optional), `Lazy<App.B>` (lazy) or `[App.B]` (collection); `nil` needs
    /// means it resolves by hand.
    static func factory(
        _ name: String, provides: String, needs: [String]? = [], lifetime: Lifetime? = nil,
        parameters: [CatalogDescription.ParameterField]? = nil, takesParameters: Bool = false,
        argument: String? = nil, isClass: Bool = false
    ) -> CatalogDescription.Factory {
        CatalogDescription.Factory(
            name: name, provides: [provides], needs: needs?.map(need), defaultLifetime: lifetime,
            productType: provides, productIsClass: isClass,
            parameters: parameters != nil || takesParameters
                ? CatalogDescription.Parameters(type: "App.\(name).Options", fields: parameters) : nil,
            argument: argument)
    }

    private static func need(_ text: String) -> CatalogDescription.Need {
        if text.hasPrefix("Lazy<"), text.hasSuffix(">") {
            return .init(type: String(text.dropFirst(5).dropLast()), kind: "lazy")
        }
        if text.hasSuffix("?") { return .init(type: String(text.dropLast()), kind: "optional") }
        if text.hasPrefix("["), text.hasSuffix("]") { return .init(type: String(text.dropFirst().dropLast()), kind: "collection") }
        return .init(type: text, kind: "direct")
    }

    /// A description of `factories`, with every type they name (short name: after the last dot).
    static func catalog(_ factories: [CatalogDescription.Factory]) -> CatalogDescription {
        var names: Set<String> = []
        for factory in factories {
            names.formUnion(factory.provides)
            names.formUnion(factory.needs?.map(\.type) ?? [])
            if let argument = factory.argument { names.insert(argument) }
        }
        return CatalogDescription(
            types: names.sorted().map { .init(qualified: $0, name: BindingTable.shortName($0)) },
            factories: factories.sorted { $0.name < $1.name })
    }

    /// Loads `text` as `main.json`, with `others` beside it (for `extends`),
    /// named relative to its folder and with no environment variables.
    static func manifest(_ text: String, others: [String: String] = [:]) throws -> Manifest {
        let folder = try ManifestFolder(others.merging(["main.json": text]) { $1 })
        let (manifest, diagnostics) = ManifestLoader(environment: [:])
            .loadCollecting(contentsOf: folder.file("main.json"), displayPath: "main.json")
        guard let manifest, !diagnostics.containsErrors else { throw ManifestError(diagnostics: diagnostics) }
        return manifest
    }

    /// A manifest of `bindings`, each `{ "protocol": ..., "factory": ..., ... }` text.
    static func manifest(injectors: [String]? = nil, _ bindings: [String]) throws -> Manifest {
        let list = injectors.map { ", \"injectors\": [" + $0.map { "\"\($0)\"" }.joined(separator: ", ") + "]" } ?? ""
        return try manifest("{ \"format\": 1\(list), \"bindings\": [\n" + bindings.joined(separator: ",\n") + "\n] }")
    }

    /// A → B → C chain, a cycle D → E → D, a lazy loop F ⇢ F, a diamond G → (H, I) → J → K,
    /// a hand-resolving R, an optional need O → P?, and an argument-taking Q.
    static let shapes = catalog([
        factory("a", provides: "App.A", needs: ["App.B"], lifetime: .singleton),
        factory("a-old", provides: "App.A", needs: []),
        factory("b", provides: "App.B", needs: ["App.C"]),
        factory("b-alt", provides: "App.B", needs: []),
        factory("c", provides: "App.C", needs: [], parameters: [.init(name: "path", type: "string", required: true)]),
        factory("d", provides: "App.D", needs: ["App.E"]),
        factory("e", provides: "App.E", needs: ["App.D"]),
        factory("f", provides: "App.F", needs: ["Lazy<App.F>"]),
        factory("g", provides: "App.G", needs: ["App.H", "App.I"]),
        factory("h", provides: "App.H", needs: ["App.J"]),
        factory("i", provides: "App.I", needs: ["App.J"]),
        factory("j", provides: "App.J", needs: ["App.K"]),
        factory("k", provides: "App.K", needs: []),
        factory("r", provides: "App.R", needs: nil),
        factory("uses-r", provides: "App.S", needs: ["App.R"]),
        factory("o", provides: "App.O", needs: ["App.P?", "App.M"]),
        factory("p", provides: "App.P", needs: []),
        factory("q", provides: "App.Q", needs: [], argument: "App.Seed"),
        factory("needs-q", provides: "App.T", needs: ["App.Q"]),
        factory("passes-seed", provides: "App.U", needs: ["App.Q"], argument: "App.Seed"),
    ])
}
