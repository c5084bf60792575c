// libFuzzer entry over the whole manifest pipeline: the JSON scanner, the
// parser (JSONDecoder's values, the scanner's places), validation against the
// example catalog (JSONDecoder decodes parameters into their types), loading with
// `${...}` interpolation and `extends`, activation, and resolution of every
// type the example binds. Built and run by `fuzz-manifest.sh`; not part of
// the package (Package.swift stays dependency- and target-free of it).
//
// The process must never trap, whatever the bytes. Beyond that, a few
// invariants are checked here, each a `precondition` so that libFuzzer
// records the input that breaks it:
//   - every value the scanner maps is found again by its pointer, at a
//     position inside the file, and no object keeps a key twice;
//   - the scanner accepts what JSONDecoder accepts, except where the
//     manifest format's reference lists it as stricter (trailing commas,
//     repeated keys, a byte order mark, UTF-16/32 text, lone surrogates, numbers beyond
//     Double's range, nesting past the limit), and rejects nothing else
//     JSONDecoder reads but `0e9`, which JSONDecoder's floating-point path
//     refuses against RFC 8259;
//   - every diagnostic has a 1-based line and column, inside the file;
//   - loading and validating the same bytes twice gives the same diagnostics;
//   - `check` and activation agree: a manifest the validator passes activates,
//     and one it rejects does not.
import Foundation
import NotesKit
@testable import Patchbay

/// The catalog every input is checked against, made once.
private let catalog = FactoryCatalog.notes
/// A fixed environment, so `${...}` interpolation is deterministic.
private let environment = ["NOTES_DIR": "/tmp/patchbay-fuzz-notes", "SMTP_HOST": "localhost", "EMPTY": ""]
private let loader = ManifestLoader(environment: environment)
/// Small limits, so that the limit checks are reached by small inputs too.
private let tinyLimits = (maxBytes: 512, maxDepth: 4)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    let lines = data.reduce(into: 1) { lines, byte in if byte == UInt8(ascii: "\n") { lines += 1 } }
    let lineBreaks = lines + data.reduce(into: 0) { cr, byte in if byte == UInt8(ascii: "\r") { cr += 1 } }

    // The scanner on its own: every value it maps, found by its pointer; its verdict against JSONDecoder's.
    let document = JSONScanner.scan(data, maxDepth: 64)
    if let root = document.root { checkPlaces(of: root, lineBreaks: lineBreaks, complete: !document.isUnusable) }
    compareVerdicts(document, data)

    // The parser, with the default limits and with tiny ones.
    for limits in [(maxBytes: loader.maxBytes, maxDepth: loader.maxDepth), tinyLimits] {
        var parser = ManifestParser(file: "fuzz.json", maxBytes: limits.maxBytes, maxDepth: limits.maxDepth)
        let parsed = parser.parse(data)
        check(parser.diagnostics, lineBreaks: lineBreaks)
        if let parsed {
            // Validation of whatever could be read, even with shape errors.
            check(ManifestValidator(catalog: catalog).validate(parsed), lineBreaks: lineBreaks)
            check(ManifestValidator().validate(parsed), lineBreaks: lineBreaks)
            check(ManifestValidator(description: catalog.describe()).validate(parsed), lineBreaks: lineBreaks)
        }
    }

    // Loading as an app does (interpolation, `extends` relative to the
    // current folder, which the script fills with the example manifests),
    // then activation and resolution.
    let first = load(data)
    let second = load(data)
    if first.diagnostics != second.diagnostics {
        FileHandle.standardError.write(Data("loading the same bytes twice differs:\n\(first.diagnostics)\n\(second.diagnostics)\n".utf8))
        preconditionFailure("loading the same bytes twice differs")
    }
    check(first.diagnostics, lineBreaks: lineBreaks)
    guard let manifest = first.manifest else { return 0 }
    let validation = ManifestValidator(catalog: catalog).validate(manifest)
    do {
        let container = try Container(catalog: catalog, manifest: manifest)
        precondition(!validation.containsErrors, "activation accepted a manifest that validation rejects")
        exercise(container, manifest: manifest)
        // A second activation of the same manifest, in the running container.
        try container.activate(manifest)
        exercise(container, manifest: manifest)
    } catch {
        precondition(validation.containsErrors, "activation rejected a manifest that validation passes: \(error)")
        precondition(error.diagnostics.containsErrors)
    }
    return 0
}

/// Loads `data` and returns the manifest and every diagnostic, thrown or not.
private func load(_ data: Data) -> (manifest: Manifest?, diagnostics: [Diagnostic]) {
    do {
        return (try loader.load(data: data, file: "fuzz.json"), [])
    } catch {
        return (nil, error.diagnostics)
    }
}

/// Positions are 1-based and inside the file; every diagnostic names a code and a file.
private func check(_ diagnostics: [Diagnostic], lineBreaks: Int) {
    for diagnostic in diagnostics {
        precondition(diagnostic.line >= 1 && diagnostic.column >= 1, "position below 1:1: \(diagnostic)")
        precondition(!diagnostic.code.rawValue.isEmpty && !diagnostic.message.isEmpty && !diagnostic.file.isEmpty)
        if diagnostic.file == "fuzz.json" {
            precondition(diagnostic.line <= lineBreaks, "line past the end of the file: \(diagnostic)")
        }
        _ = diagnostic.description
    }
}

/// Resolves every type the example binds, from every injector, in a scope and
/// out of one. Factories may fail (a bad date for `fixed-clock`); resolution
/// must then throw, never trap.
private func exercise(_ container: Container, manifest: Manifest) {
    let injectors = [InjectorName.primary, .secondary] + (manifest.injectors ?? []) + manifest.bindings.map(\.injector)
    let scope = Scope()
    defer { scope.close() }
    for injector in Set(injectors).sorted() {
        _ = try? container.resolve(NoteService.self, from: injector)
        _ = try? scope.resolve(NoteService.self, from: container, injector: injector)
        _ = try? container.resolveIfBound((any NoteStore).self, from: injector)
        _ = try? scope.resolve((any NoteStore).self, from: container, injector: injector)
        _ = try? container.resolve((any Clock).self, from: injector)
        _ = try? container.resolve((any Logger).self, from: injector)
        _ = try? scope.resolve((any Mailer).self, from: container, injector: injector)
        _ = try? container.resolve((any IDGenerator).self, from: injector)
        _ = container.binding(for: (any Clock).self, from: injector)
    }
    _ = container.warnings
}

/// Walks every value under `root` (without recursion): each is found again
/// by its pointer, has a position inside the file, and no object holds a
/// key twice; and every node of the document is reached.
private func checkPlaces(of root: JSONPlace, lineBreaks: Int, complete: Bool) {
    var pending = [("", root)]
    var reached = 0
    while let (pointer, value) = pending.popLast() {
        reached += 1
        precondition(root.value(at: pointer)?.node == value.node, "pointer \(pointer) does not find its own value")
        if let position = value.position {
            precondition(position.line >= 1 && position.column >= 1 && position.line <= lineBreaks)
        }
        switch value.kind {
        case .array:
            for (index, element) in value.children.enumerated() { pending.append((pointer + "/\(index)", element)) }
        case .object:
            let keys = value.members.map(\.key)
            precondition(Set(keys).count == keys.count, "an object keeps a repeated key")
            for member in value.members {
                precondition(member.keyPosition != nil, "a member without its key's position")
                pending.append((pointer + "/" + JSONPointer.escape(member.key), member))
            }
        default:
            // A scalar's bytes are one JSON value JSONDecoder reads (the scanner never decodes it);
            // in a document the scanner stopped in, the value it stopped in has no end.
            if complete, value.kind == .string, value.stringValue == nil {
                precondition(value.text.contains("\\u"), "JSONDecoder cannot read a string the scanner kept")
            }
        }
    }
    precondition(reached == root.layout.nodes.count, "a value that no pointer reaches")
}

/// The scanner's verdict against JSONDecoder's, on every input. Where they
/// differ, the difference must be one that the manifest format's reference
/// lists ("Where Patchbay is stricter than JSONDecoder"), found here by what
/// the scanner reported.
private func compareVerdicts(_ document: JSONDocument, _ data: Data) {
    let foundationAccepts = (try? JSONDecoder().decode(JSONValue.self, from: data)) != nil
    let scannerAccepts = !document.isUnusable && document.duplicateKeys.isEmpty
    if scannerAccepts, !foundationAccepts {
        // RFC 8259 allows a zero right before an exponent (`0e9`); JSONDecoder's
        // floating-point path refuses it. Parameters give it to JSONDecoder as `0`.
        precondition(hasZeroWithExponent(data), "JSONDecoder rejects a document the scanner accepts")
    }
    if scannerAccepts, foundationAccepts {
        precondition(document.root?.decoded(as: JSONValue.self) != nil, "the root's bytes do not decode")
    }
    if !scannerAccepts, foundationAccepts {
        let message = document.syntaxError?.message ?? document.unrepresentable?.message ?? ""
        let listed = ["trailing commas", "byte order mark", "unpaired surrogate", "out of range", "not UTF-8"]
        precondition(
            document.depthExceeded != nil || !document.duplicateKeys.isEmpty || listed.contains(where: message.contains),
            "JSONDecoder accepts a document the scanner rejects, for a reason not listed: \(message)")
    }
}

private func hasZeroWithExponent(_ data: Data) -> Bool {
    let bytes = [UInt8](data)
    for index in bytes.indices.dropLast() where bytes[index] == UInt8(ascii: "0") {
        let next = bytes[index + 1]
        guard next == UInt8(ascii: "e") || next == UInt8(ascii: "E") else { continue }
        let before = index > 0 ? bytes[index - 1] : UInt8(ascii: " ")
        if !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(before), before != UInt8(ascii: ".") { return true }
    }
    return false
}
