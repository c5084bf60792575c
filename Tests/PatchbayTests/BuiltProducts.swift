// Where the tests find the executables this package builds (`patchbay`,
// `notes-example`), to run them as a user does.
//
// The folder is the first of these that holds an executable `patchbay`:
//
// 1. `PATCHBAY_PRODUCTS_DIR`, when set. `.ci/run` and the GitHub workflow set
//    it before each `swift test` to what `swift build --show-bin-path` prints
//    with that step's configuration and scratch path, so that a release run
//    runs release products, and no step uses another build's.
// 2. The folder of the test code, or one above it. On Linux the tests are an
//    executable in the products folder, and `Bundle.main` is that folder. On
//    macOS they are a `.xctest` bundle in the products folder, loaded by
//    `xctest` or by the toolchain's `swiftpm-testing-helper`, so `Bundle.main`
//    is that tool's, inside the toolchain; the bundle that holds this module's
//    code (`Bundle(for:)`) is the test bundle, wherever the tool is.
// 3. `.build/debug` beside these sources: SwiftPM's default scratch path and
//    configuration, for a runner that loads the tests in some other way.
//
// When none holds it, the tests that run a product fail with the places tried.
import Foundation
import Testing

/// The folder holding the built products (`.build/debug`, or the one the
/// `PATCHBAY_PRODUCTS_DIR` environment variable names); see this file's
/// opening comment for how it is found.
let productsDirectory: URL = {
    let search = BuiltProducts.search()
    return search.found ?? search.tried[0]
}()

/// A built executable of this package.
/// - Throws: ``BuiltProducts/Missing`` naming every folder looked in, when it is not in ``productsDirectory``.
func builtProduct(_ name: String) throws -> URL {
    let url = productsDirectory.appendingPathComponent(name)
    guard BuiltProducts.isExecutable(url) else { throw BuiltProducts.Missing(name: name, tried: BuiltProducts.search().tried) }
    return url
}

enum BuiltProducts {
    /// The environment variable that names the products folder.
    static let variable = "PATCHBAY_PRODUCTS_DIR"

    /// A class of this module, for `Bundle(for:)`.
    private final class Anchor {}

    /// The first folder that holds `patchbay`, and every folder looked in, in order.
    static func search(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        starts: [URL] = [Bundle.main.bundleURL, Bundle(for: Anchor.self).bundleURL],
        sources: URL = URL(fileURLWithPath: #filePath)
    ) -> (found: URL?, tried: [URL]) {
        var tried: [URL] = []
        if let named = environment[variable], !named.isEmpty {
            // Named: the only answer, so that a wrong value fails rather than finds another build.
            let folder = URL(fileURLWithPath: named, isDirectory: true)
            return (isExecutable(folder.appendingPathComponent("patchbay")) ? folder : nil, [folder])
        }
        for start in starts {
            var folder = start
            while true {
                if !tried.contains(folder) {
                    tried.append(folder)
                    if isExecutable(folder.appendingPathComponent("patchbay")) { return (folder, tried) }
                }
                guard folder.pathComponents.count > 1 else { break }
                folder.deleteLastPathComponent()
            }
        }
        // Tests/PatchbayTests/BuiltProducts.swift -> the package's folder.
        let root = sources.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let fallback = root.appendingPathComponent(".build/debug", isDirectory: true)
        tried.append(fallback)
        return (isExecutable(fallback.appendingPathComponent("patchbay")) ? fallback : nil, tried)
    }

    /// Whether `url` is an executable file (not a folder: a package may hold one named `patchbay`).
    static func isExecutable(_ url: URL) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && !isFolder.boolValue
            && FileManager.default.isExecutableFile(atPath: url.path)
    }

    /// A product that is not where the tests looked.
    struct Missing: Error, CustomStringConvertible {
        let name: String
        let tried: [URL]
        var description: String {
            "no built '\(name)' found; looked in " + tried.map(\.path).joined(separator: ", ")
                + ". Build the package first (swift build --build-tests), or set \(BuiltProducts.variable) "
                + "to the folder `swift build --show-bin-path` prints"
        }
    }
}

/// The search above, over folders laid out as SwiftPM lays them out on each platform.
@Suite struct BuiltProductsTests {
    /// `products/patchbay`, `products/Tests.xctest/Contents/MacOS/Tests`, and
    /// `toolchain/usr/libexec/swift/pm`, where macOS's testing helper lives.
    final class Layout {
        let root: URL
        var products: URL { root.appendingPathComponent("products") }
        var bundle: URL { products.appendingPathComponent("PatchbayPackageTests.xctest") }
        var helper: URL { root.appendingPathComponent("toolchain/usr/libexec/swift/pm") }
        var sources: URL { root.appendingPathComponent("Tests/PatchbayTests/BuiltProducts.swift") }

        init() throws {
            let files = FileManager.default
            root = files.temporaryDirectory.appendingPathComponent("patchbay-products-\(UUID().uuidString)")
            try files.createDirectory(at: bundle.appendingPathComponent("Contents/MacOS"), withIntermediateDirectories: true)
            try files.createDirectory(at: helper, withIntermediateDirectories: true)
            // A folder named like the product is not the product.
            try files.createDirectory(at: root.appendingPathComponent("toolchain/patchbay"), withIntermediateDirectories: true)
            let tool = products.appendingPathComponent("patchbay")
            try Data("#!/bin/sh\n".utf8).write(to: tool)
            try files.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tool.path)
        }

        deinit { try? FileManager.default.removeItem(at: root) }
    }

    /// macOS: the main bundle is the helper's, in the toolchain; the test bundle is in the products folder.
    @Test func theTestBundleIsFoundWhenTheMainBundleIsATool() throws {
        let layout = try Layout()
        let search = BuiltProducts.search(environment: [:], starts: [layout.helper, layout.bundle], sources: layout.sources)
        #expect(search.found?.path == layout.products.path)
        #expect(search.tried.contains { $0.path == layout.helper.path })
    }

    /// Linux: the tests are an executable in the products folder.
    @Test func theMainBundleIsTheProductsFolderOnLinux() throws {
        let layout = try Layout()
        let search = BuiltProducts.search(environment: [:], starts: [layout.products], sources: layout.sources)
        #expect(search.found?.path == layout.products.path)
        #expect(search.tried.count == 1)
    }

    /// The variable wins, and a wrong value is not covered up by another build.
    @Test func theVariableIsTheOnlyPlaceWhenSet() throws {
        let layout = try Layout()
        let named = BuiltProducts.search(
            environment: [BuiltProducts.variable: layout.products.path], starts: [layout.helper], sources: layout.sources)
        #expect(named.found?.path == layout.products.path)
        let wrong = BuiltProducts.search(
            environment: [BuiltProducts.variable: layout.helper.path], starts: [layout.products], sources: layout.sources)
        #expect(wrong.found == nil)
        #expect(wrong.tried.map(\.path) == [layout.helper.path])
    }

    /// Nothing found: the error names each place, for the person reading the failure.
    @Test func aMissingProductNamesThePlacesTried() throws {
        let layout = try Layout()
        let search = BuiltProducts.search(environment: [:], starts: [layout.helper], sources: layout.sources)
        #expect(search.found == nil)
        let message = BuiltProducts.Missing(name: "patchbay", tried: search.tried).description
        #expect(message.contains(layout.helper.path) && message.contains(layout.root.appendingPathComponent(".build/debug").path))
    }
}
