// swift-tools-version:6.0
//
// The app that PluginTests builds: it adopts the PatchbayCheck build-tool
// plugin and has the check-manifests command plugin through its dependency
// on Patchbay. The test copies this folder elsewhere and replaces the path
// below with the repository's absolute path before it builds.
import PackageDescription

let package = Package(
    name: "PluginPackage",
    dependencies: [
        .package(name: "Patchbay", path: "../../.."),
    ],
    targets: [
        .executableTarget(
            name: "GreeterApp",
            // The manifests are the plugin's inputs, not the app's sources or resources.
            exclude: ["Manifests"],
            plugins: [.plugin(name: "PatchbayCheck", package: "Patchbay")]),
    ],
    swiftLanguageModes: [.v6]
)
