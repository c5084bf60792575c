// libFuzzer entry over catalog-description reading: the JSON scanner, the
// one JSONDecoder pass with its listener for problems of shape, and the
// validator's rules (CatalogDescriptionValidator); then, for a description
// it accepts, everything that reads one: the catalog index and validation of
// the example's manifests, the schema, the dependency graph and `explain`.
// Built and run by `fuzz-catalog.sh`; not part of the package.
//
// The description comes from a pull request as often as from the app, so
// the process must never trap, whatever the bytes. Beyond that, each of
// these is a `precondition`, so that libFuzzer records the input that breaks it:
//   - a description is returned exactly when there is no diagnostic, and
//     `CatalogDescription(jsonData:)` throws exactly those;
//   - every diagnostic has a code, a message, the file, a 1-based line and
//     column inside the file, no raw control character, and no Swift or
//     Foundation wording;
//   - reading the same bytes twice gives the same diagnostics;
//   - what the validator accepts, a plain JSONDecoder decodes to the same value;
//   - an accepted description written again (`jsonData()`) reads back equal;
//   - what reads an accepted description never traps, and validation of a
//     manifest against it places every diagnostic.
import Foundation
@testable import Patchbay
import PatchbayTools

/// The example's manifests' bytes, read once from the current folder (the
/// script fills it with a copy of `Manifests/`), to validate against each
/// accepted description. Kept as plain arrays and parsed per input: a parsed
/// manifest held in a global packs pointers in enums' spare bits, where
/// LeakSanitizer cannot see them, and it would report them as leaks.
private let manifestFiles: [(name: String, bytes: [UInt8])] =
    ["development.json", "production.json", "staging.json", "test.json"].compactMap { name in
        FileManager.default.contents(atPath: name).map { (name, [UInt8]($0)) }
    }
private let loader = ManifestLoader(environment: ["NOTES_DIR": "/tmp/patchbay-fuzz-notes", "SMTP_HOST": "localhost"])

/// Words that would mean a decoder's message reached the user (unless the input itself holds them, quoted back).
private let foreignWords = ["Cannot initialize", "The given data", "DecodingError", "codingPath", "Is it stale"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCatalog(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    let lineBreaks = 1 + data.reduce(into: 0) { count, byte in
        if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { count += 1 }
    }

    let validator = CatalogDescriptionValidator(file: "fuzz.json")
    let (description, diagnostics) = validator.validate(data)
    precondition((description == nil) == !diagnostics.isEmpty, "a description with diagnostics, or none without")
    precondition(validator.validate(data).diagnostics == diagnostics, "reading the same bytes twice differs")
    let input = String(decoding: data, as: UTF8.self)
    check(diagnostics, lineBreaks: lineBreaks, foreign: foreignWords.filter { !input.contains($0) })

    // The public reader throws exactly those.
    do {
        let read = try CatalogDescription(jsonData: data, file: "fuzz.json")
        precondition(read == description, "the public reader read another description")
    } catch {
        precondition(Diagnostic.sortedForDisplay(error.diagnostics) == Diagnostic.sortedForDisplay(diagnostics),
            "the public reader threw other diagnostics")
    }

    guard let description else { return 0 }
    // A plain decoder, with no listener, agrees.
    precondition((try? JSONDecoder().decode(CatalogDescription.self, from: data)) == description,
        "JSONDecoder decodes an accepted description to another value")
    // Written again, it reads back.
    if let written = try? description.jsonData() {
        let again = CatalogDescriptionValidator(file: "again.json").validate(written)
        precondition(again.description == description, "a written description does not read back: \(again.diagnostics)")
    }
    exercise(description)
    return 0
}

/// Every reader of a description, over the example's manifests.
private func exercise(_ description: CatalogDescription) {
    _ = ManifestSchema.jsonData(catalog: description)
    let validator = ManifestValidator(description: description)
    precondition(manifestFiles.count == 4, "run from a folder holding the example's manifests")
    for file in manifestFiles {
        guard let manifest = try? loader.load(data: Data(file.bytes), file: file.name) else { continue }
        for diagnostic in validator.validate(manifest) {
            precondition(diagnostic.line >= 0 && diagnostic.column >= 0 && !diagnostic.message.isEmpty)
            _ = diagnostic.description
        }
        let graph = DependencyGraph(manifest: manifest, catalog: description)
        _ = graph.mermaid()
        _ = graph.dot()
        let explainer = ManifestExplainer(manifest: manifest, catalog: description)
        for type in ["NoteService", "NoteStore", "Clock", "[Logger]"] + description.types.prefix(8).map(\.name) {
            _ = explainer.explain(type).text()
            _ = explainer.explain(type, from: .secondary).text()
        }
    }
}

/// Every diagnostic is placed in the file, in Patchbay's words, on one line.
private func check(_ diagnostics: [Diagnostic], lineBreaks: Int, foreign: [String]) {
    for diagnostic in diagnostics {
        precondition(diagnostic.line >= 1 && diagnostic.column >= 1, "position below 1:1: \(diagnostic)")
        precondition(diagnostic.line <= lineBreaks, "line past the end of the file: \(diagnostic)")
        precondition(diagnostic.file == "fuzz.json" && !diagnostic.message.isEmpty && !diagnostic.code.rawValue.isEmpty)
        let text = diagnostic.description
        precondition(!text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
            "a raw control character in: \(text)")
        precondition(!foreign.contains { text.contains($0) }, "another's words in: \(text)")
    }
}
