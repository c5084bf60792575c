// What the README's tour tells a reader to add to the template's
// Package.swift, read from the README's text: the platforms and the
// dependency (its first Swift block, a fragment), the executable target's
// product, and the plugin (the "Then check before running" paragraph). A
// fragment is not compiled by DocumentationSnippetTests, and these are the
// first lines a newcomer copies, so ReadmeTourTests builds its package with
// them and DocumentationSnippetTests type-checks a Package.swift made of them.
import Foundation
import Testing

struct TourPackageLines: Equatable {
    /// `platforms: [...],`
    var platforms: String
    /// `dependencies: [.package(url: ...)],`, the package's.
    var dependency: String
    /// `dependencies: [.product(...)],`, the executable target's.
    var product: String
    /// `plugins: [.plugin(...)]`, the executable target's.
    var plugin: String

    /// The package identity the README's lines name.
    static let identity = #""Patchbay""#

    init(readme text: String) throws {
        let fragment = try #require(
            SwiftSnippets(path: "README.md", text: text).blocks.first { $0.label == SwiftSnippets.fragment },
            "the README's tour has no Package.swift fragment")
        // A line's code, without the comment after it (the URL's `//` is inside quotes).
        let code = fragment.lines.map { $0.replacingOccurrences(of: #"\s+// [^"]*$"#, with: "", options: .regularExpression) }
        platforms = try #require(code.first { $0.hasPrefix("platforms: [") }, "no platforms line in \(fragment.lines)")
        dependency = try #require(code.first { $0.hasPrefix("dependencies: [.package(") }, "no package line in \(fragment.lines)")
        product = try #require(code.first { $0.hasPrefix("dependencies: [.product(") }, "no product line in \(fragment.lines)")
        let flat = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        let plugin = try #require(flat.range(of: #"`plugins: \[\.plugin\([^`]*\)\]`"#, options: .regularExpression),
                                  "the README names no `plugins: [.plugin(...)]`")
        self.plugin = String(flat[plugin].dropFirst().dropLast())
    }

    /// The target's lines naming the package `identity` (a package by path is named by its folder).
    func target(identity: String) -> (product: String, plugin: String) {
        (product.replacingOccurrences(of: "package: \(Self.identity)", with: "package: \(identity)"),
         plugin.replacingOccurrences(of: "package: \(Self.identity)", with: "package: \(identity)"))
    }

    /// Swift 6.3's template Package.swift with these lines added, as the README says.
    var packageManifest: String {
        """
        // swift-tools-version: 6.3
        import PackageDescription

        let package = Package(
            name: "Tour",
            \(platforms)
            \(dependency)
            targets: [
                .executableTarget(
                    name: "Tour",
                    \(product)
                    \(plugin)
                ),
                .testTarget(
                    name: "TourTests",
                    dependencies: ["Tour"]
                ),
            ],
            swiftLanguageModes: [.v6]
        )

        """
    }
}
