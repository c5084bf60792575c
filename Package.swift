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
        .executable(name: "patchbay", targets: ["PatchbayCommand"]),
        .executable(name: "notes-example", targets: ["NotesExample"]),
    ],
    targets: [
        .target(name: "Patchbay"),
        .executableTarget(name: "PatchbayCommand", dependencies: ["Patchbay"]),
        // The example app: its types and catalog live in a library so tests can use them.
        .target(name: "NotesKit", dependencies: ["Patchbay"]),
        .executableTarget(name: "NotesExample", dependencies: ["NotesKit", "Patchbay"]),
        .testTarget(name: "PatchbayTests", dependencies: ["Patchbay", "NotesKit"]),
    ],
    swiftLanguageModes: [.v6]
)
