/// Reads a JSON document's bytes once (RFC 8259, strictly) into positioned
/// values: every value with its line and column, every object member with
/// its key's, members in document order. Every fault is reported where it
/// is: syntax, repeated keys, nesting past the limit, values no decoder can
/// represent, and a document over the size limit.
///
///     let document = JSONReader.read(#"{"a": [{"b": 7}]}"#.utf8)
///     document.root?.position(at: "/a/0/b")   // 1:14
///
/// A state machine with an explicit stack of open containers: nesting costs a
/// small heap-allocated frame, never a call-stack frame, so no input can
/// overflow the stack, and the depth limit is checked before a container
/// opens. Lines and columns are tracked incrementally, so finding a position
/// never rescans the line. It never traps, whatever the bytes.
struct JSONReader {
    /// What the grammar allows at the next non-whitespace byte.
    enum State {
        /// The document's single root value.
        case rootValue
        /// Just after `[`: an element or `]`.
        case firstElement
        /// Just after `,` in an array: an element.
        case element
        /// Just after `{`: a key or `}`.
        case firstMember
        /// Just after `,` in an object: a key.
        case member
        /// Just after a key's `:`: its value.
        case memberValue
        /// Just after a complete value: `,`, a closing bracket, or the end of the document.
        case afterValue
    }

    /// Why reading stopped early.
    enum Stop: Error {
        /// The bytes are not valid JSON.
        case syntax(JSONSyntaxError)
        /// Nesting went deeper than the limit.
        case tooDeep(DepthExceeded)
    }

    /// How a container was reached from its parent, for building pointers.
    enum Segment {
        /// A member of an object, by its decoded key.
        case key(String)
        /// An element of an array, by its 0-based index.
        case index(Int)
    }

    /// An object or array that is open.
    struct Frame {
        /// The container's node.
        var node: Int
        /// True for an object, false for an array.
        var isObject: Bool
        /// How many values it has so far, a repeated key's not counted.
        var count = 0
        /// Whether it is the value of a repeated key, which the document does
        /// not keep: its nodes are dropped when it closes.
        var isRepeat: Bool
        /// How the container was reached from its parent; nil for the root.
        var segment: Segment?
        /// The container's pointer, made when a repeated key inside it first needs it.
        var path: PointerPath?
        /// For an object with many members: each key's node, so that finding a
        /// repeat stays O(1). Small objects are searched directly, which is faster.
        var keyIndex: [String: Int] = [:]
    }

    /// Members an object may have before its keys are indexed by hash.
    static let keyIndexThreshold = 16

    /// The document.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The deepest nesting allowed.
    let maxDepth: Int
    /// The next byte to read.
    var offset = 0
    /// The current 1-based line.
    var line = 1
    /// The offset of the current line's first byte.
    var lineStart = 0
    /// UTF-8 continuation bytes between `lineStart` and `offset`: subtracting them
    /// turns a byte distance into a scalar count.
    var continuationBytes = 0
    /// The open containers, innermost last.
    var stack: [Frame] = []
    /// The last key read, whose value comes next. A repeat is looked for when
    /// the value begins.
    var pendingKey = ""
    /// The position of the last key read.
    var pendingKeyPosition = SourcePosition(line: 1, column: 1)

    /// Every value kept, in document order (see ``JSONNodes``).
    var nodes: [JSONNodes.Node] = []
    /// The key indexes of closed large objects, in the order they closed.
    var keyIndexes: [(node: Int, index: [String: Int])] = []
    /// Repeated keys found so far.
    var duplicateKeys: [DuplicateKey] = []
    /// The syntax error that stopped reading, if one did.
    var syntaxError: JSONSyntaxError?
    /// The depth fault that stopped reading, if one did.
    var depthExceeded: DepthExceeded?
    /// The first value the grammar allows but no decoder can represent (an
    /// unpaired surrogate escape, a number beyond `Double`'s range). Reading
    /// goes on past it.
    var unrepresentable: JSONSyntaxError?

    /// Reads `bytes` once. Never traps, whatever the input.
    ///
    /// Pass a `[UInt8]`, a `Data` or a `String`'s `utf8` view; contiguous storage
    /// is read in place, anything else is copied into an array first.
    /// - Parameters:
    ///   - bytes: The document, which should be UTF-8 without a byte order mark.
    ///   - maxBytes: The largest document read; a larger one is not read at all.
    ///   - maxDepth: The deepest nesting allowed: `{"a":{}}` is two levels deep.
    static func read(_ bytes: some Collection<UInt8>, maxBytes: Int = .max, maxDepth: Int = 64) -> JSONDocument {
        guard bytes.count <= maxBytes else {
            return JSONDocument(sizeExceeded: SizeExceeded(size: bytes.count, limit: maxBytes))
        }
        if let document = bytes.withContiguousStorageIfAvailable({ read(buffer: $0, maxDepth: maxDepth) }) {
            return document
        }
        return Array(bytes).withUnsafeBufferPointer { read(buffer: $0, maxDepth: maxDepth) }
    }

    /// Runs a reader over contiguous bytes and keeps its results.
    private static func read(buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int) -> JSONDocument {
        var reader = JSONReader(bytes: buffer, maxDepth: maxDepth)
        reader.run()
        let nodes = JSONNodes(
            nodes: reader.nodes, keyIndexes: Dictionary(reader.keyIndexes, uniquingKeysWith: { first, _ in first }))
        return JSONDocument(
            root: reader.nodes.isEmpty ? nil : PositionedJSON(nodes), duplicateKeys: reader.duplicateKeys,
            syntaxError: reader.syntaxError, depthExceeded: reader.depthExceeded,
            unrepresentable: reader.unrepresentable)
    }

    /// Prepares to read `bytes`; call `run()` next.
    private init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        // A manifest has a value every 20-30 bytes; reserving for that up front
        // saves the copies that growing the array would make. Capped so a huge
        // document of few values does not reserve much in vain.
        nodes.reserveCapacity(min(bytes.count / 24, 1 << 20))
    }

    /// Reads the whole document, stopping at the first fault.
    private mutating func run() {
        do {
            try readDocument()
        } catch {
            switch error {
            case .syntax(let error): syntaxError = error
            case .tooDeep(let fault): depthExceeded = fault
            }
            // Keep what was read of the open containers, so their pointers still resolve.
            while let frame = stack.popLast() { finish(frame) }
        }
    }

    /// The grammar, one token per turn of the loop.
    private mutating func readDocument() throws(Stop) {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw failure("byte order mark (BOM) is not allowed; save the file as UTF-8 without a BOM", at: 0)
        }
        var state = State.rootValue
        while true {
            skipWhitespace()
            switch state {
            case .rootValue, .memberValue:
                state = try value(expected: "a JSON value")
            case .firstElement:
                state = try isAtByte("]") ? close() : value(expected: "a JSON value or ']'")
            case .element:
                state = try value(expected: "a JSON value after ','", afterComma: true)
            case .firstMember:
                state = try isAtByte("}") ? close() : key(expected: "a string key or '}'")
            case .member:
                state = try key(expected: "a string key after ','", afterComma: true)
            case .afterValue:
                guard let top = stack.indices.last else {
                    guard offset == bytes.count else { throw trailingContent() }
                    return
                }
                state = try separator(inObject: stack[top].isObject)
            }
        }
    }

    /// Reads one value; opens a frame for a container.
    private mutating func value(expected: String, afterComma: Bool = false) throws(Stop) -> State {
        guard offset < bytes.count else { throw failure(expected: expected, at: offset) }
        let start = position(at: offset)
        switch bytes[offset] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard stack.count < maxDepth else { throw .tooDeep(DepthExceeded(position: start, limit: maxDepth)) }
            let isObject = bytes[offset] == UInt8(ascii: "{")
            // The end and count are set when it closes.
            let (node, segment, isRepeat) = record(start, isObject ? .object(end: 0, count: 0) : .array(end: 0, count: 0))
            stack.append(Frame(
                node: node, isObject: isObject, isRepeat: isRepeat || (stack.last?.isRepeat ?? false),
                segment: segment))
            offset += 1
            return isObject ? .firstMember : .firstElement
        case UInt8(ascii: "\""), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            // Recorded before it is read, so a fault inside it leaves its position known.
            let (node, _, isRepeat) = record(start, .null)
            // A repeat is not kept, even when reading it fails.
            defer { if isRepeat { nodes.removeSubrange(node...) } }
            nodes[node].payload = try scalar(openedAt: start, expected: expected)
            return .afterValue
        default:
            throw failure(expected: expected, at: offset, hint: afterComma ? trailingCommaHint() : nil)
        }
    }

    /// Reads a string, a number or a literal, whose first byte is at `offset`.
    private mutating func scalar(openedAt start: SourcePosition, expected: String) throws(Stop) -> JSONNodes.Payload {
        switch bytes[offset] {
        case UInt8(ascii: "\""):
            let (content, hasEscapes) = try string(openedAt: start)
            return .string(text(of: content, hasEscapes: hasEscapes))
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            return try literal(expected: expected)
        default:
            let numberStart = offset
            try number()
            return .number(JSONNumber(
                text: String(decoding: UnsafeBufferPointer(rebasing: bytes[numberStart..<offset]), as: UTF8.self)))
        }
    }

    /// Adds a node for a value starting at `position` and counts it in its
    /// container, unless its key repeats one already there (which is reported).
    private mutating func record(
        _ position: SourcePosition, _ payload: JSONNodes.Payload
    ) -> (node: Int, segment: Segment?, isRepeat: Bool) {
        let node = nodes.count
        guard let top = stack.indices.last else {
            nodes.append(JSONNodes.Node(position: PackedPosition(position), payload: payload))
            return (node, nil, false)
        }
        guard stack[top].isObject else {
            let index = stack[top].count
            stack[top].count += 1
            nodes.append(JSONNodes.Node(position: PackedPosition(position), payload: payload))
            return (node, .index(index), false)
        }
        let first = firstMember(named: pendingKey, in: top, adding: node)
        if let first {
            duplicateKeys.append(DuplicateKey(
                path: path(toMember: pendingKey), first: nodes[first].keyPosition.unpacked ?? pendingKeyPosition,
                duplicate: pendingKeyPosition))
        } else {
            stack[top].count += 1
        }
        nodes.append(JSONNodes.Node(
            position: PackedPosition(position), keyPosition: PackedPosition(pendingKeyPosition), key: pendingKey,
            payload: payload))
        return (node, .key(pendingKey), first != nil)
    }

    /// The earlier member named `key` in the object of frame `top`; nil if
    /// there is none, in which case `node` is indexed as that member.
    private mutating func firstMember(named key: String, in top: Int, adding node: Int) -> Int? {
        if !stack[top].keyIndex.isEmpty {
            func current(_ entry: inout Int) -> Int { entry }
            let first = current(&stack[top].keyIndex[key, default: node])  // one hash lookup finds or adds
            return first == node ? nil : first
        }
        var member = stack[top].node + 1
        while member < node {
            if nodes[member].key == key { return member }
            member = end(of: member)
        }
        if stack[top].count + 1 == Self.keyIndexThreshold {
            member = stack[top].node + 1
            while member < node {
                stack[top].keyIndex[nodes[member].key] = member
                member = end(of: member)
            }
            stack[top].keyIndex[key] = node
        }
        return nil
    }

    /// The node after the last one of a closed value's subtree.
    private func end(of node: Int) -> Int {
        switch nodes[node].payload {
        case .array(let end, _), .object(let end, _): end
        default: node + 1
        }
    }

    /// Reads a member's key and its `:`.
    private mutating func key(expected: String, afterComma: Bool = false) throws(Stop) -> State {
        guard isAtByte("\"") else {
            throw failure(expected: expected, at: offset, hint: afterComma ? trailingCommaHint() : nil)
        }
        let keyPosition = position(at: offset)
        let (content, hasEscapes) = try string(openedAt: keyPosition)
        pendingKey = text(of: content, hasEscapes: hasEscapes)
        pendingKeyPosition = keyPosition
        skipWhitespace()
        guard isAtByte(":") else { throw failure(expected: "':' after object key", at: offset) }
        offset += 1
        return .memberValue
    }

    /// Reads what follows a value inside a container: `,` or the closing bracket.
    private mutating func separator(inObject isObject: Bool) throws(Stop) -> State {
        if isAtByte(",") {
            offset += 1
            return isObject ? .member : .element
        }
        if isAtByte(isObject ? "}" : "]") { return close() }
        throw failure(
            expected: isObject ? "',' or '}' after object member" : "',' or ']' after array element", at: offset)
    }

    /// Consumes a closing bracket and closes the innermost container.
    private mutating func close() -> State {
        offset += 1
        finish(stack.removeLast())
        return .afterValue
    }

    /// Records where a container's nodes end; drops them if it is a repeat's value.
    private mutating func finish(_ frame: Frame) {
        if frame.isRepeat, !(stack.last?.isRepeat ?? false) {
            // The outermost container of a repeat: it and all within it go.
            nodes.removeSubrange(frame.node...)
            while let last = keyIndexes.last, last.node >= frame.node { keyIndexes.removeLast() }
            return
        }
        nodes[frame.node].payload = frame.isObject
            ? .object(end: nodes.count, count: frame.count) : .array(end: nodes.count, count: frame.count)
        if !frame.keyIndex.isEmpty { keyIndexes.append((frame.node, frame.keyIndex)) }
    }

    /// Reads a number: `-`? then `0` or 1-9 digits, then an optional fraction and exponent.
    private mutating func number() throws(Stop) {
        let start = offset
        var hasExponent = false
        defer { if hasExponent || offset - start > 15 { checkRange(ofNumberFrom: start) } }
        if isAtByte("-") {
            offset += 1
            guard isAtDigit() else { throw failure(expected: "a digit after '-'", at: offset) }
        }
        if isAtByte("0") {
            offset += 1
            if isAtDigit() {
                throw failure(expected: "'.', 'e' or the end of the number after '0'", at: offset,
                                  hint: "leading zeros are not allowed", wholeWord: false)
            }
        } else {
            skipDigits()
        }
        if isAtByte(".") {
            offset += 1
            guard isAtDigit() else { throw failure(expected: "a digit after '.' in a number", at: offset) }
            skipDigits()
        }
        if isAtByte("e") || isAtByte("E") {
            hasExponent = true
            offset += 1
            if isAtByte("+") || isAtByte("-") { offset += 1 }
            guard isAtDigit() else { throw failure(expected: "a digit in the number's exponent", at: offset) }
            skipDigits()
        }
    }

    /// Notes a number too large for a `Double` (`1e999`), which JSON allows and
    /// `JSONDecoder` rejects. Only numbers with an exponent or many digits can be.
    private mutating func checkRange(ofNumberFrom start: Int) {
        guard unrepresentable == nil else { return }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
        guard let value = Double(text), !value.isFinite else { return }
        let shown = text.count > 24 ? String(text.prefix(24)) + "..." : text
        unrepresentable = JSONSyntaxError(
            position: position(at: start),
            message: "number \(shown) is out of range: numbers must fit a 64-bit floating-point value "
                + "(up to about 1.8e308)")
    }

    /// Reads `true`, `false` or `null`, which must not run on into a longer word.
    private mutating func literal(expected: String) throws(Stop) -> JSONNodes.Payload {
        let word: StaticString = isAtByte("t") ? "true" : isAtByte("f") ? "false" : "null"
        let matches = word.withUTF8Buffer { word in
            bytes.count - offset >= word.count
                && word.indices.allSatisfy { word[$0] == bytes[offset + $0] }
                && !isWordByte(at: offset + word.count)
        }
        guard matches else { throw failure(expected: expected, at: offset) }
        offset += word.utf8CodeUnitCount
        return word.utf8Start.pointee == UInt8(ascii: "n") ? .null : .bool(word.utf8Start.pointee == UInt8(ascii: "t"))
    }

    /// Skips spaces, tabs and line breaks, counting lines: `\n`, `\r\n` and a lone `\r` each end one.
    private mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                offset += 1
            case UInt8(ascii: "\n"):
                offset += 1
                startLine()
            case UInt8(ascii: "\r"):
                offset += 1
                if isAtByte("\n") { offset += 1 }
                startLine()
            default:
                return
            }
        }
    }

    /// Notes that a new line begins at `offset`.
    private mutating func startLine() {
        line += 1
        lineStart = offset
        continuationBytes = 0
    }

    /// Skips a run of ASCII digits.
    private mutating func skipDigits() {
        while isAtDigit() { offset += 1 }
    }

    /// The line and column of the byte at `offset`, which must be on the current
    /// line and not past a multi-byte character the reader has not yet counted.
    func position(at offset: Int) -> SourcePosition {
        SourcePosition(line: line, column: offset - lineStart - continuationBytes + 1)
    }

    /// Whether the next byte is `ascii`.
    func isAtByte(_ ascii: Unicode.Scalar) -> Bool {
        offset < bytes.count && bytes[offset] == UInt8(ascii: ascii)
    }

    /// Whether the next byte is an ASCII digit.
    private func isAtDigit() -> Bool {
        offset < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset])
    }

    /// The path of a member of the innermost object. Each open container's path
    /// is made once and shared by every repeat beneath it.
    private mutating func path(toMember key: String) -> PointerPath {
        var parent: PointerPath?
        for frame in stack.indices {
            if stack[frame].path == nil {
                switch stack[frame].segment {
                case .key(let key): stack[frame].path = PointerPath(parent: parent, key: key)
                case .index(let index): stack[frame].path = PointerPath(parent: parent, text: "/" + String(index), key: "")
                case nil: break  // the root's pointer is empty
                }
            }
            parent = stack[frame].path ?? parent
        }
        return PointerPath(parent: parent, key: key)
    }
}
