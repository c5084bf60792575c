/// One pass over a JSON document's bytes (RFC 8259, strictly), recording where
/// each value and key begins.
///
/// A state machine with an explicit stack of open containers: nesting costs a
/// small heap-allocated frame, never a call-stack frame, so no input can
/// overflow the stack. Lines and columns are tracked incrementally, so finding a
/// position never rescans the line.
struct JSONScanner {
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

    /// Why scanning stopped early.
    enum Stop: Error {
        /// The bytes are not valid JSON.
        case syntax(JSONSyntaxError)
        /// Nesting went deeper than the limit.
        case tooDeep(JSONPositionIndex.DepthExceeded)
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
        /// The container's node number.
        var node: Int
        /// True for an object, false for an array.
        var isObject: Bool
        /// How the container was reached from its parent; nil for the root.
        var segment: Segment?
        /// The container's pointer, made when a repeated key inside it first needs it.
        var path: JSONPositionIndex.PointerPath?
        /// Where the container's values begin in `openChildren`.
        var firstChild: Int
        /// For an object with many members: each key's first node, so that finding a
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
    /// The last key read, whose value comes next. A repeat is looked for when the
    /// value is recorded, once the member's node number is known.
    var pendingKey = ""
    /// The position of the last key read.
    var pendingKeyPosition = SourcePosition(line: 1, column: 1)

    /// The values of the open containers, innermost last; each container's run
    /// moves to `children` when it closes, which keeps every run contiguous.
    var openChildren: [Int] = []

    /// Every value recorded, in document order.
    var nodes: [JSONPositionIndex.Node] = []
    /// The values of every closed container, each container's in one run.
    var children: [Int] = []
    /// The key indexes of large objects, by node.
    var keyIndexes: [Int: [String: Int]] = [:]
    /// Repeated keys found so far.
    var duplicateKeys: [JSONPositionIndex.DuplicateKey] = []
    /// The syntax error that stopped the scan, if one did.
    var syntaxError: JSONSyntaxError?
    /// The depth fault that stopped the scan, if one did.
    var depthExceeded: JSONPositionIndex.DepthExceeded?
    /// The first value the grammar allows but no decoder can represent (an
    /// unpaired surrogate escape, a number beyond `Double`'s range). Scanning
    /// goes on past it.
    var unrepresentable: JSONSyntaxError?

    /// Prepares to scan `bytes`; call `run()` next.
    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        // A manifest has a value every 20-30 bytes; reserving for that up front
        // halves the time, which growing the arrays spends copying. Capped so
        // a huge document of few values does not reserve much in vain.
        let expectedValues = min(bytes.count / 24, 1 << 20)
        nodes.reserveCapacity(expectedValues)
        children.reserveCapacity(expectedValues)
    }

    /// Scans the whole document, stopping at the first fault.
    mutating func run() {
        do {
            try scanDocument()
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
    private mutating func scanDocument() throws(Stop) {
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

    /// Scans one value, recording its position; opens a frame for a container.
    private mutating func value(expected: String, afterComma: Bool = false) throws(Stop) -> State {
        guard offset < bytes.count else { throw failure(expected: expected, at: offset) }
        let start = position(at: offset)
        switch bytes[offset] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard stack.count < maxDepth else {
                throw .tooDeep(JSONPositionIndex.DepthExceeded(position: start, limit: maxDepth))
            }
            let isObject = bytes[offset] == UInt8(ascii: "{")
            let (node, segment) = record(start)
            nodes[node].isObject = isObject
            stack.append(Frame(node: node, isObject: isObject, segment: segment, firstChild: openChildren.count))
            offset += 1
            return isObject ? .firstMember : .firstElement
        case UInt8(ascii: "\""):
            _ = record(start)
            _ = try string(openedAt: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            _ = record(start)
            try number()
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            _ = record(start)
            try literal(expected: expected)
        default:
            throw failure(expected: expected, at: offset, hint: afterComma ? trailingCommaHint() : nil)
        }
        return .afterValue
    }

    /// Adds a node for a value starting at `position` and lists it under its
    /// container, unless its key repeats one already there.
    private mutating func record(_ position: SourcePosition) -> (node: Int, segment: Segment?) {
        let node = nodes.count
        guard let top = stack.indices.last else {
            nodes.append(JSONPositionIndex.Node(value: JSONPositionIndex.PackedPosition(position)))
            return (node, nil)
        }
        guard stack[top].isObject else {
            let index = openChildren.count - stack[top].firstChild
            nodes.append(JSONPositionIndex.Node(value: JSONPositionIndex.PackedPosition(position)))
            openChildren.append(node)
            return (node, .index(index))
        }
        nodes.append(JSONPositionIndex.Node(
            value: JSONPositionIndex.PackedPosition(position), key: JSONPositionIndex.PackedPosition(pendingKeyPosition),
            name: pendingKey))
        if let first = firstMember(named: pendingKey, in: top, addingIfNew: node) {
            // A repeat stays unlisted, so pointers keep finding the first occurrence.
            duplicateKeys.append(JSONPositionIndex.DuplicateKey(
                path: path(toMember: pendingKey), first: nodes[first].key.unpacked, duplicate: pendingKeyPosition))
        }
        return (node, .key(pendingKey))
    }

    /// The earlier member named `key` in the object of frame `top`; if there is
    /// none, lists `node` as a new member and returns nil.
    private mutating func firstMember(named key: String, in top: Int, addingIfNew node: Int) -> Int? {
        if !stack[top].keyIndex.isEmpty {
            func current(_ entry: inout Int) -> Int { entry }
            let first = current(&stack[top].keyIndex[key, default: node])  // one hash lookup finds or adds
            if first != node { return first }
        } else {
            let members = stack[top].firstChild..<openChildren.count
            for member in members where nodes[openChildren[member]].name == key { return openChildren[member] }
            if members.count + 1 == Self.keyIndexThreshold {
                for member in members { stack[top].keyIndex[nodes[openChildren[member]].name] = openChildren[member] }
                stack[top].keyIndex[key] = node
            }
        }
        openChildren.append(node)
        return nil
    }

    /// Scans a member's key and its `:`, noting a repeated key.
    private mutating func key(expected: String, afterComma: Bool = false) throws(Stop) -> State {
        guard isAtByte("\"") else {
            throw failure(expected: expected, at: offset, hint: afterComma ? trailingCommaHint() : nil)
        }
        let keyPosition = position(at: offset)
        let (content, hasEscapes) = try string(openedAt: keyPosition)
        let key = hasEscapes
            ? decodeEscapes(in: content)
            : String(decoding: UnsafeBufferPointer(rebasing: bytes[content]), as: UTF8.self)
        pendingKey = key
        pendingKeyPosition = keyPosition
        skipWhitespace()
        guard isAtByte(":") else { throw failure(expected: "':' after object key", at: offset) }
        offset += 1
        return .memberValue
    }

    /// Scans what follows a value inside a container: `,` or the closing bracket.
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

    /// Moves a container's values from `openChildren` into `children`.
    private mutating func finish(_ frame: Frame) {
        // No slice outlives the append: one would make the removal copy the whole
        // array, which for a long array of objects would be quadratic.
        let start = children.count
        children.append(contentsOf: openChildren[frame.firstChild...])
        nodes[frame.node].children = start..<children.count
        openChildren.removeSubrange(frame.firstChild...)
        if !frame.keyIndex.isEmpty { keyIndexes[frame.node] = frame.keyIndex }
    }

    /// Scans a number: `-`? then `0` or 1-9 digits, then an optional fraction and exponent.
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

    /// Scans `true`, `false` or `null`, which must not run on into a longer word.
    private mutating func literal(expected: String) throws(Stop) {
        let word: StaticString = isAtByte("t") ? "true" : isAtByte("f") ? "false" : "null"
        let matches = word.withUTF8Buffer { word in
            bytes.count - offset >= word.count
                && word.indices.allSatisfy { word[$0] == bytes[offset + $0] }
                && !isWordByte(at: offset + word.count)
        }
        guard matches else { throw failure(expected: expected, at: offset) }
        offset += word.utf8CodeUnitCount
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
    /// line and not past a multi-byte character the scanner has not yet counted.
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
    private mutating func path(toMember key: String) -> JSONPositionIndex.PointerPath {
        var parent: JSONPositionIndex.PointerPath?
        for frame in stack.indices {
            if stack[frame].path == nil {
                switch stack[frame].segment {
                case .key(let key): stack[frame].path = .init(parent: parent, text: "/" + JSONPositionIndex.escape(key))
                case .index(let index): stack[frame].path = .init(parent: parent, text: "/" + String(index))
                case nil: break  // the root's pointer is empty
                }
            }
            parent = stack[frame].path ?? parent
        }
        return JSONPositionIndex.PointerPath(parent: parent, text: "/" + JSONPositionIndex.escape(key))
    }
}
