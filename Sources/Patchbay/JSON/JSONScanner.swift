import Foundation

/// Scans a JSON document once, strictly (RFC 8259), for what `JSONDecoder`
/// does not give: every fault at its line and column in our words, repeated
/// keys, nesting and size limits, values no decoder can represent, and the
/// ``JSONLayout`` that maps a place to its line and column. It decodes no
/// value: `JSONDecoder` does that, from the same bytes.
///
///     let document = JSONScanner.scan(Data(#"{"a": [{"b": 7}]}"#.utf8))
///     document.root?.position(at: "/a/0/b")   // 1:14
///
/// A state machine with an explicit stack of open containers, so no input can
/// overflow the call stack, and the depth limit is checked before a container
/// opens. Lines and columns are tracked as it goes. It never traps.
struct JSONScanner {
    /// What the grammar allows at the next non-whitespace byte.
    enum State { case rootValue, firstElement, element, firstMember, member, memberValue, afterValue }

    /// Why scanning stopped early.
    enum Stop: Error {
        case syntax(JSONSyntaxError)
        case tooDeep(DepthExceeded)
    }

    /// An object or array that is open.
    struct Frame {
        var node: Int
        var isObject: Bool
        /// Whether it is the value of a repeated key, which the layout does not keep.
        var isRepeat: Bool
        /// Its node's parent, for pointers: a member's key or an element's index is read from the nodes
        /// when a repeated key inside it needs its path; nil for the root.
        var parent: Int?
        /// The container's pointer, made when a repeated key inside it first needs it.
        var path: PointerPath?
        /// For an object with many members, each decoded key's node, so finding a repeat stays O(1).
        var keyIndex: [String: Int] = [:]
    }

    /// Members an object may have before its keys are indexed by hash.
    static let keyIndexThreshold = 16

    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var offset = 0
    var line = 1
    /// The offset of the current line's first byte.
    var lineStart = 0
    /// UTF-8 continuation bytes between `lineStart` and `offset`, so columns count scalars.
    var continuationBytes = 0
    var stack: [Frame] = []
    /// The last key read, whose value comes next.
    var pendingKey: (range: Range<Int>, hasEscapes: Bool, position: SourcePosition) = (0..<0, false, SourcePosition(line: 1, column: 1))
    var nodes: [JSONLayout.Node] = []
    var duplicateKeys: [DuplicateKey] = []
    /// The first value the grammar allows but no decoder can represent. Scanning goes on past it.
    var unrepresentable: JSONSyntaxError?

    /// Scans `data` once. Never traps, whatever the input.
    /// - Parameters:
    ///   - maxBytes: The largest document scanned; a larger one is not read at all.
    ///   - maxDepth: The deepest nesting allowed: `{"a":{}}` is two levels deep.
    static func scan(_ data: Data, maxBytes: Int = .max, maxDepth: Int = 64) -> JSONDocument {
        guard data.count <= maxBytes else {
            return JSONDocument(sizeExceeded: SizeExceeded(size: data.count, limit: maxBytes))
        }
        let data = data.startIndex == 0 ? data : Data(data)  // node offsets index from 0
        return data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            var scanner = JSONScanner(bytes: raw.bindMemory(to: UInt8.self), maxDepth: maxDepth)
            var document = JSONDocument()
            do throws(Stop) {
                try scanner.scanDocument()
            } catch {
                switch error {
                case .syntax(let error): document.syntaxError = error
                case .tooDeep(let fault): document.depthExceeded = fault
                }
                // Close what is open, so the places read before the fault still resolve.
                while let frame = scanner.stack.popLast() { scanner.finish(frame) }
            }
            if !scanner.nodes.isEmpty { document.root = JSONPlace(JSONLayout(bytes: data, nodes: scanner.nodes)) }
            document.duplicateKeys = scanner.duplicateKeys
            document.unrepresentable = scanner.unrepresentable
            return document
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        nodes.reserveCapacity(min(bytes.count / 24, 1 << 20))  // a manifest has a value every 20-30 bytes
    }

    /// The grammar, one token per turn of the loop.
    private mutating func scanDocument() throws(Stop) {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw failure("byte order mark (BOM) is not allowed; save the file as UTF-8 without a BOM", at: 0)
        }
        // JSONDecoder reads UTF-16 and UTF-32 too, which a NUL or a BOM in the first bytes gives away.
        if bytes.count >= 2, bytes[0] == 0 || bytes[1] == 0 || bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            throw failure("the file is UTF-16 or UTF-32 text, not UTF-8; save it as UTF-8", at: 0)
        }
        var state = State.rootValue
        while true {
            skipWhitespace()
            switch state {
            case .rootValue, .memberValue: state = try value(expected: "a JSON value")
            case .firstElement: state = try isAtByte("]") ? close() : value(expected: "a JSON value or ']'")
            case .element: state = try value(expected: "a JSON value after ','", afterComma: true)
            case .firstMember: state = try isAtByte("}") ? close() : key(expected: "a string key or '}'")
            case .member: state = try key(expected: "a string key after ','", afterComma: true)
            case .afterValue:
                guard let top = stack.last else {
                    guard offset == bytes.count else { throw trailingContent() }
                    return
                }
                if isAtByte(",") {
                    offset += 1
                    state = top.isObject ? .member : .element
                } else if isAtByte(top.isObject ? "}" : "]") {
                    state = close()
                } else {
                    throw failure(expected: top.isObject ? "',' or '}' after object member"
                        : "',' or ']' after array element", at: offset)
                }
            }
        }
    }

    /// Scans one value; opens a frame for a container.
    private mutating func value(expected: String, afterComma: Bool = false) throws(Stop) -> State {
        guard offset < bytes.count else { throw failure(expected: expected, at: offset) }
        let start = position(at: offset)
        let kind: JSONLayout.Kind
        switch bytes[offset] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard stack.count < maxDepth else { throw .tooDeep(DepthExceeded(position: start, limit: maxDepth)) }
            let isObject = bytes[offset] == UInt8(ascii: "{")
            let (node, isRepeat) = record(isObject ? .object : .array, at: start)
            stack.append(Frame(
                node: node, isObject: isObject, isRepeat: isRepeat || (stack.last?.isRepeat ?? false),
                parent: stack.last?.node))
            offset += 1
            return isObject ? .firstMember : .firstElement
        case UInt8(ascii: "\""): kind = .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): kind = .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"): kind = .bool
        case UInt8(ascii: "n"): kind = .null
        default: throw failure(expected: expected, at: offset, hint: afterComma ? trailingCommaHint() : nil)
        }
        // Recorded before it is read, so a fault inside it leaves its position known.
        let (node, isRepeat) = record(kind, at: start)
        defer { if isRepeat { nodes.removeSubrange(node...) } }  // a repeat is not kept
        switch kind {
        case .string: _ = try string(openedAt: start)
        case .number: try number()
        default: try literal(expected: expected)
        }
        nodes[node].bytes = nodes[node].bytes.lowerBound..<offset
        return .afterValue
    }

    /// Adds a node for a value starting at `position` and counts it in its
    /// container, unless its key repeats one already there (which is reported).
    private mutating func record(_ kind: JSONLayout.Kind, at position: SourcePosition) -> (node: Int, isRepeat: Bool) {
        let node = nodes.count
        var entry = JSONLayout.Node(kind: kind, bytes: offset..<offset, end: node + 1, position: position)
        guard let top = stack.indices.last else {
            nodes.append(entry)
            return (node, false)
        }
        guard stack[top].isObject else {
            nodes[stack[top].node].count += 1
            nodes.append(entry)
            return (node, false)
        }
        entry.key = pendingKey.range
        entry.keyHasEscapes = pendingKey.hasEscapes
        entry.keyPosition = pendingKey.position
        nodes.append(entry)
        if let first = firstMember(sameAs: node, in: top) {
            duplicateKeys.append(DuplicateKey(
                path: path(toMember: node), first: nodes[first].keyPosition ?? pendingKey.position,
                duplicate: pendingKey.position))
            return (node, true)
        }
        nodes[stack[top].node].count += 1
        return (node, false)
    }

    /// The earlier member of the object of frame `top` whose key is member
    /// `node`'s; nil if there is none. Keys are compared as written (decoded
    /// only when one has escapes); an object of many members is indexed by key.
    private mutating func firstMember(sameAs node: Int, in top: Int) -> Int? {
        if !stack[top].keyIndex.isEmpty {
            func current(_ entry: inout Int) -> Int { entry }
            let first = current(&stack[top].keyIndex[keyText(of: node), default: node])  // one lookup finds or adds
            return first == node ? nil : first
        }
        var member = stack[top].node + 1, count = 0
        while member < node {
            if sameKey(member, node) { return member }
            member = nodes[member].end
            count += 1
        }
        if count + 1 == Self.keyIndexThreshold {
            member = stack[top].node + 1
            while member <= node {
                stack[top].keyIndex[keyText(of: member)] = member
                member = member == node ? node + 1 : nodes[member].end
            }
        }
        return nil
    }

    /// Whether members `a` and `b` have the same key.
    private func sameKey(_ a: Int, _ b: Int) -> Bool {
        let first = nodes[a], second = nodes[b]
        if first.keyHasEscapes || second.keyHasEscapes { return keyText(of: a) == keyText(of: b) }
        return first.key.count == second.key.count
            && memcmp(bytes.baseAddress! + first.key.lowerBound, bytes.baseAddress! + second.key.lowerBound,
                first.key.count) == 0
    }

    /// Member `node`'s key: as it stands, or decoded by `JSONDecoder` when it has escapes.
    private func keyText(of node: Int) -> String {
        let content = nodes[node].key
        let asWritten = String(decoding: UnsafeBufferPointer(rebasing: bytes[content]), as: UTF8.self)
        guard nodes[node].keyHasEscapes else { return asWritten }
        let quoted = UnsafeBufferPointer(rebasing: bytes[content.lowerBound - 1..<content.upperBound + 1])
        return (try? JSONDecoder().decode(String.self, from: Data(quoted))) ?? asWritten  // a lone surrogate stays
    }

    /// Scans a member's key and its `:`.
    private mutating func key(expected: String, afterComma: Bool = false) throws(Stop) -> State {
        guard isAtByte("\"") else {
            throw failure(expected: expected, at: offset, hint: afterComma ? trailingCommaHint() : nil)
        }
        let keyPosition = position(at: offset)
        let (content, hasEscapes) = try string(openedAt: keyPosition)
        pendingKey = (content, hasEscapes, keyPosition)
        skipWhitespace()
        guard isAtByte(":") else { throw failure(expected: "':' after object key", at: offset) }
        offset += 1
        return .memberValue
    }

    /// Consumes a closing bracket and closes the innermost container.
    private mutating func close() -> State {
        offset += 1
        finish(stack.removeLast())
        return .afterValue
    }

    /// Records where a container ends; drops it if it is a repeat's value.
    private mutating func finish(_ frame: Frame) {
        if frame.isRepeat, !(stack.last?.isRepeat ?? false) {
            nodes.removeSubrange(frame.node...)  // the outermost container of a repeat: it and all within it go
            return
        }
        nodes[frame.node].end = nodes.count
        nodes[frame.node].bytes = nodes[frame.node].bytes.lowerBound..<offset
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
            bytes.count - offset >= word.count && word.indices.allSatisfy { word[$0] == bytes[offset + $0] }
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
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                offset += bytes[offset] == UInt8(ascii: "\r") && offset + 1 < bytes.count
                    && bytes[offset + 1] == UInt8(ascii: "\n") ? 2 : 1
                line += 1
                lineStart = offset
                continuationBytes = 0
            default:
                return
            }
        }
    }

    private mutating func skipDigits() {
        while isAtDigit() { offset += 1 }
    }

    /// The line and column of the byte at `offset`, on the current line.
    func position(at offset: Int) -> SourcePosition {
        SourcePosition(line: line, column: offset - lineStart - continuationBytes + 1)
    }

    func isAtByte(_ ascii: Unicode.Scalar) -> Bool {
        offset < bytes.count && bytes[offset] == UInt8(ascii: ascii)
    }

    private func isAtDigit() -> Bool {
        offset < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset])
    }

    /// The path of member `node` of the innermost object; each open
    /// container's path is made once and shared by every repeat beneath it.
    private mutating func path(toMember node: Int) -> PointerPath {
        var parent: PointerPath?
        for frame in stack.indices {
            if stack[frame].path == nil, let owner = stack[frame].parent {
                stack[frame].path = PointerPath(parent: parent, key: segment(of: stack[frame].node, in: owner))
            }
            parent = stack[frame].path ?? parent
        }
        return PointerPath(parent: parent, key: keyText(of: node))
    }

    /// How container `owner` reaches `node`: its key, or its index.
    private func segment(of node: Int, in owner: Int) -> String {
        if nodes[owner].kind == .object { return keyText(of: node) }
        var index = 0, child = owner + 1
        while child < node { child = nodes[child].end; index += 1 }
        return String(index)
    }
}
