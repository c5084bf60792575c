// Patchbay's benchmarks: swift run -c release --package-path Benchmarks PatchbayBenchmarks [--json] [--filter TEXT] [--samples N] [--include-hostile]
// One hot path for counting instructions: PatchbayBenchmarks --count CASE --iterations N [--contender NAME]
// The hostile manifest and its catalog, for measuring `patchbay check` on it: PatchbayBenchmarks --write-hostile-folder DIR
// The folder of 100 manifests of 1,000 bindings and their catalog: PatchbayBenchmarks --write-check-folder DIR
// The JSONDecoder floor of a manifest file, in a process of its own: PatchbayBenchmarks --decode-floor FILE
import Foundation

var arguments = Array(CommandLine.arguments.dropFirst())
// A cold-start sample, in a process of its own: before anything else runs.
if let index = arguments.firstIndex(of: "--cold-start-child"), index + 1 < arguments.count {
    try coldStartChild(arguments[index + 1])
}
// Writes the hostile case's manifest and catalog into DIR, prints the
// manifest's path and exits (Scripts/hostile-peak-memory.sh).
if let index = arguments.firstIndex(of: "--write-hostile-folder"), index + 1 < arguments.count {
    let file = try writeHostileFolder(URL(fileURLWithPath: arguments[index + 1]))
    print(file.path)
    exit(0)
}
// Writes the folder of the case "check 100 manifests x 1,000 bindings" into DIR and exits, for timing
// `patchbay check DIR` on one core and on all (see README, "check of a folder on every core").
if let index = arguments.firstIndex(of: "--write-check-folder"), index + 1 < arguments.count {
    let folder = try writeCheckFolder(manifests: 100, into: URL(fileURLWithPath: arguments[index + 1]))
    print(folder.path)
    exit(0)
}
// Decodes FILE with JSONDecoder alone into the floor's plain structs, prints the number of bindings and
// exits: the floor's own process, whose peak memory Scripts/hostile-peak-memory.sh sets beside the check's.
if let index = arguments.firstIndex(of: "--decode-floor"), index + 1 < arguments.count {
    let data = try Data(contentsOf: URL(fileURLWithPath: arguments[index + 1]))
    print(try JSONDecoder().decode(FloorManifest.self, from: data).bindings.count)
    exit(0)
}
let json = arguments.contains("--json")
var samples = 7
var filter: String?
if let index = arguments.firstIndex(of: "--samples"), index + 1 < arguments.count { samples = Int(arguments[index + 1]) ?? 7 }
if let index = arguments.firstIndex(of: "--filter"), index + 1 < arguments.count { filter = arguments[index + 1] }
// --contender NAME keeps one contender per case (for profiling it alone with callgrind).
var onlyContender: String?
if let index = arguments.firstIndex(of: "--contender"), index + 1 < arguments.count { onlyContender = arguments[index + 1] }
// --count NAME --iterations N runs N operations of one case and nothing else,
// for .ci/perf-guard to count under callgrind.
if let index = arguments.firstIndex(of: "--count"), index + 1 < arguments.count {
    var iterations = 1
    if let at = arguments.firstIndex(of: "--iterations"), at + 1 < arguments.count { iterations = Int(arguments[at + 1]) ?? 1 }
    // The 100k manifests are made only when asked for: making one is seconds under callgrind.
    let name = arguments[index + 1], sizes = name.contains("100k") ? [100_000] : [1_000, 10_000]
    try runCounted(name, contender: onlyContender ?? "Patchbay", iterations: iterations,
        among: resolveCases(iterations: iterations) + asyncCases(iterations: iterations) + decoratorCases(iterations: iterations)
            + activationCases(sizes: sizes)
            + activationCases(sizes: sizes, parameters: true))
}

var cases: [Case] = []
cases += resolveCases(iterations: 1_000_000)
cases += try asyncCases(iterations: 200_000)
cases += decoratorCases(iterations: 1_000_000)
cases += coldStartCases()
cases += activationCases(sizes: [1_000, 10_000, 100_000])
cases += activationCases(sizes: [1_000, 10_000, 100_000], parameters: true)
cases += try checkCases()
// About 30 seconds for its one sample, and 16 MiB written: only on request,
// so the default run and CI's (`--samples 1`) stay as short as they were.
if arguments.contains("--include-hostile") || filter?.contains("hostile") == true {
    cases += try hostileCheckCases()
}

var results: [Result] = []
for var benchmark in cases where filter.map({ benchmark.name.contains($0) }) ?? true {
    if let onlyContender {
        benchmark.contenders = benchmark.contenders.filter { $0.name == onlyContender }
    }
    let rounds = benchmark.name.contains("100k") ? max(3, samples / 2) : samples
    results += try run(benchmark, samples: rounds)
}
if json {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    print(String(decoding: try encoder.encode(results), as: UTF8.self))
} else {
    printTable(results, references: ["baseline", "typed baseline", "Swinject", "JSONDecoder floor", "wrapped by hand"])
}
for folder in temporaryFolders { try? FileManager.default.removeItem(at: folder) }
