// swift-tools-version:6.0
//
// Patchbay has no package dependencies: Foundation, Dispatch and the standard
// library only. Benchmarks that compare it with other containers live in the
// nested package `Benchmarks/`, which may depend on them.
import PackageDescription

let package = Package(
    name: "Patchbay",
    // Task-local values need the Swift concurrency runtime; nothing newer is used.
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
    products: [
        .library(name: "Patchbay", targets: ["Patchbay"]),
        // The command's subcommands as a library, for an app that exposes them with its live catalog.
        .library(name: "PatchbayTools", targets: ["PatchbayTools"]),
        // A Swift Testing trait for tests, apart so that apps never link Testing.
        .library(name: "PatchbayTesting", targets: ["PatchbayTesting"]),
        .executable(name: "patchbay", targets: ["patchbay"]),
        .executable(name: "notes-example", targets: ["NotesExample"]),
        // Check an app target's manifests on every build, or on demand with `swift package check-manifests`.
        .plugin(name: "PatchbayCheck", targets: ["PatchbayCheck"]),
        .plugin(name: "CheckManifests", targets: ["CheckManifests"]),
    ],
    targets: [
        // The container: catalog, manifests, validation, resolution, injection, reload.
        .target(name: "Patchbay", dependencies: ["CPatchbayAtomics"]),
        // The few atomic operations the container needs, over C11 <stdatomic.h>: a target of
        // this package, not a dependency, since `Synchronization` needs iOS 18 / macOS 15.
        .target(name: "CPatchbayAtomics"),
        // The `.patchbay(...)` test trait: a container and overrides of each test's own.
        .target(name: "PatchbayTesting", dependencies: ["Patchbay"]),
        // Report formats, explain, graph, schema and the command line, over the container's library calls.
        .target(name: "PatchbayTools", dependencies: ["Patchbay"]),
        // Named for the command, so the plugins can ask for the tool by that name.
        .executableTarget(name: "patchbay", dependencies: ["PatchbayTools"], path: "Sources/PatchbayCommand"),
        // The example app: its types and catalog live in a library so tests can use them.
        .target(name: "NotesKit", dependencies: ["Patchbay"]),
        .executableTarget(name: "NotesExample", dependencies: ["NotesKit", "Patchbay", "PatchbayTools"]),
        // The plugins run the `patchbay` executable; they share
        // Sources/Plugins/PatchbayCheck/ManifestLocation.swift.
        // Under Sources/Plugins: the package's top level stays Sources, Tests and Manifests.
        .plugin(
            name: "PatchbayCheck", capability: .buildTool(), dependencies: ["patchbay"],
            path: "Sources/Plugins/PatchbayCheck"),
        .plugin(
            name: "CheckManifests",
            capability: .command(intent: .custom(
                verb: "check-manifests",
                description: "Check Patchbay manifests and fail on errors, as the PatchbayCheck build plugin does")),
            dependencies: ["patchbay"], path: "Sources/Plugins/CheckManifests"),
        .testTarget(name: "PatchbayTests", dependencies: ["Patchbay", "PatchbayTools", "PatchbayTesting", "NotesKit"]),
    ],
    swiftLanguageModes: [.v6]
)
