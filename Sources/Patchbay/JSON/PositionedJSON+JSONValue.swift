/// Between positioned values and ``JSONValue``, the public form of a
/// binding's parameters.
extension PositionedJSON {
    /// The value without positions: numbers as ``JSONNumber/jsonValue``
    /// reads them, objects as dictionaries. Recursion is bounded by the
    /// document's depth, which the reader has limited.
    var jsonValue: JSONValue {
        switch content {
        case .null: .null
        case .bool(let value): .bool(value)
        case .number(let number): number.jsonValue
        case .string(let text): .string(text)
        case .array(let elements): .array(elements.map(\.jsonValue))
        case .object(let members):
            .object(Dictionary(members.lazy.map { ($0.key, $0.value.jsonValue) }, uniquingKeysWith: { first, _ in first }))
        }
    }

    /// `value` as a document of its own, with no positions; an object's
    /// members in the order of their keys, so that the same value always
    /// makes the same document.
    init(_ value: JSONValue) {
        var nodes: [JSONNodes.Node] = []
        var keyIndexes: [Int: [String: Int]] = [:]
        Self.append(value, key: "", to: &nodes, indexing: &keyIndexes)
        self.init(JSONNodes(nodes: nodes, keyIndexes: keyIndexes))
    }

    /// Appends the nodes of `value`, whose member key is `key`; indexes the
    /// keys of a large object, as the reader does.
    private static func append(
        _ value: JSONValue, key: String, to nodes: inout [JSONNodes.Node], indexing keyIndexes: inout [Int: [String: Int]]
    ) {
        let node = nodes.count
        func add(_ payload: JSONNodes.Payload) {
            nodes.append(JSONNodes.Node(position: .absent, key: key, payload: payload))
        }
        switch value {
        case .null: add(.null)
        case .bool(let value): add(.bool(value))
        case .integer(let value): add(.number(JSONNumber(value)))
        case .number(let value): add(.number(JSONNumber(value)))
        case .string(let text): add(.string(text))
        case .array(let elements):
            add(.array(end: 0, count: elements.count))
            for element in elements { append(element, key: "", to: &nodes, indexing: &keyIndexes) }
            nodes[node].payload = .array(end: nodes.count, count: elements.count)
        case .object(let members):
            add(.object(end: 0, count: members.count))
            var index: [String: Int] = [:]
            for key in members.keys.sorted() {
                if members.count >= JSONReader.keyIndexThreshold { index[key] = nodes.count }
                append(members[key]!, key: key, to: &nodes, indexing: &keyIndexes)
            }
            nodes[node].payload = .object(end: nodes.count, count: members.count)
            if !index.isEmpty { keyIndexes[node] = index }
        }
    }
}

/// Equal when they hold the same JSON, as ``JSONValue`` reads it: positions
/// say where a value was read, not what it is, and a binding's parameters
/// compare by what they are (a manifest reloaded with only its layout
/// changed is the manifest in force).
extension PositionedJSON: Hashable {
    static func == (lhs: PositionedJSON, rhs: PositionedJSON) -> Bool {
        (lhs.nodes === rhs.nodes && lhs.node == rhs.node) || lhs.jsonValue == rhs.jsonValue
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(jsonValue)
    }
}

extension PositionedJSON {
    /// `null`, made in code: what a decoder reads for a member that is absent
    /// where `JSONDecoder` reads `null` (`superDecoder(forKey:)`).
    static let null = PositionedJSON(JSONValue.null)

    /// `{}`, made in code: the parameters of a binding that gives none.
    static let emptyObject = PositionedJSON(JSONValue.object([:]))

    /// Decodes this value into `T`, as `JSONDecoder` would decode the same JSON.
    /// - Throws: `DecodingError`, with the coding path of the value at fault.
    func decode<T: Decodable>(as type: T.Type) throws -> T {
        try PositionedJSONDecoder.decode(type, from: self)
    }
}
