/// Where every value and key of a JSON document is, found by JSON Pointer:
/// the positions of a ``JSONReader`` reading, for the parser's lookups.
struct JSONPositionIndex: Sendable, Hashable {
    typealias DuplicateKey = Patchbay.DuplicateKey
    typealias DepthExceeded = Patchbay.DepthExceeded

    /// The reading.
    private let document: JSONDocument

    /// Every repeated key, in document order.
    var duplicateKeys: [DuplicateKey] { document.duplicateKeys }
    /// The first syntax error, if any.
    var syntaxError: JSONSyntaxError? { document.syntaxError }
    /// Set when nesting went deeper than the limit.
    var depthExceeded: DepthExceeded? { document.depthExceeded }
    /// The first value no decoder can represent.
    var unrepresentable: JSONSyntaxError? { document.unrepresentable }

    /// Reads `bytes` once.
    init(bytes: some Collection<UInt8>, maxDepth: Int = 64) {
        document = JSONReader.read(bytes, maxDepth: maxDepth)
    }

    /// Escapes a key for use as a pointer segment.
    static func escape(_ key: String) -> String { JSONPointer.escape(key) }

    /// Something recorded for each value, looked up by JSON Pointer.
    struct PointerMap<Value: Sendable>: Sendable {
        /// The root looked in.
        fileprivate let root: PositionedJSON?
        /// What is recorded for a value; nil where nothing is.
        fileprivate let entry: @Sendable (PositionedJSON) -> Value?

        /// The entry for the value at `pointer`.
        subscript(pointer: String) -> Value? {
            root?.value(at: pointer).flatMap(entry)
        }

        /// Every entry, keyed by pointer.
        var dictionary: [String: Value] {
            var result: [String: Value] = [:]
            guard let root else { return result }
            var pending = [("", root)]
            while let (pointer, value) = pending.popLast() {
                if let found = entry(value) { result[pointer] = found }
                switch value.content {
                case .array(let elements):
                    for (index, element) in elements.enumerated() { pending.append((pointer + "/\(index)", element)) }
                case .object(let members):
                    for member in members { pending.append((pointer + "/" + JSONPointer.escape(member.key), member.value)) }
                default: break
                }
            }
            return result
        }
    }

    /// The position of the first character of each value.
    var valuePositions: PointerMap<SourcePosition> { PointerMap(root: document.root) { $0.position } }

    /// The position of the opening quote of each object member's key.
    var keyPositions: PointerMap<SourcePosition> {
        PointerMap(root: document.root) { $0.nodes.nodes[$0.node].keyPosition.unpacked }
    }

    /// The keys of each object, in document order.
    var memberKeys: PointerMap<[String]> { PointerMap(root: document.root) { $0.members?.keys } }

    /// The keys of each element of the array at `pointer`.
    func elementMemberKeys(ofArrayAt pointer: String) -> [[String]?]? {
        guard let value = document.root?.value(at: pointer), case .array(let elements) = value.content else { return nil }
        return elements.map { $0.members?.keys }
    }

    /// The position of the value at `pointer`, else of its nearest ancestor, else 1:1.
    func position(of pointer: String) -> SourcePosition {
        document.root?.position(at: pointer) ?? SourcePosition(line: 1, column: 1)
    }

    static func == (lhs: JSONPositionIndex, rhs: JSONPositionIndex) -> Bool {
        lhs.valuePositions.dictionary == rhs.valuePositions.dictionary
            && lhs.keyPositions.dictionary == rhs.keyPositions.dictionary
            && lhs.duplicateKeys == rhs.duplicateKeys && lhs.syntaxError == rhs.syntaxError
            && lhs.depthExceeded == rhs.depthExceeded && lhs.unrepresentable == rhs.unrepresentable
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(valuePositions.dictionary)
    }
}

extension DuplicateKey {
    /// A repeat at `pointer`.
    init(pointer: String, first: SourcePosition, duplicate: SourcePosition) {
        self.init(path: PointerPath(parent: nil, text: pointer, key: ""), first: first, duplicate: duplicate)
    }
}
