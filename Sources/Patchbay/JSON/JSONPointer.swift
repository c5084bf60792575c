/// JSON Pointers (RFC 6901), how diagnostics name a place in a file: `""` is
/// the document, `/bindings/0/factory` a member of an element of a member,
/// with `~` and `/` in keys written `~0` and `~1`.
enum JSONPointer {
    /// A key as a pointer segment.
    static func escape(_ key: String) -> String {
        guard key.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return key }
        return key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// A segment as a key; nil when a `~` is not followed by 0 or 1.
    static func unescape(_ segment: Substring.UnicodeScalarView) -> String? {
        guard segment.split(separator: "~", omittingEmptySubsequences: false).dropFirst().allSatisfy({ $0.first == "0" || $0.first == "1" })
        else { return nil }
        return String(String.UnicodeScalarView(segment)).replacingOccurrences(of: "~1", with: "/", options: .literal)
            .replacingOccurrences(of: "~0", with: "~", options: .literal)  // in this order: "~01" is "~1"
    }
}

extension JSONPlace {
    /// The value at `pointer`, relative to this one; nil when there is none.
    func value(at pointer: String) -> JSONPlace? {
        let (found, complete) = deepestValue(along: pointer)
        return complete ? found : nil
    }

    /// Where the value at `pointer` stands, else its nearest ancestor that does
    /// (a missing key's object); 1:1 in a document written in code.
    func position(at pointer: String) -> SourcePosition {
        deepestValue(along: pointer).value.position ?? SourcePosition(line: 1, column: 1)
    }

    private func deepestValue(along pointer: String) -> (value: JSONPlace, complete: Bool) {
        guard pointer.utf8.first == UInt8(ascii: "/") else { return (self, pointer.isEmpty) }
        var current = self
        // Split on scalars, not Characters: a "/" followed by a combining mark is one Character.
        for segment in pointer.unicodeScalars.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            guard let key = JSONPointer.unescape(segment), let next = current.child(named: key) else { return (current, false) }
            current = next
        }
        return (current, true)
    }
}
