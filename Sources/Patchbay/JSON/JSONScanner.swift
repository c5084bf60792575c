import Foundation

// UNSAFE CODE, ACKNOWLEDGED (one of the few files allowed it; ARCHITECTURE.md lists them).
//
// The scanner reads the document's bytes through a raw buffer: every read is
// at an offset this file has just compared with `byteCount` (the loops test
// `offset < byteCount` first), and the buffer is the `Data`'s own storage,
// alive for the whole of `scan(_:)`, which nothing lets escape. Other files
// (the messages) reach the bytes only through `byte(at:)`, `text(_:)` and
// `scalar(at:)`, which check their offsets.
//
// Why it cannot be safe Swift: the scanner is on the activation path, where
// every byte of a manifest goes through its loops; `Data`'s subscript
// switches on its representation at each byte, and an `[UInt8]` copy's bounds
// checks and copy cost more there than the checks above already make.

/// Scans a JSON document once, strictly (RFC 8259), for what `JSONDecoder` does not give: each fault at its
/// line and column in our words, repeated keys, nesting and size limits, and the ``JSONLayout`` that maps a
/// place to its line and column. It decodes nothing. A loop over an explicit stack of open containers, so
/// no input overflows the call stack; it never traps.
@safe struct JSONScanner {
    /// What the grammar allows at the next non-whitespace byte.
    enum State { case rootValue, firstElement, element, firstMember, member, memberValue, afterValue }

    enum Stop: Error { case syntax(JSONSyntaxError), tooDeep(DepthExceeded) }

    /// An open object or array: whether it is (within) a repeated key's value, which the layout does not keep;
    /// its pointer, made when a repeat inside first needs it; past 16 members, its keys' first members, by key.
    struct Frame {
        var node: Int, isObject: Bool, isRepeat: Bool
        var path: PointerPath?, keyIndex: [String: Int] = [:]
        /// Whether it is the root object's `bindings` array, whose elements are handed in runs to `runs`.
        var isBindings = false
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    /// `continuationBytes`: UTF-8 continuation bytes since `lineStart`, so columns count scalars.
    var offset = 0, line = 1, lineStart = 0, continuationBytes = 0
    var stack: [Frame] = []
    /// The last key read: its content's bytes, whether it is escaped or not ASCII, its opening quote.
    var pendingKey = (range: 0..<0, needsDecoding: false, position: SourcePosition(line: 1, column: 1))
    var nodes: [JSONLayout.Node] = []
    var duplicateKeys: [DuplicateKey] = []
    /// The first value the grammar allows but no decoder represents; scanning goes on past it.
    var unrepresentable: JSONSyntaxError?
    /// Where the runs of the `bindings` array's elements go as the scan passes them, to be decoded
    /// meanwhile (see ``BindingRunQueue``); nil when nobody decodes them before the scan ends.
    var runs: BindingRunQueue?
    /// The run being gathered: where its first element starts (-1 before one), how many it has, where
    /// the last ends; and the node of the element being read.
    var runStart = -1, runCount = 0, runEnd = 0, elementNode = 0

    /// Scans `data`. A document over `maxBytes` is not read; `{"a":{}}` is 2 levels deep.
    static func scan(
        _ data: Data, maxBytes: Int = .max, maxDepth: Int = 64, handingRunsTo runs: BindingRunQueue? = nil
    ) -> JSONDocument {
        let maxBytes = min(maxBytes, Int(exactly: UInt32.max) ?? .max)  // a layout's offsets are 32 bits
        guard data.count <= maxBytes else { return JSONDocument(sizeExceeded: SizeExceeded(size: data.count, limit: maxBytes)) }
        let data = data.startIndex == 0 ? data : Data(data)  // node offsets index from 0
        return unsafe data.withUnsafeBytes { raw in
            var scanner = unsafe JSONScanner(bytes: raw.bindMemory(to: UInt8.self), maxDepth: maxDepth)
            scanner.runs = runs
            scanner.nodes.reserveCapacity(min(data.count / 24, 1 << 20))  // a value every 20-30 bytes
            var document = JSONDocument()
            do throws(Stop) { try scanner.scanDocument() } catch {
                switch error {
                case .syntax(let error): document.syntaxError = error
                case .tooDeep(let fault): document.depthExceeded = fault
                }
                while let frame = scanner.stack.popLast() { scanner.finish(frame) }  // what was read still maps
            }
            if !scanner.nodes.isEmpty { document.root = JSONPlace(JSONLayout(bytes: data, nodes: scanner.nodes)) }
            document.duplicateKeys = scanner.duplicateKeys
            document.unrepresentable = scanner.unrepresentable
            return document
        }
    }

    var byteCount: Int { unsafe bytes.count }

    /// The byte at `offset`, which must be below `byteCount`.
    func byte(at offset: Int) -> UInt8 {
        precondition(offset >= 0 && offset < byteCount)
        return unsafe bytes[offset]
    }

    /// The bytes in `range` (within `byteCount`) read as UTF-8.
    func text(_ range: Range<Int>) -> String {
        precondition(range.lowerBound >= 0 && range.upperBound <= byteCount)
        return unsafe String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// The scalar whose UTF-8 begins at `offset`, if well-formed (no overlong form, surrogate, or above U+10FFFF).
    func scalar(at offset: Int) -> Unicode.Scalar? {
        precondition(offset >= 0 && offset <= byteCount)
        var parser = Unicode.UTF8.ForwardParser(), input = unsafe bytes[offset...].makeIterator()
        guard case .valid(let sequence) = unsafe parser.parseScalar(from: &input) else { return nil }
        return Unicode.UTF8.decode(sequence)
    }

    /// The grammar, one token per turn of the loop.
    private mutating func scanDocument() throws(Stop) {
        if unsafe bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw failure("byte order mark (BOM) is not allowed; save the file as UTF-8 without a BOM", at: 0)
        }
        // JSONDecoder reads UTF-16 and UTF-32 too, which a NUL or a BOM in the first bytes gives away.
        if byteCount >= 2, unsafe byte(at: 0) == 0 || byte(at: 1) == 0 || bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            throw failure("the file is UTF-16 or UTF-32 text, not UTF-8; save it as UTF-8", at: 0)
        }
        var state = State.rootValue
        while true {
            skipWhitespace()
            switch state {
            case .rootValue, .memberValue: state = try value(expected: "a JSON value")
            case .firstElement:
                if runs != nil, !isAt("]") { noteElementStart() }
                state = try isAt("]") ? close() : value(expected: "a JSON value or ']'")
            case .element:
                if runs != nil { noteElementStart() }
                state = try value(expected: "a JSON value after ','", afterComma: true)
            case .firstMember: state = try isAt("}") ? close() : key(expected: "a string key or '}'")
            case .member: state = try key(expected: "a string key after ','", afterComma: true)
            case .afterValue:
                guard let top = stack.last else {
                    guard offset == byteCount else { throw failure(expected: nil, at: offset) }  // trailing content
                    return
                }
                if top.isBindings { noteElementEnd() }
                if isAt(",") {
                    (offset, state) = (offset + 1, top.isObject ? .member : .element)
                } else if isAt(top.isObject ? "}" : "]") {
                    state = close()
                } else {
                    throw failure(expected: top.isObject ? "',' or '}' after object member" : "',' or ']' after array element", at: offset)
                }
            }
        }
    }

    private mutating func value(expected: String, afterComma: Bool = false) throws(Stop) -> State {
        guard offset < byteCount else { throw failure(expected: expected, at: offset) }
        let start = position(at: offset)
        let kind: JSONLayout.Kind
        switch unsafe bytes[offset] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard stack.count < maxDepth else { throw .tooDeep(DepthExceeded(position: start, limit: maxDepth)) }
            let isObject = isAt("{")
            let (node, isRepeat) = record(isObject ? .object : .array, at: start)
            stack.append(Frame(node: node, isObject: isObject, isRepeat: isRepeat || stack.last?.isRepeat == true))
            if runs != nil, !isObject, stack.count == 2, stack[0].isObject, !pendingKey.needsDecoding,
               unsafe bytes[pendingKey.range].elementsEqual("bindings".utf8) {
                stack[1].isBindings = true
            }
            offset += 1
            return isObject ? .firstMember : .firstElement
        case UInt8(ascii: "\""): kind = .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): kind = .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"): kind = .bool
        case UInt8(ascii: "n"): kind = .null
        default: throw failure(expected: expected, at: offset, hint: afterComma ? trailingCommaHint() : nil)
        }
        let (node, isRepeat) = record(kind, at: start)  // before reading, so a fault inside has a place
        defer { if isRepeat { nodes.removeSubrange(node...) } }  // a repeat is not kept
        if kind == .string { _ = try string(openedAt: start) } else if kind == .number { try number() } else {
            let word = isAt("t") ? "true" : isAt("f") ? "false" : "null"  // not running on into a longer word
            guard unsafe bytes[offset...].starts(with: word.utf8), !isWordByte(at: offset + word.utf8.count) else {
                throw failure(expected: expected, at: offset)
            }
            offset += word.utf8.count
        }
        nodes[node].bytes = nodes[node].bytes.lowerBound..<offset
        return .afterValue
    }

    /// Adds a node, counted in its container unless its key repeats one there, which is reported.
    private mutating func record(_ kind: JSONLayout.Kind, at position: SourcePosition) -> (node: Int, isRepeat: Bool) {
        let node = nodes.count
        nodes.append(JSONLayout.Node(kind: kind, bytes: offset..<offset, end: node + 1, position: position))
        guard let top = stack.indices.last else { return (node, false) }
        if stack[top].isObject {
            (nodes[node].key, nodes[node].keyNeedsDecoding, nodes[node].keyPosition) = pendingKey
            if let first = firstMember(sameAs: node, in: top) {
                let path = PointerPath(parent: containerPath(), key: keyText(of: node))
                duplicateKeys.append(DuplicateKey(path: path, first: nodes[first].keyPosition ?? position, duplicate: pendingKey.position))
                return (node, true)
            }
        }
        nodes[stack[top].node].count += 1
        return (node, false)
    }

    /// The earlier member with member `node`'s key in frame `top`'s object, keys equal as `String`s (as
    /// `JSONDecoder` reads them), by bytes when both are plain ASCII; past 16 members, looked up by hash.
    private mutating func firstMember(sameAs node: Int, in top: Int) -> Int? {
        if !stack[top].keyIndex.isEmpty {
            let key = keyText(of: node)
            if let first = stack[top].keyIndex[key] { return first }
            stack[top].keyIndex[key] = node
            return nil
        }
        var member = stack[top].node + 1
        while member < node {
            if sameKey(member, node) { return member }
            member = nodes[member].end
        }
        if nodes[stack[top].node].count == 15 {
            member = stack[top].node + 1
            while member <= node {  // a value being read ends at node + 1 for now
                stack[top].keyIndex[keyText(of: member)] = member
                member = nodes[member].end
            }
        }
        return nil
    }

    private func sameKey(_ a: Int, _ b: Int) -> Bool {
        let (first, second) = (nodes[a].key, nodes[b].key)
        if nodes[a].keyNeedsDecoding || nodes[b].keyNeedsDecoding { return keyText(of: a) == keyText(of: b) }
        guard first.count == second.count else { return false }
        guard !first.isEmpty else { return true }
        // The first byte tells most keys apart (a binding's four all differ there) without calling memcmp.
        return unsafe bytes[first.lowerBound] == bytes[second.lowerBound]
            && memcmp(bytes.baseAddress! + first.lowerBound, bytes.baseAddress! + second.lowerBound, first.count) == 0
    }

    private func keyText(of node: Int) -> String { unsafe JSONLayout.key(nodes[node], in: bytes) }

    /// The innermost container's pointer; each open container's is made once and shared by every repeat beneath it.
    private mutating func containerPath() -> PointerPath? {
        var path: PointerPath?
        for index in stack.indices.dropFirst() {
            if stack[index].path == nil {
                let (owner, node) = (stack[index - 1].node, stack[index].node)
                let segment = nodes[owner].kind == .object ? keyText(of: node) : String(nodes[owner].count - 1)
                stack[index].path = PointerPath(parent: path, key: segment)
            }
            path = stack[index].path
        }
        return path
    }

    private mutating func key(expected: String, afterComma: Bool = false) throws(Stop) -> State {
        guard isAt("\"") else { throw failure(expected: expected, at: offset, hint: afterComma ? trailingCommaHint() : nil) }
        let position = position(at: offset)
        let (content, needsDecoding) = try string(openedAt: position)
        pendingKey = (content, needsDecoding, position)
        skipWhitespace()
        guard isAt(":") else { throw failure(expected: "':' after object key", at: offset) }
        offset += 1
        return .memberValue
    }

    private mutating func close() -> State {
        if stack.last?.isBindings == true, runCount > 0 { handOverRun() }  // the last run, however short
        offset += 1
        finish(stack.removeLast())
        return .afterValue
    }

    /// Notes where an element of the `bindings` array starts, when it is a run's first.
    private mutating func noteElementStart() {
        guard stack.count == 2, stack[1].isBindings else { return }
        if runStart < 0 { runStart = offset }
        elementNode = nodes.count  // the node its value is recorded as
    }

    /// Counts an element of the `bindings` array that just ended, and hands over a full run.
    private mutating func noteElementEnd() {
        // Its node's end, not `offset`, which the loop has moved past the whitespace after it.
        (runCount, runEnd) = (runCount + 1, nodes[elementNode].bytes.upperBound)
        if runCount == BindingRunQueue.bindingsPerRun { handOverRun() }
    }

    /// Hands the run gathered to the queue, for another thread to decode while the scan goes on.
    private mutating func handOverRun() {
        runs?.add(runStart..<runEnd, count: runCount)
        (runStart, runCount) = (-1, 0)
    }

    /// Records where a container ends; drops a repeat's outermost container, with all within it.
    private mutating func finish(_ frame: Frame) {
        if frame.isRepeat, stack.last?.isRepeat != true {
            nodes.removeSubrange(frame.node...)
            return
        }
        nodes[frame.node].end = nodes.count
        nodes[frame.node].bytes = nodes[frame.node].bytes.lowerBound..<offset
    }

    /// Scans a number: `-`? then `0` or 1-9 digits, then an optional fraction and exponent.
    private mutating func number() throws(Stop) {
        let start = offset
        if isAt("-") { offset += 1 }
        let firstDigit = offset
        try digits(expected: "a digit after '-'")  // a number starts with '-' or a digit
        if byte(at: firstDigit) == UInt8(ascii: "0"), offset - firstDigit > 1 {
            throw failure(expected: "'.', 'e' or the end of the number after '0'", at: firstDigit + 1,
                hint: "leading zeros are not allowed", wholeWord: false)
        }
        if isAt(".") {
            offset += 1
            try digits(expected: "a digit after '.' in a number")
        }
        let hasExponent = isAt("e") || isAt("E")
        if hasExponent {
            offset += isAt("+", after: 1) || isAt("-", after: 1) ? 2 : 1
            try digits(expected: "a digit in the number's exponent")
        }
        // JSON allows 1e999, which JSONDecoder rejects; only an exponent or many digits can get there.
        guard hasExponent || offset - start > 15, unrepresentable == nil else { return }
        let text = text(start..<offset)
        guard let value = Double(text), !value.isFinite else { return }
        unrepresentable = JSONSyntaxError(position: position(at: start), message: "number \(text.count > 24 ? text.prefix(24) + "..." : text) "
            + "is out of range: numbers must fit a 64-bit floating-point value (up to about 1.8e308)")
    }

    private mutating func digits(expected: String) throws(Stop) {
        guard isAtDigit() else { throw failure(expected: expected, at: offset) }
        while isAtDigit() { offset += 1 }
    }

    /// Reads a string from its opening quote: the bytes between the quotes, and whether it is escaped or not ASCII.
    mutating func string(openedAt opening: SourcePosition) throws(Stop) -> (Range<Int>, Bool) {
        offset += 1
        let start = offset
        var needsDecoding = false
        while offset < byteCount {
            // Most bytes: plain ASCII, skipped in a loop over locals, which the compiler keeps in registers
            // (stepping `self.offset` stored it at each byte).
            var next = offset
            let count = byteCount
            while next < count, case let byte = unsafe bytes[next], byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""),
                byte != UInt8(ascii: "\\") {
                next += 1
            }
            offset = next
            guard offset < byteCount else { break }
            let byte = unsafe bytes[offset]
            switch byte {
            case UInt8(ascii: "\""):
                offset += 1
                return (start..<offset - 1, needsDecoding)
            case UInt8(ascii: "\\"):
                needsDecoding = true
                try escape()
            case 0..<0x20:
                throw failure(controlCharacterMessage(byte), at: offset)
            default:
                guard let scalar = scalar(at: offset) else { throw invalidUTF8(at: offset) }
                let width = UTF8.width(scalar)
                (offset, continuationBytes, needsDecoding) = (offset + width, continuationBytes + width - 1, true)
            }
        }
        throw .syntax(JSONSyntaxError(position: opening, message: "unterminated string"))
    }

    private mutating func escape() throws(Stop) {
        let backslash = offset
        offset += 1
        guard offset < byteCount else { return }  // the string's loop reports it unterminated
        switch byte(at: offset) {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            offset += 1
        case UInt8(ascii: "u"):
            offset += 1
            if let bad = (offset..<min(offset + 4, byteCount)).first(where: { !Character(Unicode.Scalar(byte(at: $0))).isHexDigit }) {
                throw failure(expected: "4 hex digits after '\\u'", at: bad, wholeWord: false)
            }
            guard let unit = utf16Unit(at: offset - 2) else {
                offset = byteCount  // the string's loop reports it unterminated
                return
            }
            offset += 4
            guard (0xD800..<0xE000).contains(unit) else { return }
            // A high surrogate must be followed at once by a low one; the pair is one character.
            if unit < 0xDC00, let low = utf16Unit(at: offset), (0xDC00..<0xE000).contains(low) {
                offset += 6
                return
            }
            guard unrepresentable == nil else { return }
            unrepresentable = JSONSyntaxError(position: position(at: backslash), message: "unpaired surrogate "
                + "'\\u\(String(unit, radix: 16, uppercase: true))' in string: it is not a character; escape a "
                + "character above U+FFFF as a pair (\\uD83D\\uDE00), or write it as UTF-8")
        case 0..<0x20:
            throw failure(controlCharacterMessage(byte(at: offset)), at: offset)
        default:
            guard let scalar = scalar(at: offset) else { throw invalidUTF8(at: offset) }
            throw failure("invalid escape '\\\(scalar)' in string", at: backslash)
        }
    }

    /// The code unit of a `\uXXXX` at `offset`, if one is there.
    private func utf16Unit(at offset: Int) -> UInt32? {
        guard byteCount - offset >= 6, byte(at: offset) == UInt8(ascii: "\\"), byte(at: offset + 1) == UInt8(ascii: "u") else { return nil }
        return UInt32(text(offset + 2..<offset + 6), radix: 16)
    }

    /// Skips spaces, tabs and line breaks, counting lines: `\n`, `\r\n` and a lone `\r` each end one.
    private mutating func skipWhitespace() {
        while offset < byteCount {
            switch unsafe bytes[offset] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                // An indentation's run, over locals (see `string(openedAt:)`).
                var next = offset + 1
                let count = byteCount
                while next < count, case let byte = unsafe bytes[next], byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                    next += 1
                }
                offset = next
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                offset += isAt("\r") && isAt("\n", after: 1) ? 2 : 1
                (line, lineStart, continuationBytes) = (line + 1, offset, 0)
            default:
                return
            }
        }
    }

    func position(at offset: Int) -> SourcePosition {
        SourcePosition(line: line, column: offset - lineStart - continuationBytes + 1)
    }

    func isAt(_ ascii: Unicode.Scalar, after distance: Int = 0) -> Bool {
        unsafe offset + distance < byteCount && bytes[offset + distance] == UInt8(ascii: ascii)
    }

    private func isAtDigit() -> Bool { unsafe offset < byteCount && (0x30...0x39).contains(bytes[offset]) }
}

extension String {
    /// Whether the UTF-8 form holds `byte`: a loop over the string's own
    /// buffer when it has one (a native string), where `utf8.contains` steps
    /// through the view's indices at several times the cost; activation asks
    /// this of every type name it meets.
    @safe func containsByte(_ byte: UInt8) -> Bool {
        unsafe utf8.withContiguousStorageIfAvailable { unsafe $0.contains(byte) } ?? utf8.contains(byte)
    }

    /// Whether every byte of the UTF-8 form is printable ASCII (space to `~`), so that no scalar of it
    /// is one a message escapes: a diagnostic asks this of its message, and checking 440,000 bad bindings
    /// made 880,000 of them, where a walk of the scalars cost several times this loop.
    @safe var isPrintableASCII: Bool {
        unsafe utf8.withContiguousStorageIfAvailable { unsafe $0.allSatisfy { (0x20..<0x7F).contains($0) } }
            ?? utf8.allSatisfy { (0x20..<0x7F).contains($0) }
    }
}

extension JSONLayout {
    // A node's bytes read in place: through a `Data` slice (its iterator is a call per byte, and slicing
    // to compare makes a `Data`) activating a manifest with parameters cost 5% more.

    /// Whether the bytes in `range`, a node's or a key's, hold `first` or `second`.
    func bytes(in range: Range<Int>, contain first: UInt8, or second: UInt8) -> Bool {
        unsafe bytes.withUnsafeBytes { raw in
            precondition(range.lowerBound >= 0 && range.upperBound <= raw.count)
            return unsafe raw[range].contains { $0 == first || $0 == second }
        }
    }

    /// Whether the bytes in `range`, a node's or a key's, are `other`.
    func bytes(in range: Range<Int>, equal other: [UInt8]) -> Bool {
        unsafe bytes.withUnsafeBytes { raw in
            precondition(range.lowerBound >= 0 && range.upperBound <= raw.count)
            return unsafe raw[range].elementsEqual(other)
        }
    }

    /// Each member of object `node` with its key as one of `table`'s (else
    /// nil), matched as written: no strings made, and the file's bytes and
    /// the spellings borrowed once per object, where a `Data` slice compared
    /// through its iterator, or a borrow per key, made matching keys about a
    /// sixth of a manifest's activation. Every key range is the scanner's
    /// own, within the bytes; each is checked before it is compared.
    func forEachMember<K>(of node: Int, in table: KeyTable<K>, _ body: (K?, Int) -> Void) {
        unsafe bytes.withUnsafeBytes { raw in
            unsafe table.bytes.withUnsafeBytes { spellings in
                var child = node + 1
                while child < nodes[node].end {
                    let entry = nodes[child]
                    if entry.keyNeedsDecoding {
                        body(K(rawValue: key(of: child)), child)
                    } else {
                        let start = entry.key.lowerBound - bytes.startIndex, count = entry.key.count
                        precondition(start >= 0 && start + count <= raw.count)
                        var found: K?
                        for (key, span) in table.entries where span.count == count {
                            if unsafe count == 0 || memcmp(raw.baseAddress! + start, spellings.baseAddress! + span.lowerBound, count) == 0 {
                                found = key
                                break
                            }
                        }
                        body(found, child)
                    }
                    child = entry.end
                }
            }
        }
    }
}
