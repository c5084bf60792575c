// The generated files' text, line by line.
import Foundation

/// Lines of a Swift file, joined with newlines when written.
struct SwiftFile {
    private(set) var lines: [String] = []

    mutating func add(_ line: String) { lines.append(line) }

    /// Adds one line per index in `range`.
    mutating func add(_ range: Range<Int>, _ line: (Int) -> String) {
        for i in range { lines.append(line(i)) }
    }

    func write(to path: String) throws {
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }
}
