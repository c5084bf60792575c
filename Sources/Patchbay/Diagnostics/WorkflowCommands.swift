// A CI log is read by the runner as well as by people. GitHub Actions takes a
// workflow command (`::error file=...::message`, `::add-mask::`, `::stop-commands::`)
// from ANY line a step prints, once the line's leading white space is stripped,
// and its older form (`##[error]...`) from anywhere in a line; it splits lines at
// a carriage return as well as a line feed. The tools quote names, places and file
// names from manifests and catalog descriptions, which may be a pull request's
// own: so what they print for people passes through one function, which leaves
// no line that the runner would read as a command. `--format github`, whose lines
// ARE commands, escapes its values by GitHub's own rules instead.
//
// The plugins, separate targets that cannot import this module, keep a copy of
// the rule (`ManifestLocation.printable`).

extension String {
    /// The text with no line a CI runner reads as a workflow command: a line that
    /// begins with `::` after its leading white space has its first colon written
    /// `\u{3A}`, every `##[` is written `#\u{23}[` (in JSON, `#\u0023[`, which
    /// decodes to the same string), and a carriage return, which would start a
    /// line of its own, is written `\r`. Text with none of them is returned as it is.
    /// - Parameter json: Whether the text is a JSON document, whose strings take only JSON's escapes.
    package func inertInWorkflowLogs(json: Bool = false) -> String {
        guard mayHoldWorkflowCommand else { return self }
        var result = String.UnicodeScalarView()
        let scalars = Array(unicodeScalars)
        var atLineStart = true  // nothing but white space since the last line feed
        var offset = 0
        while offset < scalars.count {
            let scalar = scalars[offset]
            offset += 1
            switch scalar {
            case "\r":
                // Our own text writes none, and JSON's strings hold none raw.
                result.append(contentsOf: "\\r".unicodeScalars)
            case ":" where atLineStart && offset < scalars.count && scalars[offset] == ":":
                result.append(contentsOf: (json ? "\\u003A" : "\\u{3A}").unicodeScalars)
            case "#" where offset + 1 < scalars.count && scalars[offset] == "#" && scalars[offset + 1] == "[":
                result.append(scalar)
                result.append(contentsOf: (json ? "\\u0023" : "\\u{23}").unicodeScalars)
                offset += 1  // the second `#`, written above; the `[` follows as itself
            default:
                result.append(scalar)
            }
            // A line starts after a line feed and goes on through white space; a carriage return ends that.
            atLineStart = scalar == "\n" || (atLineStart && scalar != "\r" && scalar.properties.isWhitespace)
        }
        return String(result)
    }

    /// Whether the text holds `::`, `##[` or a carriage return: one pass over its
    /// bytes, so that the usual text costs no copy.
    private var mayHoldWorkflowCommand: Bool {
        var previous: UInt8 = 0, beforePrevious: UInt8 = 0
        for byte in utf8 {
            if byte == UInt8(ascii: "\r") { return true }
            if byte == UInt8(ascii: ":"), previous == UInt8(ascii: ":") { return true }
            if byte == UInt8(ascii: "["), previous == UInt8(ascii: "#"), beforePrevious == UInt8(ascii: "#") { return true }
            (beforePrevious, previous) = (previous, byte)
        }
        return false
    }
}
