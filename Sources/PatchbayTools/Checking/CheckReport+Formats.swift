import Foundation
import Patchbay

extension CheckReport {
    /// One diagnostic per line in the compiler's format, then the summary line.
    public func text() -> String {
        (diagnostics.map(\.description) + [summary]).joined(separator: "\n") + "\n"
    }

    /// `{"version": 1, "diagnostics": [...], "summary": {...}}`, with sorted keys.
    public func json() -> String {
        struct Document: Encodable {
            let version = 1
            let diagnostics: [Diagnostic]
            let summary: Summary
        }
        struct Summary: Encodable {
            let errors: Int
            let warnings: Int
            let manifests: Int
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let document = Document(
            diagnostics: diagnostics,
            summary: Summary(errors: diagnostics.errors.count, warnings: diagnostics.warnings.count,
                manifests: manifestCount))
        return ((try? String(decoding: encoder.encode(document), as: UTF8.self)) ?? "{}") + "\n"
    }

    /// One GitHub Actions workflow command per diagnostic
    /// (`::error file=F,line=L,col=C,title=CODE::MESSAGE`), then the summary.
    public func github() -> String {
        var lines = diagnostics.map { diagnostic in
            let place = diagnostic.line > 0 ? ",line=\(diagnostic.line),col=\(diagnostic.column)" : ""
            let properties = "file=\(Self.escapeProperty(diagnostic.file))\(place),"
                + "title=\(Self.escapeProperty(diagnostic.code.rawValue))"
            return "::\(diagnostic.severity.rawValue) \(properties)::\(Self.escapeData(diagnostic.message))"
        }
        lines.append(summary)
        return lines.joined(separator: "\n") + "\n"
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
