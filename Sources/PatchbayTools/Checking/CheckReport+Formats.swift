import Foundation
import Patchbay

extension CheckReport {
    /// How many diagnostics each format lists by default (`--max-diagnostics`):
    /// after them one line (in JSON, `summary.omitted`) says how many more
    /// there are. The summary's counts and the exit status include them all.
    public static let defaultMaxDiagnostics = Diagnostic.defaultPrintLimit

    /// One diagnostic per line in the compiler's format, then the summary line.
    /// - Parameter maxDiagnostics: How many diagnostics to list before one line
    ///   says how many more there are; nil lists every one.
    public func text(maxDiagnostics: Int? = CheckReport.defaultMaxDiagnostics) -> String {
        collected { writeText(maxDiagnostics: maxDiagnostics, to: $0) }
    }

    /// `{"version": 1, "diagnostics": [...], "summary": {...}}`, with sorted keys.
    ///
    /// `diagnostics` lists at most `maxDiagnostics` of them, the first in
    /// display order, as the other formats do; `summary.omitted` says how
    /// many more there are, and `summary.errors` and `summary.warnings` count every one.
    /// - Parameter maxDiagnostics: How many diagnostics to list; nil lists every one.
    public func json(maxDiagnostics: Int? = CheckReport.defaultMaxDiagnostics) -> String {
        collected { writeJSON(maxDiagnostics: maxDiagnostics, to: $0) }
    }

    /// One GitHub Actions workflow command per diagnostic
    /// (`::error file=F,line=L,col=C,title=CODE::MESSAGE`), then the summary.
    /// Each file is relative to `GITHUB_WORKSPACE` when that is set and the
    /// file is below it, where GitHub looks for it, from whatever folder the check ran.
    /// - Parameter maxDiagnostics: How many diagnostics to list before one line
    ///   says how many more there are; nil lists every one.
    public func github(maxDiagnostics: Int? = CheckReport.defaultMaxDiagnostics) -> String {
        collected { writeGitHub(maxDiagnostics: maxDiagnostics, to: $0) }
    }

    // MARK: - Written in pieces

    /// How many diagnostics each piece written holds by default: `--max-diagnostics 0`
    /// on a report of hundreds of thousands must not build one string of them all.
    static let piece = 1_000

    /// ``text(maxDiagnostics:)``, handed to `write` a piece at a time.
    func writeText(maxDiagnostics: Int?, piece: Int = CheckReport.piece, to output: (String) -> Void) {
        // Read by CI runners too: no line of it may be a workflow command (whole lines in every piece).
        func write(_ text: String) { output(text.inertInWorkflowLogs()) }
        let (shown, more) = printed(maxDiagnostics)
        writeLines(of: shown, piece: piece, to: write) { $0.description }
        write((more.map { [$0] } ?? []).map { $0 + "\n" }.joined() + summary + "\n")
    }

    /// ``github(maxDiagnostics:)``, handed to `write` a piece at a time.
    func writeGitHub(maxDiagnostics: Int?, piece: Int = CheckReport.piece, to write: (String) -> Void) {
        let (shown, more) = printed(maxDiagnostics)
        let workspace = ProcessInfo.processInfo.environment["GITHUB_WORKSPACE"].flatMap { $0.isEmpty ? nil : $0 }
        writeLines(of: shown, piece: piece, to: write) { diagnostic in
            let place = diagnostic.line > 0 ? ",line=\(diagnostic.line),col=\(diagnostic.column)" : ""
            let file = workspace.map { ManifestLoader.path(diagnostic.file, relativeTo: $0) } ?? diagnostic.file
            let properties = "file=\(Self.escapeProperty(file))\(place),"
                + "title=\(Self.escapeProperty(diagnostic.code.rawValue))"
            // GitHub's command for a note is `notice`.
            let command = diagnostic.severity == .note ? "notice" : diagnostic.severity.rawValue
            return "::\(command) \(properties)::\(Self.escapeData(diagnostic.message))"
        }
        write((more.map { [$0] } ?? []).map { $0 + "\n" }.joined() + summary + "\n")
    }

    /// One line per diagnostic, a piece at a time.
    private func writeLines(
        of shown: ArraySlice<Diagnostic>, piece: Int, to write: (String) -> Void, _ line: (Diagnostic) -> String
    ) {
        var start = shown.startIndex
        while start < shown.endIndex {
            let end = min(start + piece, shown.endIndex)
            write(shown[start..<end].map { line($0) + "\n" }.joined())
            start = end
        }
    }

    /// ``json(maxDiagnostics:)``, handed to `write` a piece at a time: the
    /// document JSONEncoder makes, with the diagnostics encoded a piece at a
    /// time and set in it as it would set them.
    func writeJSON(maxDiagnostics: Int?, piece: Int = CheckReport.piece, to output: (String) -> Void) {
        // `##[` in a string is escaped as JSON escapes it, so the document decodes to the same values.
        func write(_ text: String) { output(text.inertInWorkflowLogs(json: true)) }
        let (shown, _) = printed(maxDiagnostics)
        let (errors, warnings, notes) = ManifestError.counts(of: diagnostics)
        let summary = JSONSummary(
            errors: errors, warnings: warnings, notes: notes == 0 ? nil : notes, manifests: manifestCount,
            omitted: diagnostics.count - shown.count)
        // A short list is one document; only the pieces of a long one need setting in.
        guard shown.count > piece else {
            write(Self.encoded(JSONDocument(diagnostics: Array(shown), summary: summary)) + "\n")
            return
        }
        write("{\n  \"diagnostics\" : [\n")
        var start = shown.startIndex
        while start < shown.endIndex {
            let end = min(start + piece, shown.endIndex)
            // `[\n  {...},\n  {...}\n]`: the elements, one level deeper, joined to the pieces before.
            let lines = Self.encoded(Array(shown[start..<end])).split(separator: "\n", omittingEmptySubsequences: false)
            write((start == shown.startIndex ? "" : ",\n") + lines.dropFirst().dropLast().map { "  " + $0 }.joined(separator: "\n"))
            start = end
        }
        let summaryLines = Self.encoded(summary).split(separator: "\n", omittingEmptySubsequences: false)
        write("\n  ],\n  \"summary\" : " + summaryLines.first! + "\n"
            + summaryLines.dropFirst().map { "  " + $0 }.joined(separator: "\n") + ",\n  \"version\" : 1\n}\n")
    }

    private struct JSONDocument: Encodable {
        let version = 1
        let diagnostics: [Diagnostic]
        let summary: JSONSummary
    }

    private struct JSONSummary: Encodable {
        let errors: Int
        let warnings: Int
        /// Absent when there are none, as in reports made before notes existed.
        let notes: Int?
        let manifests: Int
        let omitted: Int
    }

    /// A value as the JSON format writes it: pretty-printed, keys sorted.
    private static func encoded(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? String(decoding: encoder.encode(value), as: UTF8.self)) ?? "{}"
    }

    /// What `write` was handed, as one string.
    private func collected(_ body: ((String) -> Void) -> Void) -> String {
        var text = ""
        body { text += $0 }
        return text
    }

    /// The diagnostics listed, and the line that says how many more there are.
    private func printed(_ limit: Int?) -> (shown: ArraySlice<Diagnostic>, more: String?) {
        Diagnostic.printed(diagnostics, limit: limit, hint: "--max-diagnostics N lists N, 0 lists all")
    }

    // GitHub's escaping rules for workflow commands.
    static func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
