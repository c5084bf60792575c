// Patchbay's benchmarks: swift run -c release --package-path Benchmarks [--json] [--filter TEXT] [--samples N]
import Foundation

var arguments = Array(CommandLine.arguments.dropFirst())
let json = arguments.contains("--json")
var samples = 7
var filter: String?
if let index = arguments.firstIndex(of: "--samples"), index + 1 < arguments.count { samples = Int(arguments[index + 1]) ?? 7 }
if let index = arguments.firstIndex(of: "--filter"), index + 1 < arguments.count { filter = arguments[index + 1] }

var cases: [Case] = []
cases += activationCases(sizes: [1_000, 10_000, 100_000])

var results: [Result] = []
for benchmark in cases where filter.map({ benchmark.name.contains($0) }) ?? true {
    let rounds = benchmark.name.contains("100k") ? max(3, samples / 2) : samples
    results += try run(benchmark, samples: rounds)
}
if json {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    print(String(decoding: try encoder.encode(results), as: UTF8.self))
} else {
    printTable(results, references: [])
}
