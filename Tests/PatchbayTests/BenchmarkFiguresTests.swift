// The README's performance figures come from one run: the full table of
// Benchmarks/README.md (the one headed `| case | contender | median | ...`),
// whose date and machine the README names. A figure the README quotes that
// is not in that table fails here, so a re-measured table and a README that
// still quotes the old one cannot both be committed.
import Foundation
import Testing

enum BenchmarkFigures {
    static let benchmarks = repositoryRoot.appendingPathComponent("Benchmarks/README.md")

    /// The rows of the first Markdown table after the line `header` starts, cells trimmed.
    static func rows(in text: String, headerPrefix: String) -> [[String]] {
        let lines = text.components(separatedBy: "\n")
        guard let header = lines.firstIndex(where: { $0.hasPrefix(headerPrefix) }) else { return [] }
        return lines[(header + 2)...].prefix { $0.hasPrefix("|") }.map { line in
            line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// The figures in `text`: numbers, with their unit of time when one follows (`14.8 ns`, `0.25`, `3,544`).
    static func figures(in text: String) -> [String] {
        let pattern = #"[0-9][0-9,]*(\.[0-9]+)?( (ns|µs|ms|s)\b)?"#
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).compactMap { Range($0.range, in: text).map { String(text[$0]) } }
    }

    /// The full table's measured figures: every cell but the case's and the contender's.
    static func tableFigures(_ benchmarks: String) -> Set<String> {
        Set(rows(in: benchmarks, headerPrefix: "| case | contender | median |").flatMap { $0.dropFirst(2).flatMap(figures) })
    }

    /// The full table's rows by case, then by contender: the figures of each row, the median first.
    static func cases(_ benchmarks: String) -> [String: [String: [String]]] {
        var cases: [String: [String: [String]]] = [:]
        for row in rows(in: benchmarks, headerPrefix: "| case | contender | median |") where row.count > 2 {
            cases[row[0], default: [:]][row[1]] = row.dropFirst(2).flatMap(figures)
        }
        return cases
    }

    /// The figures of the README's performance table that the full table does
    /// not hold where the README puts them. Each README row is one case: its
    /// first figure is the median of Patchbay's row of a case of the full
    /// table, and each of its other figures is in that same row (a ratio) or
    /// is the median of another contender of that same case (the floor a row
    /// compares with). So a figure of another run, of another case, or of
    /// another contender's ratio is found, not only one that is nowhere.
    static func unfounded(readme: String, benchmarks: String) -> [String] {
        let cases = cases(benchmarks)
        return rows(in: readme, headerPrefix: "| case | Patchbay |").flatMap { row -> [String] in
            let quoted = row.dropFirst().flatMap(figures)
            guard let median = quoted.first else { return [] }
            let candidates = cases.values.filter { $0["Patchbay"]?.first == median }
            guard !candidates.isEmpty else { return [median] }
            let verdicts = candidates.map { contenders in
                quoted.dropFirst().filter { figure in
                    !(contenders["Patchbay"] ?? []).contains(figure)
                        && !contenders.contains { $0.key != "Patchbay" && $0.value.first == figure }
                }
            }
            return verdicts.min { $0.count < $1.count } ?? []
        }
    }

    /// Text with every run of white space (line breaks included) made one space.
    static func flattened(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    }
}

@Suite struct BenchmarkFiguresTests {
    @Test func theReadmeQuotesOnlyTheFullTablesFigures() throws {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let benchmarks = try String(contentsOf: BenchmarkFigures.benchmarks, encoding: .utf8)
        #expect(BenchmarkFigures.tableFigures(benchmarks).count > 100, "the full table was not found")
        let quoted = BenchmarkFigures.rows(in: readme, headerPrefix: "| case | Patchbay |")
        #expect(quoted.count >= 5, "the README's performance table was not found")
        #expect(BenchmarkFigures.unfounded(readme: readme, benchmarks: benchmarks) == [],
                "figures in the README that Benchmarks/README.md's full table does not hold in the same case and contender")
    }

    /// The README names the run: the date and the machine the full table gives.
    @Test func theReadmeNamesTheRunsDateAndMachine() throws {
        let readme = BenchmarkFigures.flattened(try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8))
        let benchmarks = BenchmarkFigures.flattened(try String(contentsOf: BenchmarkFigures.benchmarks, encoding: .utf8))
        let regex = try NSRegularExpression(pattern: #"The table is the full run of ([0-9]{4}-[0-9]{2}-[0-9]{2}) on ([^,]+),"#)
        let match = try #require(regex.firstMatch(in: benchmarks, range: NSRange(benchmarks.startIndex..., in: benchmarks)),
                                 "Benchmarks/README.md does not say 'The table is the full run of DATE on MACHINE,'")
        let date = String(benchmarks[Range(match.range(at: 1), in: benchmarks)!])
        let machine = String(benchmarks[Range(match.range(at: 2), in: benchmarks)!])
        #expect(readme.contains("full run of \(date) on \(machine)"), "the README does not name the run of \(date) on \(machine)")
    }

    /// The check itself: a figure of another run is found.
    @Test func aFigureOfAnotherRunIsFound() {
        let benchmarks = "| case | contender | median | × baseline |\n|---|---|---|---|\n| singleton resolve | Patchbay | 14.8 ns | 0.25 |\n"
        let readme = "| case | Patchbay | × baseline |\n|---|---|---|\n| singleton resolve | 13.6 ns | 0.25 |\n"
        #expect(BenchmarkFigures.unfounded(readme: readme, benchmarks: benchmarks) == ["13.6 ns"])
        #expect(BenchmarkFigures.unfounded(readme: readme.replacingOccurrences(of: "13.6", with: "14.8"), benchmarks: benchmarks) == [])
    }

    /// A figure the full table holds, but of another case or of another
    /// contender's ratio, is found too: the README's row is one case's.
    @Test func aFigureOfAnotherCaseOrContenderIsFound() {
        let benchmarks = """
            | case | contender | median | × baseline |
            |---|---|---|---|
            | singleton resolve | Patchbay | 14.8 ns | 0.25 |
            | singleton resolve | floor | 6.8 ns | 0.12 |
            | transient resolve | Patchbay | 39.2 ns | 0.53 |
            | @Injected later access | Patchbay | 8.2 ns |  |
            | @Injected later access | floor | 6.8 ns |  |

            """
        let readme = """
            | case | Patchbay | × baseline |
            |---|---|---|
            | singleton resolve | 14.8 ns | 0.25 |
            | `@Injected`, later access | 8.2 ns | a stored property read: 6.8 ns |

            """
        #expect(BenchmarkFigures.unfounded(readme: readme, benchmarks: benchmarks) == [])
        // Another case's ratio, the floor's ratio, a median of another case's Patchbay row.
        #expect(BenchmarkFigures.unfounded(readme: readme.replacingOccurrences(of: "| 0.25 |", with: "| 0.53 |"),
                                           benchmarks: benchmarks) == ["0.53"])
        #expect(BenchmarkFigures.unfounded(readme: readme.replacingOccurrences(of: "| 0.25 |", with: "| 0.12 |"),
                                           benchmarks: benchmarks) == ["0.12"])
        #expect(BenchmarkFigures.unfounded(readme: readme.replacingOccurrences(of: "read: 6.8 ns", with: "read: 14.8 ns"),
                                           benchmarks: benchmarks) == ["14.8 ns"])
    }
}
