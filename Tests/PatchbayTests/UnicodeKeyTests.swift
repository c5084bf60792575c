import Foundation
import Testing
@testable import Patchbay

/// One rule for Unicode in keys: two keys are one when Swift's `String`s are
/// equal (canonical equivalence), which is how `JSONDecoder` reads them, at
/// every member count, in the duplicate check, the parameter check and the app.
@Suite struct UnicodeKeyTests {
    /// `café` composed (NFC) and decomposed (NFD): different bytes, one key.
    static let composed = "caf\u{E9}", decomposed = "cafe\u{301}"

    struct CafeOptions: Decodable, Sendable {
        var name: String
        enum CodingKeys: String, CodingKey { case name = "caf\u{E9}" }
    }

    final class Cafe: Sendable { let name: String; init(_ name: String) { self.name = name } }

    static var catalog: FactoryCatalog {
        var catalog = FactoryCatalog()
        catalog.register("cafe", provides: Cafe.self, parameters: CafeOptions.self) { Cafe($0.name) }
        return catalog
    }

    /// A manifest binding `Cafe` whose parameters have `extra` filler members and then `keys`, each set to "x".
    static func manifest(keys: [String], extra: Int) -> String {
        let members = (0..<extra).map { #""k\#($0)": 1"# } + keys.map { #""\#($0)": "x""# }
        return """
            { "format": 1, "bindings": [
              { "protocol": "Cafe", "factory": "cafe", "parameters": { \(members.joined(separator: ", ")) } }
            ] }
            """
    }

    @Test(arguments: [0, 3, 14, 15, 16, 40])
    func aKeyWrittenInTwoNormalFormsIsADuplicateAtEveryMemberCount(extra: Int) throws {
        // Under 16 members keys were compared as bytes (no duplicate, and the app kept one value
        // silently); from 16 on by hash, as Strings: one verdict now, the decoder's.
        let text = Self.manifest(keys: [Self.composed, Self.decomposed], extra: extra)
        let (_, diagnostics) = Self.load(text)
        #expect(diagnostics.map(\.code) == [.duplicateKey], "\(diagnostics)")
        #expect(diagnostics.first?.line == 2)
        // Plain ASCII keys that differ are still two keys, and equal ones one.
        #expect(Self.load(Self.manifest(keys: ["cafe", "Cafe"], extra: extra)).1.isEmpty)
        #expect(Self.load(Self.manifest(keys: ["cafe", "cafe"], extra: extra)).1.map(\.code) == [.duplicateKey])
    }

    @Test func theKelvinSignIsTheLetterK() throws {
        // A singleton decomposition: one scalar, not ASCII, canonically equal to an ASCII one.
        let (_, diagnostics) = Self.load(Self.manifest(keys: ["K", "\u{212A}"], extra: 0))
        #expect(diagnostics.map(\.code) == [.duplicateKey], "\(diagnostics)")
    }

    @Test func aDecomposedKeyServesAComposedField() throws {
        // JSONDecoder reads `cafe\u{301}` as the field `caf\u{E9}`: the check and the app agree, where both
        // reported it missing (and an unknown key) and refused a manifest the decoder reads.
        for key in [Self.composed, Self.decomposed] {
            let text = Self.manifest(keys: [key], extra: 0)
            let verdicts = try UnknownParameterTests.verdicts(text, catalog: Self.catalog)
            // This small catalog declares no entry points: the check warns of it, and of nothing else.
            #expect(verdicts.live.filter { !$0.hasPrefix("unused") && !$0.hasPrefix("no-entry-points") }.isEmpty,
                "\(verdicts.live)")
            #expect(verdicts.offline == verdicts.live)
            #expect(verdicts.activation.isEmpty, "\(verdicts.activation)")
            let folder = try ManifestFolder(["app.json": text])
            let container = try Container(
                catalog: Self.catalog, manifestAt: folder.file("app.json"), loader: ManifestLoader(environment: [:]))
            #expect(try container.resolve(Cafe.self).name == "x")
        }
        // A key that is not the field's in any form is still unknown, and the field still missing.
        let verdicts = try UnknownParameterTests.verdicts(Self.manifest(keys: ["cafe"], extra: 0), catalog: Self.catalog)
        #expect(verdicts.activation.map { $0.split(separator: " ")[0] }.sorted() == ["invalid-parameters", "unknown-parameter"])
    }

    static func load(_ text: String) -> (Manifest?, [Diagnostic]) {
        do {
            return (try ManifestLoader(environment: [:]).load(data: Data(text.utf8), file: "app.json"), [])
        } catch {
            return (nil, error.diagnostics)
        }
    }
}
