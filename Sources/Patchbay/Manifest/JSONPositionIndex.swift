/// A syntax fault found while scanning a JSON document.
struct JSONSyntaxError: Hashable, Sendable {
    /// Where the fault is: the offending character, or the end of the file.
    var position: SourcePosition
    /// What is wrong, in the form "expected X, found Y" wherever that fits.
    var message: String
}

/// The result of one pass over a JSON document's bytes: where every value and
/// key is, which keys repeat, and the first syntax fault.
///
/// `JSONDecoder` reports a failure by coding path, with no line or column; this
/// index turns that path (as a JSON Pointer) back into a place in the file.
///
///     let index = JSONPositionIndex(bytes: #"{"bindings": [{"factory": 7}]}"#.utf8)
///     index.position(of: "/bindings/0/factory")   // 1:27
///
/// Positions are stored as a tree (a node per value, each container listing its
/// values) rather than in a dictionary keyed by full pointer strings: a pointer
/// repeats every ancestor key, so a hostile document with one long key above
/// many values would make such a dictionary quadratic in the input size.
struct JSONPositionIndex: Sendable, Hashable {
    /// A key that appears more than once in one object.
    struct DuplicateKey: Hashable, Sendable {
        /// The member's path, shared with other repeats under the same containers.
        private var path: PointerPath
        /// The opening quote of the first occurrence, which `JSONDecoder` keeps.
        var first: SourcePosition
        /// The opening quote of this repeat.
        var duplicate: SourcePosition

        /// The member's JSON Pointer, e.g. `/bindings/3/factory`.
        ///
        /// Built on each use from a shared path, not stored: a hostile document
        /// with a million repeats under one long key would otherwise hold a
        /// million copies of that key.
        var pointer: String { path.pointer }

        /// A repeat at `pointer`.
        init(pointer: String, first: SourcePosition, duplicate: SourcePosition) {
            self.init(path: PointerPath(parent: nil, text: pointer), first: first, duplicate: duplicate)
        }

        /// A repeat of the member at `path`.
        init(path: PointerPath, first: SourcePosition, duplicate: SourcePosition) {
            self.path = path
            self.first = first
            self.duplicate = duplicate
        }

        /// Repeats are equal when they are at the same pointer and positions.
        static func == (lhs: DuplicateKey, rhs: DuplicateKey) -> Bool {
            lhs.first == rhs.first && lhs.duplicate == rhs.duplicate && lhs.pointer == rhs.pointer
        }

        /// Hashes what `==` compares.
        func hash(into hasher: inout Hasher) {
            hasher.combine(pointer)
            hasher.combine(first)
            hasher.combine(duplicate)
        }
    }

    /// A JSON Pointer as a chain of segments, each shared by every longer pointer
    /// that extends it.
    final class PointerPath: Sendable {
        /// The pointer this one extends; nil at the root.
        let parent: PointerPath?
        /// What this path adds to its parent's pointer, e.g. `/bindings`.
        let text: String

        /// Extends `parent` by `text`.
        init(parent: PointerPath?, text: String) {
            self.parent = parent
            self.text = text
        }

        /// The whole pointer.
        var pointer: String {
            var texts: [String] = []
            var path: PointerPath? = self
            while let current = path {
                texts.append(current.text)
                path = current.parent
            }
            return texts.reversed().joined()
        }
    }

    /// Nesting went deeper than the limit.
    struct DepthExceeded: Hashable, Sendable {
        /// The opening bracket or brace that went one level too deep.
        var position: SourcePosition
        /// The limit in force, in levels of nesting.
        var limit: Int
    }

    /// A position in 8 bytes rather than 16, since a document holds millions.
    /// Past `UInt32.max` (only in files over 4 GB) numbers are clamped, not trapped on.
    struct PackedPosition: Hashable, Sendable {
        /// The 1-based line; 0 in `absent`.
        var line: UInt32
        /// The 1-based column; 0 in `absent`.
        var column: UInt32

        /// No position: the key of a value that has none.
        static let absent = PackedPosition(line: 0, column: 0)

        /// Packs `position`.
        init(_ position: SourcePosition) {
            self.init(line: UInt32(clamping: position.line), column: UInt32(clamping: position.column))
        }

        /// Packs a line and column as they are.
        private init(line: UInt32, column: UInt32) {
            self.line = line
            self.column = column
        }

        /// The position as the public type.
        var unpacked: SourcePosition { SourcePosition(line: Int(line), column: Int(column)) }
    }

    /// Where one value, and its key if it has one, begins.
    struct Node: Hashable, Sendable {
        /// The first character of the value.
        var value: PackedPosition
        /// The opening quote of the member's key; `absent` for the root and array elements.
        var key = PackedPosition.absent
        /// The member's decoded key; empty for the root and array elements.
        var name = ""
        /// For a container, its values' run in `children`; empty for a scalar.
        var children: Range<Int> = 0..<0
        /// Whether the value is an object.
        var isObject = false

        /// The key's position, or nil if the value has no key.
        var keyPosition: SourcePosition? { key == .absent ? nil : key.unpacked }
    }

    /// Every value recorded, in document order; node 0 is the root.
    private var nodes: [Node]
    /// The values of each container, as runs of node numbers in document order.
    /// A repeated key's value is left out, so lookups find the value `JSONDecoder` keeps.
    private var children: [Int]
    /// For objects with many members: each key's node, so a lookup need not search.
    private var keyIndexes: [Int: [String: Int]]

    /// Every repeated key, in document order; the second and third occurrences
    /// of one key make two entries, each pointing back to the first.
    private(set) var duplicateKeys: [DuplicateKey]
    /// The first syntax error, if any. Scanning stops there; what was recorded before it stays.
    private(set) var syntaxError: JSONSyntaxError?
    /// Set when nesting went deeper than the limit. Scanning stops there.
    private(set) var depthExceeded: DepthExceeded?
    /// The first value that is valid JSON but that no decoder can represent:
    /// an unpaired surrogate escape (`"\uD800"`) or a number beyond `Double`'s
    /// range (`1e999`). `JSONDecoder` rejects the document; scanning goes on.
    private(set) var unrepresentable: JSONSyntaxError?

    /// Scans `bytes` once. Never traps, whatever the input.
    ///
    /// Pass a `[UInt8]`, a `Data` or a `String`'s `utf8` view; contiguous storage
    /// is scanned in place, anything else is copied into an array first.
    /// - Parameters:
    ///   - bytes: The document, which should be UTF-8 without a byte order mark.
    ///   - maxDepth: The deepest nesting allowed: `{"a":{}}` is two levels deep.
    init(bytes: some Collection<UInt8>, maxDepth: Int = 64) {
        if let index = bytes.withContiguousStorageIfAvailable({ Self(scanning: $0, maxDepth: maxDepth) }) {
            self = index
        } else {
            self = Array(bytes).withUnsafeBufferPointer { Self(scanning: $0, maxDepth: maxDepth) }
        }
    }

    /// Runs the scanner over contiguous bytes and keeps its results.
    private init(scanning buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        var scanner = JSONScanner(bytes: buffer, maxDepth: maxDepth)
        scanner.run()
        nodes = scanner.nodes
        children = scanner.children
        keyIndexes = scanner.keyIndexes
        duplicateKeys = scanner.duplicateKeys
        syntaxError = scanner.syntaxError
        depthExceeded = scanner.depthExceeded
        unrepresentable = scanner.unrepresentable
    }

    /// Escapes a key for use as a pointer segment (RFC 6901): `~` becomes `~0`, `/` becomes `~1`.
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
}

/// Finding things by JSON Pointer (RFC 6901): `""` is the root, `/bindings/0/factory`
/// a member of an element of a member, with `~` and `/` in keys written `~0` and `~1`.
extension JSONPositionIndex {
    /// Something recorded for each value, looked up by JSON Pointer.
    ///
    /// Reads like a dictionary (`index.valuePositions["/format"]`) but walks the
    /// tree instead of holding a string per pointer, so a lookup costs the
    /// pointer's length, whatever the document's size.
    struct PointerMap<Value: Sendable>: Sendable {
        /// The index looked in.
        fileprivate let index: JSONPositionIndex
        /// What is recorded for a node; nil where nothing is.
        fileprivate let entry: @Sendable (JSONPositionIndex, Node) -> Value?

        /// The entry for the value at `pointer`, or nil if there is none (or
        /// scanning stopped before reaching it).
        subscript(pointer: String) -> Value? {
            guard let found = index.deepestNode(along: pointer), found.complete else { return nil }
            return entry(index, index.nodes[found.node])
        }

        /// Every entry, keyed by pointer. Builds a string per pointer, so it is
        /// for tests and diagnostics; use the subscript to look things up.
        var dictionary: [String: Value] {
            var result: [String: Value] = [:]
            for (node, pointer) in index.pointers().enumerated() {
                if let pointer, let value = entry(index, index.nodes[node]) { result[pointer] = value }
            }
            return result
        }
    }

    /// The position of the first character of each value.
    var valuePositions: PointerMap<SourcePosition> {
        PointerMap(index: self) { _, node in node.value.unpacked }
    }

    /// The position of the opening quote of each object member's key, by the
    /// member's pointer (the same pointer as its value).
    var keyPositions: PointerMap<SourcePosition> {
        PointerMap(index: self) { _, node in node.keyPosition }
    }

    /// The keys of each object, in document order, a repeated key once.
    /// Nil for a value that is not an object.
    var memberKeys: PointerMap<[String]> {
        PointerMap(index: self) { index, node in
            node.isObject ? index.children[node.children].map { index.nodes[$0].name } : nil
        }
    }

    /// The keys of each element of the array at `pointer` (nil for an element
    /// that is not an object), found with one lookup rather than one per element.
    /// Nil when there is no array there.
    func elementMemberKeys(ofArrayAt pointer: String) -> [[String]?]? {
        guard let found = deepestNode(along: pointer), found.complete, !nodes[found.node].isObject else { return nil }
        return children[nodes[found.node].children].map { element in
            let node = nodes[element]
            return node.isObject ? children[node.children].map { nodes[$0].name } : nil
        }
    }

    /// The position of the value at `pointer`, else of its nearest recorded
    /// ancestor (dropping trailing segments), else 1:1.
    ///
    /// So a decoding error's coding path always leads somewhere useful: a
    /// missing key points at the object that lacks it.
    func position(of pointer: String) -> SourcePosition {
        guard let found = deepestNode(along: pointer) else { return SourcePosition(line: 1, column: 1) }
        return nodes[found.node].value.unpacked
    }

    /// Follows `pointer` from the root as far as it matches. Returns the node
    /// reached and whether every segment matched; nil when no root was recorded.
    private func deepestNode(along pointer: String) -> (node: Int, complete: Bool)? {
        guard !nodes.isEmpty else { return nil }
        guard pointer.utf8.first == UInt8(ascii: "/") else { return (0, pointer.isEmpty) }
        // Split on scalars, not Characters: a "/" followed by a combining mark is one Character.
        let segments = pointer.unicodeScalars.split(separator: "/", omittingEmptySubsequences: false)
        var node = 0
        for segment in segments.dropFirst() {
            guard let child = child(of: node, at: segment) else { return (node, false) }
            node = child
        }
        return (node, true)
    }

    /// The value under `node` reached by one escaped pointer segment.
    private func child(of node: Int, at segment: Substring.UnicodeScalarView) -> Int? {
        let values = nodes[node].children
        guard nodes[node].isObject else {
            // An array index is plain decimal without leading zeros (RFC 6901 §4).
            guard segment.allSatisfy({ ("0"..."9").contains($0) }), segment.count == 1 || segment.first != "0",
                  let index = Int(String(segment)), index < values.count else { return nil }
            return children[values.lowerBound + index]
        }
        var key = ""
        var afterTilde = false
        for scalar in segment {
            switch (afterTilde, scalar) {
            case (false, "~"): afterTilde = true
            case (true, "0"): key += "~"; afterTilde = false
            case (true, "1"): key += "/"; afterTilde = false
            case (true, _): return nil  // "~" must be followed by 0 or 1
            case (false, _): key.unicodeScalars.append(scalar)
            }
        }
        guard !afterTilde else { return nil }
        if let keyIndex = keyIndexes[node] { return keyIndex[key] }
        return children[values].first { nodes[$0].name == key }
    }

    /// Each node's pointer, or nil for nodes under a repeated key (which no pointer reaches).
    private func pointers() -> [String?] {
        var pointers = [String?](repeating: nil, count: nodes.count)
        if !nodes.isEmpty { pointers[0] = "" }
        // Nodes are numbered in document order, so a container is done before its values.
        for node in nodes.indices {
            guard let pointer = pointers[node] else { continue }
            for (index, child) in children[nodes[node].children].enumerated() {
                let segment = nodes[node].isObject ? JSONPositionIndex.escape(nodes[child].name) : String(index)
                pointers[child] = pointer + "/" + segment
            }
        }
        return pointers
    }
}
