// swift-tools-version:6.0
//
// Benchmarks for Patchbay, kept in their own package so the library's
// Package.swift has no dependencies. Run from the repository root:
//
//     swift run -c release --package-path Benchmarks PatchbayBenchmarks
import PackageDescription

let package = Package(
    name: "PatchbayBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Patchbay", path: ".."),
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
        .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1"),
    ],
    targets: [
        // 1,000 protocols and classes, generated at build time by the
        // GenerateBenchmarkTypes plugin with generate-types, beside the
        // hand-written types.
        .target(
            name: "BenchmarkTypes",
            dependencies: [
                .product(name: "Patchbay", package: "Patchbay"), "Swinject",
                .product(name: "Dependencies", package: "swift-dependencies"),
            ],
            plugins: ["GenerateBenchmarkTypes"]),
        // The generator of BenchmarkTypes' types and of the files
        // Scripts/compile-cost.sh and .ci/compile-size-guard compile.
        .executableTarget(name: "generate-types"),
        .plugin(name: "GenerateBenchmarkTypes", capability: .buildTool(), dependencies: ["generate-types"]),
        .executableTarget(
            name: "PatchbayBenchmarks",
            dependencies: [
                "BenchmarkTypes", .product(name: "Patchbay", package: "Patchbay"), "Swinject",
                .product(name: "Dependencies", package: "swift-dependencies"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
