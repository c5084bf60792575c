// Catalog descriptions and manifests of hostile dependency graphs, written as
// a user's files are (a catalog.json beside one manifest), for the tests of
// graph walks that must stay linear: a chain thousands of levels deep, and a
// catalog whose every factory needs every earlier type (n²/2 back edges).
// Benchmarks/Scripts/hostile-graphs.py writes the same files for measuring.
import Foundation

enum HostileGraphs {
    /// `T0000`, `T0001`, ...: padded, so that names sort as their numbers do.
    static func type(_ index: Int) -> String { "T" + String(format: "%05d", index) }

    /// A catalog of `count` factories `f<i>`, each providing `M.T<i>` and
    /// needing what `needs(i)` lists, and a manifest binding each type to its factory.
    static func folder(count: Int, needs: (Int) -> [Int]) throws -> ManifestFolder {
        var types: [String] = [], factories: [String] = [], bindings: [String] = []
        for index in 0..<count {
            let name = type(index)
            types.append(#"{"name":"\#(name)","qualified":"M.\#(name)"}"#)
            let needed = needs(index).map { #"{"kind":"direct","type":"M.\#(type($0))"}"# }
            factories.append(#"{"name":"f\#(name)","provides":["M.\#(name)"],"productType":"M.\#(name)","#
                + #""productIsClass":false,"needs":[\#(needed.joined(separator: ","))]}"#)
            bindings.append(#"{"protocol":"\#(name)","factory":"f\#(name)"}"#)
        }
        return try ManifestFolder([
            "catalog.json": #"{"version":3,"types":[\#(types.joined(separator: ",\n"))],"factories":[\#n"#
                + factories.joined(separator: ",\n") + "\n]}\n",
            "app.json": #"{"format":1,"bindings":[\#n"# + bindings.joined(separator: ",\n") + "\n]}\n",
        ])
    }

    /// A chain `T0 -> T1 -> ... -> T<depth-1>`.
    static func chain(depth: Int) throws -> ManifestFolder {
        try folder(count: depth) { $0 + 1 < depth ? [$0 + 1] : [] }
    }

    /// Factory i needs T(i+1) and, with `backEdges`, every earlier T: one
    /// strongly connected component holding about n²/2 edges, and more
    /// elementary cycles than can be counted.
    static func knot(_ count: Int, backEdges: Bool = true) throws -> ManifestFolder {
        try folder(count: count) { index in
            (index + 1 < count ? [index + 1] : []) + (backEdges ? Array(0..<index) : [])
        }
    }
}
