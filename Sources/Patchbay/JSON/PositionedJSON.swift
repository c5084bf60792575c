/// A JSON value that knows where it stands in its file: what ``JSONReader``
/// makes of a document, and what a manifest and a binding's parameters are
/// read from.
///
/// A view of one node of a shared ``JSONNodes``: copying one costs a retain,
/// and a binding's parameters keep no copy of the document they came from.
/// Object members are in document order; a repeated key is not among them
/// (the reader keeps the first occurrence, as `JSONDecoder` does).
///
/// Two values are equal when they hold the same JSON, read as ``JSONValue``
/// reads it: wherever they stand, and whatever the order of their members.
struct PositionedJSON: Sendable {
    /// The document.
    let nodes: JSONNodes
    /// This value's node in it.
    let node: Int

    /// The value at `node` of `nodes`.
    init(_ nodes: JSONNodes, node: Int = 0) {
        self.nodes = nodes
        self.node = node
    }

    /// What a value holds, to switch on.
    enum Content {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// A number, as written.
        case number(JSONNumber)
        /// A string.
        case string(String)
        /// An array's elements.
        case array(Elements)
        /// An object's members.
        case object(Members)
    }

    /// What the value holds.
    var content: Content {
        switch nodes.nodes[node].payload {
        case .null: .null
        case .bool(let value): .bool(value)
        case .number(let number): .number(number)
        case .string(let text): .string(text)
        case .array(_, let count): .array(Elements(nodes: nodes, parent: node, count: count))
        case .object(_, let count): .object(Members(nodes: nodes, parent: node, count: count))
        }
    }

    /// Where the value's first character is; nil for a value made in code.
    var position: SourcePosition? { nodes.nodes[node].position.unpacked }

    /// The string, when the value is one.
    var stringValue: String? {
        if case .string(let text) = nodes.nodes[node].payload { text } else { nil }
    }

    /// Whether the value is `null`.
    var isNull: Bool {
        if case .null = nodes.nodes[node].payload { true } else { false }
    }

    /// The members, when the value is an object.
    var members: Members? {
        if case .object(_, let count) = nodes.nodes[node].payload {
            Members(nodes: nodes, parent: node, count: count)
        } else {
            nil
        }
    }

    /// The JSON type's name, for messages: "a string", "an object".
    var kindDescription: String {
        switch nodes.nodes[node].payload {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// An array's elements, in order.
    struct Elements: Sequence, Sendable {
        /// The document.
        let nodes: JSONNodes
        /// The array's node.
        let parent: Int
        /// How many elements there are.
        let count: Int

        /// Steps from one element to the next.
        struct Iterator: IteratorProtocol {
            /// The document.
            let nodes: JSONNodes
            /// The next element's node.
            var upcoming: Int
            /// The node after the array's last.
            let end: Int

            /// The next element, or nil after the last.
            mutating func next() -> PositionedJSON? {
                guard upcoming < end else { return nil }
                defer { upcoming = nodes.end(of: upcoming) }
                return PositionedJSON(nodes, node: upcoming)
            }
        }

        /// Starts at the first element.
        func makeIterator() -> Iterator {
            Iterator(nodes: nodes, upcoming: parent + 1, end: nodes.end(of: parent))
        }

        /// How many elements there are.
        var underestimatedCount: Int { count }
    }

    /// An object's members, in document order.
    struct Members: Sequence, Sendable {
        /// The document.
        let nodes: JSONNodes
        /// The object's node.
        let parent: Int
        /// How many members there are.
        let count: Int

        /// Whether the object has no members.
        var isEmpty: Bool { count == 0 }

        /// The value of the member named `key`; for a large object, found without a search.
        subscript(key: String) -> PositionedJSON? {
            nodes.member(of: parent, named: key).map { PositionedJSON(nodes, node: $0) }
        }

        /// The members' keys, in document order.
        var keys: [String] { map(\.key) }

        /// Steps from one member to the next.
        struct Iterator: IteratorProtocol {
            /// Walks the members' values.
            var values: Elements.Iterator

            /// The next member, or nil after the last.
            mutating func next() -> Member? {
                values.next().map(Member.init(value:))
            }
        }

        /// Starts at the first member.
        func makeIterator() -> Iterator {
            Iterator(values: Elements(nodes: nodes, parent: parent, count: count).makeIterator())
        }

        /// How many members there are.
        var underestimatedCount: Int { count }
    }

    /// One member of an object.
    struct Member {
        /// The member's value, which also holds its key.
        let value: PositionedJSON

        /// The key, decoded.
        var key: String { value.nodes.nodes[value.node].key }
        /// Where the key's opening quote is; nil in a value made in code.
        var keyPosition: SourcePosition? { value.nodes.nodes[value.node].keyPosition.unpacked }
    }
}
