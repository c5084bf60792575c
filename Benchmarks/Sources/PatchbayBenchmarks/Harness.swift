import Foundation

/// Where results go so the optimizer cannot remove the work that made them.
nonisolated(unsafe) var sink = 0

/// Keeps `value` alive and observable, so the work that made it is not removed.
@inline(never)
func consume<T>(_ value: T) {
    withExtendedLifetime(value) { sink &+= 1 }
}

/// The monotonic clock in nanoseconds.
func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// One benchmark case: a name and, per contender, a closure that runs
/// `iterations` operations and returns a checksum, or, when `timesItself`,
/// the nanoseconds those operations took as it measured them (a case whose
/// samples run in a child process). A case too slow to repeat sets
/// `samples` (its number of samples, whatever the run's) and `warmsUp`.
struct Case {
    let name: String
    let unit: String
    let iterations: Int
    var contenders: [(name: String, run: (Int) throws -> Int)]
    var timesItself = false
    var samples: Int? = nil
    var warmsUp = true
    /// Rounds per sample of the run: a case whose operations are slow to
    /// the scheduler (an awaited resolve suspends and resumes its task) runs
    /// this many shorter rounds (`iterations` is per round), so a burst of
    /// other work on the machine spoils one short round, not a whole sample.
    var roundsPerSample = 1
}

/// The samples of one contender in one case, in nanoseconds per operation.
struct Result: Codable {
    let benchmark: String
    let contender: String
    let unit: String
    let samples: [Double]
    var median: Double { Self.median(samples) }
    static func median(_ values: [Double]) -> Double { let s = values.sorted(); return s[s.count / 2] }
    var min: Double { samples.min() ?? 0 }
    var max: Double { samples.max() ?? 0 }
}

/// Runs every contender of a case in interleaved rounds (A B C, A B C, ...)
/// so that noise on the machine spreads over all of them alike.
func run(_ benchmark: Case, samples: Int) throws -> [Result] {
    var collected = Array(repeating: [Double](), count: benchmark.contenders.count)
    if benchmark.warmsUp {  // warm up
        for contender in benchmark.contenders { sink &+= try contender.run(max(1, benchmark.iterations / 10)) }
    }
    for _ in 0..<(benchmark.samples ?? samples * benchmark.roundsPerSample) {
        for (index, contender) in benchmark.contenders.enumerated() {
            let elapsed: Double
            if benchmark.timesItself {
                elapsed = Double(try contender.run(benchmark.iterations))
            } else {
                let start = now()
                sink &+= try contender.run(benchmark.iterations)
                elapsed = Double(now() - start)
            }
            collected[index].append(elapsed / Double(benchmark.iterations))
        }
    }
    return benchmark.contenders.enumerated().map { index, contender in
        Result(benchmark: benchmark.name, contender: contender.name, unit: benchmark.unit, samples: collected[index])
    }
}

/// "85.2 ns", "1.23 µs", "4.56 ms".
func format(nanoseconds value: Double) -> String {
    if value < 1_000 { return String(format: "%.1f ns", value) }
    if value < 1_000_000 { return String(format: "%.2f µs", value / 1_000) }
    if value < 1_000_000_000 { return String(format: "%.2f ms", value / 1_000_000) }
    return String(format: "%.2f s", value / 1_000_000_000)
}

/// Prints a Markdown table: median, min–max, and ratios against the named
/// reference contenders of the same case, computed from the same run: the
/// median of the round-by-round ratios (each round runs every contender
/// back to back, so a ratio compares two samples taken under the same
/// load), which a slow stretch of the machine moves less than it moves a
/// ratio of two medians taken over the whole run.
func printTable(_ results: [Result], references: [String]) {
    let header = ["case", "contender", "median", "min – max"] + references.map { "× \($0)" }
    print("| " + header.joined(separator: " | ") + " |")
    print("|" + header.map { _ in "---" }.joined(separator: "|") + "|")
    for result in results {
        var row = [result.benchmark, result.contender, format(nanoseconds: result.median),
                   format(nanoseconds: result.min) + " – " + format(nanoseconds: result.max)]
        for reference in references {
            let base = results.first { $0.benchmark == result.benchmark && $0.contender == reference }
            row.append(base.map { String(format: "%.2f", pairedRatio(result, $0)) } ?? "")
        }
        print("| " + row.joined(separator: " | ") + " |")
    }
}

/// The median over rounds of `result`'s sample divided by `reference`'s
/// sample of the same round.
func pairedRatio(_ result: Result, _ reference: Result) -> Double {
    Result.median(zip(result.samples, reference.samples).map { $0 / $1 })
}

/// Runs `iterations` operations of one contender of the case named `name`
/// and exits: no warm-up, no clock, no table. Under callgrind, two runs with
/// different counts differ by exactly those operations, so .ci/perf-guard
/// divides the difference of their totals by the difference of the counts to
/// get instructions per operation, free of start-up and set-up. Only the
/// cases the guard watches are made (`cases`), so the set-up both runs pay
/// stays short under valgrind.
func runCounted(_ name: String, contender: String, iterations: Int, among cases: [Case]) throws -> Never {
    guard let benchmark = cases.first(where: { $0.name == name }),
        let operation = benchmark.contenders.first(where: { $0.name == contender })
    else {
        let known = cases.map { "'\($0.name)' (\($0.contenders.map(\.name).joined(separator: ", ")))" }
        FileHandle.standardError.write(Data("no case '\(name)' with contender '\(contender)'; cases: \(known.joined(separator: "; "))\n".utf8))
        exit(2)
    }
    sink &+= try operation.run(iterations)
    print(sink)  // the checksum: printed, so no operation's result is dead
    exit(0)
}
