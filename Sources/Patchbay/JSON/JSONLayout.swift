import Foundation

/// Where each value of a scanned document stands (kind, bytes, line and column, its key's): what
/// `JSONDecoder` cannot say. Values are in document order, each subtree one run, so a container's
/// members are found by stepping from one sibling's end to the next. Made by ``JSONScanner``.
final class JSONLayout: Sendable {
    enum Kind: UInt8, Sendable { case null, bool, number, string, array, object }

    /// One value: its bytes (a string's quotes included), the node after its subtree, its members or
    /// elements (a repeated key's not counted), and for a member its key's bytes, opening quote and whether
    /// it is escaped or not ASCII (then compared as a `String`, by canonical equivalence, not by bytes).
    /// 32 bits a field (documents are under 4 GiB): 44 bytes a value, not 104, felt in the cache.
    struct Node: Sendable {
        var kind: Kind, keyNeedsDecoding = false
        private var range: (UInt32, UInt32), next: UInt32, members: UInt32 = 0, place: (UInt32, UInt32)
        private var keyRange: (UInt32, UInt32) = (0, 0), keyPlace: (UInt32, UInt32) = (0, 0)

        init(kind: Kind, bytes: Range<Int>, end: Int, position: SourcePosition) {
            (self.kind, range, next) = (kind, (UInt32(bytes.lowerBound), UInt32(bytes.upperBound)), UInt32(end))
            place = (UInt32(truncatingIfNeeded: position.line), UInt32(truncatingIfNeeded: position.column))
        }

        var bytes: Range<Int> {
            get { Int(range.0)..<Int(range.1) }
            set { range = (UInt32(newValue.lowerBound), UInt32(newValue.upperBound)) }
        }
        var end: Int { get { Int(next) } set { next = UInt32(newValue) } }
        var count: Int { get { Int(members) } set { members = UInt32(newValue) } }
        var position: SourcePosition { SourcePosition(line: Int(place.0), column: Int(place.1)) }
        var key: Range<Int> {
            get { Int(keyRange.0)..<Int(keyRange.1) }
            set { keyRange = (UInt32(newValue.lowerBound), UInt32(newValue.upperBound)) }
        }
        /// Line 0 stands for none.
        var keyPosition: SourcePosition? {
            get { keyPlace.0 == 0 ? nil : SourcePosition(line: Int(keyPlace.0), column: Int(keyPlace.1)) }
            set { keyPlace = newValue.map { (UInt32(truncatingIfNeeded: $0.line), UInt32(truncatingIfNeeded: $0.column)) } ?? (0, 0) }
        }
    }

    let bytes: Data
    let nodes: [Node]
    /// False for a document written in code, whose lines mean nothing to a reader.
    let hasPositions: Bool

    init(bytes: Data, nodes: [Node], hasPositions: Bool = true) {
        (self.bytes, self.nodes, self.hasPositions) = (bytes, nodes, hasPositions)
    }

    /// A member's key, decoded by `JSONDecoder` if escaped (a lone surrogate, which it refuses, stays as written).
    static func key<Bytes: Collection<UInt8>>(_ node: Node, in bytes: Bytes) -> String where Bytes.Index == Int {
        let written = String(decoding: bytes[node.key], as: UTF8.self)  // read in place: Data's slice is contiguous
        guard node.keyNeedsDecoding, bytes[node.key].contains(UInt8(ascii: "\\")) else { return written }
        let quoted = Data(bytes[node.key.lowerBound - 1..<node.key.upperBound + 1])
        return (try? JSONDecoder().decode(String.self, from: quoted)) ?? written
    }

    func key(of node: Int) -> String { Self.key(nodes[node], in: bytes) }

    /// Each long array's elements, listed when one is first found by index, so that finding every element
    /// of an array of 100,000 by its pointer (a diagnostic's place) is no walk of it each time.
    private let elementLists = Locked<[Int: [Int]]>([:])

    /// Element `index` of array `node`.
    func element(_ index: Int, of node: Int) -> Int? {
        guard nodes[node].count > 32 else {
            var elements = children(of: node).dropFirst(index).makeIterator()
            return elements.next()
        }
        return elementLists.withLock { lists in
            let elements = lists[node] ?? Array(children(of: node))
            lists[node] = elements
            return index < elements.count ? elements[index] : nil
        }
    }

    func children(of node: Int) -> some Sequence<Int> {
        sequence(first: node + 1) { self.nodes[$0].end }.lazy.prefix { $0 < self.nodes[node].end }  // lazy: no array
    }
}

/// One value of a scanned document; `JSONDecoder` decodes it on demand.
struct JSONPlace: Sendable {
    let layout: JSONLayout
    let node: Int

    init(_ layout: JSONLayout, node: Int = 0) { (self.layout, self.node) = (layout, node) }

    var kind: JSONLayout.Kind { layout.nodes[node].kind }
    /// Where its first character is; nil in a document written in code.
    var position: SourcePosition? { layout.hasPositions ? layout.nodes[node].position : nil }
    var bytes: Data { layout.bytes[layout.nodes[node].bytes] }
    /// As written: a number's digits, a string with its quotes.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Whether its text holds either byte.
    func mayHold(_ first: UInt8, _ second: UInt8) -> Bool {
        layout.bytes(in: layout.nodes[node].bytes, contain: first, or: second)
    }

    func decoded<T: Decodable>(as type: T.Type) -> T? { try? JSONDecoder().decode(type, from: bytes) }

    var stringValue: String? { kind == .string ? decoded(as: String.self) : nil }

    /// For messages: "a string", "an object".
    var kindDescription: String { ["null", "a boolean", "a number", "a string", "an array", "an object"][Int(kind.rawValue)] }

    var children: [JSONPlace] { layout.children(of: node).map { JSONPlace(layout, node: $0) } }

    /// An object's members, each its value's place, which knows its key.
    var members: [JSONPlace] { kind == .object ? children : [] }

    /// A member's key.
    var key: String { layout.key(of: node) }
    /// Where a member's key's opening quote is; nil in a document written in code.
    var keyPosition: SourcePosition? { layout.hasPositions ? layout.nodes[node].keyPosition : nil }

    /// An object's member `key`, or an array's element at index `key` (as a coding path or pointer names it).
    func child(named key: String) -> JSONPlace? {
        switch kind {
        case .object:  // as `String`s compare (canonical equivalence), by bytes when both are plain ASCII
            let name = Array(key.utf8), nameIsASCII = !name.contains { $0 >= 0x80 }
            var child = node + 1
            while child < layout.nodes[node].end {
                let entry = layout.nodes[child]
                if entry.keyNeedsDecoding || !nameIsASCII ? layout.key(of: child) == key : layout.bytes(in: entry.key, equal: name) {
                    return JSONPlace(layout, node: child)
                }
                child = entry.end
            }
            return nil
        case .array:
            guard let index = Int(key), index >= 0, String(index) == key else { return nil }
            return layout.element(index, of: node).map { JSONPlace(layout, node: $0) }
        default: return nil
        }
    }

    /// The value at a decoding error's coding path.
    func value(atPath path: [String]) -> JSONPlace? {
        path.reduce(self) { $0?.child(named: $1) }
    }
}
