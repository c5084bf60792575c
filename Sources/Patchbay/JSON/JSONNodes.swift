/// Every value of one JSON document, in document order, in one array.
///
/// A container's values follow it, each subtree one contiguous run of
/// nodes, so a container records where its run ends and its values are
/// found by stepping from one sibling's end to the next. One flat array
/// rather than a tree of arrays: reading appends to it and never nests an
/// allocation per container, and releasing it is one release, however deep
/// the document, where a tree of arrays would be released recursively.
///
/// Immutable once made, and shared by every ``PositionedJSON`` that views it.
final class JSONNodes: Sendable {
    /// One value: where it is, its key if it is an object's member, and what it holds.
    struct Node: Sendable {
        /// The value's first character; `absent` for a value made in code.
        var position: PackedPosition
        /// The opening quote of the member's key; `absent` for the root, an
        /// array's element, or a value made in code.
        var keyPosition: PackedPosition = .absent
        /// The member's decoded key; empty for the root and array elements.
        var key = ""
        /// The value.
        var payload: Payload
    }

    /// What a node holds. A container holds no values itself: they are the
    /// nodes after it, up to `end`.
    enum Payload: Sendable {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// A number, as written.
        case number(JSONNumber)
        /// A string, escapes decoded.
        case string(String)
        /// An array of `count` elements, whose nodes end before node `end`.
        case array(end: Int, count: Int)
        /// An object of `count` members, whose nodes end before node `end`.
        case object(end: Int, count: Int)
    }

    /// The nodes; node 0 is the root.
    let nodes: [Node]
    /// For objects of ``JSONReader/keyIndexThreshold`` members or more, by
    /// node: each key's member node, so that finding a member does not
    /// search them all.
    let keyIndexes: [Int: [String: Int]]
    /// The nodes of `keyIndexes`, in order, so that those within a subtree
    /// are found without going through every one.
    private let indexedObjects: [Int]

    /// Keeps `nodes`, which must be laid out as described above.
    init(nodes: [Node], keyIndexes: [Int: [String: Int]] = [:]) {
        self.nodes = nodes
        self.keyIndexes = keyIndexes
        indexedObjects = keyIndexes.keys.sorted()
    }

    /// The node after the last one of `node`'s subtree.
    func end(of node: Int) -> Int {
        switch nodes[node].payload {
        case .array(let end, _), .object(let end, _): end
        default: node + 1
        }
    }

    /// The member of object `node` named `key`, if it has one.
    func member(of node: Int, named key: String) -> Int? {
        guard case .object(let end, let count) = nodes[node].payload else { return nil }
        if count >= JSONReader.keyIndexThreshold, let index = keyIndexes[node] { return index[key] }
        var child = node + 1
        while child < end {
            if nodes[child].key == key { return child }
            child = self.end(of: child)
        }
        return nil
    }

    /// A copy of the subtree of `node` as a document of its own, with
    /// `changes` made to its scalar nodes (by their number here). Used to
    /// give a value changed strings or numbers without copying the whole
    /// document it was read from.
    func subtree(_ node: Int, changing changes: [Int: Payload]) -> JSONNodes {
        let end = end(of: node)
        var copied = Array(nodes[node..<end])
        for index in copied.indices {
            if let change = changes[node + index] {
                copied[index].payload = change
            } else {
                switch copied[index].payload {
                case .array(let last, let count): copied[index].payload = .array(end: last - node, count: count)
                case .object(let last, let count): copied[index].payload = .object(end: last - node, count: count)
                default: break
                }
            }
        }
        copied[0].key = ""
        copied[0].keyPosition = .absent
        var indexes: [Int: [String: Int]] = [:]
        var first = firstIndexedObject(from: node)
        while first < indexedObjects.count, indexedObjects[first] < end {
            let owner = indexedObjects[first]
            indexes[owner - node] = keyIndexes[owner]?.mapValues { $0 - node }
            first += 1
        }
        return JSONNodes(nodes: copied, keyIndexes: indexes)
    }

    /// The place in `indexedObjects` of the first node at or after `node`, by binary search.
    private func firstIndexedObject(from node: Int) -> Int {
        var low = 0, high = indexedObjects.count
        while low < high {
            let middle = (low + high) / 2
            if indexedObjects[middle] >= node { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

/// A position in 8 bytes rather than 16, since a document holds millions.
/// Past `UInt32.max` (only in files over 4 GB) numbers are clamped, not trapped on.
struct PackedPosition: Hashable, Sendable {
    /// The 1-based line; 0 in `absent`.
    var line: UInt32
    /// The 1-based column; 0 in `absent`.
    var column: UInt32

    /// No position: a value made in code, or the key of a value that has none.
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

    /// The position as the package's type; nil for `absent`.
    var unpacked: SourcePosition? {
        self == .absent ? nil : SourcePosition(line: Int(line), column: Int(column))
    }
}
