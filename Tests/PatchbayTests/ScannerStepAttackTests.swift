import Foundation
@testable import Patchbay
import Testing

/// Probes of the scanner's runs over locals (`string(openedAt:)`, `skipWhitespace`) and of `sameKey`'s
/// first-byte test (0121748): faults at the end of a run keep their place, and repeats are found
/// whatever their first byte.
struct ScannerStepAttackTests {
    private func scan(_ bytes: [UInt8]) -> JSONDocument { JSONScanner.scan(Data(bytes), maxDepth: 64) }

    @Test func faultsAtTheEndOfARunKeepTheirPlace() {
        let cases: [(bytes: [UInt8], line: Int, column: Int, message: String)] = [
            (Array("\"abc".utf8), 1, 1, "unterminated string"),
            (Array("[\"abc\"".utf8), 1, 7, "expected ',' or ']' after array element, found end of file"),
            (Array("[\"abcdef".utf8) + [0xFF, 0x22, 0x5D], 1, 9, "invalid UTF-8 byte 0xFF"),
            (Array("[\"ab".utf8) + [0xC3, 0x41, 0x22, 0x5D], 1, 5, "invalid UTF-8 byte 0xC3"),
            (Array(("[\"" + String(repeating: "A", count: 100) + "\u{1}\"]").utf8), 1, 103,
                "unescaped control character U+0001 in string"),
            (Array("{\r\n\t\"a\": 1,\r\n  \t\"b\": tru}".utf8), 3, 9, "expected a JSON value, found 'tru'"),
            (Array("[1, \t \t ".utf8), 1, 9, "expected a JSON value after ',', found end of file"),
            (Array("\t\t \r\r\n x".utf8), 3, 2, "expected a JSON value, found 'x'"),
            (Array("[\"é\t".utf8), 1, 4, #"unescaped control character U+0009 in string (write it as \t)"#),
        ]
        for example in cases {
            let document = scan(example.bytes)
            #expect(document.syntaxError == JSONSyntaxError(
                position: SourcePosition(line: example.line, column: example.column), message: example.message),
                "\(example.bytes)")
        }
    }

    @Test func repeatsAreFoundWhateverTheirFirstByte() {
        let cases: [(text: String, repeats: Int)] = [
            (#"{"ab": 1, "ac": 2, "ab": 3}"#, 1),
            (#"{"ab": 1, "ba": 2}"#, 0),
            (#"{"": 1, "": 2}"#, 1),
            (#"{"a\u0062": 1, "ab": 2}"#, 1),
            (#"{"ab": 1, "\u0061b": 2}"#, 1),
            (#"{"xa": 1, "ya": 2, "xb": 3, "yb": 4}"#, 0),
            ("{" + (0..<20).map { "\"k\($0 % 10)\($0 / 10)\": 1" }.joined(separator: ", ") + ", \"k50\": 2}", 1),
            ("{\"\t\": 1}", -1),  // a tab in a key is a fault, not a key
        ]
        for (text, repeats) in cases {
            let document = scan(Array(text.utf8))
            if repeats < 0 {
                #expect(document.syntaxError != nil, "\(text)")
            } else {
                #expect(document.duplicateKeys.count == repeats, "\(text)")
            }
        }
    }
}
