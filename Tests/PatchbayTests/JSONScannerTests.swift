import Foundation
import Testing
@testable import Patchbay

/// Scans `text` as UTF-8.
private func read(_ text: String, maxDepth: Int = 64) -> JSONDocument {
    JSONScanner.scan(Data(text.utf8), maxDepth: maxDepth)
}

/// Scans bytes.
private func scan(_ bytes: some Sequence<UInt8>, maxDepth: Int = 64) -> JSONDocument {
    JSONScanner.scan(Data(bytes), maxDepth: maxDepth)
}

/// Shorthand for a position.
private func at(_ line: Int, _ column: Int) -> SourcePosition {
    SourcePosition(line: line, column: column)
}

extension JSONDocument {
    /// The position of the value at `pointer`, if there is one.
    func valuePosition(_ pointer: String) -> SourcePosition? { root?.value(at: pointer)?.position }

    /// The position of the key of the member at `pointer`, if there is one.
    func keyPosition(_ pointer: String) -> SourcePosition? {
        root?.value(at: pointer).flatMap { $0.layout.nodes[$0.node].keyPosition }
    }

    /// The keys of the object at `pointer`, in document order.
    func memberKeys(_ pointer: String) -> [String]? {
        root?.value(at: pointer).flatMap { $0.kind == .object ? $0.members.map(\.key) : nil }
    }

    /// The position of the value at `pointer`, else of its nearest ancestor, else 1:1.
    func position(of pointer: String) -> SourcePosition { root?.position(at: pointer) ?? at(1, 1) }

    /// Every value's position and every member's key position, by pointer:
    /// what the reader kept, all of it.
    var allPositions: (values: [String: SourcePosition], keys: [String: SourcePosition]) {
        var values: [String: SourcePosition] = [:], keys: [String: SourcePosition] = [:]
        guard let root else { return (values, keys) }
        var pending = [("", root)]
        while let (pointer, value) = pending.popLast() {
            values[pointer] = value.position
            switch value.kind {
            case .array:
                for (index, element) in value.children.enumerated() { pending.append((pointer + "/\(index)", element)) }
            case .object:
                for member in value.members {
                    let memberPointer = pointer + "/" + JSONPointer.escape(member.key)
                    keys[memberPointer] = member.keyPosition
                    pending.append((memberPointer, member))
                }
            default:
                break
            }
        }
        return (values, keys)
    }
}

private let sampleManifest = """
    {
      "format": 1,
      "bindings": [
        { "protocol": "UserRepository", "factory": "sqlite",
          "parameters": { "path": "/var/db", "poolSize": 4 } },
        { "protocol": "Logger", "factory": "json-logger", "tags": [true, null, -1.5e3] }
      ]
    }
    """

@Suite struct JSONScannerPositionTests {
    @Test func nestedObjectsAndArrays() {
        let index = read(sampleManifest)
        #expect(index.syntaxError == nil)
        #expect(index.valuePosition("") == at(1, 1))
        #expect(index.valuePosition("/format") == at(2, 13))
        #expect(index.valuePosition("/bindings") == at(3, 15))
        #expect(index.valuePosition("/bindings/0") == at(4, 5))
        #expect(index.valuePosition("/bindings/0/protocol") == at(4, 19))
        #expect(index.valuePosition("/bindings/0/parameters/poolSize") == at(5, 54))
        #expect(index.valuePosition("/bindings/1/factory") == at(6, 40))
        #expect(index.valuePosition("/bindings/1/tags/2") == at(6, 76))
        #expect(index.valuePosition("/bindings/2") == nil)
        #expect(index.valuePosition("/bindings/0/missing") == nil)
        // The example in JSONScanner's documentation.
        #expect(scan(#"{"a": [{"b": 7}]}"#.utf8).root?.position(at: "/a/0/b") == at(1, 14))
    }

    @Test func keyPositions() {
        let index = read(sampleManifest)
        #expect(index.keyPosition("/format") == at(2, 3))
        #expect(index.keyPosition("/bindings/0/protocol") == at(4, 7))
        #expect(index.keyPosition("/bindings/0/parameters/path") == at(5, 23))
        #expect(index.keyPosition("") == nil)
        #expect(index.keyPosition("/bindings/0") == nil)  // array elements have no key
    }

    @Test func dictionariesListEveryValueAndKeyOnce() {
        let index = read(#"{"a": [1, {"b": null}], "c": "d"}"#)
        #expect(index.allPositions.values == [
            "": at(1, 1), "/a": at(1, 7), "/a/0": at(1, 8), "/a/1": at(1, 11), "/a/1/b": at(1, 17), "/c": at(1, 30),
        ])
        #expect(index.allPositions.keys == ["/a": at(1, 2), "/a/1/b": at(1, 12), "/c": at(1, 25)])
    }

    @Test func memberKeysInDocumentOrder() {
        let index = read(#"{"z": {}, "a": [{"k": 1}], "m": 1, "z": 2, "a/b": 3}"#)
        #expect(index.memberKeys("") == ["z", "a", "m", "a/b"])  // the repeated "z" once
        #expect(index.memberKeys("/z") == [])
        #expect(index.memberKeys("/a/0") == ["k"])
        #expect(index.memberKeys("/a") == nil)  // an array
        #expect(index.memberKeys("/m") == nil)
        #expect(index.memberKeys("/missing") == nil)
    }

    @Test func scalarRootAndEmptyKey() {
        #expect(read("  42 ").valuePosition("") == at(1, 3))
        let empty = read(#"{"": {"0": true}}"#)
        #expect(empty.valuePosition("/") == at(1, 6))
        #expect(empty.valuePosition("//0") == at(1, 12))
    }

    @Test func escapingTildeAndSlash() {
        #expect(JSONPointer.escape("a/b") == "a~1b")
        #expect(JSONPointer.escape("m~n") == "m~0n")
        #expect(JSONPointer.escape("~1") == "~01")
        #expect(JSONPointer.escape("plain") == "plain")
        let index = read(#"{"a/b": 1, "m~n": 2, "~1": 3, "x\/y": 4}"#)
        #expect(index.valuePosition("/a~1b") == at(1, 9))
        #expect(index.valuePosition("/m~0n") == at(1, 19))
        #expect(index.valuePosition("/~01") == at(1, 28))
        #expect(index.valuePosition("/x~1y") == at(1, 39))  // the key was written with an escaped '/'
        #expect(index.valuePosition("/a/b") == nil)
        #expect(index.valuePosition("/m~2n") == nil)  // '~' must be followed by 0 or 1
        #expect(index.valuePosition("/m~") == nil)
        #expect(index.valuePosition("/~~0") == nil)
        #expect(Set(index.allPositions.values.keys) == ["", "/a~1b", "/m~0n", "/~01", "/x~1y"])
    }

    @Test func escapedKeysAreDecoded() {
        let index = read(#"{"\u0061b": 1, "\ud83d\ude00": 2, "t\tab": 3, "\ud800": 4}"#)
        #expect(index.valuePosition("/ab") == at(1, 13))
        #expect(index.valuePosition("/😀") == at(1, 32))
        #expect(index.valuePosition("/t\tab") == at(1, 44))
        // JSONDecoder decodes no lone surrogate: such a key is kept as written.
        #expect(index.valuePosition(#"/\ud800"#) == at(1, 57))
    }

    @Test func columnsCountUnicodeScalars() {
        // é (2 bytes), 日本語 (3 bytes each), 😀 (4 bytes), e + combining acute (2 scalars).
        let index = read("{\"é\": \"日本語\", \"k\": [\"😀\", \"e\u{301}\", 1]}")
        #expect(index.valuePosition("/é") == at(1, 7))
        #expect(index.keyPosition("/k") == at(1, 14))
        #expect(index.valuePosition("/k/1") == at(1, 25))
        #expect(index.valuePosition("/k/2") == at(1, 31))
    }

    @Test func lineBreaksAndTabs() {
        let crlf = read("{\r\n  \"a\": 1,\r\n\r\n\t\"b\": 2\r\n}")
        #expect(crlf.valuePosition("/a") == at(2, 8))
        #expect(crlf.valuePosition("/b") == at(4, 7))  // the tab counts one
        let cr = read("[\r1,\n\r2]")
        #expect(cr.valuePosition("/0") == at(2, 1))
        #expect(cr.valuePosition("/1") == at(4, 1))  // "\n\r" is two breaks, not one
    }

    @Test func positionFallsBackToNearestAncestor() {
        let index = read(sampleManifest)
        #expect(index.position(of: "/bindings/0/protocol") == at(4, 19))
        #expect(index.position(of: "/bindings/0/lifetime") == at(4, 5))
        #expect(index.position(of: "/bindings/7/protocol") == at(3, 15))
        #expect(index.position(of: "/bindings/01") == at(3, 15))  // leading zero: not an index
        #expect(index.position(of: "/nope/deeper") == at(1, 1))
        #expect(index.position(of: "not a pointer") == at(1, 1))
        #expect(scan([UInt8]()).position(of: "/a") == at(1, 1))
        #expect(read("\n\n  []").position(of: "/0") == at(3, 3))
    }

    @Test func positionsBeforeASyntaxErrorStay() {
        let index = read("{\"a\": [1, 2],\n \"b\": {\"c\": tru}}")
        #expect(index.syntaxError?.position == at(2, 13))
        #expect(index.valuePosition("/a/1") == at(1, 11))
        #expect(index.valuePosition("/b") == at(2, 7))
        #expect(index.position(of: "/b/c") == at(2, 13))
    }

    @Test func everyInputFormGivesTheSameIndex() {
        let bytes = Array(sampleManifest.utf8)
        struct Summary: Equatable {
            var values, keys: [String: SourcePosition]
            var root: JSONValue?
            var syntaxError: JSONSyntaxError?
        }
        func summary(_ document: JSONDocument) -> Summary {
            let (values, keys) = document.allPositions
            return Summary(values: values, keys: keys, root: document.root?.decoded(as: JSONValue.self), syntaxError: document.syntaxError)
        }
        let expected = summary(scan(bytes))
        #expect(expected.root != nil)
        #expect(summary(scan(sampleManifest.utf8)) == expected)
        // A slice of a larger Data, whose indices do not start at 0.
        let slice = Data([UInt8(ascii: " ")] + bytes).dropFirst()
        #expect(slice.startIndex == 1)
        #expect(summary(JSONScanner.scan(slice)) == expected)
        #expect(summary(scan(bytes.dropLast())) != expected)
    }
}

@Suite struct JSONScannerValueTests {
    @Test func scalarsAsRead() throws {
        let root = try #require(read(#"{"s": "a\tb\u00e9\ud83d\ude00", "n": -1.50e+3, "t": true, "f": false, "z": null}"#).root)
        #expect(root.value(at: "/s")?.stringValue == "a\tbé😀")
        #expect(root.value(at: "/n")?.kind == .number)
        #expect(root.value(at: "/n")?.text == "-1.50e+3")  // as written: JSONDecoder picks the type
        #expect(root.value(at: "/t")?.decoded(as: Bool.self) == true)
        #expect(root.value(at: "/f")?.decoded(as: Bool.self) == false)
        #expect(root.value(at: "/z")?.kind == .null)
    }

    @Test func containersKeepDocumentOrderAndCounts() throws {
        let root = try #require(read(#"{"z": [3, [], {}], "a": {"y": 1, "b": 2}}"#).root)
        #expect(root.members.map(\.key) == ["z", "a"])
        let elements = try #require(root.value(at: "/z")).children
        #expect(root.value(at: "/z")?.kind == .array)
        #expect(elements.count == 3 && elements.map(\.kindDescription) == ["a number", "an array", "an object"])
        #expect(root.value(at: "/a")?.members.map(\.key) == ["y", "b"])
        #expect(root.value(at: "/a")?.members.count == 2)
    }

    /// A repeated key's value is read (its faults and repeats count) and then
    /// dropped, containers and all, so nothing after it shifts.
    @Test func aRepeatedKeysValueIsDroppedWholly() throws {
        let large = "{" + (0..<20).map { #""k\#($0)": \#($0)"# }.joined(separator: ", ") + "}"
        let text = #"{"a": {"x": [1, {"y": 2}]}, "a": {"z": {"k": 1, "k": 2}, "big": "# + large + #"}, "c": "# + large
            + #", "b": 3}"#
        let document = read(text)
        let root = try #require(document.root)
        #expect(document.duplicateKeys.map(\.pointer) == ["/a", "/a/z/k"])
        #expect(root.members.map(\.key) == ["a", "c", "b"])
        #expect(root.value(at: "/a")?.decoded(as: JSONValue.self) == .object(["x": .array([.integer(1), .object(["y": .integer(2)])])]))
        #expect(root.value(at: "/c/k7")?.decoded(as: JSONValue.self) == .integer(7))
        #expect(root.value(at: "/c")?.members.count == 20)
        #expect(root.value(at: "/b")?.decoded(as: JSONValue.self) == .integer(3))
        #expect(document.allPositions.values.count == 1 + 5 + 21 + 1)
        // Even when reading the repeat fails.
        let broken = read(#"{"a": 1, "a": tru"#)
        #expect(broken.syntaxError?.position == at(1, 15))
        #expect(broken.root?.members.map(\.key) == ["a"])
        #expect(broken.allPositions.values.count == 2)
    }

    /// What interpolation and the parameter check make: the parameters' text
    /// with some scalars replaced, for JSONDecoder; positions stay the file's.
    @Test func parametersWithReplacedScalars() throws {
        let large = "{" + (0..<20).map { #""k\#($0)": \#($0)"# }.joined(separator: ", ") + "}"
        let text = #"{"before": "# + large + #", "p": {"s": "old", "n": "7", "big": "# + large + #"}, "after": 1}"#
        let document = read(text)
        let p = try #require(document.root?.value(at: "/p"))
        var parameters = BindingParameters(p)
        parameters.replace(try #require(p.value(at: "/s")), with: .string("new \"one\""))
        parameters.replace(try #require(p.value(at: "/n")), with: .literal("7"))
        #expect(parameters.string(at: try #require(p.value(at: "/s"))) == "new \"one\"")
        var expected = try #require(p.decoded(as: JSONValue.self)?.objectValue)
        expected["s"] = .string("new \"one\"")
        expected["n"] = .integer(7)
        #expect(parameters.value == .object(expected))
        let k19 = try #require(text.range(of: #"19}}, "after""#))
        #expect(parameters.place.value(at: "/big/k19")?.position == at(1, text.distance(from: text.startIndex, to: k19.lowerBound) + 1))
    }

    @Test func deepDocumentsAreReleasedWithoutRecursion() {
        let depth = 200_000
        let text = String(repeating: #"{"a":["#, count: depth) + String(repeating: "]}", count: depth)
        let document = read(text, maxDepth: 2 * depth)
        #expect(document.syntaxError == nil)
        #expect(document.root?.value(at: String(repeating: "/a/0", count: depth - 1) + "/a")?.position
            == at(1, 6 * depth))
    }
}

@Suite struct JSONScannerDuplicateKeyTests {
    /// A repeat of `key` in the object at `pointer`.
    func duplicate(_ pointer: String, _ key: String, first: SourcePosition, duplicate: SourcePosition) -> DuplicateKey {
        DuplicateKey(key: key, in: pointer, first: first, duplicate: duplicate)
    }

    @Test func topLevelRepeatKeepsTheFirst() {
        let index = read(#"{"a": 1, "b": 2, "a": 3}"#)
        #expect(index.duplicateKeys == [duplicate("", "a", first: at(1, 2), duplicate: at(1, 18))])
        #expect(index.valuePosition("/a") == at(1, 7))
        #expect(index.syntaxError == nil)
    }

    @Test func nestedAndThreeRepeats() {
        let index = read("""
            {"bindings": [{"protocol": "A"},
              {"factory": "x", "factory": "y",
               "factory": "z"}]}
            """)
        #expect(index.duplicateKeys == [
            duplicate("/bindings/1", "factory", first: at(2, 4), duplicate: at(2, 20)),
            duplicate("/bindings/1", "factory", first: at(2, 4), duplicate: at(3, 4)),
        ])
        #expect(index.valuePosition("/bindings/1/factory") == at(2, 15))
    }

    @Test func sameKeyInDifferentObjectsIsNoRepeat() {
        let index = read(#"{"a": {"x": 1}, "a": {"x": 2, "y": 3, "y": 4}, "k": {"x": 5}}"#)
        #expect(index.duplicateKeys == [
            duplicate("", "a", first: at(1, 2), duplicate: at(1, 17)),
            duplicate("/a", "y", first: at(1, 31), duplicate: at(1, 39)),
        ])
        #expect(index.valuePosition("/a/x") == at(1, 13))
        #expect(index.valuePosition("/a/y") == nil)  // only in the repeat, which the reader drops
    }

    @Test func manyRepeatsUnderALongKeyShareOnePath() {
        // Stored pointers would hold 100,000 copies of the 1 MB key: 100 GB.
        let key = String(repeating: "k", count: 1 << 20)
        let repeats = Array(repeating: #""a": 1"#, count: 100_000).joined(separator: ",")
        let index = read(#"{""# + key + #"": {"# + repeats + "}}")
        #expect(index.duplicateKeys.count == 99_999)
        #expect(index.duplicateKeys.last?.pointer == "/" + key + "/a")
        #expect(index.duplicateKeys.last?.duplicate == at(1, (1 << 20) + 6 + 7 * 99_999 + 1))
    }

    @Test func escapedSpellingIsTheSameKey() {
        let index = read(#"{"ab": 1, "\u0061b": 2}"#)
        #expect(index.duplicateKeys.map(\.pointer) == ["/ab"])
    }

    @Test func largeObjectsUseTheirKeyIndex() {
        let members = (0..<200).map { #""key\#($0)": \#($0)"# }.joined(separator: ",\n")
        let index = read("{\n" + members + ",\n\"key150\": 0, \"key5/x\": 1}")
        #expect(index.duplicateKeys == [duplicate("", "key150", first: at(152, 1), duplicate: at(202, 1))])
        #expect(index.valuePosition("/key150") == at(152, 11))
        #expect(index.valuePosition("/key5~1x") == at(202, 24))
        #expect(index.valuePosition("/key200") == nil)
    }
}

/// One malformed document and the error it must produce.
struct JSONSyntaxCase: Sendable, CustomTestStringConvertible {
    var bytes: [UInt8]
    var line: Int
    var column: Int
    var message: String
    var testDescription: String { String(decoding: bytes, as: UTF8.self).debugDescription }

    init(_ text: String, _ line: Int, _ column: Int, _ message: String) {
        self.init(bytes: Array(text.utf8), line, column, message)
    }

    init(bytes: [UInt8], _ line: Int, _ column: Int, _ message: String) {
        (self.bytes, self.line, self.column, self.message) = (bytes, line, column, message)
    }
}

@Suite struct JSONScannerSyntaxErrorTests {
    static let cases: [JSONSyntaxCase] = [
        .init("", 1, 1, "expected a JSON value, found end of file"),
        .init(" \n ", 2, 2, "expected a JSON value, found end of file"),
        .init("\u{FEFF}{}", 1, 1, "byte order mark (BOM) is not allowed; save the file as UTF-8 without a BOM"),
        .init(#"{"a": 1]"#, 1, 8, "expected ',' or '}' after object member, found ']'"),
        .init("[1}", 1, 3, "expected ',' or ']' after array element, found '}'"),
        .init("{]", 1, 2, "expected a string key or '}', found ']'"),
        .init("{a: 1}", 1, 2, "expected a string key or '}', found 'a'"),
        .init("{\u{201C}a\u{201D}: 1}", 1, 2,
              "expected a string key or '}', found '\u{201C}' (JSON strings need straight double quotes)"),
        .init("{'a': 1}", 1, 2, #"expected a string key or '}', found "'" (JSON strings need double quotes)"#),
        .init("{\"a\": 1,\n}", 2, 1, "expected a string key after ',', found '}' (trailing commas are not allowed)"),
        .init(#"{"a": 1, 2}"#, 1, 10, "expected a string key after ',', found '2'"),
        .init("[1,]", 1, 4, "expected a JSON value after ',', found ']' (trailing commas are not allowed)"),
        .init("[1,", 1, 4, "expected a JSON value after ',', found end of file"),
        .init("[}", 1, 2, "expected a JSON value or ']', found '}'"),
        .init(#"{"a" 1}"#, 1, 6, "expected ':' after object key, found '1'"),
        .init(#"{"a""#, 1, 5, "expected ':' after object key, found end of file"),
        .init(#"{"a": }"#, 1, 7, "expected a JSON value, found '}'"),
        .init(#"{"a": 1"#, 1, 8, "expected ',' or '}' after object member, found end of file"),
        .init("{\"a\": 1 // note\n}", 1, 9,
              "expected ',' or '}' after object member, found '/' (comments are not allowed in JSON)"),
        .init("/* note */ {}", 1, 1, "expected a JSON value, found '/' (comments are not allowed in JSON)"),
        .init("{} // note", 1, 4,
              "unexpected '/' after the end of the JSON document (comments are not allowed in JSON)"),
        .init("{}\n{}", 2, 1, "unexpected '{' after the end of the JSON document"),
        .init("[1] x", 1, 5, "unexpected 'x' after the end of the JSON document"),
        .init(#"["abc"#, 1, 2, "unterminated string"),
        .init(#"["é\"#, 1, 2, "unterminated string"),
        .init(#"["\u12"#, 1, 2, "unterminated string"),
        .init(#"{"a": "x\qy"}"#, 1, 9, #"invalid escape '\q' in string"#),
        .init(#"["\é"]"#, 1, 3, #"invalid escape '\é' in string"#),
        .init(#"["ab\u12G4"]"#, 1, 9, #"expected 4 hex digits after '\u', found 'G'"#),
        .init(#"["\u12"]"#, 1, 7, #"expected 4 hex digits after '\u', found '"'"#),
        .init("[\"a\tb\"]", 1, 4, #"unescaped control character U+0009 in string (write it as \t)"#),
        .init("[\"a\u{0}b\"]", 1, 4, "unescaped control character U+0000 in string"),
        .init("[\"日本\u{1F}\"]", 1, 5, "unescaped control character U+001F in string"),
        .init("[\"ab\ncd\"]", 1, 5, #"unescaped control character U+000A in string (is the closing '"' missing?)"#),
        .init("[tru]", 1, 2, "expected a JSON value or ']', found 'tru'"),
        .init("[nullx]", 1, 2, "expected a JSON value or ']', found 'nullx'"),
        .init("[True]", 1, 2, "expected a JSON value or ']', found 'True' (JSON has only true, false and null)"),
        .init("[NaN]", 1, 2, "expected a JSON value or ']', found 'NaN' (NaN and Infinity are not allowed in JSON)"),
        .init("[-Infinity]", 1, 3,
              "expected a digit after '-', found 'Infinity' (NaN and Infinity are not allowed in JSON)"),
        .init("[abcdefghijklmnopqrstuvwxyz]", 1, 2, "expected a JSON value or ']', found 'abcdefghijklmnopqrst...'"),
        .init("[01]", 1, 3, "expected '.', 'e' or the end of the number after '0', found '1' (leading zeros are not allowed)"),
        .init("[-012]", 1, 4, "expected '.', 'e' or the end of the number after '0', found '1' (leading zeros are not allowed)"),
        .init("[+1]", 1, 2, "expected a JSON value or ']', found '+'"),
        .init("[.5]", 1, 2, "expected a JSON value or ']', found '.'"),
        .init("[1.]", 1, 4, "expected a digit after '.' in a number, found ']'"),
        .init("[1.e5]", 1, 4, "expected a digit after '.' in a number, found 'e5'"),
        .init("[1e]", 1, 4, "expected a digit in the number's exponent, found ']'"),
        .init("[1E+]", 1, 5, "expected a digit in the number's exponent, found ']'"),
        .init("[- 1]", 1, 3, "expected a digit after '-', found ' '"),
        .init("[\u{1}]", 1, 2, "expected a JSON value or ']', found control character U+0001"),
        .init("[\u{A0}1]", 1, 2, "expected a JSON value or ']', found '\u{A0}' (U+00A0)"),
        .init("{\"é\": \"日本\",\n  \"b\": tru}", 2, 8, "expected a JSON value, found 'tru'"),
        .init(bytes: [0xEF, 0xBB], 1, 1, "invalid UTF-8 byte 0xEF"),
        .init(bytes: Array(#"["é"#.utf8) + [0xFF, 0x22, 0x5D], 1, 4, "invalid UTF-8 byte 0xFF"),
        .init(bytes: [0x5B, 0xC3, 0x5D], 1, 2, "invalid UTF-8 byte 0xC3"),
        .init(bytes: [0x5B, 0x22, 0xC0, 0x80, 0x22, 0x5D], 1, 3, "invalid UTF-8 byte 0xC0"),  // overlong
        .init(bytes: [0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D], 1, 3, "invalid UTF-8 byte 0xED"),  // surrogate
        .init(bytes: [0x5B, 0x22, 0xF4, 0x90, 0x80, 0x80, 0x22, 0x5D], 1, 3, "invalid UTF-8 byte 0xF4"),
        .init(bytes: [0x5B, 0x22, 0x5C, 0x80, 0x22, 0x5D], 1, 4, "invalid UTF-8 byte 0x80"),
        .init(bytes: [0x5B, 0x31, 0x5D, 0x20, 0xFE], 1, 5, "invalid UTF-8 byte 0xFE"),
    ]

    @Test(arguments: cases)
    func reportsTheFault(_ example: JSONSyntaxCase) {
        let index = scan(example.bytes)
        #expect(index.syntaxError == JSONSyntaxError(
            position: at(example.line, example.column), message: example.message))
        #expect(index.depthExceeded == nil)
    }

    /// What a user sees of the same fault: one diagnostic, where and as the reader put it.
    @Test(arguments: cases)
    func reachesTheUserAsOneDiagnostic(_ example: JSONSyntaxCase) {
        do {
            _ = try ManifestLoader(environment: [:]).load(data: Data(example.bytes), file: "m.json")
            Issue.record("a document with a syntax error loaded")
        } catch {
            #expect(error.diagnostics.map { [$0.code.rawValue, "\($0.line):\($0.column)", $0.message] }
                == [["syntax", "\(example.line):\(example.column)", example.message]])
        }
    }

    @Test func validDocumentsHaveNoError() {
        for text in [sampleManifest, "0", "-0.5e-3", "1E+2", #""\"\\\/\b\f\n\r\t\u00e9""#, "[]", "{}", " [ {} , [ ] ] \r\n"] {
            #expect(read(text).syntaxError == nil, "\(text)")
        }
    }

    @Test func everyTruncationIsAnErrorAndNoneTraps() {
        let bytes = Array(sampleManifest.utf8)
        for length in 0..<bytes.count {
            #expect(scan(bytes[..<length]).syntaxError != nil, "length \(length)")
        }
        // Flipping bytes exercises paths the cases above do not: it must never trap.
        var generator = SplitMix(seed: 2026)
        for _ in 0..<2_000 {
            var mutated = bytes
            for _ in 0..<3 { mutated[Int.random(in: 0..<mutated.count, using: &generator)] = .random(in: 0...255, using: &generator) }
            let index = scan(mutated)
            if let error = index.syntaxError {
                #expect(error.position.line >= 1 && error.position.column >= 1 && !error.message.isEmpty)
            }
        }
    }
}


@Suite struct JSONScannerDepthLimitTests {
    @Test func tenThousandDeepIsRejectedAtTheLimit() {
        let index = scan(Array(repeating: UInt8(ascii: "["), count: 10_000))
        #expect(index.depthExceeded == DepthExceeded(position: at(1, 65), limit: 64))
        #expect(index.syntaxError == nil)
        #expect(index.position(of: String(repeating: "/0", count: 63)) == at(1, 64))
    }

    @Test func exactlyTheLimitIsAccepted() {
        let deep = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(read(deep).depthExceeded == nil)
        #expect(read(deep).syntaxError == nil)
        #expect(read("[" + deep + "]").depthExceeded?.position == at(1, 65))
    }

    @Test func objectsCountAsLevels() {
        #expect(read(#"{"a": {}}"#, maxDepth: 2).depthExceeded == nil)
        let tooDeep = read("{\"a\":\n  {}}", maxDepth: 1)
        #expect(tooDeep.depthExceeded == DepthExceeded(position: at(2, 3), limit: 1))
        #expect(tooDeep.valuePosition("") == at(1, 1))
        #expect(read("7", maxDepth: 0).depthExceeded == nil)
        #expect(read("[]", maxDepth: -1).depthExceeded?.limit == -1)
    }

    @Test func deepNestingWithAHighLimitUsesNoRecursion() {
        let depth = 100_000
        let text = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
        let index = read(text, maxDepth: depth)
        #expect(index.syntaxError == nil && index.depthExceeded == nil)
        #expect(index.valuePosition(String(repeating: "/0", count: depth)) == at(1, depth + 1))
    }
}

@Suite struct JSONScannerLargeDocumentTests {
    @Test func hundredThousandElements() {
        let count = 100_000
        let text = "[\n" + (0..<count).map { #"  {"id": \#($0)}"# }.joined(separator: ",\n") + "\n]"
        let index = read(text)
        #expect(index.syntaxError == nil)
        #expect(index.valuePosition("/0/id") == at(2, 10))
        #expect(index.valuePosition("/99999") == at(count + 1, 3))
        #expect(index.keyPosition("/99999/id") == at(count + 1, 4))
        #expect(index.valuePosition("/100000") == nil)
        #expect(index.allPositions.values.count == 2 * count + 1)
    }

    /// Searching an object's earlier keys one by one would make this quadratic
    /// (minutes, not a second): it guards the per-object key index.
    @Test func hundredThousandMembersInOneObject() {
        let count = 100_000
        let members = (0..<count).map { "\"k\($0)\": \($0)" }.joined(separator: ",\n")
        let index = read("{" + members + ",\n\"k99998\": 0}")
        #expect(index.duplicateKeys == [
            DuplicateKey(key: "k99998", in: "", first: at(count - 1, 1), duplicate: at(count + 1, 1)),
        ])
        #expect(index.valuePosition("/k0") == at(1, 8))
        #expect(index.valuePosition("/k99999") == at(count, 11))
    }
}

@Suite struct SourcePositionTests {
    @Test func describesAndCodes() throws {
        #expect(at(3, 17).description == "3:17")
        let data = try JSONEncoder().encode(at(4, 9))
        #expect(try JSONDecoder().decode(SourcePosition.self, from: data) == at(4, 9))
    }
}

extension DuplicateKey {
    /// A repeat of `key` in the object at `pointer` (whose segments hold no `/` or `~`).
    init(key: String, in pointer: String, first: SourcePosition, duplicate: SourcePosition) {
        let parent = pointer.split(separator: "/").reduce(nil as PointerPath?) { PointerPath(parent: $0, key: String($1)) }
        self.init(path: PointerPath(parent: parent, key: key), first: first, duplicate: duplicate)
    }
}
