// Writes the benchmark package's generated Swift, so the repository holds
// this generator rather than its 11,000-line output. Two kinds of file:
//
//     generate-types benchmark-types OUTPUT
//         BenchmarkTypes' 1,000 protocols and classes with their
//         registration and resolve functions (run at build time by the
//         GenerateBenchmarkTypes plugin, see Package.swift).
//
//     generate-types compile-cost patchbay|swinject DEPENDENCIES OUTPUT [COUNT]
//         COUNT (default 1,000) registrations with DEPENDENCIES (0-3) each,
//         in one function, written as an app writes them, for
//         Scripts/compile-cost.sh and .ci/compile-size-guard to compile.
//
// Plain string building and Foundation's file writing: a build tool should
// build in seconds and depend on nothing.
import Foundation

let usage = """
    usage: generate-types benchmark-types OUTPUT
           generate-types compile-cost patchbay|swinject DEPENDENCIES(0-3) OUTPUT [COUNT]
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "benchmark-types" where arguments.count == 2:
        try benchmarkTypes(count: 1000).write(to: arguments[1])
    case "compile-cost" where arguments.count == 4 || arguments.count == 5:
        guard let library = Library(rawValue: arguments[1]) else { fail(usage) }
        guard let dependencies = Int(arguments[2]), (0...3).contains(dependencies) else { fail(usage) }
        let count = arguments.count == 5 ? Int(arguments[4]) : 1000
        guard let count, count > 3 else { fail("COUNT must be a whole number above 3\n" + usage) }
        try compileCost(library, dependencies: dependencies, count: count).write(to: arguments[3])
    default:
        fail(usage)
    }
} catch {
    fail("generate-types: \(error)")
}
