/// JSON Pointers (RFC 6901), the form diagnostics name a place in a file
/// with: `""` is the document, `/bindings/0/factory` a member of an element
/// of a member, with `~` and `/` in keys written `~0` and `~1`.
enum JSONPointer {
    /// Escapes a key for use as a pointer segment: `~` becomes `~0`, `/` becomes `~1`.
    static func escape(_ key: String) -> String {
        guard key.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return key }
        var escaped = ""
        for scalar in key.unicodeScalars {
            switch scalar {
            case "~": escaped += "~0"
            case "/": escaped += "~1"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// One segment unescaped; nil when a `~` is not followed by 0 or 1.
    static func unescape(_ segment: Substring.UnicodeScalarView) -> String? {
        var key = ""
        var afterTilde = false
        for scalar in segment {
            switch (afterTilde, scalar) {
            case (false, "~"): afterTilde = true
            case (true, "0"): key += "~"; afterTilde = false
            case (true, "1"): key += "/"; afterTilde = false
            case (true, _): return nil
            case (false, _): key.unicodeScalars.append(scalar)
            }
        }
        return afterTilde ? nil : key
    }
}

extension JSONPlace {
    /// The value at `pointer`, relative to this one; nil when there is none.
    func value(at pointer: String) -> JSONPlace? {
        let (found, complete) = deepestValue(along: pointer)
        return complete ? found : nil
    }

    /// The position of the value at `pointer` (relative to this one), else of
    /// its nearest ancestor that exists, so a message about a missing key
    /// points at the object that lacks it; 1:1 in a document written in code.
    func position(at pointer: String) -> SourcePosition {
        deepestValue(along: pointer).value.position ?? SourcePosition(line: 1, column: 1)
    }

    /// Follows `pointer` as far as it matches: the value reached, and whether every segment matched.
    private func deepestValue(along pointer: String) -> (value: JSONPlace, complete: Bool) {
        guard pointer.utf8.first == UInt8(ascii: "/") else { return (self, pointer.isEmpty) }
        // Split on scalars, not Characters: a "/" followed by a combining mark is one Character.
        var current = self
        for segment in pointer.unicodeScalars.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            guard let key = JSONPointer.unescape(segment), let next = current.child(named: key) else {
                return (current, false)
            }
            current = next
        }
        return (current, true)
    }
}
