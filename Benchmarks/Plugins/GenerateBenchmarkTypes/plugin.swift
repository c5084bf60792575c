// Generates BenchmarkTypes' 1,000 protocols and classes when the target is
// built, with the package's generate-types tool, so the repository holds the
// generator and not its 11,000-line output. The output depends only on the
// tool, so SwiftPM reruns it only when the tool changes.
import Foundation
import PackagePlugin

@main
struct GenerateBenchmarkTypes: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "GeneratedTypes.swift")
        return [
            .buildCommand(
                displayName: "Generating the benchmark's 1,000 types for \(target.name)",
                executable: try context.tool(named: "generate-types").url,
                arguments: ["benchmark-types", output.path],
                outputFiles: [output])
        ]
    }
}
