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

extension PositionedJSON {
    /// The value at `pointer`, relative to this one; nil when there is none.
    func value(at pointer: String) -> PositionedJSON? {
        let (found, complete) = deepestValue(along: pointer)
        return complete ? found : nil
    }

    /// The position of the value at `pointer` (relative to this one), else of
    /// its nearest ancestor that exists, so a message about a missing key
    /// points at the object that lacks it; 1:1 for a value made in code.
    func position(at pointer: String) -> SourcePosition {
        deepestValue(along: pointer).value.position ?? SourcePosition(line: 1, column: 1)
    }

    /// The value reached by following object keys and array indexes, as a
    /// decoding error's coding path gives them; nil when there is none.
    func value(atPath path: [String]) -> PositionedJSON? {
        var current = self
        for key in path {
            guard let next = current.child(named: key) else { return nil }
            current = next
        }
        return current
    }

    /// Follows `pointer` as far as it matches: the value reached, and whether
    /// every segment matched.
    private func deepestValue(along pointer: String) -> (value: PositionedJSON, complete: Bool) {
        guard pointer.utf8.first == UInt8(ascii: "/") else { return (self, pointer.isEmpty) }
        // Split on scalars, not Characters: a "/" followed by a combining mark is one Character.
        let segments = pointer.unicodeScalars.split(separator: "/", omittingEmptySubsequences: false)
        var current = self
        for segment in segments.dropFirst() {
            guard let key = JSONPointer.unescape(segment), let next = current.child(named: key) else {
                return (current, false)
            }
            current = next
        }
        return (current, true)
    }

    /// The member named `key` of an object, or the element at index `key`
    /// (plain decimal, no leading zeros) of an array.
    private func child(named key: String) -> PositionedJSON? {
        switch nodes.nodes[node].payload {
        case .object:
            return nodes.member(of: node, named: key).map { PositionedJSON(nodes, node: $0) }
        case .array(_, let count):
            guard !key.isEmpty, key.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                  key.utf8.count == 1 || key.utf8.first != UInt8(ascii: "0"),
                  let index = Int(key), index < count else { return nil }
            var element = node + 1
            for _ in 0..<index { element = nodes.end(of: element) }
            return PositionedJSON(nodes, node: element)
        default:
            return nil
        }
    }
}
