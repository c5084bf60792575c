import Foundation
@testable import Patchbay
import Testing

/// The parser reads a plain binding (only `protocol`, `factory`, `lifetime`, `injector`, all good) from
/// the decoder's values alone, and any other member by member: both readings must agree, and nothing a
/// member-by-member reading reports may slip through the plain one.
struct PlainBindingTests {
    private func load(_ bindings: [String]) throws -> (manifest: Manifest?, diagnostics: [Diagnostic]) {
        let json = "{\"format\": 1, \"bindings\": [\n" + bindings.joined(separator: ",\n") + "\n]}"
        do {
            return (try ManifestLoader(environment: [:]).load(data: Data(json.utf8), file: "plain.json"), [])
        } catch {
            return (nil, error.diagnostics)
        }
    }

    @Test func lifetimeNamedFindsWhatInitRawValueFinds() {
        for name in Lifetime.allCases.map(\.rawValue) + ["", "Singleton", "singleton ", "weak\u{0}", "graphs", "scope", "é"] {
            #expect(Lifetime.named(name) == Lifetime(rawValue: name), "\(name)")
        }
    }

    @Test func plainAndMemberByMemberReadingsAgree() throws {
        let (manifest, diagnostics) = try load([
            #"{"protocol": "A", "factory": "a"}"#,
            #"{"protocol": "B", "factory": "b", "lifetime": "weak", "injector": "secondary"}"#,
            #"{"injector": "x", "factory": "c", "protocol": "C", "lifetime": "graph"}"#,
            #"{"proto\u0063ol": "D", "factory": "d"}"#,
            // Read member by member: a member the plain reading does not cover.
            #"{"protocol": "E", "factory": "e", "parameters": {"port": 1}}"#,
            #"{"collection": "F", "factory": "f"}"#,
            #"{"protocol": "G", "factory": "g", "decorators": ["timed"]}"#,
        ])
        #expect(diagnostics.isEmpty)
        let bindings = try #require(manifest?.bindings)
        #expect(bindings.map(\.protocolName) == ["A", "B", "C", "D", "E", "F", "G"])
        #expect(bindings.map(\.factory) == ["a", "b", "c", "d", "e", "f", "g"])
        #expect(bindings.map(\.lifetime) == [nil, .weak, .graph, nil, nil, nil, nil])
        #expect(bindings.map(\.injector.rawValue) == ["primary", "secondary", "x", "primary", "primary", "primary", "primary"])
        #expect(bindings.map(\.isCollectionElement) == [false, false, false, false, false, true, false])
        #expect(bindings.map { $0.parameters != nil } == [false, false, false, false, true, false, false])
        #expect(bindings.map(\.decorators.count) == [0, 0, 0, 0, 0, 0, 1])
        #expect(bindings.map { $0.origin?.pointer } == (0..<7).map { "/bindings/\($0)" })
        #expect(bindings.map(\.isBroken) == Array(repeating: false, count: 7))
        // The place of a plain binding's member, as a diagnostic would give it.
        #expect(bindings[1].origin?.position(of: "injector") == SourcePosition(line: 3, column: 67))
    }

    @Test func whatThePlainReadingCannotJudgeIsStillReported() throws {
        let cases: [(binding: String, code: DiagnosticCode)] = [
            (#"{"protocol": "A", "factory": "a", "lifetim": "weak"}"#, .unknownKey),
            (#"{"protocol": "A", "factory": "a", "lifetime": "Singleton"}"#, .unknownLifetime),
            (#"{"protocol": "A", "factory": "a", "lifetime": null}"#, .wrongType),
            (#"{"protocol": "A", "factory": "a", "injector": ""}"#, .wrongType),
            (#"{"protocol": "", "factory": "a"}"#, .wrongType),
            (#"{"protocol": "A", "factory": 3}"#, .wrongType),
            (#"{"protocol": "A"}"#, .missingKey),
            (#"{"protocol": "A", "factory": "a", "factory": "b"}"#, .duplicateKey),
            (#"{"protocol": "A", "collection": "A", "factory": "a"}"#, .collectionAndProtocol),
        ]
        for (binding, code) in cases {
            let (_, diagnostics) = try load([binding])
            #expect(diagnostics.map(\.code).contains(code), "\(binding): \(diagnostics.map(\.message))")
        }
    }
}
