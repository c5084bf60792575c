import Foundation
import Patchbay

extension DependencyGraph {
    /// The graph as a Mermaid flowchart (`flowchart LR`), which GitHub renders
    /// in Markdown: each injector a subgraph, each binding a node labelled with
    /// its type, factory and lifetime (and its decorators, in order, when it
    /// names some); a lazy or provider need is a dotted arrow, a collection
    /// need an arrow labelled `element` to each element, and a decorator's
    /// need an arrow labelled with the decorator's name.
    ///
    ///     flowchart LR
    ///       subgraph i1["primary"]
    ///         n1["NoteService<br/>note-service (singleton)"]
    ///         n2["Clock<br/>system-clock (singleton)"]
    ///       end
    ///       n1 --> n2
    public func mermaid() -> String {
        var lines = ["flowchart LR", "  %% " + Self.comment(title)]
        if !hasCatalog { lines.append("  %% no catalog: what each factory needs is unknown, so there are no edges") }
        for (offset, group) in injectors.enumerated() {
            lines.append("  subgraph i\(offset + 1)[\"\(Self.mermaidEscape(group.name.rawValue))\"]")
            for node in group.nodes { lines.append("    \(node.id)[\"\(Self.mermaidLabel(node))\"]") }
            lines.append("  end")
        }
        for node in unbound { lines.append("  \(node.id)[\"\(Self.mermaidLabel(node))\"]") }
        for edge in edges {
            if let decorator = edge.decorator {
                // A decorator's need: the arrow of its kind, labelled with the decorator (quoted: a name may hold `|`).
                let label = "\"" + Self.mermaidEscape(Self.decoratorLabel(decorator, edge.kind)) + "\""
                let arrow = edge.kind == .lazy || edge.kind == .provider ? "-.->" : "-->"
                lines.append("  \(edge.from) \(arrow)|\(label)| \(edge.to)")
                continue
            }
            switch edge.kind {
            case .direct: lines.append("  \(edge.from) --> \(edge.to)")
            case .optional: lines.append("  \(edge.from) -->|optional| \(edge.to)")
            case .lazy: lines.append("  \(edge.from) -.->|lazy| \(edge.to)")
            case .provider: lines.append("  \(edge.from) -.->|provider| \(edge.to)")
            case .collection: lines.append("  \(edge.from) -->|element| \(edge.to)")
            }
        }
        if !unbound.isEmpty {
            lines.append("  classDef unbound stroke-dasharray: 5 5")
            lines.append("  class " + unbound.map(\.id).joined(separator: ",") + " unbound")
        }
        if !roots.isEmpty {
            lines.append("  %% entry points: the types the app resolves itself")
            lines.append("  classDef entry stroke-width: 3px")
            lines.append("  class " + roots.joined(separator: ",") + " entry")
        }
        return (lines.map(\.escapingControlCharacters).joined(separator: "\n") + "\n").inertInWorkflowLogs()
    }

    /// The graph in Graphviz DOT (`dot -Tsvg`): each injector a cluster, each
    /// binding a box labelled with its type, factory and lifetime (and its
    /// decorators, in order, when it names some); a lazy or provider need is
    /// a dashed edge, a collection need an edge labelled `element` to each
    /// element, and a decorator's need an edge labelled with the decorator's name.
    ///
    ///     digraph manifest {
    ///       rankdir=LR;
    ///       node [shape=box];
    ///       subgraph cluster_1 {
    ///         label="primary";
    ///         n1 [label="NoteService\nnote-service (singleton)"];
    ///       }
    ///       n1 -> n2;
    ///     }
    public func dot() -> String {
        var lines = ["digraph manifest {", "  // " + Self.comment(title)]
        if !hasCatalog { lines.append("  // no catalog: what each factory needs is unknown, so there are no edges") }
        lines += ["  rankdir=LR;", "  node [shape=box];"]
        for (offset, group) in injectors.enumerated() {
            lines.append("  subgraph cluster_\(offset + 1) {")
            lines.append("    label=\"\(Self.dotEscape(group.name.rawValue))\";")
            for node in group.nodes { lines.append("    \(node.id) [label=\"\(Self.dotLabel(node))\"];") }
            lines.append("  }")
        }
        for node in unbound { lines.append("  \(node.id) [label=\"\(Self.dotLabel(node))\", style=dashed];") }
        for edge in edges {
            if let decorator = edge.decorator {
                // A decorator's need: dashed as its kind is, labelled with the decorator.
                let style = edge.kind == .lazy || edge.kind == .provider ? "style=dashed, " : ""
                let label = Self.dotEscape(Self.decoratorLabel(decorator, edge.kind))
                lines.append("  \(edge.from) -> \(edge.to) [\(style)label=\"\(label)\"];")
                continue
            }
            switch edge.kind {
            case .direct: lines.append("  \(edge.from) -> \(edge.to);")
            case .optional: lines.append("  \(edge.from) -> \(edge.to) [label=\"optional\"];")
            case .lazy: lines.append("  \(edge.from) -> \(edge.to) [style=dashed, label=\"lazy\"];")
            case .provider: lines.append("  \(edge.from) -> \(edge.to) [style=dashed, label=\"provider\"];")
            case .collection: lines.append("  \(edge.from) -> \(edge.to) [label=\"element\"];")
            }
        }
        // Entry points, the types the app resolves itself: the graph's roots.
        for root in roots { lines.append("  \(root) [penwidth=3];") }
        lines.append("}")
        return (lines.map(\.escapingControlCharacters).joined(separator: "\n") + "\n").inertInWorkflowLogs()
    }

    // MARK: - Labels

    private var title: String {
        file + (environment.map { " (environment \($0))" } ?? "")
    }

    /// The lines of a node's label, not yet escaped for a format; a control character in a name (from
    /// the manifest) is already written as an escape, so it neither breaks a line nor reaches a terminal.
    static func labelLines(_ node: Node) -> [String] {
        guard let factory = node.factory else { return [node.type.escapingControlCharacters, "not bound"] }
        var lines = [node.type, factory + (node.lifetime.map { " (\($0))" } ?? "")].map(\.escapingControlCharacters)
        if !node.decorators.isEmpty {
            lines.append(("decorators: " + node.decorators.joined(separator: ", ")).escapingControlCharacters)
        }
        if node.resolvesByHand { lines.append("needs unknown (resolves by hand)") }
        return lines
    }

    /// The label of a decorator's need, not yet escaped for a format: the
    /// decorator's name (a control character written as an escape), then the
    /// need's kind unless it is direct (`timing-store: lazy`).
    static func decoratorLabel(_ decorator: String, _ kind: TypeExplanation.NeedKind) -> String {
        let name = decorator.escapingControlCharacters
        return switch kind {
        case .direct: name
        case .optional: name + ": optional"
        case .lazy: name + ": lazy"
        case .provider: name + ": provider"
        case .collection: name + ": element"
        }
    }

    private static func mermaidLabel(_ node: Node) -> String {
        labelLines(node).map(mermaidEscape).joined(separator: "<br/>")
    }

    private static func dotLabel(_ node: Node) -> String {
        labelLines(node).map(dotEscape).joined(separator: "\\n")
    }

    /// Text for a quoted Mermaid label: characters Mermaid would read as
    /// syntax or markup become its entity codes (`#quot;`, `#lt;`, ...).
    static func mermaidEscape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "\"": escaped += "#quot;"
            case "#": escaped += "#35;"
            case "<": escaped += "#lt;"
            case ">": escaped += "#gt;"
            case "&": escaped += "#amp;"
            case "`": escaped += "#96;"
            case "\n", "\r", "\r\n": escaped += " "
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// Text for a double-quoted DOT string: backslashes and quotes escaped, line breaks as `\n`.
    static func dotEscape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n", "\r\n": escaped += "\\n"
            case "\r": break
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// Text for a one-line comment.
    private static func comment(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
    }
}
