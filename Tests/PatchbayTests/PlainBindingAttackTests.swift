import Foundation
@testable import Patchbay
import Testing

/// Differential attack on the plain-binding reading (054f09e): each binding object is loaded as it
/// is and once more with a neutral `"decorators": []` appended, which forces the member-by-member
/// reading. Both must give the same binding and the same diagnostics; a hand-written oracle pins
/// what the nastiest ones must read as.
struct PlainBindingAttackTests {
    private struct Outcome: Equatable {
        var bindings: [String]
        var diagnostics: [String]
    }

    private func load(_ binding: String) -> Outcome {
        let json = "{\"format\": 1, \"bindings\": [\n" + binding + "\n]}"
        do {
            let manifest = try ManifestLoader(environment: [:]).load(data: Data(json.utf8), file: "attack.json")
            return Outcome(bindings: manifest.bindings.map(describe), diagnostics: [])
        } catch {
            return Outcome(bindings: [], diagnostics: error.diagnostics.map {
                "\($0.code) \($0.line):\($0.column) \($0.path) \($0.message) \($0.suggestion ?? "-")"
            })
        }
    }

    private func describe(_ binding: Binding) -> String {
        [binding.protocolName.debugDescription, binding.factory.debugDescription, "\(binding.lifetime.map(\.rawValue) ?? "nil")",
         binding.injector.rawValue.debugDescription, "\(binding.isCollectionElement)", "\(binding.parameters != nil)",
         "\(binding.decorators.count)", "\(binding.isBroken)", binding.origin?.pointer ?? "nil",
         "\(String(describing: binding.origin?.position(of: "protocol")))",
         "\(String(describing: binding.origin?.position(of: "factory")))",
         "\(String(describing: binding.origin?.position(of: "lifetime")))",
         "\(String(describing: binding.origin?.position(of: "injector")))"].joined(separator: "|")
    }

    /// `{...}` with `"decorators": []` added last, so every earlier place is unchanged.
    private func forcedMemberByMember(_ object: String) -> String {
        let body = object.dropLast()
        let isEmpty = body.trimmingCharacters(in: .whitespacesAndNewlines) == "{"
        return body + (isEmpty ? "" : ", ") + "\"decorators\": []}"
    }

    private func expectAgreement(_ object: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let plain = load(object), forced = load(forcedMemberByMember(object))
        #expect(plain == forced, "\(object)", sourceLocation: sourceLocation)
    }

    static let keys = [
        "\"protocol\"", "\"proto\\u0063ol\"", "\"\\u0070rotocol\"", "\"factory\"", "\"f\\u0061ctory\"", "\"lifetime\"",
        "\"injector\"", "\"inject\\u006Fr\"", "\"collection\"", "\"parameters\"", "\"protocol\u{301}\"", "\"Protocol\"",
        "\"protocol \"", "\"\"", "\"factor\"", "\"\\u0000\"", "\"p\"", "\"lifetim\u{e9}\"",
    ]
    static let values = [
        "\"A\"", "\"B\"", "\"\"", "null", "1", "true", "{}", "[]", "\"weak\"", "\"Weak\"", "\" weak\"", "\"singleton\"",
        "\"graph\"", "\"scoped\"", "\"transient\"", "\"x\\u0000y\"", "\"\\t\"", "\"${HOME}\"", "\"caf\u{e9}\"",
        "\"cafe\u{301}\"", "\"\\ud83d\\ude00\"", "\"\\\"\"", "\"w\\u0065ak\"", "{\"protocol\": \"A\"}",
        "\"" + String(repeating: "L", count: 5000) + "\"",
    ]

    @Test func handWrittenBindingsReadTheSameBothWays() {
        let cases = [
            #"{}"#, #"{"protocol": "A", "factory": "a"}"#, #"{"factory": "a", "protocol": "A"}"#,
            #"{"proto\u0063ol": "A", "f\u0061ctory": "a", "lif\u0065time": "w\u0065ak", "inj\u0065ctor": "\u0078"}"#,
            #"{"protocol": "A", "factory": "a", "protocol": "B"}"#,
            #"{"protocol": "A", "factory": "a", "proto\u0063ol": "A"}"#,
            #"{"protocol": "A", "factory": "a", "lifetime": null}"#,
            #"{"protocol": "A", "factory": "a", "injector": null}"#,
            #"{"protocol": "A", "factory": "a", "injector": 3}"#,
            #"{"protocol": "A", "factory": "a", "lifetime": "weak ", "injector": "x"}"#,
            #"{"protocol": "A", "factory": "a", "lifetime": "WEAK"}"#,
            #"{"protocol": "A", "factory": "a", "protocolé": "A"}"#,
            #"{"protocol": "A", "factory": "a", "protocol\u0301": "A"}"#,
            #"{"protocol": "${X}", "factory": "${Y}", "injector": "${Z}"}"#,
            #"{"protocol": "A", "factory": "a", "": ""}"#,
            #"{"protocol": "A", "factory": "a", "collection": "A"}"#,
            #"{"protocol": "A\u0000", "factory": "a\n\t"}"#,
            #"{"protocol": "A", "factory": "a", "lifetime": "graph", "injector": "i", "x": 1}"#,
            #"{"protocol": "A", "factory": "a", "lifetime": "graph", "injector": "i", "parameters": {}}"#,
            "{\"protocol\":\t\"A\",\r\n\"factory\":\"a\"}",
            #"{"protocol": "A\uD800", "factory": "a"}"#, #"{"protocol": "\uD83D\uDE00", "factory": "a"}"#,
            #"{"protocol": "A", "factory": "a", "lifetime": 1e999}"#,
        ]
        for object in cases { expectAgreement(object) }
    }

    /// Several bindings: the decoder's list must line up with the scanner's, a non-object between them too.
    @Test func decodedBindingsLineUpWithTheScannersElements() {
        let outcome = load(#"{"protocol": "A", "factory": "a"}, 3, {"protocol": "B", "factory": "b", "lifetime": "weak"}"#)
        #expect(outcome.bindings.isEmpty && outcome.diagnostics.count == 1, "\(outcome)")
        let repeated = load(#"{"protocol": "A", "factory": "a"}, {"protocol": "A", "factory": "b"}"#)
        #expect(repeated.bindings.count == 2, "\(repeated)")  // a type bound twice is the validator's to report
        let unrepresentable = load(#"{"protocol": "A", "factory": "a"}, {"protocol": "B", "factory": "b", "x": 1e999}"#)
        #expect(unrepresentable.diagnostics.contains { $0.contains("out of range") }, "\(unrepresentable)")
    }

    @Test func theNastiestReadAsTheOracleSays() throws {
        let escaped = load(#"{"proto\u0063ol": "A", "f\u0061ctory": "a", "lif\u0065time": "w\u0065ak", "inj\u0065ctor": "\u0078"}"#)
        #expect(escaped.diagnostics.isEmpty)
        #expect(escaped.bindings.first?.hasPrefix(#""A"|"a"|weak|"x"|false|false|0|false|/bindings/0"#) == true)
        // A key that differs only by a combining mark is another key, reported.
        let combining = load(#"{"protocol": "A", "factory": "a", "protocol\u0301": "A"}"#)
        #expect(combining.diagnostics.contains { $0.hasPrefix("unknownKey") || $0.contains("unknown") }, "\(combining)")
        // Interpolation is for parameters only: the text is kept as written.
        let interpolated = load(#"{"protocol": "${X}", "factory": "${Y}", "injector": "${Z}"}"#)
        #expect(interpolated.bindings.first?.hasPrefix(#""${X}"|"${Y}"|nil|"${Z}""#) == true, "\(interpolated)")
        // Repeats, even spelled differently, are reported.
        let repeated = load(#"{"protocol": "A", "factory": "a", "proto\u0063ol": "A"}"#)
        #expect(!repeated.diagnostics.isEmpty)
    }

    /// What a member's key and value decode to, read off the JSON with `JSONSerialization`: the
    /// binding must load cleanly as (protocol, factory, lifetime, injector) exactly when it is plain and
    /// good, and otherwise must not load as a clean plain binding.
    private func expectOracle(_ object: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let outcome = load(object)
        let duplicate = !outcome.diagnostics.isEmpty && outcome.diagnostics.contains { $0.hasPrefix("duplicate") }
        guard !duplicate, let parsed = try? JSONSerialization.jsonObject(with: Data(object.utf8)) as? [String: Any]
        else { return }
        let plainKeys: Set<String> = ["protocol", "factory", "lifetime", "injector"]
        let strings = parsed.compactMapValues { $0 as? String }
        let isPlain = Set(parsed.keys).isSubset(of: plainKeys) && strings.count == parsed.count
            && !(strings["protocol"] ?? "").isEmpty && !(strings["factory"] ?? "").isEmpty
            && strings["lifetime"].map { Lifetime(rawValue: $0) != nil } ?? true
            && strings["injector"].map { !$0.isEmpty } ?? true
        if isPlain {
            let expected = [strings["protocol"]!.debugDescription, strings["factory"]!.debugDescription,
                strings["lifetime"] ?? "nil", (strings["injector"] ?? "primary").debugDescription, "false", "false", "0",
                "false", "/bindings/0"].joined(separator: "|")
            #expect(outcome.diagnostics.isEmpty && outcome.bindings.first?.hasPrefix(expected + "|") == true,
                "\(object): \(outcome)", sourceLocation: sourceLocation)
        } else {
            let cleanPlain = outcome.diagnostics.isEmpty
                && outcome.bindings.first.map { $0.contains("|false|false|0|false|/bindings/0|") } ?? false
            #expect(!cleanPlain || parsed["collection"] != nil || parsed["parameters"] != nil,
                "\(object): \(outcome)", sourceLocation: sourceLocation)
        }
    }

    @Test func seededRandomBindingsReadTheSameBothWays() {
        var generator = SplitMix(seed: 57)
        let memberCounts = [0, 1, 2, 3, 4, 5, 8]
        for round in 0..<400 {
            let count = memberCounts[round % memberCounts.count]
            var members: [String] = []
            // Mostly a plain binding's keys, so the plain reading is tried and its edges hit.
            let plainKeys = ["\"protocol\"", "\"factory\"", "\"lifetime\"", "\"injector\""]
            let plainValues = ["\"A\"", "\"a\"", "\"weak\"", "\"i\""]
            for index in 0..<count {
                let useCommon = generator.next() % 3 != 0
                let key = useCommon && index < 4 ? plainKeys[index] : Self.keys[Int(generator.next() % UInt64(Self.keys.count))]
                let value = useCommon && index < 4 && generator.next() % 2 == 0
                    ? plainValues[index] : Self.values[Int(generator.next() % UInt64(Self.values.count))]
                members.append("\(key): \(value)")
            }
            // Any order.
            for index in members.indices.reversed() where index > 0 {
                members.swapAt(index, Int(generator.next() % UInt64(index + 1)))
            }
            let object = "{" + members.joined(separator: ", ") + "}"
            expectAgreement(object)
            expectOracle(object)
        }
    }
}
