/// One problem found in a manifest: what, where, and what to do.
///
/// Loading, activation and `patchbay check` all report problems as
/// diagnostics, every one they find. The text form is the compiler's, which
/// editors and Xcode already parse:
///
///     Manifests/production.json:12:18: error: unknown factory 'sqlte' for UserRepository; did you mean 'sqlite'? [unknown-factory]
public struct Diagnostic: Hashable, Sendable, Codable, CustomStringConvertible {
    /// How serious a diagnostic is.
    public enum Severity: String, Hashable, Sendable, Codable, Comparable {
        /// A note: something the check could not decide from the catalog
        /// alone, and which the app checks when it runs. Never fails a
        /// check, `--strict` included.
        case note
        /// A warning: the manifest still activates (`check --strict` fails on it).
        case warning
        /// An error: the manifest is not activated.
        case error

        /// Notes before warnings before errors.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }

        /// Errors first when diagnostics are listed: note < warning < error,
        /// checked by the compiler for every case.
        var rank: Int {
            switch self { case .note: 0; case .warning: 1; case .error: 2 }
        }
    }

    /// The stable code, such as ``DiagnosticCode/unknownFactory``.
    public var code: DiagnosticCode
    /// Error, warning or note.
    public var severity: Severity
    /// What is wrong and what to do, in one or two sentences.
    public var message: String
    /// The manifest file, as the user named it (`Manifests/production.json`);
    /// for a problem of a whole folder, the folder; for `unused-factory` and
    /// `unused-decorator`, the Swift file of the registration.
    public var file: String
    /// The 1-based line of the offending value; 0 when the problem has no
    /// place in a file (a folder with no manifest for the environment).
    public var line: Int
    /// The 1-based column of the offending value; 0 with ``line`` 0.
    public var column: Int
    /// A JSON Pointer to the offending value (`/bindings/3/factory`); empty for the whole file.
    public var path: String
    /// The nearest valid name, when there is one ("did you mean").
    public var suggestion: String?
    /// The dependency path that leads to the problem (`SignupService -> UserRepository -> Database`).
    public var dependencyPath: [String]?

    /// Creates a diagnostic.
    public init(
        code: DiagnosticCode, severity: Severity = .error, message: String,
        file: String, line: Int = 1, column: Int = 1, path: String = "",
        suggestion: String? = nil, dependencyPath: [String]? = nil
    ) {
        self.code = code
        self.severity = severity
        // Names, keys and values quoted from a manifest may hold control
        // characters: escaped, no input can forge an output line or drive the reader's terminal.
        self.message = message.escapingControlCharacters
        self.file = file.escapingControlCharacters
        self.line = line
        self.column = column
        self.path = path
        self.suggestion = suggestion?.escapingControlCharacters
        self.dependencyPath = dependencyPath
    }

    /// `file:line:column: severity: message [code]`; `file: severity: message [code]`
    /// when the problem has no place in a file (``line`` 0). No such line can be
    /// read as a CI workflow command, whatever file or name it quotes (see `inertInWorkflowLogs`).
    public var description: String {
        let place = line > 0 ? "\(file):\(line):\(column)" : file
        return "\(place): \(severity.rawValue): \(message) [\(code.rawValue)]".inertInWorkflowLogs()
    }

    /// Orders diagnostics errors first, then by file, position and the order
    /// found: the order they are printed in.
    package static func sortedForDisplay(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        var sorted = diagnostics
        sortForDisplay(&sorted)
        return sorted
    }

    /// Puts diagnostics in display order (see ``sortedForDisplay(_:)``) in
    /// place, keeping each once when `removingRepeats` (a parent manifest's
    /// problem is found through each of its children). A check may hold
    /// hundreds of thousands: they are moved within their own array, never
    /// copied, and an array already in order is not touched.
    package static func sortForDisplay(_ diagnostics: inout [Diagnostic], removingRepeats: Bool = false) {
        // The places of the diagnostics in display order. Small keys are sorted,
        // not the diagnostics, which are costly to move; files are ranked once.
        // Each field is read in place, by index: a loop over the diagnostics copied each (a retain per string).
        var fileRanks: [String: Int] = [:]
        for index in diagnostics.indices where fileRanks[diagnostics[index].file] == nil { fileRanks[diagnostics[index].file] = 0 }
        for (rank, file) in fileRanks.keys.sorted().enumerated() { fileRanks[file] = rank }
        // Errors first (errors 0, warnings 1, notes 2), then file and position; the found order last, to decide ties.
        let keys = diagnostics.indices.map { offset in
            (2 - diagnostics[offset].severity.rank, fileRanks[diagnostics[offset].file]!, diagnostics[offset].line,
                diagnostics[offset].column, offset)
        }.sorted(by: <)
        let order = keys.map(\.4)
        var keep = Array(repeating: true, count: removingRepeats ? order.count : 0)
        if removingRepeats {
            // Equal diagnostics have one place, so repeats are neighbours in this
            // order: only a run at one place is compared, and the first of each stays.
            var start = 0
            while start < order.count {
                var end = start + 1
                // A run shares a severity, a file and a position: its sort key but the found order.
                while end < keys.count, keys[end].0 == keys[start].0, keys[end].1 == keys[start].1,
                    keys[end].2 == keys[start].2, keys[end].3 == keys[start].3 { end += 1 }
                if end - start > 1 {
                    var seen: Set<Diagnostic> = []
                    for place in start..<end where !seen.insert(diagnostics[order[place]]).inserted { keep[place] = false }
                }
                start = end
            }
        }
        // Each diagnostic goes to its place by following the cycles of the
        // permutation: position `place` receives the one at `order[place]`.
        var placed = Array(repeating: false, count: order.count)
        for first in order.indices where !placed[first] {
            var place = first
            while true {
                placed[place] = true
                let next = order[place]
                if next == first { break }
                diagnostics.swapAt(place, next)
                place = next
            }
        }
        guard removingRepeats, keep.contains(false) else { return }
        var kept = 0
        for place in keep.indices where keep[place] {
            if kept != place { diagnostics.swapAt(kept, place) }
            kept += 1
        }
        diagnostics.removeLast(diagnostics.count - kept)
    }
}

extension Array where Element == Diagnostic {
    /// Whether any diagnostic is an error.
    public var containsErrors: Bool { contains { $0.severity == .error } }
    /// The errors only.
    public var errors: [Diagnostic] { filter { $0.severity == .error } }
    /// The warnings only.
    public var warnings: [Diagnostic] { filter { $0.severity == .warning } }
    /// The notes only.
    public var notes: [Diagnostic] { filter { $0.severity == .note } }
}

extension String {
    /// The text with every control character, bidirectional control and character that prints as
    /// nothing written as an escape (`\n`, `\t`, `\u{1B}`, `\u{202E}`), so that it stays on one line
    /// and prints as it reads. Text quoted from a manifest is escaped before, by ``MessageText``, which
    /// also escapes its backslashes; this catches whatever reaches a message another way.
    package var escapingControlCharacters: String {
        guard !isPrintableASCII, unicodeScalars.contains(where: \.isInvisibleInMessages) else { return self }
        var escaped = ""
        for scalar in unicodeScalars {
            if scalar.isInvisibleInMessages { escaped += MessageText.escaped(scalar) } else { escaped.unicodeScalars.append(scalar) }
        }
        return escaped
    }
}
