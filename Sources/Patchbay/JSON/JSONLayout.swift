import Foundation

/// Where every value of one scanned JSON document stands: its kind, its
/// bytes, its line and column, and its key's. No value is decoded here:
/// `JSONDecoder` decodes; this is what it cannot say, consulted when a
/// diagnostic is built or a value's bytes are handed to the decoder.
///
/// Values are in document order, each subtree one contiguous run, so a
/// container's members are found by stepping from one sibling's end to the
/// next. Made by ``JSONScanner``; immutable and shared by every ``JSONPlace``.
final class JSONLayout: Sendable {
    /// A JSON value's kind.
    enum Kind: UInt8, Sendable {
        case null, bool, number, string, array, object
    }

    /// One value. Byte offsets index ``bytes``.
    struct Node: Sendable {
        var kind: Kind
        /// The value's bytes, quotes included for a string.
        var bytes: Range<Int>
        /// The node after this value's subtree.
        var end: Int
        /// Its elements or members, a repeated key's not counted.
        var count = 0
        var position: SourcePosition
        /// The key's content, between its quotes; empty for the root and elements.
        var key: Range<Int> = 0..<0
        var keyHasEscapes = false
        /// The key's opening quote; nil for the root and elements.
        var keyPosition: SourcePosition?
    }

    /// The document.
    let bytes: Data
    /// The values; node 0 is the root.
    let nodes: [Node]
    /// False for a document written in code, whose lines mean nothing to a reader.
    let hasPositions: Bool

    init(bytes: Data, nodes: [Node], hasPositions: Bool = true) {
        self.bytes = bytes
        self.nodes = nodes
        self.hasPositions = hasPositions
    }

    /// The decoded key of member `node`.
    func key(of node: Int) -> String {
        let range = nodes[node].key
        guard nodes[node].keyHasEscapes else { return String(decoding: bytes[range], as: UTF8.self) }
        // JSONDecoder decodes no lone surrogate (`\uD800`): such a key stays as written.
        return (try? JSONDecoder().decode(String.self, from: bytes[range.lowerBound - 1..<range.upperBound + 1]))
            ?? String(decoding: bytes[range], as: UTF8.self)
    }

    /// Whether member `node`'s key is `name`, compared without decoding a plain key.
    func key(of node: Int, is name: String) -> Bool {
        guard !nodes[node].keyHasEscapes else { return key(of: node) == name }
        let range = nodes[node].key
        var name = name
        return name.withUTF8 { name in
            name.count == range.count && bytes.withUnsafeBytes { raw in
                range.isEmpty || memcmp(raw.baseAddress! + range.lowerBound, name.baseAddress!, range.count) == 0
            }
        }
    }

    /// Each member of object `node` with its key as one of `table`'s (nil
    /// for any other key), compared as written rather than decoded: the parser
    /// files every binding's members so, with one access to the bytes.
    func forEachMember<K>(of node: Int, in table: KeyTable<K>, _ body: (K?, Int) -> Void) {
        bytes.withUnsafeBytes { raw in
            var child = node + 1
            while child < nodes[node].end {
                let key = nodes[child].keyHasEscapes ? K(rawValue: self.key(of: child))
                    : table.key(spelled: UnsafeRawBufferPointer(rebasing: raw[nodes[child].key]))
                body(key, child)
                child = nodes[child].end
            }
        }
    }

    /// The children of container `node`, in document order.
    func children(of node: Int) -> some Sequence<Int> {
        sequence(first: node + 1) { self.nodes[$0].end }.prefix { $0 < self.nodes[node].end }
    }
}

/// One value of a scanned document: where it is, what kind it is, its bytes.
/// Copying one costs a retain. Its scalars are decoded by `JSONDecoder`, on demand.
struct JSONPlace: Sendable {
    let layout: JSONLayout
    let node: Int

    init(_ layout: JSONLayout, node: Int = 0) {
        self.layout = layout
        self.node = node
    }

    var kind: JSONLayout.Kind { layout.nodes[node].kind }
    /// Where the value's first character is; nil in a document written in code.
    var position: SourcePosition? { layout.hasPositions ? layout.nodes[node].position : nil }
    /// The value's JSON text, for `JSONDecoder`.
    var bytes: Data { layout.bytes[layout.nodes[node].bytes] }
    /// The value's text as written: a number's digits, a string with its quotes.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Whether the value's text holds either byte.
    func mayHold(_ first: UInt8, _ second: UInt8) -> Bool {
        let range = layout.nodes[node].bytes
        return layout.bytes.withUnsafeBytes { raw in raw[range].contains { $0 == first || $0 == second } }
    }

    /// The value decoded by `JSONDecoder`; nil when it is not a `T`.
    func decoded<T: Decodable>(as type: T.Type) -> T? { try? JSONDecoder().decode(type, from: bytes) }

    /// The string, when the value is one.
    var stringValue: String? { kind == .string ? decoded(as: String.self) : nil }

    /// The JSON type's name, for messages: "a string", "an object".
    var kindDescription: String {
        switch kind {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// An object's members or an array's elements, in document order.
    var children: [JSONPlace] { layout.children(of: node).map { JSONPlace(layout, node: $0) } }

    /// An object's members with their keys; empty for anything else.
    var members: [Member] {
        kind == .object ? layout.children(of: node).map { Member(value: JSONPlace(layout, node: $0)) } : []
    }

    /// The member of an object named `key`.
    subscript(key: String) -> JSONPlace? {
        guard kind == .object else { return nil }
        return layout.children(of: node).first { layout.key(of: $0, is: key) }.map { JSONPlace(layout, node: $0) }
    }

    /// One member of an object.
    struct Member {
        let value: JSONPlace
        var key: String { value.layout.key(of: value.node) }
        /// Where the key's opening quote is; nil in a document written in code.
        var keyPosition: SourcePosition? {
            value.layout.hasPositions ? value.layout.nodes[value.node].keyPosition : nil
        }
    }

    /// The member `key` of an object, or the element at index `key` of an array.
    func child(named key: String) -> JSONPlace? {
        switch kind {
        case .object:
            return self[key]
        case .array:
            guard let index = Int(key), index >= 0, String(index) == key else { return nil }
            for (offset, child) in layout.children(of: node).enumerated() where offset == index {
                return JSONPlace(layout, node: child)
            }
            return nil
        default:
            return nil
        }
    }

    /// The value reached by following keys and indexes, as a decoding error's coding path gives them.
    func value(atPath path: [String]) -> JSONPlace? {
        var current = self
        for key in path {
            guard let next = current.child(named: key) else { return nil }
            current = next
        }
        return current
    }
}
