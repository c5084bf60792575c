// swift-tools-version:6.1
//
// A JSON HTTP server for notes wired by Patchbay: an in-memory store and
// console logging in development, PostgreSQL and JSON-lines logging in
// production, from one build. Kept in its own package so the library's
// Package.swift has no dependencies. Run from the repository root:
//
//     swift run --package-path Examples/NotesServer notes-server
import PackageDescription

let package = Package(
    name: "NotesServer",
    // Hummingbird 2 and PostgresNIO's client need macOS 14's concurrency features.
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "notes-server", targets: ["NotesServer"]),
    ],
    dependencies: [
        .package(name: "Patchbay", path: "../.."),
        // No traits: swift-configuration support is not used, and it is a longer build.
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: []),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
    ],
    targets: [
        // The server's types, catalog and start-up, in a library so tests and the load run can use them.
        .target(
            name: "NotesServerKit",
            dependencies: [
                .product(name: "Patchbay", package: "Patchbay"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        // The thin executable: arguments, start-up, exit status.
        .executableTarget(name: "NotesServer", dependencies: ["NotesServerKit"]),
        .testTarget(
            name: "NotesServerTests",
            dependencies: [
                "NotesServerKit",
                .product(name: "Patchbay", package: "Patchbay"),
                .product(name: "PatchbayTools", package: "Patchbay"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // The routes driven in-process (`app.test(.router)`), where a test can read the container.
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
