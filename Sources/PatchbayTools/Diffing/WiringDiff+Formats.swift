import Foundation
import Patchbay

// The three faces of a comparison: text for a terminal, Markdown for a
// pull-request comment, JSON for tools. Names and parameters come from
// manifests, which may be a pull request's own: text escapes control
// characters, and Markdown puts every such value in an HTML code element
// with its special characters escaped, so no manifest can write into the
// comment's layout (a `|` ending a table cell, a link, a heading). No format
// prints a line a CI runner reads as a workflow command (`inertInWorkflowLogs`).

extension WiringDiff {
    /// For a terminal: the two sides, then each difference listed with what each side serves,
    /// then how many more there are (see ``omitted``), then the summary.
    ///
    ///     --- staging (Manifests/staging.json)
    ///     +++ production (Manifests/production.json)
    ///     Clock from secondary
    ///       - fixed-clock (transient, from secondary) {"iso8601":"2026-01-01T09:00:00Z"}
    ///       + system-clock (singleton, from primary)
    ///     Store from primary
    ///       - decorators: timing-store
    ///       + decorators: timing-store, caching-store {"ttl":30}
    ///     2 differences (1 changed, 1 chain changed)
    ///
    /// A difference in the decorators alone is a `chain changed`, whose lines are the chains.
    public func text() -> String {
        var lines = ["--- \(from.label) (\(from.file))", "+++ \(to.label) (\(to.file))"]
        if from.injectors != to.injectors {
            lines.append("injectors")
            lines.append("  - " + from.injectors.joined(separator: ", "))
            lines.append("  + " + to.injectors.joined(separator: ", "))
        }
        for change in changes {
            lines.append("\(change.displayType) from \(Self.requesters(change))")
            lines += Self.lines(of: change.before, chainOnly: change.isChainOnly).map { "  - " + $0 }
            lines += Self.lines(of: change.after, chainOnly: change.isChainOnly).map { "  + " + $0 }
        }
        if let more = omittedLine { lines.append(more) }
        lines.append(summary)
        return (lines.map(\.escapingControlCharacters).joined(separator: "\n") + "\n").inertInWorkflowLogs()
    }

    /// `... and 998 more differences not shown (998 changed); --max-differences N lists N, 0 lists all`;
    /// nil when every difference is listed.
    var omittedLine: String? {
        guard omitted > 0 else { return nil }
        return "... and \(omitted) more difference\(omitted == 1 ? "" : "s") not shown (\(omittedBreakdown)); "
            + "--max-differences N lists N, 0 lists all"
    }

    /// The injectors a difference is requested from, as a line names them: every one up to
    /// six, else the first five and how many more (a type bound in `primary` alone is
    /// requested from every injector of the manifest, which may be thousands).
    static func requesters(_ change: Change) -> String {
        let shown = change.injectors.count <= 6 ? change.injectors[...] : change.injectors.prefix(5)
        let more = change.injectors.count - shown.count
        return shown.joined(separator: ", ") + (more > 0 ? " and \(more) more injectors" : "")
    }

    /// For a pull-request comment: a heading, then a table of the differences.
    public func markdown() -> String {
        markdownText().inertInWorkflowLogs()
    }

    /// ``markdown()`` before the escaping that keeps CI runners from reading a command in it.
    private func markdownText() -> String {
        var text = "### Wiring: " + Self.code(from.label) + " → " + Self.code(to.label) + "\n\n"
        text += "Compared " + Self.code(from.file) + " with " + Self.code(to.file)
            + " after `extends`; parameters as written. " + summary.capitalizedFirst + ".\n"
        guard !isEqual else { return text }
        text += "\n| Type | Requested from | " + Self.code(from.label) + " | " + Self.code(to.label) + " |\n"
        text += "|---|---|---|---|\n"
        if from.injectors != to.injectors {
            text += "| *injector order* | | " + Self.code(from.injectors.joined(separator: ", ")) + " | "
                + Self.code(to.injectors.joined(separator: ", ")) + " |\n"
        }
        for change in changes {
            let cells = [change.before, change.after].map { entry in
                entry == nil ? "*not served*"
                    : Self.lines(of: entry, chainOnly: change.isChainOnly).map(Self.code).joined(separator: "<br>")
            }
            text += "| " + Self.code(change.displayType) + " | " + Self.code(Self.requesters(change)) + " | "
                + cells.joined(separator: " | ") + " |\n"
        }
        if omitted > 0 {
            // Numbers and words of its own: nothing from a manifest to escape.
            text += "\n... and \(omitted) more difference\(omitted == 1 ? "" : "s") not shown (\(omittedBreakdown)); "
                + "`--max-differences N` lists N, `0` lists all.\n"
        }
        return text
    }

    /// For tools: both sides' files and injectors, and each difference listed with both sides'
    /// entries and every injector it is requested from; `omitted` counts the differences not listed.
    public func jsonData() -> Data {
        struct Side: Encodable {
            let label: String, file: String, injectors: [String]
        }
        struct Served: Encodable {
            let factory: String, lifetime: String, parameters: JSONValue?
            /// Absent when the binding names none, as before decorators.
            let decorators: [JSONValue]?
        }
        struct Entry: Encodable {
            let servedFrom: String, collection: Bool, bindings: [Served]
        }
        struct Difference: Encodable {
            let type: String, displayType: String, injector: String, injectors: [String], change: String
            let from: Entry?, to: Entry?
        }
        struct Document: Encodable {
            let from: Side, to: Side, equal: Bool, summary: String, differences: [Difference], omitted: Int
        }
        func entry(_ entry: Wiring.Entry?) -> Entry? {
            entry.map {
                Entry(servedFrom: $0.servedFrom, collection: $0.isCollection, bindings: $0.bindings.map {
                    Served(factory: $0.factory, lifetime: $0.lifetime, parameters: $0.parameters,
                           decorators: $0.decorators.isEmpty ? nil : $0.decorators)
                })
            }
        }
        let document = Document(
            from: Side(label: from.label, file: from.file, injectors: from.injectors),
            to: Side(label: to.label, file: to.file, injectors: to.injectors),
            equal: isEqual, summary: summary,
            differences: changes.map {
                Difference(
                    type: $0.type, displayType: $0.displayType, injector: $0.injector, injectors: $0.injectors,
                    change: $0.kind, from: entry($0.before), to: entry($0.after))
            },
            omitted: omitted)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(document)) ?? Data("{}".utf8)  // strings and JSON values always encode
        return Data((String(decoding: data, as: UTF8.self) + "\n").inertInWorkflowLogs(json: true).utf8)
    }

    /// One line per binding that serves an entry: `fixed-clock (transient, from secondary) {...}`,
    /// then `decorated by ...` when it names decorators; `not served` for none. With `chainOnly`
    /// (a difference in the decorators alone), each line is the binding's chain: `decorators: ...`.
    static func lines(of entry: Wiring.Entry?, chainOnly: Bool = false) -> [String] {
        guard let entry else { return ["not served"] }
        return entry.bindings.map { served in
            if chainOnly { return "decorators: " + (served.decorators.isEmpty ? "none" : chain(served)) }
            return "\(served.factory) (\(served.lifetime), from \(entry.servedFrom))"
                + (served.parameters.map { " \($0)" } ?? "")
                + (served.decorators.isEmpty ? "" : " decorated by " + chain(served))
        }
    }

    /// A binding's decorators in order: `timing-store, caching-store {"ttl":30}`.
    private static func chain(_ served: Wiring.Served) -> String {
        served.decorators.map { link in
            switch link {
            case .string(let name): return name
            case .object(let members):
                guard case .string(let name)? = members["decorator"] else { return "\(link)" }
                return name + (members["parameters"].map { " \($0)" } ?? "")
            default: return "\(link)"
            }
        }.joined(separator: ", ")
    }

    /// `text` as inline code that no character in it can break out of.
    static func code(_ text: String) -> String {
        var escaped = ""
        for character in text.escapingControlCharacters {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "|": escaped += "&#124;"
            case "`": escaped += "&#96;"
            case "\\": escaped += "&#92;"
            // Emphasis, links, strike-through, and `$` that GitHub reads as math between two of them.
            case "*", "_", "[", "]", "~", "$": escaped += "&#\(character.unicodeScalars.first!.value);"
            default: escaped.append(character)
            }
        }
        return "<code>" + escaped + "</code>"
    }
}

extension String {
    /// The string with its first character uppercased: `No differences`.
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}

extension WiringDiff.Change {
    /// Whether only the decorators of what is served differ.
    var isChainOnly: Bool { kind == WiringDiff.Change.chainChanged }
}
